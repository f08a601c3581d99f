import { describe, it, expect, afterEach, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  KEYWORD_DIR, KEYWORD_SOURCES_FILE, SHARD_TARGET_BYTES, findTermLine, termsWithPrefix, readKeywordFile, readSourcesMeta, termLine, useKeywordReader,
  type KeywordSourcesIndex,
} from '../src/model/keyword-format.js';
import { recordPostings, writeSourcesIndex as writeRecords } from '../src/indexing/keyword-shards.js';

const writeSourcesIndex = (root: string, ix: KeywordSourcesIndex) => writeRecords(root, recordPostings(ix));
import { nodeKeywords, resetKeywordCache, sourceKeywords } from '../src/search/keyword-index.js';
import { searchStore } from '../src/search/search.js';
import { readCatalogForQuery } from '../src/store/catalog.js';
import { PASSAGE_CANDIDATES } from '../src/search/signals/passage.js';
import { searchStoreFixture } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';

/** A source-level index big enough for several shards: `terms` terms over `docs` sources. */
function syntheticIndex(docs: number, terms: number, salt = 0): KeywordSourcesIndex {
  const ids = Array.from({ length: docs }, (_, i) => `src_${String(i).padStart(8, '0')}`);
  const body: Record<string, number[]> = {};
  const identity: Record<string, number[]> = {};
  for (let t = 0; t < terms; t++) {
    const post: number[] = [];
    for (let d = t % 7; d < docs; d += 1 + (t % 13)) post.push(d, 1 + ((t + d + salt) % 5));
    body[`term${t}`] = post;
    if (t % 50 === 0) identity[`term${t}`] = [t % docs, 1];
  }
  const lens = (k: number) => ids.map((_, d) => 100 + ((d * k) % 37));
  return { ids, lengths: { identity: lens(1), opening: lens(2), card: lens(3), body: lens(4) }, fields: { identity, opening: {}, card: {}, body } };
}

