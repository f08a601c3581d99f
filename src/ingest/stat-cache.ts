/** Local-only cache of (size, mtime) → sha256, so unchanged files are not re-hashed. Git-ignored. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STAT_CACHE_FILE } from '../store/layout.js';
import { StatCache } from '../store/schemas.js';
import { writeIfChanged } from '../store/atomic.js';
import { canonicalJson, sortKeys } from '../store/json.js';

export function readStatCache(root: string): StatCache {
  const p = join(root, STAT_CACHE_FILE);
  if (!existsSync(p)) return { files: {} };
  try {
    return StatCache.parse(JSON.parse(readFileSync(p, 'utf8')));
  } catch {
    return { files: {} };
  }
}

export function writeStatCache(root: string, cache: StatCache): void {
  writeIfChanged(join(root, STAT_CACHE_FILE), canonicalJson({ files: sortKeys(cache.files) }));
}
