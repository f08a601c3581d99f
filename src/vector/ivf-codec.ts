/**
 * Byte codec of a FAISS IndexIVFFlat file with inner-product metric (faiss/impl/index_write.cpp,
 * faiss 1.7): fourcc "IwFl", index header (d, ntotal, two dummies, is_trained, metric), nlist,
 * nprobe, the coarse quantizer (an IndexFlatIP of the list centroids), the direct map (none), then
 * the inverted lists ("ilar": nlist, code size, "full" or "sprs" list sizes, then per list its
 * vectors and their int64 row ids). faiss.read_index and faiss-node read these files; the reader
 * here opens only the header and centroids, then reads just the lists a query probes.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { FOURCC_FLAT_IP, METRIC_INNER_PRODUCT, encodeFlatIP, type FlatVectors } from './flat-codec.js';

export const FOURCC_IVF_FLAT = 'IwFl';
const DUMMY = 1n << 20n;
const INDEX_HEADER_BYTES = 4 + 4 + 8 + 8 + 8 + 1 + 4;
const FLAT_HEADER_BYTES = INDEX_HEADER_BYTES + 8;

export interface IVFLists {
  dims: number;
  /** nlist × dims, row-major */
  centroids: Float32Array;
  /** lists probed per query (recorded in the file, used by faiss and by this reader) */
  nprobe: number;
  /** per list: row ids (ascending) */
  lists: number[][];
  /** all vectors in row order, count × dims */
  data: Float32Array;
}

