/** Reads `retry-after-ms` / `retry-after` (seconds or an HTTP date) into milliseconds. */

/** Longest wait a server may ask for before we give up waiting and treat the call as failed. */
export const MAX_RETRY_AFTER_MS = 60_000;

export function retryAfterMs(get: (name: string) => string | null | undefined, now = Date.now()): number | null {
  const ms = get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = get('retry-after');
  if (!ra) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
