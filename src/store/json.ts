/**
 * Canonical JSON for the store: 2-space indent, LF, trailing newline. Objects keep insertion order
 * (callers build them from zod schemas, whose parse output follows the schema's key order); maps
 * whose keys are data (records) should go through sortKeys first.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** A copy of a plain record with its keys sorted (code-point order, locale independent). */
export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(record).sort(compareStrings)) out[k] = record[k] as T;
  return out;
}

/** Locale-independent string comparison, for every sort whose result lands in the store. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