function indexHeader(fourcc: string, dims: number, count: number): Buffer {
  const b = Buffer.alloc(INDEX_HEADER_BYTES);
  let o = b.write(fourcc, 0, 'latin1');
  o = b.writeInt32LE(dims, o);
  o = b.writeBigInt64LE(BigInt(count), o);
  o = b.writeBigInt64LE(DUMMY, o);
  o = b.writeBigInt64LE(DUMMY, o);
  o = b.writeUInt8(1, o);
  b.writeInt32LE(METRIC_INNER_PRODUCT, o);
  return b;
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

/** List sizes as faiss writes them: "full" (every size) when over half the lists are used, else "sprs" (index, size pairs). */
function listSizes(lists: number[][]): Buffer {
  const used = lists.filter((l) => l.length > 0).length;
  if (used > lists.length / 2) return Buffer.concat([Buffer.from('full', 'latin1'), u64(lists.length), ...lists.map((l) => u64(l.length))]);
  const pairs = lists.flatMap((l, i) => (l.length > 0 ? [u64(i), u64(l.length)] : []));
  return Buffer.concat([Buffer.from('sprs', 'latin1'), u64(pairs.length), ...pairs]);
}

export function encodeIVFFlat(v: IVFLists): Buffer {
  const nlist = v.lists.length;
  const count = v.data.length / v.dims;
  const parts: Buffer[] = [indexHeader(FOURCC_IVF_FLAT, v.dims, count), u64(nlist), u64(v.nprobe)];
  parts.push(encodeFlatIP({ dims: v.dims, count: nlist, data: v.centroids }));
  parts.push(Buffer.from([0]), u64(0)); // direct map: none
  parts.push(Buffer.from('ilar', 'latin1'), u64(nlist), u64(v.dims * 4), listSizes(v.lists));
  for (const rows of v.lists) {
    if (rows.length === 0) continue;
    const codes = Buffer.alloc(rows.length * v.dims * 4);
    rows.forEach((r, k) => Buffer.from(v.data.buffer, v.data.byteOffset + r * v.dims * 4, v.dims * 4).copy(codes, k * v.dims * 4));
    const ids = Buffer.alloc(rows.length * 8);
    rows.forEach((r, k) => ids.writeBigInt64LE(BigInt(r), k * 8));
    parts.push(codes, ids);
  }
  return Buffer.concat(parts);
}

/** Reads a file front to back (positioned reads, only as far as asked). */
class FileCursor {
  pos = 0;
  constructor(readonly read: (into: Buffer, at: number) => void, readonly size: number) {}
  bytes(n: number, what: string): Buffer {
    if (this.pos + n > this.size) throw new Error(`IVF file truncated while reading ${what}`);
    const b = Buffer.alloc(n);
    this.read(b, this.pos);
    this.pos += n;
    return b;
  }
  u64(what: string): number {
    return Number(this.bytes(8, what).readBigUInt64LE(0));
  }
  fourcc(want: string, what: string): void {
    const got = this.bytes(4, what).toString('latin1');
    if (got !== want) throw new Error(`IVF file: expected ${want} for ${what}, found ${JSON.stringify(got)}`);
  }
}

export interface IVFLayout {
  dims: number;
  count: number;
  nprobe: number;
  centroids: Float32Array;
  /** per list: its size and the byte offset of its vectors (ids follow them) */
  lists: Array<{ size: number; offset: number }>;
}

/** Header, centroids and list table of an open IVF file. */
function readLayout(c: FileCursor): IVFLayout {
  const h = c.bytes(INDEX_HEADER_BYTES, 'the header');
  if (h.toString('latin1', 0, 4) !== FOURCC_IVF_FLAT) throw new Error('not a FAISS IndexIVFFlat file');
  if (h.readInt32LE(INDEX_HEADER_BYTES - 4) !== METRIC_INNER_PRODUCT) throw new Error('IVF file: not inner product');
  const dims = h.readInt32LE(4);
  const count = Number(h.readBigInt64LE(8));
  const nlist = c.u64('nlist');
  const nprobe = c.u64('nprobe');
  const q = c.bytes(FLAT_HEADER_BYTES, 'the quantizer');
  if (q.toString('latin1', 0, 4) !== FOURCC_FLAT_IP) throw new Error('IVF file: quantizer is not IndexFlatIP');
  const cb = c.bytes(nlist * dims * 4, 'the centroids');
  const centroids = new Float32Array(cb.buffer, cb.byteOffset, nlist * dims);
  c.bytes(1, 'the direct map');
  if (c.u64('the direct map') !== 0) throw new Error('IVF file: direct map not supported');
  c.fourcc('ilar', 'the inverted lists');
  if (c.u64('nlist') !== nlist || c.u64('code size') !== dims * 4) throw new Error('IVF file: inverted lists do not match the header');
  const kind = c.bytes(4, 'the list sizes').toString('latin1');
  const n = c.u64('the list sizes');
  const raw = c.bytes(n * 8, 'the list sizes');
  const sizes = new Array<number>(nlist).fill(0);
  for (let i = 0; i < n; i++) {
    if (kind === 'full') sizes[i] = Number(raw.readBigUInt64LE(i * 8));
    else if (kind === 'sprs' && i % 2 === 0) sizes[Number(raw.readBigUInt64LE(i * 8))] = Number(raw.readBigUInt64LE(i * 8 + 8));
  }
  const lists: IVFLayout['lists'] = [];
  let off = c.pos;
  for (const size of sizes) {
    lists.push({ size, offset: off });
    off += size * (dims * 4 + 8);
  }
  if (off !== c.size || sizes.reduce((a, b) => a + b, 0) !== count) throw new Error('IVF file is truncated or corrupt');
  return { dims, count, nprobe, centroids, lists };
}

/** The lists whose centroids have the largest inner product with the query. */
function probedLists(l: IVFLayout, q: Float32Array, nprobe: number): number[] {
  const scores = l.lists.map((_, i) => {
    let s = 0;
    for (let j = 0; j < l.dims; j++) s += l.centroids[i * l.dims + j]! * q[j]!;
    return [i, s] as [number, number];
  });
  scores.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return scores.slice(0, nprobe).map(([i]) => i);
}

export interface OpenIVF {
  layout: IVFLayout;
  /** top-k rows by inner product among the probed lists (`nprobe` defaults to the file's) */
  search(q: Float32Array, k: number, nprobe?: number): { row: number; score: number }[];
}

/** Open an IVF file: header and centroids now, lists when probed (positioned reads; fd kept open for the process). */
export function openIVF(path: string): OpenIVF {
  const fd = openSync(path, 'r');
  let layout: IVFLayout;
  try {
    layout = readLayout(new FileCursor((b, at) => readSync(fd, b, 0, b.length, at), fstatSync(fd).size));
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  const search = (q: Float32Array, k: number, nprobe = layout.nprobe) => {
    const hits: { row: number; score: number }[] = [];
    const d = layout.dims;
    for (const li of probedLists(layout, q, nprobe)) {
      const { size, offset } = layout.lists[li]!;
      if (size === 0) continue;
      const buf = Buffer.alloc(size * (d * 4 + 8));
      readSync(fd, buf, 0, buf.length, offset);
      const vec = new Float32Array(buf.buffer, buf.byteOffset, size * d);
      for (let r = 0; r < size; r++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += vec[r * d + j]! * q[j]!;
        hits.push({ row: Number(buf.readBigInt64LE(size * d * 4 + r * 8)), score: s });
      }
    }
    hits.sort((a, b) => b.score - a.score || a.row - b.row);
    return hits.slice(0, k);
  };
  return { layout, search };
}

/** Every vector of an IVF file back in row order (ingest reuses unchanged vectors). */
export function decodeIVFFlat(buf: Buffer): FlatVectors {
  const c = new FileCursor((b, at) => buf.copy(b, 0, at, at + b.length), buf.length);
  const l = readLayout(c);
  const data = new Float32Array(l.count * l.dims);
  for (const { size: n, offset } of l.lists) {
    const vec = new Float32Array(buf.buffer.slice(buf.byteOffset + offset, buf.byteOffset + offset + n * l.dims * 4));
    for (let r = 0; r < n; r++) {
      const row = Number(buf.readBigInt64LE(offset + n * l.dims * 4 + r * 8));
      data.set(vec.subarray(r * l.dims, (r + 1) * l.dims), row * l.dims);
    }
  }
  return { dims: l.dims, count: l.count, data };
}
