/**
 * Claude at ingest, end to end against a fake Messages API on 127.0.0.1: sampling, cards, trees and
 * curation land in the store; retries, fallbacks, the result cache and the call budget behave.
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { TreeFile, type TreeNode } from '../src/store/schemas.js';
import { readCatalog } from '../src/store/catalog.js';
import { cardText } from '../src/indexing/source-text.js';
import { textSha } from '../src/indexing/vector-builder.js';
import { useFakeApiSuite } from './llm/fake-api.js';
import { writeNotes, writeReportPdf } from './llm/docs.js';
import { contents, entry, llmStore } from './llm/store.js';

const MODEL = 'claude-sonnet-5-5';
const NOW = () => new Date('2026-01-01T00:00:00Z');
const FAST = { provider: 'anthropic', model: MODEL, max_retries: 2, timeout_ms: 5000, max_concurrency: 2 };

const api = useFakeApiSuite();
const fetched: string[] = [];
const realFetch = globalThis.fetch;
const roots: string[] = [];

// every request any code makes during these tests is recorded: none may leave loopback
beforeAll(() => {
  globalThis.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    fetched.push(input instanceof Request ? input.url : String(input));
    return realFetch(input, init);
  }) as typeof fetch;
});

afterAll(() => {
  globalThis.fetch = realFetch;
});

afterEach(() => {
  for (const u of fetched) expect(new URL(u).hostname, `request to ${u} left loopback`).toBe('127.0.0.1');
  fetched.length = 0;
  while (roots.length) rmSync(roots.pop()!, { recursive: true, force: true });
});

function track(root: string): string {
  roots.push(root);
  return root;
}

async function reportStore(llm: Record<string, unknown> = FAST): Promise<string> {
  const root = track(llmStore(llm));
  await writeReportPdf(join(root, 'inbox', 'report.pdf'));
  writeNotes(join(root, 'inbox', 'notes.md'), 'Budget meeting');
  return root;
}

const run = (root: string, extra: { llm?: string; maxCalls?: number; force?: boolean } = {}) =>
  ingest(root, { paths: [join(root, 'inbox')], now: NOW, log: () => {}, ...extra });

function tree(root: string, id: string): TreeFile {
  return TreeFile.parse(JSON.parse(readFileSync(join(root, 'tree_index', `${id}.tree.json`), 'utf8')));
}
const leaves = (n: TreeNode): TreeNode[] => (n.children.length ? n.children.flatMap(leaves) : [n]);
const count = (role: string) => api.requests.filter((r) => r.role === role).length;

describe('LLM ingest with the anthropic provider (fake Messages API)', () => {
  it('happy path: strategies, cards, a verified page tree and curation land in the store and the card index', async () => {
    const root = await reportStore();
    const report = await run(root);
    expect(report.counts.failed).toBe(0);
    expect(report.llm).toMatch(/^LLM: anthropic \(claude-sonnet-5-5\)/);

    // requests: sampling ×2, tree ×1 (8 pages fit one group), card ×2, curation ×1 (one batch)
    expect(api.requests.length).toBe(6);
    expect(fetched.filter((u) => u.endsWith('/v1/messages')).length).toBe(6); // the SDK's requests went through the checked fetch
    expect({ sampling: count('sampling'), tree: count('tree'), card: count('card'), curation: count('curation') }).toEqual({ sampling: 2, tree: 1, card: 2, curation: 1 });
    const first = api.requests[0]!;
    expect(first.url).toBe('/v1/messages');
    expect(first.body.model).toBe(MODEL);
    const system = first.body.system as Array<{ text: string; cache_control?: unknown }>;
    expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' }); // prompt caching on the shared instructions
    expect((first.body.output_config as { format: { type: string } }).format.type).toBe('json_schema');
    expect(first.headers['anthropic-beta'] ?? '').not.toContain('oauth');
    const cur = api.requests.find((r) => r.role === 'curation')!;
    const curSystem = cur.body.system as Array<{ text: string; cache_control?: unknown }>;
    expect(curSystem[2]!.text).toMatch(/^CATALOG:\nsrc_[0-9a-f]{8} \| /); // the shared catalog list is a cached system block
    expect(curSystem[2]!.cache_control).toEqual({ type: 'ephemeral' });
    expect(cur.input).toMatch(/^BATCH:\n\{"id":"src_/);
    expect(report.llm_usage.join('\n')).toContain('6 calls');
    expect(report.llm_usage.join('\n')).toContain('6000 in, 600 out, 1200 cache read');

    const pdf = entry(root, 'report.pdf');
    expect(pdf.status).toBe('indexed');
    expect(pdf.title).toBe('LLM title for inbox/report.pdf');
    expect(pdf.summary).toContain('LLM summary');
    expect([pdf.doc_type, pdf.period, pdf.date]).toEqual(['fake annual report', 'FY2024', '2024-03-01']);
    expect(pdf.key_topics).toEqual(['fakeco', 'revenue', 'outlook']);
    expect(pdf.strategy?.planner).toBe(`llm:${MODEL}`);
    expect(pdf.strategy?.doc_nature).toBe('sampled inbox/report.pdf');
    expect(pdf.llm).toEqual({ provider: 'anthropic', model: MODEL, steps: ['sampling', 'tree', 'card', 'curation'], fallbacks: [] });
    expect(pdf.toc_source).toBe('llm');

    // the sampler saw the first pages of the PDF, not the file
    const samplingPdf = api.requests.find((r) => r.role === 'sampling' && r.input.includes('report.pdf'))!;
    expect(samplingPdf.input).toContain('<!-- page 1 -->');
    expect(samplingPdf.input).toContain('Fakeco Annual Report 2024');
    expect(samplingPdf.input).not.toContain('Part Gamma Outlook'); // page 7 is beyond the sample

    const t = tree(root, pdf.id);
    expect(t.toc_source).toBe('llm');
    expect(t.root.children.map((c) => [c.title, c.page_range])).toEqual([
      ['Front matter', [1, 1]],
      ['Part Alpha Operations', [2, 3]],
      ['Part Beta Finances', [4, 6]], // claimed page 5, fixed to 4 where the title is printed
      ['Part Gamma Outlook', [7, 8]],
    ]); // "Part Delta Imaginary Chapter" is printed nowhere: dropped
    expect(t.root.meta).toMatchObject({ llm_tree: { proposed: 4, kept: 3, fixed: 1, dropped: 1 } });
    expect(t.root.children[1]!.summary).toBe('LLM summary of Part Alpha Operations.');
    expect(leaves(t.root).flatMap((l) => { const r = l.page_range!; return Array.from({ length: r[1] - r[0] + 1 }, (_, i) => r[0] + i); })).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const beta = readFileSync(join(root, t.root.children[2]!.content_ref!), 'utf8');
    expect(beta).toContain('<!-- page 4 -->');
    expect(beta).toContain('Revenue was 12.4 million dollars');

    const md = entry(root, 'notes.md');
    expect(md.llm?.steps).toEqual(['sampling', 'card', 'curation']); // a headed markdown file keeps its own tree
    expect(md.tags).toEqual(['annual-report', 'fakeco', `t-${md.id.slice(-2)}`]);
    expect(md.shelf).toBe('finance/annual-reports');
    expect(md.related).toEqual([{ id: pdf.id, reason: 'same company' }]); // the made-up id is dropped

    // the card index is built from the LLM cards
    const meta = join(root, 'vector_store', 'metadata.json');
    if (existsSync(meta)) {
      const rows = (JSON.parse(readFileSync(meta, 'utf8')) as { rows: Array<{ id: string; text_sha: string }> }).rows;
      expect(rows.find((r) => r.id === pdf.id)?.text_sha).toBe(textSha(cardText(pdf)));
    } else {
      expect(report.warnings.join('\n')).toMatch(/vector|embed|faiss/i);
    }
  });

  it('the result cache: a forced re-ingest and a fresh store with the committed llm_cache make zero calls and the same bytes', async () => {
    const root = await reportStore();
    await run(root);
    const firstCalls = api.requests.length;
    expect(firstCalls).toBe(6);
    const cacheFiles = [...contents(root, ['llm_cache']).keys()];
    expect(cacheFiles.length).toBe(6);
    for (const f of cacheFiles) expect(readFileSync(join(root, f), 'utf8')).not.toContain('sk-ant');
    const before = contents(root, ['catalog.json', 'tree_index', 'converted', 'llm_cache']);

    api.requests.length = 0;
    const again = await run(root, { force: true });
    expect(api.requests.length).toBe(0);
    expect(again.llm_usage.join('\n')).toContain('0 calls, 6 cache hits');
    expect(contents(root, ['catalog.json', 'tree_index', 'converted', 'llm_cache'])).toEqual(before);

    // "another machine": a fresh store with the same inbox and the committed llm_cache
    const other = track(llmStore(FAST));
    cpSync(join(root, 'inbox'), join(other, 'inbox'), { recursive: true });
    cpSync(join(root, 'llm_cache'), join(other, 'llm_cache'), { recursive: true });
    await run(other);
    expect(api.requests.length).toBe(0);
    expect(contents(other, ['catalog.json', 'tree_index', 'converted', 'llm_cache'])).toEqual(before);
  });

  it('curation is batched over the catalog: 25 sources → 2 batches, the first alone (it writes the prompt cache)', async () => {
    const root = track(llmStore({ ...FAST, max_concurrency: 4 }, { embedding: { model: 'none', models_dir: null, allow_remote: false, batch_size: 32 } }));
    for (let i = 0; i < 25; i++) writeNotes(join(root, 'inbox', `n${String(i).padStart(2, '0')}.md`), `Notes ${i}`);
    await run(root);
    const cur = api.requests.filter((r) => r.role === 'curation');
    expect(cur.length).toBe(2);
    expect(cur.map((r) => r.input.split('\n').length - 1)).toEqual([20, 5]);
    const all = readCatalog(root).sources;
    expect(all.every((e) => e.shelf === 'finance/annual-reports' && e.llm?.steps.includes('curation'))).toBe(true);
    expect(all[0]!.related?.length).toBe(5); // capped at MAX_RELATED, all within the catalog
  });

  it('429 then success: honours retry-after and the document gets its LLM card', async () => {
    const root = track(llmStore(FAST));
    writeNotes(join(root, 'inbox', 'notes.md'), 'Budget meeting');
    api.script = (_r, nth) => (nth === 1 ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } } : { kind: 'ok' });
    const report = await run(root);
    expect(api.requests[0]!.role).toBe('sampling');
    expect(api.requests[1]!.role).toBe('sampling');
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(950);
    const e = entry(root, 'notes.md');
    expect(e.llm).toEqual({ provider: 'anthropic', model: MODEL, steps: ['sampling', 'card', 'curation'], fallbacks: [] });
    expect(report.llm_usage[0]).toContain('1 retries');
  });

  it('500s until retries run out: that step falls back offline, says why, and the batch continues', async () => {
    const root = track(llmStore(FAST));
    writeNotes(join(root, 'inbox', 'broken.md'), 'Broken notes');
    writeNotes(join(root, 'inbox', 'fine.md'), 'Fine notes');
    api.script = (r) => (r.role === 'card' && r.input.includes('broken.md') ? { kind: 'status', status: 500 } : { kind: 'ok' });
    const report = await run(root);
    expect(report.counts.indexed).toBe(2);
    expect(api.requests.filter((r) => r.role === 'card' && r.input.includes('broken.md')).length).toBe(3); // 1 + max_retries 2
    const broken = entry(root, 'broken.md');
    expect(broken.title).toBe('Broken notes'); // the offline title
    expect(broken.period).toBe('');
    expect(broken.llm?.steps).toEqual(['sampling', 'curation']);
    expect(broken.llm?.fallbacks).toHaveLength(1);
    expect(broken.llm?.fallbacks[0]).toMatch(/^card: HTTP 500.*gave up after 3 attempts/);
    expect(entry(root, 'fine.md').title).toBe('LLM title for inbox/fine.md');
    expect(report.llm_usage[0]).toContain('1 offline fallbacks');
  });

  it('malformed replies: fenced JSON with a trailing comma is repaired, a cut-off reply is closed, prose falls back', async () => {
    const root = track(llmStore(FAST));
    writeNotes(join(root, 'inbox', 'fenced.md'), 'Fenced');
    writeNotes(join(root, 'inbox', 'prose.md'), 'Prose');
    writeNotes(join(root, 'inbox', 'truncated.md'), 'Truncated');
    api.script = (r) => {
      if (r.role !== 'card') return { kind: 'ok' };
      if (r.input.includes('fenced.md')) return { kind: 'text', text: 'Here is the card:\n```json\n{"title": "Fenced card", "summary": "S.", "doc_type": "", "period": "", "date": "", "key_topics": ["a",], "sections_overview": [],}\n```' };
      if (r.input.includes('truncated.md')) return { kind: 'text', text: '{"title": "Cut card", "summary": "Cut off.", "doc_type": "notes", "period": "", "date": "", "key_topics": ["x"], "sections_overview": ["Decisions", "Act' };
      return { kind: 'text', text: 'I am sorry, I cannot produce JSON for this document.' };
    };
    await run(root);
    expect(entry(root, 'fenced.md').title).toBe('Fenced card');
    expect(entry(root, 'fenced.md').key_topics).toEqual(['a']);
    const cut = entry(root, 'truncated.md');
    expect(cut.title).toBe('Cut card');
    expect(cut.sections_overview).toEqual(['Decisions', 'Act']);
    const prose = entry(root, 'prose.md');
    expect(prose.title).toBe('Prose');
    expect(prose.llm?.fallbacks).toEqual(['card: reply is not JSON']);
    expect(api.requests.filter((r) => r.role === 'card' && r.input.includes('prose.md')).length).toBe(2); // asked once more
  });

  it('a timeout is retried', async () => {
    const root = track(llmStore({ ...FAST, timeout_ms: 400 }));
    writeNotes(join(root, 'inbox', 'notes.md'), 'Slow');
    api.script = (_r, nth) => (nth === 1 ? { kind: 'hang', ms: 5000 } : { kind: 'ok' });
    const t0 = Date.now();
    const report = await run(root);
    expect(Date.now() - t0).toBeLessThan(4000);
    expect(entry(root, 'notes.md').llm?.fallbacks).toEqual([]);
    expect(entry(root, 'notes.md').strategy?.planner).toBe(`llm:${MODEL}`);
    expect(report.llm_usage[0]).toContain('1 retries');
  });

  it('a timeout on every attempt falls back with the reason', async () => {
    const root = track(llmStore({ ...FAST, timeout_ms: 200, max_retries: 1 }));
    writeNotes(join(root, 'inbox', 'notes.md'), 'Slow');
    api.script = (r) => (r.role === 'sampling' ? { kind: 'hang', ms: 3000 } : { kind: 'ok' });
    await run(root);
    const e = entry(root, 'notes.md');
    expect(e.strategy?.planner).toBe('offline');
    expect(e.llm?.fallbacks[0]).toMatch(/^sampling: timed out after 200 ms \(gave up after 2 attempts\)/);
    expect(e.llm?.steps).toEqual(['card', 'curation']);
  });

  it('--max-calls caps the calls; the rest falls back offline', async () => {
    const root = await reportStore();
    const report = await run(root, { maxCalls: 2 });
    expect(api.requests.length).toBe(2);
    expect(report.llm_usage[0]).toMatch(/skipped by --max-calls/);
    const all = readCatalog(root).sources;
    expect(all.every((e) => e.status === 'indexed')).toBe(true);
    expect(all.flatMap((e) => e.llm?.fallbacks ?? []).some((f) => f.includes('--max-calls 2 reached'))).toBe(true);
  });

  it('ANTHROPIC_AUTH_TOKEN is sent as a bearer token with the oauth beta header and no API key', async () => {
    const key = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_AUTH_TOKEN = 'oauth-token-for-tests';
    try {
      const root = track(llmStore(FAST));
      writeNotes(join(root, 'inbox', 'notes.md'), 'Token');
      const report = await run(root);
      expect(report.llm).toContain('ANTHROPIC_AUTH_TOKEN');
      expect(report.llm).not.toContain('oauth-token-for-tests');
      expect(api.requests.length).toBeGreaterThan(0);
      for (const r of api.requests) {
        expect(r.headers.authorization).toBe('Bearer oauth-token-for-tests');
        expect(String(r.headers['anthropic-beta'])).toContain('oauth-2025-04-20');
        expect(r.headers['x-api-key']).toBeUndefined();
      }
    } finally {
      process.env.ANTHROPIC_API_KEY = key;
      delete process.env.ANTHROPIC_AUTH_TOKEN;
    }
  });

  it('the SDK profile login (user_oauth) is used when no key or token is set: bearer token + oauth beta header', async () => {
    const key = process.env.ANTHROPIC_API_KEY;
    const cfgDir = process.env.ANTHROPIC_CONFIG_DIR!;
    delete process.env.ANTHROPIC_API_KEY;
    mkdirSync(join(cfgDir, 'configs'), { recursive: true });
    mkdirSync(join(cfgDir, 'credentials'), { recursive: true, mode: 0o700 });
    writeFileSync(join(cfgDir, 'configs', 'default.json'), JSON.stringify({ authentication: { type: 'user_oauth' } }));
    const cred = join(cfgDir, 'credentials', 'default.json');
    writeFileSync(cred, JSON.stringify({ type: 'oauth_token', access_token: 'profile-access-token', expires_at: 4_000_000_000 }));
    chmodSync(cred, 0o600);
    try {
      const root = track(llmStore({ ...FAST, provider: 'auto' }));
      writeNotes(join(root, 'inbox', 'notes.md'), 'Profile');
      const report = await run(root);
      expect(report.llm).toMatch(/auto: SDK profile .*user_oauth/);
      expect(api.requests.length).toBe(3);
      for (const r of api.requests) {
        expect(r.headers.authorization).toBe('Bearer profile-access-token');
        expect(String(r.headers['anthropic-beta'])).toContain('oauth-2025-04-20');
        expect(r.headers['x-api-key']).toBeUndefined();
      }
      expect(entry(root, 'notes.md').llm?.fallbacks).toEqual([]);
    } finally {
      process.env.ANTHROPIC_API_KEY = key;
      rmSync(join(cfgDir, 'configs'), { recursive: true, force: true });
      rmSync(join(cfgDir, 'credentials'), { recursive: true, force: true });
    }
  });

  it('an endpoint without structured outputs: the schema moves into the prompt and replies are still validated', async () => {
    const root = track(llmStore(FAST));
    writeNotes(join(root, 'inbox', 'notes.md'), 'Gateway');
    api.script = (r) => (r.body.output_config ? { kind: 'text400', text: 'output_config: structured outputs are not supported for this model' } : { kind: 'ok' });
    await run(root);
    expect(api.requests[0]!.body.output_config).toBeDefined();
    expect(api.requests.slice(1).every((r) => r.body.output_config === undefined)).toBe(true);
    expect((api.requests[1]!.body.system as Array<{ text: string }>)[1]!.text).toContain('following this JSON schema');
    expect(entry(root, 'notes.md').llm).toMatchObject({ steps: ['sampling', 'card', 'curation'], fallbacks: [] });
  });

  it('LLM off: --llm none and auto with nothing configured make no calls and write identical offline bytes', async () => {
    const a = await reportStore({ provider: 'none' });
    await run(a);
    const key = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const b = await reportStore({ provider: 'auto' });
      const rep = await run(b);
      expect(rep.llm).toMatch(/^LLM: none \(auto: /);
      expect(contents(b, ['catalog.json', 'tree_index', 'converted'])).toEqual(contents(a, ['catalog.json', 'tree_index', 'converted']));
    } finally {
      process.env.ANTHROPIC_API_KEY = key;
    }
    expect(api.requests.length).toBe(0);
    const e = entry(a, 'report.pdf');
    expect(e.llm).toBeUndefined();
    expect(e.strategy?.planner).toBe('offline');
    expect(existsSync(join(a, 'llm_cache'))).toBe(false);
  });

  it('an explicit provider with nothing configured is a clear error before anything is written', async () => {
    const key = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const root = track(llmStore(FAST));
      mkdirSync(join(root, 'inbox'), { recursive: true });
      writeNotes(join(root, 'inbox', 'notes.md'), 'X');
      await expect(run(root)).rejects.toThrow(/Cannot use the anthropic LLM provider/);
      expect(readCatalog(root).sources).toEqual([]);
    } finally {
      process.env.ANTHROPIC_API_KEY = key;
    }
  });
});
