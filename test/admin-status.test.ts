import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { storeStatus } from '../src/admin/status.js';
import { adminStore } from './helpers/admin-store.js';
import { cleanup, FIXTURES } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

describe('mhub status', () => {
  let root: string;
  beforeAll(async () => {
    root = await adminStore({
      'guide.md': join(FIXTURES, 'foundation', 'guide.md'),
      'notes.txt': join(FIXTURES, 'foundation', 'notes.txt'),
      'memo.pdf': join(FIXTURES, 'foundation', 'no-outline.pdf'),
    });
  });
  afterAll(() => cleanup(root));

  it('reports counts, last ingest and nothing pending right after an ingest', () => {
    const s = storeStatus(root);
    expect(s.sources.total).toBe(3);
    expect(s.sources.by_type).toEqual({ markdown: 1, pdf: 1, text: 1 });
    expect(s.sources.by_status).toEqual({ indexed: 3 });
    expect(s.pages).toBe(2);
    expect(s.last_ingest).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(s.up_to_date).toBe(true);
    expect(s.pending).toEqual({ new: [], changed: [], removed: [], outdated: [] });
  });

  it('sees new, changed and removed files; a touch without an edit is not a change', () => {
    const inbox = join(root, 'inbox');
    copyFileSync(join(FIXTURES, 'admin', 'harbor-2019.pdf'), join(inbox, 'harbor.pdf'));
    // same size, different bytes: only the hash can tell
    const notes = readFileSync(join(inbox, 'notes.txt'), 'utf8');
    writeFileSync(join(inbox, 'notes.txt'), notes.replace('Attendees', 'attendees'));
    // new mtime, same bytes: hashed on doubt, found unchanged
    const later = new Date(statSync(join(inbox, 'guide.md')).mtimeMs + 60_000);
    utimesSync(join(inbox, 'guide.md'), later, later);
    rmSync(join(inbox, 'memo.pdf'));

    const s = storeStatus(root);
    expect(s.pending.new).toEqual(['inbox/harbor.pdf']);
    expect(s.pending.changed).toEqual(['inbox/notes.txt']);
    expect(s.pending.removed).toEqual(['inbox/memo.pdf']);
    expect(s.up_to_date).toBe(false);

    const cli = mhub(['--store', root, 'status']);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('new (1):');
    expect(cli.stdout).toContain('inbox/notes.txt');
    const json = JSON.parse(mhub(['--store', root, 'status', '--json']).stdout);
    expect(json.pending.removed).toEqual(['inbox/memo.pdf']);
  });

  it('watches folders outside the inbox that hold catalogued sources', () => {
    mkdirSync(join(root, 'docs'), { recursive: true });
    copyFileSync(join(FIXTURES, 'foundation', 'guide.md'), join(root, 'docs', 'deploy.md'));
    const r = mhub(['--store', root, 'ingest', '--llm', 'none', '--quiet', join(root, 'docs')]);
    expect(r.code, r.stderr).toBe(0);
    expect(storeStatus(root).pending.new).not.toContain('docs/deploy.md');
    writeFileSync(join(root, 'docs', 'later.md'), '# Later\n\nWritten after the ingest.\n');
    expect(storeStatus(root).pending.new).toContain('docs/later.md');
  });

  it('flags a stale lock', () => {
    writeFileSync(join(root, '.mhub/ingest.lock'), JSON.stringify({ pid: 2 ** 22 + 4242, host: hostname(), started_at: '2026-01-01T00:00:00Z', command: 'ingest' }));
    try {
      const s = storeStatus(root);
      expect(s.lock).toMatchObject({ held: true, stale: true });
    } finally {
      rmSync(join(root, '.mhub/ingest.lock'), { force: true });
    }
  });
});
