/**
 * Reads a FAISS index file's header without loading FAISS, to prove the file is whole: for flat
 * indexes (and ID maps over them) the exact byte length follows from dims and row count, so a
 * truncated or padded file is caught. Layout: faiss/impl/index_write.cpp (write_index_header,
 * IndexFlat codes as a size-prefixed float vector, IndexIDMap = header + sub-index + id vector).
 */
import { readFileSync } from 'node:fs';

export interface FaissInfo {
  /** four-character type code, e.g. IxFI (flat inner product), IxF2 (flat L2), IxMp (ID map) */
  fourcc: string;
  dims: number;
  ntotal: number;
  /** true when the byte length was checked exactly against the layout */
  verified: boolean;
}

export class FaissFileError extends Error {}

/** Flat index codes: all stored vectors, one float32 per dimension. */
const FLAT_CODES = new Set(['IxFI', 'IxF2', 'IxFl']);
const ID_MAPS = new Set(['IxMp', 'IxM2']);
/** metric types above this carry an extra float argument in the header */
const METRIC_WITH_ARG = 1;
/** Upper bound on plausible dimensions (guards against reading garbage as a header). */
const MAX_DIMS = 65536;

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  need(n: number, what: string): void {
    if (this.pos + n > this.buf.length) throw new FaissFileError(`file ends at byte ${this.buf.length} while reading ${what} (needs ${this.pos + n}): truncated`);
  }
  fourcc(): string {
    this.need(4, 'the type code');
    const s = this.buf.toString('latin1', this.pos, this.pos + 4);
    this.pos += 4;
    return s;
  }
  i32(what: string): number {
    this.need(4, what);
    const v = this.buf.readInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  i64(what: string): number {
    this.need(8, what);
    const v = Number(this.buf.readBigInt64LE(this.pos));
    this.pos += 8;
    return v;
  }
  skip(n: number, what: string): void {
    this.need(n, what);
    this.pos += n;
  }
}

function readHeader(r: Reader): { dims: number; ntotal: number } {
  const dims = r.i32('dims');
  const ntotal = r.i64('row count');
  r.skip(16, 'header padding');
  r.skip(1, 'is_trained');
  const metric = r.i32('metric type');
  if (metric > METRIC_WITH_ARG) r.skip(4, 'metric argument');
  if (dims <= 0 || dims > MAX_DIMS || ntotal < 0) throw new FaissFileError(`implausible header (dims ${dims}, rows ${ntotal})`);
  return { dims, ntotal };
}

function readIndex(r: Reader): FaissInfo {
  const fourcc = r.fourcc();
  if (!/^[A-Za-z0-9]{4}$/.test(fourcc)) throw new FaissFileError(`not a FAISS index (type code ${JSON.stringify(fourcc)})`);
  const { dims, ntotal } = readHeader(r);
  if (FLAT_CODES.has(fourcc)) {
    const floats = r.i64('vector count');
    if (floats !== dims * ntotal) throw new FaissFileError(`holds ${floats} floats, expected ${dims} × ${ntotal}`);
    r.skip(floats * 4, `${ntotal} vectors`);
    return { fourcc, dims, ntotal, verified: true };
  }
  if (ID_MAPS.has(fourcc)) {
    const sub = readIndex(r);
    const ids = r.i64('id count');
    if (ids !== ntotal) throw new FaissFileError(`id map holds ${ids} ids for ${ntotal} rows`);
    r.skip(ids * 8, 'row ids');
    return { fourcc, dims, ntotal, verified: sub.verified };
  }
  return { fourcc, dims, ntotal, verified: false };
}

/** Parse and verify a FAISS file; throws FaissFileError saying what is wrong. */
export function inspectFaissFile(path: string): FaissInfo {
  const buf = readFileSync(path);
  const r = new Reader(buf);
  const info = readIndex(r);
  if (info.verified && r.pos !== buf.length) throw new FaissFileError(`${buf.length - r.pos} unexpected trailing bytes`);
  return info;
}

/**
 * Load the file with faiss-node when it is installed (the strongest check); returns null when
 * faiss-node is absent, or the error message when FAISS refuses the file.
 */
export async function faissNodeReads(path: string): Promise<{ ok: boolean; ntotal?: number; error?: string } | null> {
  type Readable = { read(p: string): { ntotal(): number } };
  type Mod = { Index?: Readable; IndexFlatIP?: Readable; default?: Mod };
  let mod: Mod;
  try {
    mod = (await import('faiss-node' as string)) as Mod;
  } catch {
    return null;
  }
  const reader = mod.Index ?? mod.IndexFlatIP ?? mod.default?.Index ?? mod.default?.IndexFlatIP;
  if (!reader) return null;
  try {
    return { ok: true, ntotal: reader.read(path).ntotal() };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
