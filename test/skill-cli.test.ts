/** The scripts' contract with agents: help, JSON errors with exit codes, bounded output; and the `mhub tree` / `mhub read` commands. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { skillStore, entryOf, findNode, byTitle, runScript, SKILL_DIR, REPO } from './helpers/skill-store.js';

const CLI = join(REPO, 'dist', 'cli', 'main.js');
let root = '';
let bare = '';
beforeAll(async () => {
  root = await skillStore('none');
  bare = mkdtempSync(join(tmpdir(), 'mhub-bare-skill-'));
  for (const f of ['search.js', 'deep_retrieve.js', 'read_source.js']) copyFileSync(join(SKILL_DIR, f), join(bare, f));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(bare, { recursive: true, force: true });
});

function mhub(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, '--store', root, ...args], { encoding: 'utf8', env: { ...process.env, MHUB_STORE: '' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('skill scripts', () => {
  it('print help with exit codes and never wait for input', () => {
    for (const s of ['search.js', 'deep_retrieve.js', 'read_source.js']) {
      const r = runScript(s, ['--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: /);
      expect(r.stdout).toMatch(/Exit codes:/);
    }
  });

  it('answer errors as JSON with what was expected, and distinct exit codes', () => {
    const bad = runScript('read_source.js', ['x', '--bogus', '--store', root]);
    expect(bad.code).toBe(2);
    expect(bad.json.error.message).toMatch(/--bogus/);
    expect(bad.json.error.hint).toMatch(/read_source\.js <source>/);

    const missing = runScript('deep_retrieve.js', ['--store', root]);
    expect(missing.code).toBe(2);
    expect(missing.json.error.message).toBe('Missing <source>.');

    const unknown = runScript('read_source.js', ['no-such-file.pdf', '--store', root]);
    expect(unknown.code).toBe(4);
    expect(unknown.json.error.exit_code).toBe(4);

    const range = runScript('read_source.js', ['harbor-report.pdf', '--pages', '3-1', '--store', root]);
    expect(range.code).toBe(2);
    expect(range.json.error.hint).toMatch(/--pages 3-5/);

    const num = runScript('search.js', ['x', '--limit', 'many', '--store', root]);
    expect(num.code).toBe(2);
    expect(num.json.error.message).toMatch(/--limit must be a whole number/);

    const date = runScript('search.js', ['x', '--since', 'last year', '--store', root]);
    expect(date.code).toBe(2);
  });

  it('put errors on stderr in --text mode', () => {
    const r = runScript('read_source.js', ['no-such-file.pdf', '--text', '--store', root]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: No source "no-such-file.pdf"/);
  });

  it('say how to point them at a store when there is none', () => {
    const r = runScript('search.js', ['anything'], { dir: bare, cwd: bare });
    expect(r.code).toBe(4);
    expect(r.json.error.message).toBe('No MetadataHub store found.');
    expect(r.json.error.hint).toMatch(/--store DIR/);
    const env = runScript('search.js', ['billing'], { dir: bare, cwd: bare, env: { MHUB_STORE: root } });
    expect(env.code).toBe(0);
  });

  it('bound their output and give the way to the next page', () => {
    const s = runScript('search.js', ['billing service release harbor spare parts', '--limit', '1', '--store', root]);
    expect(s.code).toBe(0);
    expect(s.stdout.trim().split('\n')).toHaveLength(1);
    expect(s.json.results).toHaveLength(1);
    if (s.json.next_offset !== null) {
      const next = runScript('search.js', ['billing service release harbor spare parts', '--limit', '1', '--offset', String(s.json.next_offset), '--store', root]);
      expect(next.json.results[0].id).not.toBe(s.json.results[0].id);
      expect(next.json.results[0].rank).toBe(2);
    }
    const r = runScript('read_source.js', ['harbor-report.pdf', '--max-chars', '500', '--store', root]);
    expect(r.json.text.length).toBeLessThanOrEqual(500);
    expect(r.json.truncated).toBe(true);
    expect(r.json.next).toMatch(/^src_[0-9a-f]{8} 0000 --offset \d+$/);
  });

  it('shows the library overview', () => {
    const o = runScript('search.js', ['--overview', '--store', root]);
    expect(o.code).toBe(0);
    expect(o.json.indexed).toBe(3);
    expect(o.json.shelves.length).toBeGreaterThan(0);
  });
});

describe('value options given words that start with a dash', () => {
  it('take the next word as the value (--around "-X/--maxins"), unless it is one of the options or follows "--"', async () => {
    const { parse } = await import('../src/skill/runtime.js');
    const opts = { around: { type: 'string' }, lines: { type: 'string' } } as const;
    expect(parse(['src_1', '0052', '--around', '-X/--maxins'], opts, 'u').values.around).toBe('-X/--maxins');
    expect(parse(['src_1', '--around', '--no-color', '--json'], opts, 'u').values).toMatchObject({ around: '--no-color', json: true });
    // an option name as the value is a forgotten argument, still refused
    expect(() => parse(['src_1', '--around', '--json'], opts, 'u')).toThrow(/--around/);
    expect(parse(['--', '--around', '-x'], opts, 'u').positionals).toEqual(['--around', '-x']);
  });
});

describe('mhub tree and mhub read', () => {
  it('tree --json gives the contract fields, with suggestions for --query', () => {
    const r = mhub(['tree', 'harbor-report.pdf', '--query', 'dredging sediment channel depth', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    for (const k of ['id', 'title', 'toc_source', 'root', 'suggestions']) expect(j).toHaveProperty(k);
    expect(j.suggestions[0]).toMatchObject({ title: 'Dredging and Infrastructure', page_range: [3, 3] });
    expect(typeof j.suggestions[0].score).toBe('number');
    expect(j.truncated).toBe(false);
  });

  it('tree prints ids, titles, pages and summaries for people', () => {
    const r = mhub(['tree', 'harbor-report.pdf']);
    expect(r.code).toBe(0);
    const id = findNode(root, 'harbor-report.pdf', byTitle('Dredging and Infrastructure')).node_id;
    expect(r.stdout).toMatch(new RegExp(`^\\s*${id} {2}Dredging and Infrastructure {2}\\(p\\. 3\\)$`, 'm'));
    expect(r.stdout).toMatch(/index built \d{4}-/);
  });

  it('read prints the text and a citation; --json and ranges work', () => {
    const pdf = entryOf(root, 'harbor-report.pdf');
    const id = findNode(root, 'harbor-report.pdf', byTitle('Dredging and Infrastructure')).node_id;
    const r = mhub(['read', pdf.id, id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('412,000 cubic meters');
    expect(r.stdout).toContain(`cite: inbox/harbor-report.pdf, p. 3 (${pdf.id}, node ${id})`);
    const j = JSON.parse(mhub(['read', 'spare-parts-inventory.xlsx', '--rows', '1-2', '--json']).stdout);
    expect(j.rows).toHaveLength(2);
    const bad = mhub(['read', pdf.id, '0999']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/no node "0999"/);
  });
});
