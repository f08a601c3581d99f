/**
 * Lazy faiss-node wrapper. faiss-node is optional: when it loads, FAISS files are written and
 * searched with it; otherwise the pure codec in flat-codec.ts writes identical bytes and searches
 * by brute force (exact, same results for a flat inner-product index).
 */
import { readFileSync, rmSync } from 'node:fs';
import { decodeFlatIP, encodeFlatIP, searchFlat, type FlatVectors } from './flat-codec.js';
import { writeIfChanged } from '../store/atomic.js';

interface FaissIndex {
  ntotal(): number;
  getDimension(): number;
  add(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
  write(path: string): void;
}
interface FaissModule {
  IndexFlatIP: { new (d: number): FaissIndex; read(path: string): FaissIndex };
}

export const FAISS_SETUP_HINT = 'run `bash scripts/setup-faiss.sh` (needs `apt-get install libfaiss-dev`) to build faiss-node';

let cached: Promise<FaissModule | null> | null = null;
let loadError = '';

/** faiss-node, or null when it is not installed / does not load. */
export function loadFaiss(): Promise<FaissModule | null> {
  cached ??= import('faiss-node' as string)
    .then((m: { default?: FaissModule } & FaissModule) => (m.IndexFlatIP ? m : (m.default ?? null)))
    .catch((err: Error) => {
      loadError = err.message.split('\n')[0] ?? '';
      return null;
    });
  return cached;
}

export function faissLoadError(): string {
  return loadError;
}

/** Write a flat inner-product index; returns true when the file changed. Uses faiss-node when present. */
export async function writeFlatIndex(path: string, v: FlatVectors, opts: { useNative?: boolean } = {}): Promise<{ changed: boolean; native: boolean }> {
  const bytes = encodeFlatIP(v);
  const faiss = opts.useNative === false ? null : await loadFaiss();
  if (faiss && v.count > 0) {
    // faiss-node writes through faiss::write_index; check it agrees with the codec byte for byte
    const ix = new faiss.IndexFlatIP(v.dims);
    ix.add(Array.from(v.data));
    const tmp = `${path}.native-${process.pid}`;
    ix.write(tmp);
    const native = readFileSync(tmp);
    rmSync(tmp, { force: true });
    // identical on faiss 1.7.x; should a future faiss write another layout, keep the codec's bytes
    // so stores stay byte-identical across machines (both layouts are readable by faiss)
    if (native.equals(bytes)) return { changed: writeIfChanged(path, native), native: true };
  }
  return { changed: writeIfChanged(path, bytes), native: false };
}

export function readFlatIndex(path: string): FlatVectors {
  return decodeFlatIP(readFileSync(path));
}

/** Top-k by inner product: faiss-node when loaded, else brute force. */
export async function searchIndex(path: string, v: FlatVectors, query: Float32Array, k: number): Promise<{ row: number; score: number }[]> {
  const faiss = await loadFaiss();
  if (faiss && v.count > 0) {
    const ix = faiss.IndexFlatIP.read(path);
    const r = ix.search(Array.from(query), Math.min(k, v.count));
    return r.labels.map((row, i) => ({ row, score: r.distances[i]! })).filter((h) => h.row >= 0);
  }
  return searchFlat(v, query, k);
}
