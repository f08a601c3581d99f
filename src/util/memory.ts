/**
 * Full garbage collections at the few moments an ingest lets go of a large source (issue #12:
 * peak RSS ≤ 1 GB while ingesting a 200 MB text file). V8 sizes the old generation from the live
 * set of its last collection, so after a 200 MB file's bytes and text die it would let garbage
 * grow to several times that before collecting: the peak is set by garbage, not by what is live.
 * Collecting right when the large buffers die keeps the peak near the live set. Small sources
 * never pay for it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Sources whose file is at least this large get a full collection after the stages that drop their big buffers. */
export const LARGE_SOURCE_BYTES = 32 << 20;

let gcFn: (() => void) | null | undefined;

/** V8's collector: the global one when node runs with --expose-gc, else exposed for this process; null when neither works. */
function collector(): (() => void) | null {
  if (gcFn !== undefined) return gcFn;
  const existing = (globalThis as { gc?: () => void }).gc;
  if (typeof existing === 'function') return (gcFn = existing);
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    gcFn = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    gcFn = null;
  }
  return gcFn;
}

/** Run a full garbage collection now when `bytes` (the size of what was just let go) is large; true if one ran. */
export function collectAfterLarge(bytes: number): boolean {
  if (bytes < LARGE_SOURCE_BYTES) return false;
  const gc = collector();
  gc?.();
  return !!gc;
}
