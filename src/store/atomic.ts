import { mkdirSync, openSync, writeSync, fsyncSync, closeSync, renameSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';

let counter = 0;

/** Write via a temp file in the same folder and rename over the target, so readers never see half a file. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${counter++}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
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
export function writeIfChanged(path: string, data: string | Uint8Array): boolean {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  if (existsSync(path)) {
    try {
      if (readFileSync(path).equals(bytes)) return false;
    } catch {
      /* unreadable: rewrite */
    }
  }
  writeFileAtomic(path, bytes);
  return true;
}
