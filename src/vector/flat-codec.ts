/**
 * Byte codec of a FAISS IndexFlatIP file (faiss/impl/index_write.cpp: fourcc "IxFI", header
 * d:int32, ntotal:int64, two int64 dummies (1<<20), is_trained:uint8, metric_type:int32, then the
 * codes as uint64 count-of-floats + float32 data). Lets the store be written and read without the
 * native module, byte-identical to faiss.write_index, and readable by Python's faiss.read_index.
 */
export const FOURCC_FLAT_IP = 'IxFI';
export const METRIC_INNER_PRODUCT = 0;
const DUMMY = 1n << 20n;
/** Bytes before the first vector of a flat index file. */
export const FLAT_HEADER_BYTES = 4 + 4 + 8 + 8 + 8 + 1 + 4 + 8;
const HEADER_BYTES = FLAT_HEADER_BYTES;

export interface FlatVectors {
  dims: number;
  count: number;
  /** count × dims, row-major */
  data: Float32Array;
}

export function encodeFlatIP(v: FlatVectors): Buffer {
  return Buffer.concat(flatIPPieces(v));
}

/** The header of a flat index file of `count` vectors of `dims`. */
export function flatIPHeader(dims: number, count: number): Buffer {
  const head = Buffer.alloc(HEADER_BYTES);
  let o = head.write(FOURCC_FLAT_IP, 0, 'latin1');
  o = head.writeInt32LE(dims, o);
  o = head.writeBigInt64LE(BigInt(count), o);
  o = head.writeBigInt64LE(DUMMY, o);
  o = head.writeBigInt64LE(DUMMY, o);
  o = head.writeUInt8(1, o);
  o = head.writeInt32LE(METRIC_INNER_PRODUCT, o);
  head.writeBigUInt64LE(BigInt(count * dims), o);
  return head;
}

/** A flat index file as its header and a view of the vectors (written without copying them). */
export function flatIPPieces(v: FlatVectors): [Buffer, Uint8Array] {
  if (v.data.length !== v.count * v.dims) throw new Error(`vector data has ${v.data.length} floats, expected ${v.count}×${v.dims}`);
  return [flatIPHeader(v.dims, v.count), new Uint8Array(v.data.buffer, v.data.byteOffset, v.data.byteLength)];
}

export function decodeFlatIP(buf: Buffer): FlatVectors {
  if (buf.length < HEADER_BYTES) throw new Error(`FAISS file too short (${buf.length} bytes)`);
  const fourcc = buf.toString('latin1', 0, 4);
  if (fourcc !== FOURCC_FLAT_IP) throw new Error(`not a FAISS IndexFlatIP file (fourcc ${JSON.stringify(fourcc)})`);
  let o = 4;
  const dims = buf.readInt32LE(o); o += 4;
  const count = Number(buf.readBigInt64LE(o)); o += 8 + 16 + 1;
  const metric = buf.readInt32LE(o); o += 4;
  if (metric !== METRIC_INNER_PRODUCT) throw new Error(`unexpected FAISS metric ${metric}`);
  const floats = Number(buf.readBigUInt64LE(o)); o += 8;
  if (floats !== dims * count || buf.length !== o + floats * 4) {
    throw new Error(`FAISS file is truncated or corrupt (${count}×${dims} vectors declared, ${buf.length} bytes)`);
  }
  const data = new Float32Array(floats);
  Buffer.from(data.buffer).set(buf.subarray(o, o + floats * 4));
  return { dims, count, data };
}

/** Top-k rows by inner product (brute force; ties broken by row order). */
export function searchFlat(v: FlatVectors, query: Float32Array, k: number, rows?: Iterable<number>): { row: number; score: number }[] {
  const hits: { row: number; score: number }[] = [];
  const scan = rows ?? Array.from({ length: v.count }, (_, i) => i);
  for (const r of scan) {
    let s = 0;
    const off = r * v.dims;
    for (let j = 0; j < v.dims; j++) s += v.data[off + j]! * query[j]!;
    hits.push({ row: r, score: s });
  }
  hits.sort((a, b) => b.score - a.score || a.row - b.row);
  return hits.slice(0, k);
}
