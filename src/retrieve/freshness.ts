/**
 * How fresh the index is: when it was built, and whether sources on disk changed since. Cheap by
 * design (no hashing): each source's size and mtime are compared with the local stat cache written
 * at ingest (`.mhub/stat-cache.json`), falling back to the catalog's size when the cache is absent
 * (e.g. a fresh git clone); new files in the inbox are counted with a bounded walk.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Catalog } from '../store/schemas.js';
import { STAT_CACHE_FILE } from '../store/layout.js';
import { compareStrings } from '../store/json.js';
import { inboxName } from './store-read.js';

/** File names listed per category in the answer (counts are always complete). */
export const FRESHNESS_LIST_MAX = 5;
/** Upper bound on directory entries visited when looking for new inbox files. */
export const INBOX_SCAN_MAX_ENTRIES = 2000;

/** mtimes closer than this count as equal (copies and some file systems round sub-millisecond times). */
export const MTIME_TOLERANCE_MS = 1;

const IGNORED_NAMES = new Set(['.DS_Store', 'Thumbs.db', '.gitkeep', '.git', 'node_modules']);

export interface Freshness {
  /** when the index was last built (catalog.last_updated) */
  built_at: string | null;
  /** true when sources on disk changed, vanished or appeared since the build */
  stale: boolean;
  changed: number;
  missing: number;
  new_files: number;
  /** a few of the affected files (store-relative) */
  examples?: string[];
  warning?: string;
}

interface StatEntry {
  size: number;
  mtime_ms: number;
}

function readStatCache(root: string): Record<string, StatEntry> {
  try {
    const raw = JSON.parse(readFileSync(join(root, STAT_CACHE_FILE), 'utf8')) as { files?: Record<string, StatEntry> };
    return raw.files && typeof raw.files === 'object' ? raw.files : {};
  } catch {
    return {};
  }
}

/** Files under the inbox (store-relative POSIX paths), at most INBOX_SCAN_MAX_ENTRIES entries visited. */
function inboxFiles(root: string, inbox: string): string[] {
  const out: string[] = [];
  let budget = INBOX_SCAN_MAX_ENTRIES;
  const walk = (abs: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const name of names) {
      if (--budget < 0) return;
      if (IGNORED_NAMES.has(name) || name.includes('.tmp-')) continue;
      const a = join(abs, name);
      const r = `${rel}/${name}`;
      let st;
      try {
        st = statSync(a);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(a, r);
      else if (st.isFile()) out.push(r);
    }
  };
  if (!inbox.includes('..') && !inbox.startsWith('/')) walk(join(root, inbox), inbox);
  return out;
}

export function checkFreshness(root: string, catalog: Catalog): Freshness {
  const cache = readStatCache(root);
  const changed: string[] = [];
  const missing: string[] = [];
  const known = new Set<string>();
  for (const e of catalog.sources) {
    known.add(e.original_path);
    let st;
    try {
      st = statSync(resolve(root, e.original_path));
    } catch {
      missing.push(e.original_path);
      continue;
    }
    const c = cache[e.original_path];
    const same = c ? c.size === st.size && Math.abs(c.mtime_ms - st.mtimeMs) <= MTIME_TOLERANCE_MS : Math.round((st.size / 1024) * 10) / 10 === e.size_kb;
    if (!same) changed.push(e.original_path);
  }
  const fresh = inboxFiles(root, inboxName(root)).filter((f) => !known.has(f));
  const stale = changed.length + missing.length + fresh.length > 0;
  const out: Freshness = { built_at: catalog.last_updated ?? null, stale, changed: changed.length, missing: missing.length, new_files: fresh.length };
  if (stale) {
    const parts: string[] = [];
    if (changed.length) parts.push(`${changed.length} changed`);
    if (missing.length) parts.push(`${missing.length} deleted`);
    if (fresh.length) parts.push(`${fresh.length} new in the inbox`);
    out.examples = [...changed, ...missing, ...fresh].sort(compareStrings).slice(0, FRESHNESS_LIST_MAX);
    out.warning = `The index is stale: ${parts.join(', ')} since it was built${out.built_at ? ` at ${out.built_at}` : ''}. Answers may be out of date; run \`mhub ingest\` to refresh.`;
  }
  return out;
}
