/**
 * Lazy faiss-node wrapper. faiss-node is optional: when it loads, FAISS files are written and
 * searched with it; otherwise the pure codec in flat-codec.ts writes identical bytes and searches
 * by brute force (exact, same results for a flat inner-product index).
 */
import { closeSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { FOURCC_FLAT_IP, decodeFlatIP, encodeFlatIP, flatIPPieces, searchFlat, type FlatVectors } from './flat-codec.js';
import { FOURCC_IVF_FLAT, openIVF, decodeIVFFlat } from './ivf-codec.js';
import { encodeIndex, type IndexChoice } from './index-choice.js';
import { writeIfChanged, writePiecesIfChanged } from '../store/atomic.js';

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

/** Vectors faiss-node writes to check that its file layout is the codec's (a bounded probe, not the whole index). */
export const NATIVE_PROBE_VECTORS = 64;

/** True when faiss::write_index writes the first vectors of `v` byte for byte as the codec does. */
function nativeAgrees(faiss: FaissModule, path: string, v: FlatVectors): boolean {
  const count = Math.min(v.count, NATIVE_PROBE_VECTORS);
  const probe: FlatVectors = { dims: v.dims, count, data: v.data.subarray(0, count * v.dims) };
  const ix = new faiss.IndexFlatIP(v.dims);
  ix.add(Array.from(probe.data));
  const tmp = `${path}.native-${process.pid}`;
  try {
    ix.write(tmp);
    return readFileSync(tmp).equals(encodeFlatIP(probe));
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Write a flat inner-product index; returns true when the file changed, and whether faiss-node
 * (when present) writes the same layout. The bytes are always the codec's, so stores stay
 * byte-identical across machines (faiss 1.7.x writes exactly these; should a future faiss write
 * another layout, both remain readable by faiss). Checking faiss on a probe of the first vectors
 * instead of the whole index keeps a 100k-vector index from being held three times over.
 */
export async function writeFlatIndex(path: string, v: FlatVectors, opts: { useNative?: boolean } = {}): Promise<{ changed: boolean; native: boolean }> {
  const faiss = opts.useNative === false ? null : await loadFaiss();
  const native = !!faiss && v.count > 0 && nativeAgrees(faiss, path, v);
  return { changed: writePiecesIfChanged(path, flatIPPieces(v)), native };
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
