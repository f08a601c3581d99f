/**
 * Vectors embedded by a run that has not finished yet, kept so an interrupted ingest (Ctrl-C,
 * SIGTERM, kill -9, power cut) does not embed them again: each chunk of new vectors is appended to
 * `.mhub/embedded-<model fingerprint>.bin` (record: 8 bytes of text sha + dims float32). A torn last
 * record is ignored. The file goes once the vector index is written. Local only, git-ignored.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_DIR } from '../store/layout.js';
import type { ModelIdentity } from '../embed/types.js';

const SHA_BYTES = 8;
const PREFIX = 'embedded-';

function fileFor(root: string, model: ModelIdentity): string {
  return join(root, LOCAL_DIR, `${PREFIX}${model.fingerprint}-${model.dims}.bin`);
}

/** Vectors by text sha from an unfinished run with the same model. */
export function readEmbedCheckpoint(root: string, model: ModelIdentity): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  const p = fileFor(root, model);
  if (!existsSync(p)) return out;
  const buf = readFileSync(p);
  const rec = SHA_BYTES + model.dims * 4;
  for (let off = 0; off + rec <= buf.length; off += rec) {
    const sha = buf.toString('hex', off, off + SHA_BYTES);
    const v = new Float32Array(model.dims);
    for (let d = 0; d < model.dims; d++) v[d] = buf.readFloatLE(off + SHA_BYTES + d * 4);
    out.set(sha, v);
  }
  return out;
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
