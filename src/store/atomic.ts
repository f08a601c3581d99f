import { mkdirSync, openSync, writeSync, fsyncSync, closeSync, renameSync, readFileSync, rmSync, existsSync } from 'node:fs';
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
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
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