/** Every file under dir → bytes and mtime. */
function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const abs = join(d, f);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(abs, `${readFileSync(abs, 'base64')}|${statSync(abs).mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

/** Reads through the keyword reader, counted. */
function countingReader(): { paths: string[]; bytes: () => number } {
  const paths: string[] = [];
  let bytes = 0;
  useKeywordReader((p) => {
    paths.push(p);
    const text = existsSync(p) ? readFileSync(p, 'utf8') : null;
    bytes += text?.length ?? 0;
    return text;
  });
  return { paths, bytes: () => bytes };
}

describe('term lines', () => {
  it('finds every term of sorted lines by binary search, and nothing else', () => {
    const terms = Array.from({ length: 300 }, (_, i) => `t${(i * 7919) % 1000}`).sort();
    const unique = [...new Set(terms)];
    const text = 'HEADER {"x":1}\n' + unique.map((t, i) => termLine(t, [[i, 1]])).join('');
    const from = text.indexOf('\n') + 1;
    unique.forEach((t, i) => expect(findTermLine(text, t, from)).toEqual([[i, 1]]));
    for (const missing of ['', 'a', 't', 't9999', 'zzz', 't10x']) expect(findTermLine(text, missing, from)).toBeNull();
    expect(findTermLine('', 'a')).toBeNull();
  });

  it('lists the terms starting with a prefix, in order, up to a limit', () => {
    const terms = Array.from({ length: 300 }, (_, i) => `t${(i * 7919) % 1000}`).sort();
    const unique = [...new Set(terms)];
    const text = 'HEADER {"x":1}\n' + unique.map((t, i) => termLine(t, [[i, 1]])).join('');
    const from = text.indexOf('\n') + 1;
    for (const prefix of ['t1', 't99', 't5', 't']) expect(termsWithPrefix(text, prefix, from)).toEqual(unique.filter((t) => t.startsWith(prefix)));
    expect(termsWithPrefix(text, 't1', from, 3)).toEqual(unique.filter((t) => t.startsWith('t1')).slice(0, 3));
    for (const missing of ['a', 'zzz', 't10000']) expect(termsWithPrefix(text, missing, from)).toEqual([]);
    expect(termsWithPrefix('', 'a')).toEqual([]);
  });
});

describe('source-level keyword shards', () => {
  let root: string;
  afterEach(() => {
    useKeywordReader();
    resetKeywordCache();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('splits postings into hash shards near the target size and writes the same bytes for the same input', () => {
    root = mkdtempSync(join(tmpdir(), 'mhub-kw-'));
    const ix = syntheticIndex(400, 4000);
    const meta = writeSourcesIndex(root, ix);
    expect(meta.shards).toBeGreaterThan(4);
    expect(meta.shards & (meta.shards - 1)).toBe(0);
    const dir = join(root, KEYWORD_DIR, meta.terms_dir);
    const shardFiles = readdirSync(dir);
    expect(shardFiles).toHaveLength(meta.shards);
    const sizes = shardFiles.map((f) => statSync(join(dir, f)).size);
    expect(Math.max(...sizes)).toBeLessThan(3 * SHARD_TARGET_BYTES);
    const before = files(root);
    expect(writeSourcesIndex(root, ix)).toEqual(meta);
    expect(files(root)).toEqual(before);
    // a changed index goes to a new shard folder; the old one is removed after sources.json points away
    const meta2 = writeSourcesIndex(root, syntheticIndex(400, 4000, 1));
    expect(meta2.terms_dir).not.toBe(meta.terms_dir);
    expect(existsSync(dir)).toBe(false);
    expect(readSourcesMeta(root)!.terms_dir).toBe(meta2.terms_dir);
  });

  it('a query reads sources.json and one shard per term, and gets the postings that were written', () => {
    root = mkdtempSync(join(tmpdir(), 'mhub-kw-'));
    const ix = syntheticIndex(400, 4000);
    const meta = writeSourcesIndex(root, ix);
    resetKeywordCache();
    const reads = countingReader();
    const kix = sourceKeywords(root)!;
    expect(kix.ids).toEqual(ix.ids);
    const asked = ['term5', 'term1234', 'term3999', 'nosuchterm'];
    for (const t of asked) {
      expect(kix.field('body').postings(t)).toEqual(ix.fields.body[t]);
      expect(kix.field('identity').postings(t)).toEqual(ix.fields.identity[t]);
      expect(kix.field('opening').postings(t)).toBeUndefined();
    }
    expect(reads.paths[0]).toBe(join(root, KEYWORD_SOURCES_FILE));
    expect(reads.paths.length).toBe(1 + asked.length);
    const total = [...files(join(root, KEYWORD_DIR))].length;
    expect(total).toBe(meta.shards + 1);
    // each term read once per process, whatever the field
    kix.field('card').postings('term5');
    expect(reads.paths.length).toBe(1 + asked.length);
    expect(reads.bytes()).toBeLessThan(asked.length * 3 * SHARD_TARGET_BYTES + 50_000);
  });

  it('a damaged index (shard missing) is reported, not read as "no such term"', () => {
    root = mkdtempSync(join(tmpdir(), 'mhub-kw-'));
    const meta = writeSourcesIndex(root, syntheticIndex(100, 3000));
    rmSync(join(root, KEYWORD_DIR, meta.terms_dir), { recursive: true });
    resetKeywordCache();
    const kix = sourceKeywords(root)!;
    expect(() => kix.field('body').postings('term1')).toThrow(/missing/);
  });
});

describe('search reads only what the query touches', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none'));
  });
  afterAll(() => {
    useKeywordReader();
    cleanup(root);
  });

  it('keyword files read by one search: sources.json, the query terms\' shards, candidate node files', async () => {
    resetKeywordCache();
    const reads = countingReader();
    const r = await searchStore(root, 'capital expenditure Acme', { mode: 'keyword' });
    expect(r.results[0]!.title).toMatch(/Acme/);
    const rel = reads.paths.map((p) => p.slice(root.length + 1));
    const meta = readSourcesMeta(root)!;
    expect(rel.filter((p) => p === KEYWORD_SOURCES_FILE)).toHaveLength(1);
    const shards = rel.filter((p) => p.includes(`/${meta.terms_dir}/`));
    expect(shards.length).toBeLessThanOrEqual(3); // capital, expenditure, acme
    const nodes = rel.filter((p) => p.includes('/nodes/'));
    expect(new Set(nodes).size).toBe(nodes.length); // each node file read once
    expect(nodes.length).toBeLessThanOrEqual(PASSAGE_CANDIDATES);
    expect(rel.length).toBe(1 + shards.length + nodes.length);
  });

  it('the catalog is read once per process for queries, and a damaged one is a clear error', () => {
    const a = readCatalogForQuery(root);
    expect(readCatalogForQuery(root)).toBe(a);
    expect(a.sources.length).toBe(3);
    const copy = mkdtempSync(join(tmpdir(), 'mhub-cat-'));
    try {
      writeFileSync(join(copy, 'catalog.json'), JSON.stringify({ sources: [{ title: 'no id' }] }));
      expect(() => readCatalogForQuery(copy)).toThrow(/does not match its schema/);
      writeFileSync(join(copy, 'catalog.json'), '{"sources": [');
      expect(() => readCatalogForQuery(copy)).toThrow(/not valid JSON/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('node files: the header and the asked terms are parsed, the rest is left as text', () => {
    resetKeywordCache();
    const id = readSourcesMeta(root)!.ids[0]!;
    const ix = nodeKeywords(root, id)!;
    expect(ix.nodes.length).toBeGreaterThan(1);
    const text = readKeywordFile(join(root, KEYWORD_DIR, 'nodes', `${id}.tsv`))!;
    const firstTerm = text.split('\n')[1]!.split('\t')[0]!;
    expect(ix.fields.text.postings(firstTerm) ?? ix.fields.title.postings(firstTerm)).toBeDefined();
    expect(ix.fields.text.postings('nosuchterm')).toBeUndefined();
  });
});

describe('terms named like Object.prototype members', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', {
      docs: {
        'widget.md': '# Widget class\n\nThe constructor builds a widget; call valueOf for its value.\n',
        'notes.md': '# Notes\n\nNothing about classes here.\n',
      },
    }));
  });
  afterAll(() => {
    resetKeywordCache();
    cleanup(root);
  });

  it('are indexed with [] for a field they are absent from (not null), and found by search', async () => {
    const lines = [...files(join(root, KEYWORD_DIR)).keys()].map((p) => readFileSync(p, 'utf8')).join('').split('\n');
    const line = lines.find((l) => l.startsWith('constructor\t'));
    expect(line).toBeDefined();
    expect(lines.filter((l) => /^(constructor|valueof)\t/.test(l)).join('\n')).not.toMatch(/null/);
    resetKeywordCache();
    const r = await searchStore(root, 'constructor', { mode: 'keyword' });
    expect(r.results[0]!.title).toMatch(/Widget/);
  });

  it('an index written with null for such a field (before the fix) reads it as absent', async () => {
    const id = readSourcesMeta(root)!.ids.find((i) => readKeywordFile(join(root, KEYWORD_DIR, 'nodes', `${i}.tsv`))!.includes('\nconstructor\t'))!;
    const path = join(root, KEYWORD_DIR, 'nodes', `${id}.tsv`);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\nconstructor\t\[(\[[^\]]*\]),\[\]\]/, '\nconstructor\t[$1,null]'));
    expect(readFileSync(path, 'utf8')).toMatch(/\nconstructor\t\[\[[^\]]*\],null\]/);
    resetKeywordCache();
    const ix = nodeKeywords(root, id)!;
    expect(ix.fields.title.postings('constructor')).toBeUndefined();
    expect(ix.fields.text.postings('constructor')!.length).toBeGreaterThan(0);
    const r = await searchStore(root, 'constructor', { mode: 'keyword' });
    expect(r.results[0]!.title).toMatch(/Widget/);
  });
});

describe('node files written while sources convert (prepareSource)', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none'));
  });
  afterAll(() => cleanup(root));

  it('a new source\'s node file is the one the index stage would write; build() reads it back, and rebuilds a file made from other inputs', async () => {
    const { keywordIndexBuilder } = await import('../src/indexing/keyword-builder.js');
    const { loadConfig } = await import('../src/store/config.js');
    const { TreeFile } = await import('../src/store/schemas.js');
    const { keywordNodesFile } = await import('../src/model/keyword-format.js');
    const entries = readCatalogForQuery(root).sources.filter((e) => e.status === 'indexed');
    const e = entries[0]!;
    const file = join(root, keywordNodesFile(e.id));
    const made = readFileSync(file, 'utf8');
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')));
    const config = loadConfig(root);
    rmSync(file);
    const builder = keywordIndexBuilder();
    await builder.prepareSource!(root, config, tree, e);
    expect(readFileSync(file, 'utf8')).toBe(made);
    // a file of other inputs (another converter's tree) is rebuilt, whatever the run's changed set says
    writeFileSync(file, made.replace(/"input_sha":"[0-9a-f]+"/, '"input_sha":"stale"'));
    const ctx = { root, config, entries, changed: new Set<string>(), removed: new Set<string>(), loadTree: (id: string) => (id === e.id ? tree : TreeFile.parse(JSON.parse(readFileSync(join(root, entries.find((x) => x.id === id)!.tree_path!), 'utf8')))), log: () => undefined };
    const report = await builder.build(ctx);
    expect(readFileSync(file, 'utf8')).toBe(made);
    expect(report.stats?.['rebuilt']).toBe(1);
  });
});
