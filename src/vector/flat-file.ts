/**
 * A flat inner-product index file written and read one row at a time, so a node index of 100k
 * vectors (200 MB at 512 dims) is never held in memory: the writer puts each vector at its row's
 * offset in a temp file as soon as it is known (rows may arrive out of order), writes the header
 * last and then replaces the index only if its bytes changed; the reader reads single rows of an
 * existing file (vectors reused from the previous build). Same bytes as flat-codec.ts.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FLAT_HEADER_BYTES, FOURCC_FLAT_IP, flatIPHeader } from './flat-codec.js';
import { replaceIfChanged } from '../store/atomic.js';

/** Suffix of the temp files of unfinished writers (removed by the next writer of the same index). */
const TEMP_SUFFIX = '.rows-tmp';

export class FlatRowsWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private readonly rowBytes: number;
  private readonly seen = new Set<number>();
  private done = false;

  /** `path`: the index to write; `tmpDir`: where the temp file lives until then (same file system). */
  constructor(private readonly path: string, tmpDir: string, readonly dims: number) {
    mkdirSync(tmpDir, { recursive: true });
    const prefix = `${basename(path)}.`;
    // a writer killed before it finished left its temp file: it is of no use to anyone
    for (const f of readdirSync(tmpDir)) if (f.startsWith(prefix) && f.endsWith(TEMP_SUFFIX)) rmSync(join(tmpDir, f), { force: true });
    this.tmp = join(tmpDir, `${prefix}${process.pid}${TEMP_SUFFIX}`);
    this.fd = openSync(this.tmp, 'w+');
    this.rowBytes = dims * 4;
  }

  /** Put the vector of row `row` (each row once). */
  write(row: number, v: Float32Array): void {
    if (v.length !== this.dims) throw new Error(`vector of ${v.length} dims for an index of ${this.dims}`);
    if (this.seen.has(row)) throw new Error(`row ${row} written twice`);
    this.seen.add(row);
    writeSync(this.fd, new Uint8Array(v.buffer, v.byteOffset, v.byteLength), 0, this.rowBytes, FLAT_HEADER_BYTES + row * this.rowBytes);
  }

  /** The vector already written for `row`. */
  read(row: number): Float32Array {
    if (!this.seen.has(row)) throw new Error(`row ${row} not written yet`);
    return readRow(this.fd, FLAT_HEADER_BYTES + row * this.rowBytes, this.dims);
  }

  /** Write the header for rows 0..count-1 (every one written) and replace the index if it changed; true if it did. */
  finish(count: number, durable = true): boolean {
    if (this.seen.size !== count) throw new Error(`${this.seen.size} rows written for an index of ${count}`);
    try {
      writeSync(this.fd, flatIPHeader(this.dims, count), 0, FLAT_HEADER_BYTES, 0);
      if (durable) fsyncSync(this.fd);
    } finally {
      this.close();
    }
    mkdirSync(dirname(this.path), { recursive: true });
    return replaceIfChanged(this.tmp, this.path);
  }

  /** Give up: remove the temp file. */
  abort(): void {
    this.close();
    rmSync(this.tmp, { force: true });
  }

  private close(): void {
    if (this.done) return;
    this.done = true;
    closeSync(this.fd);
  }
}

function readRow(fd: number, offset: number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  const bytes = new Uint8Array(v.buffer);
  if (readSync(fd, bytes, 0, bytes.length, offset) !== bytes.length) throw new Error('vector file is truncated');
  return v;
}

/** Rows of an existing flat index file, read one at a time. */
export class FlatRowsReader {
  private constructor(private readonly fd: number, readonly dims: number, readonly count: number) {}

  /** The file opened for reading rows; null when it is missing or not a whole flat index file. */
  static open(path: string): FlatRowsReader | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    try {
      const head = Buffer.alloc(FLAT_HEADER_BYTES);
      if (readSync(fd, head, 0, FLAT_HEADER_BYTES, 0) === FLAT_HEADER_BYTES && head.toString('latin1', 0, 4) === FOURCC_FLAT_IP) {
        const dims = head.readInt32LE(4);
        const count = Number(head.readBigInt64LE(8));
        if (dims > 0 && statSync(path).size === FLAT_HEADER_BYTES + count * dims * 4) return new FlatRowsReader(fd, dims, count);
      }
    } catch {
      /* unreadable: not reused */
    }
    closeSync(fd);
    return null;
  }

  read(row: number): Float32Array {
    if (row < 0 || row >= this.count) throw new Error(`row ${row} out of range (${this.count} rows)`);
    return readRow(this.fd, FLAT_HEADER_BYTES + row * this.dims * 4, this.dims);
  }

  close(): void {
    closeSync(this.fd);
  }
}
