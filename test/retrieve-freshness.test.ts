/**
 * Every answer says when the index was built and warns when sources changed since (size + mtime;
 * an answer's own sources are read again only when their modification time moved and size did not).
 */
import { describe, it, expect } from 'vitest';
import { appendFileSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { skillStoreCopies, runScript } from './helpers/skill-store.js';
import { checkFreshness } from '../src/search/freshness.js';
import { loadCatalog } from '../src/retrieve/store-read.js';

const stores = skillStoreCopies('mhub-fresh-');
const copy = stores.copy;

const fresh = (root: string) => checkFreshness(root, loadCatalog(root));

describe('freshness', () => {
  it('is fresh right after ingest and carries the build time', () => {
    const root = copy();
    const f = fresh(root);
    expect(f).toEqual({ built_at: loadCatalog(root).last_updated, stale: false, changed: 0, missing: 0, new_files: 0 });
    expect(f.built_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('flags an edited source, a touched one, a deleted one and a new inbox file', () => {
    const root = copy();
    appendFileSync(join(root, 'inbox', 'release-runbook.md'), '\nOne more line.\n');
    let f = fresh(root);
    expect(f.stale).toBe(true);
    expect(f.changed).toBe(1);
    expect(f.examples).toEqual(['inbox/release-runbook.md']);
    expect(f.warning).toMatch(/1 changed.*run `mhub ingest`/);

    const pdf = join(root, 'inbox', 'harbor-report.pdf');
    const t = statSync(pdf).mtime;
    utimesSync(pdf, t, new Date(t.getTime() + 60_000));
    expect(fresh(root).changed).toBe(2);

    rmSync(join(root, 'inbox', 'spare-parts-inventory.xlsx'));
    writeFileSync(join(root, 'inbox', 'new-notes.txt'), 'fresh notes\n');
    f = fresh(root);
    expect(f).toMatchObject({ stale: true, changed: 2, missing: 1, new_files: 1 });
    expect(f.warning).toMatch(/2 changed, 1 deleted, 1 new in the inbox/);
  });

  it('falls back to the catalog size when the local stat cache is gone (fresh clone)', () => {
    const root = copy();
    rmSync(join(root, '.mhub'), { recursive: true, force: true });
    expect(fresh(root).stale).toBe(false);
    writeFileSync(join(root, 'inbox', 'release-runbook.md'), readFileSync(join(root, 'inbox', 'release-runbook.md'), 'utf8').repeat(3));
    expect(fresh(root)).toMatchObject({ stale: true, changed: 1 });
  });

  it('an answer does not call a source changed whose file was only touched (same bytes, new modification time)', () => {
    const root = copy();
    const pdf = join(root, 'inbox', 'harbor-report.pdf');
    const t = statSync(pdf).mtime;
    utimesSync(pdf, t, new Date(t.getTime() + 60_000));
    const touched = runScript('deep_retrieve.js', ['harbor-report.pdf', '--store', root]);
    expect(touched.code, touched.stdout).toBe(0);
    expect(touched.json.freshness.stale).toBe(false);
    // the same size, other bytes: changed
    const bytes = readFileSync(pdf);
    bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x20 ? 0x0a : 0x20;
    writeFileSync(pdf, bytes);
    const edited = runScript('deep_retrieve.js', ['harbor-report.pdf', '--store', root]);
    expect(edited.json.freshness).toMatchObject({ stale: true, changed: 1 });
  });

  it('reaches the agent in every script answer', () => {
    const root = copy();
    appendFileSync(join(root, 'inbox', 'release-runbook.md'), '\nedited\n');
    for (const [script, args] of [
      ['search.js', ['billing release']],
      ['deep_retrieve.js', ['release-runbook.md']],
      ['read_source.js', ['release-runbook.md', '--lines', '1-2']],
      ['search.js', ['--overview']],
    ] as const) {
      const r = runScript(script, [...args, '--store', root]);
      expect(r.code, r.stdout).toBe(0);
      expect(r.json.freshness.stale, script).toBe(true);
      expect(r.json.freshness.warning).toMatch(/mhub ingest/);
    }
    const t = runScript('read_source.js', ['release-runbook.md', '--lines', '1-2', '--text', '--store', root]);
    expect(t.stdout).toMatch(/warning: The index is stale/);
  });
});
