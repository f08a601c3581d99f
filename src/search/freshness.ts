/**
 * The one staleness check of retrieval (search, deep_retrieve, read, overview all report it the
 * same way, once): when the index was built, whether its keyword and vector indexes match the
 * catalog, and whether sources on disk changed since. Cheap by
 * design (no hashing): each source's size and mtime are compared with the local stat cache written
 * at ingest (`.mhub/stat-cache.json`), falling back to the catalog's size when the cache is absent
 * (e.g. a fresh git clone); new files in the inbox are counted with a bounded walk.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../store/schemas.js';
import { STAT_CACHE_FILE } from '../store/layout.js';
import { CONFIG_FILE } from '../store/layout.js';
import { compareStrings } from '../store/json.js';
import { containerPath, readExternalRoots, sourceDiskPath } from '../store/source-path.js';
import { readCardMetadata } from '../vector/metadata.js';
import { KEYWORD_SOURCES_FILE } from '../model/keyword-format.js';

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
  /** true when sources on disk changed, vanished or appeared since the build, or an index disagrees with the catalog */
  stale: boolean;
  changed: number;
  missing: number;
  new_files: number;
  /** indexes that do not list the catalog's indexed sources (keyword, vector) */
  index_mismatch?: string[];
  /** a few of the affected files (store-relative) */
  examples?: string[];
  warning?: string;
}

interface StatEntry {
  size: number;
  mtime_ms: number;
}

/** The store's inbox folder (config.json `inbox`, default "inbox"). */
export function inboxName(root: string): string {
  try {
    const raw = JSON.parse(readFileSync(join(root, CONFIG_FILE), 'utf8')) as { inbox?: unknown };
    if (typeof raw.inbox === 'string' && raw.inbox) return raw.inbox;
  } catch {
    /* default */
  }
  return 'inbox';
}

/** Bytes of sources.json read at a time while looking for its "ids" list (written first). */
const IDS_CHUNK_BYTES = 64 * 1024;

/**
 * The source ids listed by the keyword index, read from the head of sources.json without parsing
 * the postings (the writer puts "ids" before them); null when there is no readable index.
 */
export function keywordIndexIds(root: string): string[] | null {
  let fd: number;
  try {
    fd = openSync(join(root, KEYWORD_SOURCES_FILE), 'r');
  } catch {
    return null;
  }
  try {
    let text = '';
    const buf = Buffer.alloc(IDS_CHUNK_BYTES);
    for (let pos = 0; ; pos += IDS_CHUNK_BYTES) {
      const n = readSync(fd, buf, 0, IDS_CHUNK_BYTES, pos);
      text += buf.toString('utf8', 0, n);
      const start = text.indexOf('"ids":[');
      const end = start >= 0 ? text.indexOf(']', start) : -1;
      if (end >= 0) return JSON.parse(text.slice(start + 6, end + 1)) as string[];
      if (n < IDS_CHUNK_BYTES) return null;
    }
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Indexes whose source list differs from the catalog's indexed sources. */
export function indexMismatch(root: string, catalog: Catalog): string[] {
  const indexed = catalog.sources.filter((s) => s.status === 'indexed').map((s) => s.id).join();
  const out: string[] = [];
  const ids = keywordIndexIds(root);
  if (ids && ids.join() !== indexed) out.push('keyword');
  const meta = readCardMetadata(root);
  if (meta && meta.rows.map((r) => r.id).join() !== indexed) out.push('vector');
  return out;
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

/** Sources whose file changed or vanished since the build (size + mtime against the stat cache). */
function changedSources(root: string, catalog: Catalog): { changed: string[]; missing: string[] } {
  const cache = readStatCache(root);
  const changed: string[] = [];
  const missing: string[] = [];
  const roots = readExternalRoots(root);
  const byPath = new Map(catalog.sources.map((e) => [e.original_path, e]));
  for (const e of catalog.sources) {
    let st;
    try {
      // an archive member lives in its archive; a source from outside the store under its registered folder
      st = statSync(sourceDiskPath(root, e.original_path, roots));
    } catch {
      missing.push(e.original_path);
      continue;
    }
    const c = cache[e.original_path];
    const sized = byPath.get(containerPath(e.original_path)) ?? e;
    const same = c ? c.size === st.size && Math.abs(c.mtime_ms - st.mtimeMs) <= MTIME_TOLERANCE_MS : Math.round((st.size / 1024) * 10) / 10 === sized.size_kb;
    if (!same) changed.push(e.original_path);
  }
  return { changed, missing };
}

function staleWarning(f: Freshness): string {
  const parts: string[] = [];
  if (f.changed) parts.push(`${f.changed} changed`);
  if (f.missing) parts.push(`${f.missing} deleted`);
  if (f.new_files) parts.push(`${f.new_files} new in the inbox`);
  const files = parts.length ? `${parts.join(', ')} since it was built${f.built_at ? ` at ${f.built_at}` : ''}` : '';
  const ix = f.index_mismatch?.length ? `the ${f.index_mismatch.join(' and ')} index${f.index_mismatch.length > 1 ? 'es do' : ' does'} not match catalog.json` : '';
  return `The index is stale: ${[files, ix].filter(Boolean).join('; ')}. Answers may be out of date; run \`mhub ingest\` to refresh.`;
}

export function checkFreshness(root: string, catalog: Catalog): Freshness {
  const { changed, missing } = changedSources(root, catalog);
  const known = new Set(catalog.sources.map((e) => e.original_path));
  const fresh = inboxFiles(root, inboxName(root)).filter((f) => !known.has(f));
  const mismatch = indexMismatch(root, catalog);
  const stale = changed.length + missing.length + fresh.length + mismatch.length > 0;
  const out: Freshness = { built_at: catalog.last_updated ?? null, stale, changed: changed.length, missing: missing.length, new_files: fresh.length };
  if (mismatch.length) out.index_mismatch = mismatch;
  if (stale) {
    out.examples = [...changed, ...missing, ...fresh].sort(compareStrings).slice(0, FRESHNESS_LIST_MAX);
    out.warning = staleWarning(out);
  }
  return out;
}
