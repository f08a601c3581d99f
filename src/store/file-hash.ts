/** sha256 of a file on disk, read in chunks (admin's source check and an answer's freshness check share it). */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** Bytes read at a time while hashing a file. */
const HASH_CHUNK_BYTES = 1 << 20;

/** sha256 of a file, read in chunks. Throws the file system's error (e.g. EACCES). */
export function sha256File(abs: string): string {
  const hash = createHash('sha256');
  const fd = openSync(abs, 'r');
  try {
    const buf = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
