/** `mhub skill install` copies a working skill into a project (or ~/.claude/skills) pointing at the store. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { skillStore, entryOf, runScript, REPO } from './helpers/skill-store.js';

const CLI = join(REPO, 'dist', 'cli', 'main.js');
const hasUseLite = existsSync(join(REPO, 'node_modules', '@energetic-ai', 'model-embeddings-en', 'package.json'));

function mhub(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd ?? tmpdir(), env: { ...process.env, MHUB_STORE: '', ...opts.env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

let root = '';
let scratch = '';
beforeAll(async () => {
  root = await skillStore('auto');
  scratch = mkdtempSync(join(tmpdir(), 'mhub-skill-install-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('mhub skill install', () => {
  it('installs into <project>/.claude/skills/metadatahub and works from there', () => {
    const project = join(scratch, 'project');
    mkdirSync(project, { recursive: true });
    const r = mhub(['--store', root, 'skill', 'install', '--target', project, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout);
    const dir = join(project, '.claude', 'skills', 'metadatahub');
    expect(report.skill_dir).toBe(dir);
    for (const f of ['SKILL.md', 'search.js', 'deep_retrieve.js', 'read_source.js', 'config.json']) expect(existsSync(join(dir, f)), f).toBe(true);
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(resolve(dir, cfg.store)).toBe(root);
    expect(cfg.store.startsWith('/')).toBe(false);
    expect(cfg.mhub_home).toBe(REPO);

    // From an unrelated folder, with no --store and no $MHUB_STORE: config.json finds the store.
    const elsewhere = join(scratch, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const s = runScript('search.js', ['Which port does the billing metrics exporter listen on?'], { dir, cwd: elsewhere });
    expect(s.code, s.stdout + s.stderr).toBe(0);
    const md = entryOf(root, 'release-runbook.md');
    expect(s.json.results[0].id).toBe(md.id);
    // The copied scripts load the embedding model from the installation (config.json mhub_home).
    if (hasUseLite) expect(s.json.mode).toBe('hybrid');

    const d = runScript('deep_retrieve.js', ['release-runbook.md', '--query', 'metrics exporter port'], { dir, cwd: elsewhere });
    expect(d.code, d.stdout).toBe(0);
    const node = d.json.suggestions[0];
    const t = runScript('read_source.js', [md.id, node.node_id], { dir, cwd: elsewhere });
    expect(t.json.text).toContain('port 9464');

    // Re-installing is idempotent.
    expect(mhub(['--store', root, 'skill', 'install', '--target', project]).code).toBe(0);
  });

  it('installs globally under ~/.claude/skills with an absolute store path', () => {
    const home = join(scratch, 'home');
    mkdirSync(home, { recursive: true });
    const r = mhub(['--store', root, 'skill', 'install', '--global', '--json'], { env: { HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const dir = join(home, '.claude', 'skills', 'metadatahub');
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(cfg.store).toBe(root);
    const s = runScript('read_source.js', ['release-runbook.md', '--lines', '18-19'], { dir, cwd: home });
    expect(s.code, s.stdout).toBe(0);
    expect(s.json.text).toBe('The metrics exporter of the billing service listens on port 9464 and is scraped every\n15 seconds. Watch the error-rate dashboard for ten minutes after the deploy.');
    expect(s.json.citation.lines).toEqual([18, 19]);
  });

  it('a bare copy without config.json falls back to keywords and says how to fix it', () => {
    const bare = mkdtempSync(join(scratch, 'bare-'));
    copyFileSync(join(REPO, 'skills', 'metadatahub', 'search.js'), join(bare, 'search.js'));
    const s = runScript('search.js', ['billing metrics exporter port', '--store', root], { dir: bare, cwd: bare, env: { MHUB_HOME: '' } });
    expect(s.code, s.stdout).toBe(0);
    expect(s.json.results[0].file).toBe('inbox/release-runbook.md');
    if (hasUseLite) {
      expect(s.json.mode).toBe('keyword');
      expect(s.json.warnings.join(' ')).toMatch(/mhub skill install/);
      const fixed = runScript('search.js', ['billing metrics exporter port', '--store', root], { dir: bare, cwd: bare, env: { MHUB_HOME: REPO } });
      expect(fixed.json.mode).toBe('hybrid');
    }
  });

  it('refuses to install without a store, saying how to get one', () => {
    const empty = mkdtempSync(join(scratch, 'nostore-'));
    const r = mhub(['skill', 'install', '--target', empty], { cwd: empty });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/mhub init/);
  });
});
