import { mkdirSync, openSync, writeSync, fsyncSync, closeSync, renameSync, readFileSync, readSync, rmSync, existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

let counter = 0;

/**
 * Write via a temp file in the same folder and rename over the target, so readers never see half a
 * file, and a killed process never leaves one. `durable` (the default) also fsyncs the data before
 * the rename, so a power cut cannot leave an empty file under the name; bulk files that a later
 * run can redo (converted node texts) skip it: fsync per file dominated writing 6,000 of them.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, durable = true): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${counter++}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Atomic write that leaves the file alone (mtime too) when its bytes would not change. Returns true if written. */
export function writeIfChanged(path: string, data: string | Uint8Array, durable = true): boolean {
  // a view, not a copy: a vector index can be hundreds of MB
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (existsSync(path)) {
    try {
      if (readFileSync(path).equals(bytes)) return false;
    } catch {
      /* unreadable: rewrite */
    }
  }
  writeFileAtomic(path, bytes, durable);
  return true;
}

/** Bytes gathered before one write, and compared at a time, by writePiecesIfChanged. */
export const PIECES_BUFFER_BYTES = 1 << 20;

/** True when the two files hold the same bytes (read a block at a time). */
function sameFiles(a: string, b: string): boolean {
  if (statSync(a).size !== statSync(b).size) return false;
  const fa = openSync(a, 'r');
  const fb = openSync(b, 'r');
  try {
    const ba = Buffer.alloc(PIECES_BUFFER_BYTES);
    const bb = Buffer.alloc(PIECES_BUFFER_BYTES);
    for (;;) {
      const na = readSync(fa, ba, 0, ba.length, null);
      const nb = readSync(fb, bb, 0, bb.length, null);
      if (na !== nb || !ba.subarray(0, na).equals(bb.subarray(0, nb))) return false;
      if (na === 0) return true;
    }
  } finally {
    closeSync(fa);
    closeSync(fb);
  }
}

/**
 * writeIfChanged for content made of many pieces (a large index file): text written to the temp
 * file a buffer at a time and byte pieces as they are, never joined into one string or buffer,
 * then compared with the file it would replace a block at a time.
 */
export function writePiecesIfChanged(path: string, pieces: Iterable<string | Uint8Array>, durable = true): boolean {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${counter++}`;
  const fd = openSync(tmp, 'w');
  try {
    let batch: string[] = [];
    let size = 0;
    const flush = () => {
      if (batch.length) writeSync(fd, Buffer.from(batch.join(''), 'utf8'));
      batch = [];
      size = 0;
    };
    for (const p of pieces) {
      if (typeof p !== 'string') {
        flush();
        writeSync(fd, p);
        continue;
      }
      batch.push(p);
      size += p.length;
      if (size >= PIECES_BUFFER_BYTES) flush();
    }
    flush();
    if (durable) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  return replaceIfChanged(tmp, path);
}

/**
 * Move a finished temp file over `path` unless both hold the same bytes (then the temp file is
 * removed and `path`, mtime included, left alone). Returns true if `path` changed. The temp file
 * must be on the same file system (rename).
 */
export function replaceIfChanged(tmp: string, path: string): boolean {
  try {
    if (existsSync(path) && sameFiles(tmp, path)) {
      rmSync(tmp, { force: true });
      return false;
    }
    mkdirSync(dirname(path), { recursive: true });
    renameSync(tmp, path);
    return true;
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
