/**
 * Vectors embedded by a run that has not finished yet, kept so an interrupted ingest (Ctrl-C,
 * SIGTERM, kill -9, power cut) does not embed them again: each chunk of new vectors is appended to
 * `.mhub/embedded-<model fingerprint>.bin` (record: 8 bytes of text sha + dims float32). A torn last
 * record is ignored. The file goes once the vector index is written. Local only, git-ignored.
 */
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_DIR } from '../store/layout.js';
import type { ModelIdentity } from '../embed/types.js';

const SHA_BYTES = 8;
const PREFIX = 'embedded-';

function fileFor(root: string, model: ModelIdentity): string {
  return join(root, LOCAL_DIR, `${PREFIX}${model.fingerprint}-${model.dims}.bin`);
}

/** Vectors an unfinished run checkpointed, looked up by text sha and read from the file when asked for. */
export interface EmbedCheckpoint {
  /** vectors held */
  readonly size: number;
  get(sha: string): Float32Array | undefined;
  close(): void;
}

/** Records read at a time while indexing the file (only their shas are kept). */
const INDEX_RECORDS = 256;

/**
 * The checkpoint of an unfinished run with the same model: the file is scanned once for the shas
 * (an interrupted run over 100k nodes left 200 MB of vectors, which are not loaded), and each
 * vector is read when asked for.
 */
export function openEmbedCheckpoint(root: string, model: ModelIdentity): EmbedCheckpoint {
  const offsets = new Map<string, number>();
  const p = fileFor(root, model);
  const rec = SHA_BYTES + model.dims * 4;
  const fd = existsSync(p) ? openSync(p, 'r') : null;
  if (fd !== null) {
    const whole = Math.floor(statSync(p).size / rec); // a torn last record is ignored
    const buf = Buffer.alloc(rec * INDEX_RECORDS);
    for (let first = 0; first < whole; first += INDEX_RECORDS) {
      const n = Math.min(INDEX_RECORDS, whole - first);
      readSync(fd, buf, 0, n * rec, first * rec);
      for (let i = 0; i < n; i++) offsets.set(buf.toString('hex', i * rec, i * rec + SHA_BYTES), (first + i) * rec + SHA_BYTES);
    }
  }
  return {
    size: offsets.size,
    get(sha) {
      const off = offsets.get(sha);
      if (off === undefined || fd === null) return undefined;
      const b = Buffer.alloc(model.dims * 4);
      readSync(fd, b, 0, b.length, off);
      const v = new Float32Array(model.dims);
      for (let d = 0; d < model.dims; d++) v[d] = b.readFloatLE(d * 4);
      return v;
    },
    close() {
      if (fd !== null) closeSync(fd);
    },
  };
}

/** Append vectors (sha → vector) to the checkpoint. */
export function appendEmbedCheckpoint(root: string, model: ModelIdentity, items: Array<[string, Float32Array]>): void {
  if (items.length === 0) return;
  const rec = SHA_BYTES + model.dims * 4;
  const buf = Buffer.alloc(items.length * rec);
  items.forEach(([sha, v], i) => {
    buf.write(sha, i * rec, SHA_BYTES, 'hex');
    for (let d = 0; d < model.dims; d++) buf.writeFloatLE(v[d]!, i * rec + SHA_BYTES + d * 4);
  });
  mkdirSync(join(root, LOCAL_DIR), { recursive: true });
  appendFileSync(fileFor(root, model), buf);
}

/** Remove every embedding checkpoint (the vector index now holds what they held). */
export function clearEmbedCheckpoints(root: string): void {
  const dir = join(root, LOCAL_DIR);
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) if (f.startsWith(PREFIX)) rmSync(join(dir, f), { force: true });
}
