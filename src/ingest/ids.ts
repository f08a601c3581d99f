import { createHash } from 'node:crypto';

/** Hex chars of the path hash used in a source id; grows on collision. */
export const ID_HEX_CHARS = 8;

/**
 * `src_` + 8 hex chars of sha256(store-relative path). Derived from the path so the id survives
 * content edits. On a collision with a different path, the next 8-char window of the hash is tried,
 * then longer ids.
 */
export function sourceIdFor(relPath: string, taken: Map<string, string>): string {
  const hex = createHash('sha256').update(relPath).digest('hex');
  for (let len = ID_HEX_CHARS; len <= hex.length; len += 4) {
    for (let start = 0; start + len <= hex.length; start += len) {
      const id = `src_${hex.slice(start, start + len)}`;
      const owner = taken.get(id);
      if (owner === undefined || owner === relPath) {
        taken.set(id, relPath);
        return id;
      }
    }
  }
  throw new Error(`no free source id for ${relPath}`);
}
