import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VECTOR_IVF_MIN_ROWS, chooseIndex, encodeIndex } from '../src/vector/index-choice.js';
import { indexHeader, loadFaiss, openIndex, readFlatIndex, writeVectorIndex } from '../src/vector/faiss.js';
import { openIVF } from '../src/vector/ivf-codec.js';
import { searchFlat, type FlatVectors } from '../src/vector/flat-codec.js';
import { readCardMetadata } from '../src/vector/metadata.js';
import { cardIndexOpens, cardScores, loadCardVectors } from '../src/search/vectors.js';
import { searchStore } from '../src/search/search.js';
import { TINY_MODEL, searchStoreFixture } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';

/** `count` unit vectors around `clusters` seeded directions (deterministic). */
function clustered(count: number, dims: number, clusters: number): FlatVectors {
  let s = 42;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296) - 0.5;
  const centres = Array.from({ length: clusters }, () => Array.from({ length: dims }, rand));
  const data = new Float32Array(count * dims);
  for (let r = 0; r < count; r++) {
    const c = centres[r % clusters]!;
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += (data[r * dims + j] = c[j]! + 0.3 * rand()) ** 2;
    for (let j = 0; j < dims; j++) data[r * dims + j]! /= Math.sqrt(norm);
  }
  return { dims, count, data };
}

describe('vector index choice', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-ivf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is flat below the threshold and IVF (lists, probes, seed recorded) from it', () => {
    expect(chooseIndex(VECTOR_IVF_MIN_ROWS - 1)).toEqual({ index_type: 'flat' });
    const ivf = chooseIndex(VECTOR_IVF_MIN_ROWS);
    expect(ivf.index_type).toBe('ivf_flat');
    expect(ivf.nlist).toBe(Math.round(Math.sqrt(VECTOR_IVF_MIN_ROWS)));
    expect(ivf.nprobe).toBeGreaterThanOrEqual(8);
    expect(ivf.train_seed).toBeTypeOf('number');
  });

  it('IVF files are deterministic, keep every vector, and find what a flat scan finds', async () => {
    const v = clustered(3000, 16, 40);
    const choice = chooseIndex(v.count, 1000);
    expect(choice.index_type).toBe('ivf_flat');
    const p = join(dir, 'cards.faiss');
    await writeVectorIndex(p, v, choice);
    const bytes = readFileSync(p);
    expect(encodeIndex(v, choice).equals(bytes)).toBe(true);
    expect(indexHeader(p)).toEqual({ fourcc: 'IwFl', dims: 16, count: 3000 });
    expect(readFlatIndex(p).data).toEqual(v.data);
    const ivf = openIVF(p);
    expect(ivf.layout.nprobe).toBe(choice.nprobe);
    let agree = 0;
    for (let r = 0; r < 200; r++) {
      const q = v.data.subarray(r * 16, (r + 1) * 16);
      const exact = searchFlat(v, q, 10).map((h) => h.row);
      const got = ivf.search(q, 10).map((h) => h.row);
      agree += got.filter((x) => exact.includes(x)).length;
    }
    expect(agree / 2000).toBeGreaterThan(0.9);
  });

  it('faiss-node (when installed) reads the IVF file and finds the same rows', async () => {
    const faiss = await loadFaiss();
    if (!faiss) return;
    const v = clustered(2000, 8, 20);
    const p = join(dir, 'native.faiss');
    await writeVectorIndex(p, v, chooseIndex(v.count, 1000));
    const native = await openIndex(p);
    expect(native.native).toBe(true);
    const js = openIVF(p);
    for (let r = 0; r < 50; r++) {
      const q = v.data.subarray(r * 8, (r + 1) * 8);
      expect(native.search(q, 5).map((h) => h.row)).toEqual(js.search(q, 5).map((h) => h.row));
    }
  });
});

describe('vectors in a store', () => {
  let root: string;
  afterAll(() => cleanup(root));

  it('records the index type and opens the card index once per process', async () => {
    ({ root } = await searchStoreFixture(TINY_MODEL));
    expect(readCardMetadata(root)!.index_type).toBe('flat');
    const before = cardIndexOpens();
    const cv = loadCardVectors(root);
    if (typeof cv === 'string') throw new Error(cv);
    const q = new Float32Array(cv.meta.dims).fill(1 / Math.sqrt(cv.meta.dims));
    const a = await cardScores(cv, q);
    await searchStore(root, 'capital expenditure');
    await searchStore(root, 'orchard pruning');
    expect(await cardScores(cv, q)).toEqual(a);
    expect(cardIndexOpens() - before).toBe(1);
  });

  it('without an embedding model, search answers by keywords and says so once', async () => {
    const { root: bare } = await searchStoreFixture('none');
    try {
      const r = await searchStore(bare, 'capital expenditure');
      expect(r.mode).toBe('keyword');
      expect(r.results[0]!.title).toMatch(/Acme/);
      expect(r.warnings.filter((w) => /keyword-only/.test(w))).toHaveLength(1);
    } finally {
      cleanup(bare);
    }
  });
});
