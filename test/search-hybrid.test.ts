import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { searchStore } from '../src/search/search.js';
import { rankNodes } from '../src/search/nodes.js';
import { readCatalog } from '../src/store/catalog.js';
import { readCardMetadata, readNodeMetadata } from '../src/vector/metadata.js';
import { searchStoreFixture, TINY_MODEL, TINY_MODELS_DIR } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

const PY = '/usr/bin/python3';
const pyFaiss = spawnSync(PY, ['-c', 'import faiss'], { encoding: 'utf8' }).status === 0;

/** vector_store/** → bytes (base64) */
function vectorFiles(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (readdirSync(d, { withFileTypes: true }).find((x) => x.name === f)!.isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(join(root, 'vector_store'));
  return out;
}

describe('hybrid search with a real (tiny) transformers.js model and FAISS files', () => {
  let root: string;
  let other: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture(TINY_MODEL));
    ({ root: other } = await searchStoreFixture(TINY_MODEL));
  });
  afterAll(() => {
    cleanup(root);
    cleanup(other);
  });

  it('writes card and node FAISS files with row → source metadata and the model identity', () => {
    const cards = readCardMetadata(root)!;
    const nodes = readNodeMetadata(root)!;
    const ids = readCatalog(root).sources.map((s) => s.id);
    expect(cards.model).toMatchObject({ name: 'minilm:tiny/embed', dims: 16 });
    expect(cards.rows.map((r) => r.id)).toEqual(ids);
    expect(cards.count).toBe(3);
    expect(nodes.count).toBe(nodes.rows.length);
    expect(new Set(nodes.rows.map((r) => r[0]))).toEqual(new Set(ids));
    const sorted = [...nodes.rows].sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
    expect(nodes.rows).toEqual(sorted);
  });

  it('identical input gives byte-identical index files; re-ingest changes no byte and embeds nothing', async () => {
    expect(vectorFiles(other)).toEqual(vectorFiles(root));
    const before = vectorFiles(root);
    const r = await ingest(root, { paths: [join(root, 'inbox')], llm: 'none', now: () => new Date('2026-01-02T03:04:05Z') });
    expect(vectorFiles(root)).toEqual(before);
    // nothing changed since the indexes were built: the builders are skipped altogether
    const ix = r.indexes.find((i) => i.name === 'vectors')!;
    expect(ix.summary).toMatch(/up to date/);
    expect(ix.stats?.['cards_embedded'] ?? 0).toBe(0);
    const forced = await ingest(root, { paths: [join(root, 'inbox')], llm: 'none', force: true, now: () => new Date('2026-01-02T03:04:05Z') });
    const stats = forced.indexes.find((i) => i.name === 'vectors')!.stats!;
    expect(stats['cards_embedded']).toBe(0);
    expect(stats['nodes_embedded']).toBe(0);
    expect(vectorFiles(root)).toEqual(before);
  });

  it('an edited source re-embeds only its own texts', async () => {
    const p = join(other, 'inbox', 'garden', 'orchard-2021.md');
    writeFileSync(p, readFileSync(p, 'utf8') + '\n## Harvest\n\nPick apples in autumn.\n');
    const r = await ingest(other, { paths: [join(other, 'inbox')], llm: 'none', now: () => new Date('2026-01-02T03:04:05Z') });
    const stats = r.indexes.find((i) => i.name === 'vectors')!.stats!;
    expect(stats['cards_embedded']).toBeLessThanOrEqual(1);
    expect(Number(stats['nodes_embedded'])).toBeGreaterThan(0);
    expect(Number(stats['nodes_embedded'])).toBeLessThan(Number(stats['nodes']));
  });

  it('a different model (changed files → new fingerprint) re-embeds everything, never mixing', async () => {
    const models = mkdtempSync(join(tmpdir(), 'mhub-models-'));
    try {
      cpSync(TINY_MODELS_DIR, models, { recursive: true });
      const cfgPath = join(models, 'tiny', 'embed', 'config.json');
      writeFileSync(cfgPath, readFileSync(cfgPath, 'utf8').replace('"hidden_size"', '"revision": 2,\n  "hidden_size"'));
      const conf = JSON.parse(readFileSync(join(root, 'config.json'), 'utf8'));
      const copy = mkdtempSync(join(tmpdir(), 'mhub-store-'));
      cpSync(root, copy, { recursive: true });
      conf.embedding.models_dir = models;
      writeFileSync(join(copy, 'config.json'), JSON.stringify(conf, null, 2) + '\n');
      const before = readCardMetadata(copy)!.model.fingerprint;
      const r = await ingest(copy, { paths: [join(copy, 'inbox')], llm: 'none' });
      const stats = r.indexes.find((i) => i.name === 'vectors')!.stats!;
      expect(stats['cards_embedded']).toBe(3);
      expect(stats['nodes_embedded']).toBe(stats['nodes']);
      expect(readCardMetadata(copy)!.model.fingerprint).not.toBe(before);
      expect(readNodeMetadata(copy)!.model.fingerprint).toBe(readCardMetadata(copy)!.model.fingerprint);
      rmSync(copy, { recursive: true, force: true });
    } finally {
      rmSync(models, { recursive: true, force: true });
    }
  });

  it('hybrid search fuses keyword and vector signals and explains them', async () => {
    const r = await searchStore(root, 'FY2018 capital expenditure Acme', { explain: true });
    expect(r.mode).toBe('hybrid');
    expect(r.warnings.filter((w) => /keyword-only/.test(w))).toEqual([]);
    const top = r.results[0]!;
    expect(top.file).toBe('inbox/finance/acme-annual-fy2018.md');
    expect(top.explain).toHaveProperty('card_vector_score');
    expect(top.explain).toHaveProperty('keyword_contribution');
    expect(top.explain).toHaveProperty('vector_relevance');
    const v = await searchStore(root, 'orchard soil water', { mode: 'vector', includeNone: true });
    expect(v.mode).toBe('vector');
    expect(v.results.length).toBe(3);
  });

  it('tier-2 ranking uses node vectors when present', async () => {
    const id = readCatalog(root).sources.find((e) => e.filename === 'orchard-2021.md')!.id;
    const withVec = await rankNodes(root, id, 'soil water', { k: 2 });
    const kwOnly = await rankNodes(root, id, 'soil water', { k: 2, vectors: false });
    expect(withVec[0]!.title).toBe('Soil and water');
    expect(kwOnly[0]!.title).toBe('Soil and water');
    // a node with no keyword match can still be suggested through its vector
    const semantic = await rankNodes(root, id, 'tomato plant garden', { k: 3 });
    expect(semantic.length).toBeGreaterThan(0);
    expect((await rankNodes(root, id, 'tomato plant garden', { k: 3, vectors: false })).length).toBe(0);
  });

  it('reads node vectors per source, equal to the whole file, and reuses a query vector without the model', async () => {
    const { loadCardVectors, loadNodeVectors, nodeScores } = await import('../src/search/vectors.js');
    const { readFlatIndex } = await import('../src/vector/faiss.js');
    const { cachedQueryVector, QUERY_CACHE_FILE } = await import('../src/search/query-vectors.js');
    const cv = loadCardVectors(root);
    if (typeof cv === 'string') throw new Error(cv);
    const nv = loadNodeVectors(root, cv.meta.model)!;
    const whole = readFlatIndex(join(root, 'vector_store', 'nodes.faiss'));
    const q = new Float32Array(whole.dims).fill(1 / Math.sqrt(whole.dims));
    // located by nodes.rows.json, which agrees with nodes.metadata.json row for row
    const { readNodeMetadata, readNodeRowIndex } = await import('../src/vector/metadata.js');
    const meta = readNodeMetadata(root)!;
    expect(readNodeRowIndex(root)?.rows_sha).toBe(meta.rows_sha);
    const sources = [...new Set(meta.rows.map((r) => r[0]))];
    expect(sources.length).toBeGreaterThan(1);
    for (const id of sources) {
      const got = nodeScores(nv, id, q);
      const rows = meta.rows.flatMap((r, i) => (r[0] === id ? [i] : []));
      expect(got.size).toBe(rows.length);
      for (const r of rows) {
        let s = 0;
        for (let j = 0; j < whole.dims; j++) s += whole.data[r * whole.dims + j]! * q[j]!;
        expect(got.get(meta.rows[r]![1])).toBeCloseTo(s, 6);
      }
    }
    const query = 'capital expenditure of Acme in FY2018';
    await searchStore(root, query);
    expect(readFileSync(join(root, QUERY_CACHE_FILE), 'utf8')).toContain('entries');
    const v = cachedQueryVector(root, cv.meta.model, query);
    expect(v?.length).toBe(cv.meta.model.dims);
    const a = await rankNodes(root, readCatalog(root).sources[0]!.id, query, { k: 3 });
    expect(a.length).toBeGreaterThan(0);
  });

  it('degrades to keyword-only (exit 0) when the model that made the vectors is missing here', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'mhub-store-'));
    try {
      cpSync(root, copy, { recursive: true });
      // a query embedded before is reused without the model (query-vectors.ts): start without any
      rmSync(join(copy, '.mhub', 'query-vectors.json'), { force: true });
      const conf = JSON.parse(readFileSync(join(copy, 'config.json'), 'utf8'));
      conf.embedding.models_dir = join(copy, 'no-models-here');
      writeFileSync(join(copy, 'config.json'), JSON.stringify(conf, null, 2) + '\n');
      const r = await searchStore(copy, 'orchard pruning', { k: 2 });
      expect(r.mode).toBe('keyword');
      expect(r.results[0]!.file).toBe('inbox/garden/orchard-2021.md');
      expect(r.warnings.join(' ')).toMatch(/keyword-only results: the store's vectors were made with minilm:tiny\/embed, which is not available here/);
      const cli = mhub(['--store', copy, 'search', 'orchard pruning', '--json']);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout).mode).toBe('keyword');
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it.skipIf(!pyFaiss)("the store's FAISS files load in Python's faiss", () => {
    const script = `import faiss, sys\nfor p in sys.argv[1:]:\n  ix = faiss.read_index(p)\n  print(ix.ntotal, ix.d)`;
    const r = spawnSync(PY, ['-c', script, join(root, 'vector_store', 'index.faiss'), join(root, 'vector_store', 'nodes.faiss')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [cards, nodes] = r.stdout.trim().split('\n');
    expect(cards).toBe('3 16');
    expect(nodes).toBe(`${readNodeMetadata(root)!.count} 16`);
  });
});
