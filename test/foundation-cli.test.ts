import { describe, it, expect, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

const F = (n: string) => join(FIXTURES, 'foundation', n);
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

describe('mhub init and store location', () => {
  it('creates folders, config with defaults and a .gitignore for local files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-cli-'));
    roots.push(dir);
    const r = mhub(['init', dir]);
    expect(r.code).toBe(0);
    for (const d of ['inbox', 'converted', 'tree_index', 'vector_store']) expect(existsSync(join(dir, d))).toBe(true);
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(cfg.schema_version).toBe(1);
    expect(JSON.stringify(cfg)).not.toMatch(/sk-ant|api_key/i);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toContain('.mhub/');
  });

  it('finds the store by walking up from a subfolder, or via --store / MHUB_STORE', () => {
    const root = tempStore({ 'guide.md': F('guide.md') });
    roots.push(root);
    const sub = join(root, 'inbox', 'deeper');
    mkdirSync(sub, { recursive: true });
    const r1 = mhub(['ingest', '--json', join(root, 'inbox')], { cwd: sub });
    expect(r1.code).toBe(0);
    expect(JSON.parse(r1.stdout).store).toBe(root);
    const elsewhere = mkdtempSync(join(tmpdir(), 'mhub-else-'));
    roots.push(elsewhere);
    const r2 = mhub(['--store', root, 'ingest', '--json', join(root, 'inbox')], { cwd: elsewhere });
    expect(JSON.parse(r2.stdout).counts.unchanged).toBe(1);
    const r3 = mhub(['ingest', '--json', join(root, 'inbox')], { cwd: elsewhere, env: { MHUB_STORE: root } });
    expect(JSON.parse(r3.stdout).store).toBe(root);
  });
});

describe('mhub ingest exit codes and output', () => {
  it('exits 1 when some sources failed, lists them, and keeps the good ones', () => {
    const root = tempStore({ 'guide.md': F('guide.md'), 'corrupt.pdf': F('corrupt.pdf') });
    roots.push(root);
    const r = mhub(['ingest'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/1 indexed, 0 skipped, 1 failed/);
    expect(r.stdout).toMatch(/FAILED inbox\/corrupt\.pdf/);
    const j = mhub(['ingest', '--json'], { cwd: root });
    const report = JSON.parse(j.stdout);
    expect(report.counts).toMatchObject({ unchanged: 2, failed: 1 });
    const q = mhub(['ingest', '--quiet'], { cwd: root });
    expect(q.stdout).toBe('');
  });

  it('refuses a path that does not exist, names it and creates no store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-nopath-'));
    roots.push(dir);
    const r = mhub(['ingest', './no-such-inbox'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no such file or folder: \.\/no-such-inbox/);
    expect(existsSync(join(dir, 'catalog.json'))).toBe(false);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('refuses a second ingest while the lock is held and names the holder', () => {
    const root = tempStore({ 'guide.md': F('guide.md') });
    roots.push(root);
    mkdirSync(join(root, '.mhub'), { recursive: true });
    const lock = { pid: process.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'ingest inbox' };
    writeFileSync(join(root, '.mhub', 'ingest.lock'), JSON.stringify(lock));
    const r = mhub(['ingest'], { cwd: root });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`pid ${process.pid}`);
    expect(existsSync(join(root, 'tree_index')) && readFileSync(join(root, 'catalog.json'), 'utf8')).toContain('"source_count": 0');
  });

  it('takes over a stale lock left by a dead process', () => {
    const root = tempStore({ 'guide.md': F('guide.md') });
    roots.push(root);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(join(root, '.mhub'), { recursive: true });
    writeFileSync(join(root, '.mhub', 'ingest.lock'), JSON.stringify({ pid: Number(dead.stdout), host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'ingest' }));
    const r = mhub(['ingest'], { cwd: root });
    expect(r.code).toBe(0);
    expect(existsSync(join(root, '.mhub', 'ingest.lock'))).toBe(false);
  });
});
