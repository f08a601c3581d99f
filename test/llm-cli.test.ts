/**
 * The claude-cli provider (a fake `claude` on PATH) and `mhub auth status`: which provider is used and
 * why, with secrets masked.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { defaultConfig } from '../src/store/config.js';
import { resolveProvider, maskSecret } from '../src/llm/resolve.js';
import { formatAuthStatus } from '../src/cli/commands/auth.js';
import { installFakeClaude } from './llm/fake-claude.js';
import { writeNotes } from './llm/docs.js';
import { entry, llmStore } from './llm/store.js';
import { mhub, CLI } from './helpers/cli.js';

const savedEnv = { ...process.env };
let binDir: string;
let callLog: string;
const roots: string[] = [];
// a fake key, assembled at run time so no credential-like literal sits in the repository
const SECRET = ['sk', 'ant', 'api03', 'THIS-IS-SECRET-abcdefghijklmnopqrstuvwxyz'].join('-');

beforeAll(() => {
  binDir = mkdtempSync(join(tmpdir(), 'mhub-fake-claude-'));
  callLog = installFakeClaude(binDir);
  process.env.PATH = `${binDir}:${process.env.PATH}`;
  process.env.FAKE_CLAUDE_LOG = callLog;
  process.env.ANTHROPIC_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mhub-anthropic-cfg-'));
  process.env.MHUB_LLM_RETRY_BASE_MS = '20';
  delete process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_AUTH_TOKEN;
  delete process.env.ANTHROPIC_BASE_URL;
  delete process.env.ANTHROPIC_PROFILE;
});
afterAll(() => {
  process.env = savedEnv;
  rmSync(binDir, { recursive: true, force: true });
});
afterEach(() => {
  rmSync(callLog, { force: true });
  delete process.env.FAKE_CLAUDE_MODE;
  while (roots.length) rmSync(roots.pop()!, { recursive: true, force: true });
});

const calls = () => (existsSync(callLog) ? readFileSync(callLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { args: string[] }) : []);

describe('claude-cli provider', () => {
  it('runs `claude -p --output-format json`, repairs a fenced reply, records usage and cost, and caches', async () => {
    const root = llmStore({ provider: 'claude-cli', model: 'claude-sonnet-5-5' });
    roots.push(root);
    writeNotes(join(root, 'inbox', 'a.md'), 'Alpha');
    writeNotes(join(root, 'inbox', 'b.md'), 'Beta');
    const report = await ingest(root, { paths: [join(root, 'inbox')], log: () => {} });
    expect(report.llm).toContain(`LLM: claude-cli (claude-sonnet-5-5); config.json llm.provider "claude-cli": ${join(binDir, 'claude')}`);
    const c = calls();
    expect(c.length).toBe(5); // sampling ×2, card ×2, curation ×1
    for (const x of c) expect(x.args).toEqual(['-p', '--output-format', 'json', '--model', 'claude-sonnet-5-5']);
    const a = entry(root, 'a.md');
    expect(a.title).toBe('CLI title for inbox/a.md');
    expect(a.date).toBe('2025-01');
    expect(a.tags).toEqual(['cli-tag']);
    expect(a.shelf).toBe('notes');
    expect(a.llm).toEqual({ provider: 'claude-cli', model: 'claude-sonnet-5-5', steps: ['sampling', 'card', 'curation'], fallbacks: [] });
    expect(report.llm_usage.join('\n')).toContain('5 calls');
    expect(report.llm_usage.join('\n')).toContain('estimated cost $0.0625'); // 5 × the CLI's own total_cost_usd

    rmSync(callLog, { force: true });
    await ingest(root, { paths: [join(root, 'inbox')], log: () => {}, force: true });
    expect(calls().length).toBe(0);
  });

  it('a failing CLI (logged out) falls back offline for every step and the batch still indexes', async () => {
    const root = llmStore({ provider: 'claude-cli', max_retries: 3 });
    roots.push(root);
    writeNotes(join(root, 'inbox', 'a.md'), 'Alpha');
    process.env.FAKE_CLAUDE_MODE = 'fail';
    const report = await ingest(root, { paths: [join(root, 'inbox')], log: () => {} });
    expect(report.counts.indexed).toBe(1);
    expect(calls().length).toBe(3); // not retried: a login problem is not transient
    const a = entry(root, 'a.md');
    expect(a.title).toBe('Alpha');
    expect(a.llm?.steps).toEqual([]);
    expect(a.llm?.fallbacks.map((f) => f.split(':')[0])).toEqual(['sampling', 'card', 'curation']);
    expect(a.llm?.fallbacks[0]).toContain('Please run /login');
  });
});

describe('provider resolution and `mhub auth status`', () => {
  it('auto prefers ANTHROPIC_API_KEY and never shows it', async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    try {
      const r = await resolveProvider(defaultConfig(), undefined);
      expect(r.provider).toBe('anthropic');
      expect(r.reason).toMatch(/^auto: ANTHROPIC_API_KEY is set/);
      const text = formatAuthStatus(r) + JSON.stringify(r);
      expect(text).not.toContain('THIS-IS-SECRET');
      expect(text).toContain(`sk-ant-api03-…[${SECRET.length} chars, hidden]`);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
      delete process.env.ANTHROPIC_BASE_URL;
    }
  });

  it('ANTHROPIC_AUTH_TOKEN is the second choice; an SDK profile the third', async () => {
    process.env.ANTHROPIC_AUTH_TOKEN = 'token-secret-value';
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    try {
      const r = await resolveProvider(defaultConfig(), 'anthropic');
      expect(r.anthropic.kind).toBe('auth_token');
      expect(JSON.stringify(r)).not.toContain('token-secret-value');
    } finally {
      delete process.env.ANTHROPIC_AUTH_TOKEN;
      delete process.env.ANTHROPIC_BASE_URL;
    }
  });

  it('under test, credentials without a loopback base URL are never used', async () => {
    process.env.ANTHROPIC_API_KEY = SECRET;
    try {
      const r = await resolveProvider(defaultConfig(), undefined);
      expect(r.provider).toBe('none');
      expect(r.reason).toContain('loopback');
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it('--llm claude-cli finds the executable; none is offline; a bad name is a usage error', async () => {
    expect((await resolveProvider(defaultConfig(), 'claude-cli')).claude_cli.path).toBe(join(binDir, 'claude'));
    expect((await resolveProvider(defaultConfig(), 'none')).provider).toBe('none');
    await expect(resolveProvider(defaultConfig(), 'gpt')).rejects.toThrow(/Unknown LLM provider "gpt"/);
    expect(maskSecret('abc')).toBe('…[3 chars, hidden]');
  });

  it.runIf(existsSync(CLI))('`mhub auth status --json` prints the resolution without the secret', () => {
    const r = mhub(['auth', 'status', '--json', '--llm', 'anthropic'], { env: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', VITEST: '' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('THIS-IS-SECRET');
    const j = JSON.parse(r.stdout) as { provider: string; anthropic: { kind: string } };
    expect(j.provider).toBe('anthropic');
    expect(j.anthropic.kind).toBe('api_key');
    const t = mhub(['auth', 'status'], { env: { ANTHROPIC_API_KEY: SECRET, VITEST: '' } });
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/^LLM provider: anthropic/);
    expect(t.stdout + t.stderr).not.toContain('THIS-IS-SECRET');
    const bad = mhub(['auth', 'status', '--llm', 'claude-cli'], { env: { PATH: '/nonexistent', VITEST: '' } });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('NOT USABLE');
  });
});
