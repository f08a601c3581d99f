/**
 * Lazy faiss-node wrapper. faiss-node is optional: when it loads, FAISS files are written and
 * searched with it; otherwise the pure codec in flat-codec.ts writes identical bytes and searches
 * by brute force (exact, same results for a flat inner-product index).
 */
import { closeSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { FOURCC_FLAT_IP, decodeFlatIP, encodeFlatIP, searchFlat, type FlatVectors } from './flat-codec.js';
import { FOURCC_IVF_FLAT, openIVF, decodeIVFFlat } from './ivf-codec.js';
import { encodeIndex, type IndexChoice } from './index-choice.js';
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
  /** any index type (flat, IVF, …) by its file */
  Index: { read(path: string): FaissIndex };
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

/** Use the built-in codecs even when faiss-node is installed (benchmarks and tests of the fallback). */
export function disableNativeFaiss(): void {
  cached = Promise.resolve(null);
  loadError = 'disabled';
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

/** Write a vector file as the chosen index type (flat: `writeFlatIndex`; IVF: trained here, deterministic). */
export async function writeVectorIndex(path: string, v: FlatVectors, choice: IndexChoice): Promise<{ changed: boolean; native: boolean }> {
  if (choice.index_type === 'flat') return writeFlatIndex(path, v);
  return { changed: writeIfChanged(path, encodeIndex(v, choice)), native: false };
}

/** All vectors of a flat or IVF index file, in row order (reuse of unchanged vectors at ingest). */
export function readFlatIndex(path: string): FlatVectors {
  const buf = readFileSync(path);
  return buf.toString('latin1', 0, 4) === FOURCC_IVF_FLAT ? decodeIVFFlat(buf) : decodeFlatIP(buf);
}

/** Bytes of a FAISS file's type code and index header up to ntotal. */
const HEAD_BYTES = 4 + 4 + 8;

/** Type code, dims and row count from a FAISS file's first bytes (flat or IVF). */
export function indexHeader(path: string): { fourcc: string; dims: number; count: number } {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    if (readSync(fd, head, 0, HEAD_BYTES, 0) < HEAD_BYTES) throw new Error('truncated');
    const fourcc = head.toString('latin1', 0, 4);
    if (fourcc !== FOURCC_FLAT_IP && fourcc !== FOURCC_IVF_FLAT) throw new Error(`unsupported FAISS index type ${JSON.stringify(fourcc)}`);
    return { fourcc, dims: head.readInt32LE(4), count: Number(head.readBigInt64LE(8)) };
  } finally {
    closeSync(fd);
  }
}

/** An index opened for search: top-k rows by inner product. */
export interface OpenIndex {
  native: boolean;
  search(query: Float32Array, k: number): { row: number; score: number }[];
}

/**
 * Open a FAISS file for search, once (callers keep the result per process): natively with
 * faiss-node when it loads (any index type; IVF probes as many lists as the file records), else
 * with the built-in codecs (flat: decoded and scanned; IVF: only the probed lists are read).
 */
export async function openIndex(path: string): Promise<OpenIndex> {
  const faiss = await loadFaiss();
  const { fourcc, count } = indexHeader(path);
  if (faiss && count > 0) {
    const ix = faiss.Index.read(path);
    return {
      native: true,
      search(query, k) {
        const r = ix.search(Array.from(query), Math.min(k, count));
        return r.labels.map((row, i) => ({ row, score: r.distances[i]! })).filter((h) => h.row >= 0);
      },
    };
  }
  if (fourcc === FOURCC_IVF_FLAT) {
    const ivf = openIVF(path);
    return { native: false, search: (query, k) => ivf.search(query, k) };
  }
  const v = decodeFlatIP(readFileSync(path));
  return { native: false, search: (query, k) => searchFlat(v, query, k) };
}
