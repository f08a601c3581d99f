/**
 * Which FAISS index a vector file gets, chosen at index time from its row count and recorded in the
 * store's vector metadata: a flat inner-product index (exact) below VECTOR_IVF_MIN_ROWS, an
 * IndexIVFFlat above it (k-means lists, a query reads only the lists it probes). Training is plain
 * JavaScript with a seeded generator and a fixed number of iterations, so the same vectors give
 * the same file on every machine, with or without faiss-node.
 */
import type { FlatVectors } from './flat-codec.js';
import { encodeFlatIP } from './flat-codec.js';
import { encodeIVFFlat, type IVFLists } from './ivf-codec.js';

/**
 * Rows from which a vector file is written as IVF. Below it a flat scan is as fast and exact
 * (docs/ARCHITECTURE.md, "Vector index choice": measured crossover on 512-dim vectors).
 */
export const VECTOR_IVF_MIN_ROWS = 20_000;
/** Seed of the k-means sample and initial centroids. */
export const IVF_TRAIN_SEED = 1234;
export const IVF_TRAIN_ITERATIONS = 10;
/** Training sample: this many vectors per list (at most all of them). */
export const IVF_TRAIN_PER_LIST = 32;
/** Lists probed per query: a share of the lists, at least IVF_MIN_NPROBE. */
export const IVF_PROBE_SHARE = 1 / 8;
export const IVF_MIN_NPROBE = 8;

export type IndexType = 'flat' | 'ivf_flat';

export interface IndexChoice {
  index_type: IndexType;
  nlist?: number;
  nprobe?: number;
  train_seed?: number;
}

/** Flat or IVF for a file of `count` rows; IVF with √count lists. */
export function chooseIndex(count: number, minRows = VECTOR_IVF_MIN_ROWS): IndexChoice {
  if (count < minRows) return { index_type: 'flat' };
  const nlist = Math.max(1, Math.round(Math.sqrt(count)));
  return { index_type: 'ivf_flat', nlist, nprobe: Math.min(nlist, Math.max(IVF_MIN_NPROBE, Math.ceil(nlist * IVF_PROBE_SHARE))), train_seed: IVF_TRAIN_SEED };
}

/** mulberry32: small, fast, and the same sequence everywhere. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The list (centroid with the largest inner product) of row r. */
function nearest(v: FlatVectors, r: number, centroids: Float32Array, nlist: number): number {
  let best = 0;
  let bestScore = -Infinity;
  const d = v.dims;
  for (let c = 0; c < nlist; c++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += v.data[r * d + j]! * centroids[c * d + j]!;
    if (s > bestScore) {
      bestScore = s;
      best = c;
    }
  }
  return best;
}

/** One k-means step over `rows`: each centroid becomes the normalised mean of its rows (kept when empty). */
function updateCentroids(v: FlatVectors, rows: number[], centroids: Float32Array, nlist: number): void {
  const d = v.dims;
  const sums = new Float64Array(nlist * d);
  const counts = new Uint32Array(nlist);
  for (const r of rows) {
    const c = nearest(v, r, centroids, nlist);
    counts[c]!++;
    for (let j = 0; j < d; j++) sums[c * d + j]! += v.data[r * d + j]!;
  }
  for (let c = 0; c < nlist; c++) {
    if (counts[c] === 0) continue;
    let norm = 0;
    for (let j = 0; j < d; j++) norm += sums[c * d + j]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < d; j++) centroids[c * d + j] = sums[c * d + j]! / norm;
  }
}

/** Spherical k-means on a seeded sample, then every row in the list of its nearest centroid. */
export function trainIVF(v: FlatVectors, choice: IndexChoice): IVFLists {
  const nlist = choice.nlist!;
  const random = rng(choice.train_seed ?? IVF_TRAIN_SEED);
  const order = Array.from({ length: v.count }, (_, i) => i);
  const m = Math.min(v.count, nlist * IVF_TRAIN_PER_LIST);
  for (let i = 0; i < m; i++) {
    const j = i + Math.floor(random() * (v.count - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const sample = order.slice(0, m);
  const centroids = new Float32Array(nlist * v.dims);
  sample.slice(0, nlist).forEach((r, c) => centroids.set(v.data.subarray(r * v.dims, (r + 1) * v.dims), c * v.dims));
  for (let it = 0; it < IVF_TRAIN_ITERATIONS; it++) updateCentroids(v, sample, centroids, nlist);
  const lists: number[][] = Array.from({ length: nlist }, () => []);
  for (let r = 0; r < v.count; r++) lists[nearest(v, r, centroids, nlist)]!.push(r);
  return { dims: v.dims, centroids, nprobe: choice.nprobe!, lists, data: v.data };
}

/** The file's bytes for the chosen index type. */
export function encodeIndex(v: FlatVectors, choice: IndexChoice): Buffer {
  return choice.index_type === 'ivf_flat' ? encodeIVFFlat(trainIVF(v, choice)) : encodeFlatIP(v);
}
