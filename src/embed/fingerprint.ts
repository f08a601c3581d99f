import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** Bytes hashed from the head and tail of large files (whole small files are hashed). */
const FINGERPRINT_SAMPLE_BYTES = 1 << 20;
export const FINGERPRINT_HEX = 16;

function hashFile(h: ReturnType<typeof createHash>, path: string): void {
  const size = statSync(path).size;
  h.update(`${size}\n`);
  const fd = openSync(path, 'r');
  try {
    const read = (pos: number, len: number) => {
      const buf = Buffer.alloc(len);
      const n = readSync(fd, buf, 0, len, pos);
      h.update(buf.subarray(0, n));
    };
    if (size <= 2 * FINGERPRINT_SAMPLE_BYTES) read(0, size);
    else {
      read(0, FINGERPRINT_SAMPLE_BYTES);
      read(size - FINGERPRINT_SAMPLE_BYTES, FINGERPRINT_SAMPLE_BYTES);
    }
  } finally {
    closeSync(fd);
  }
}

/** A short fingerprint of a model's files (names given relative to nothing: pass absolute paths, in a fixed order). */
export function fingerprintFiles(label: string, paths: string[]): string {
  const h = createHash('sha256');
  h.update(label + '\n');
  for (const p of paths) hashFile(h, p);
  return h.digest('hex').slice(0, FINGERPRINT_HEX);
}
