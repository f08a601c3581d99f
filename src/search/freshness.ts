/**
 * The one staleness check of retrieval (search, deep_retrieve, read, overview all report it the
 * same way, once): when the index was built, whether its keyword and vector indexes match the
 * catalog, and whether sources on disk changed since. Cheap by design (no hashing), in two scopes:
 * - `checkFreshness` (the library overview, `mhub status`, and any store without local stamps): a
 *   stat of every source, compared with the local stat cache written at ingest
 *   (`.mhub/stat-cache.json`), or with the catalog's size when the cache is absent (a fresh clone);
 *   new files in the inbox are counted with a bounded walk.
 * - `checkAnswerFreshness` (search, deep_retrieve, read_source): a stat of the sources the answer
 *   returns, compared with `.mhub/freshness.tsv` (store/freshness-stamps.ts), plus a stat of the
 *   folders recorded there: a folder whose mtime moved gained or lost files, and only that folder is
 *   listed (new files in inbox folders, catalogued files gone anywhere). A file edited in place is
 *   reported when an answer returns it; `mhub status` checks them all.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { sha256File } from '../store/file-hash.js';
import type { Catalog, CatalogEntry } from '../store/schemas.js';
import { STAT_CACHE_FILE } from '../store/layout.js';
import { CONFIG_FILE } from '../store/layout.js';
import { compareStrings } from '../store/json.js';
import { containerPath, readExternalRoots, sourceDiskPath } from '../store/source-path.js';
import { ignoredName, readFreshnessStamps, type FreshnessStamps } from '../store/freshness-stamps.js';
import { readCatalogForQuery } from '../store/catalog.js';
import type { SourceLookup } from '../store/lookup.js';
import { readCardMetadata } from '../vector/metadata.js';
import { KEYWORD_SOURCES_FILE, keywordNodesFile } from '../model/keyword-format.js';

/** File names listed per category in the answer (counts are always complete). */
export const FRESHNESS_LIST_MAX = 5;
/** Upper bound on directory entries visited when looking for new inbox files. */
export const INBOX_SCAN_MAX_ENTRIES = 2000;

/** mtimes closer than this count as equal (copies and some file systems round sub-millisecond times). */
export const MTIME_TOLERANCE_MS = 1;

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
      if (ignoredName(name)) continue;
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
  return freshnessOf(catalog.last_updated ?? null, changed, missing, fresh, indexMismatch(root, catalog));
}

/** What an answer touched, for its freshness. */
export interface AnswerScope {
  /** the sources the answer returns: their files are stat'ed */
  sources: Array<Pick<CatalogEntry, 'original_path' | 'size_kb'> & Partial<Pick<CatalogEntry, 'sha256'>>>;
  /** indexes the answer used whose source list differs from the catalog's (the caller compares) */
  indexMismatch?: string[];
}

/**
 * A returned source whose file kept its size but not its modification time (copied afresh, checked
 * out again, restored from a backup) is read and compared with the sha256 it was indexed from, when
 * it is at most this large: the same bytes are not a change, and saying so on every answer taught
 * agents to ignore the warning.
 */
export const REHASH_MAX_BYTES = 64 * 1024 * 1024;

function sameBytes(path: string, sha256: string): boolean {
  try {
    return sha256File(path) === sha256;
  } catch {
    return false;
  }
}

/** Whether a returned source's file changed since the stamps (size + mtime; the catalog's size without a stamp). */
function touchedChange(stamps: FreshnessStamps, e: AnswerScope['sources'][number]): 'changed' | 'missing' | null {
  const rel = containerPath(e.original_path);
  let st;
  try {
    st = statSync(stamps.diskPath(rel));
  } catch {
    return 'missing';
  }
  const s = stamps.file(rel);
  if (s && s.size !== null && s.mtimeMs !== null) {
    if (s.size !== st.size) return 'changed';
    if (Math.abs(s.mtimeMs - st.mtimeMs) <= MTIME_TOLERANCE_MS) return null;
    const rehash = rel === e.original_path && !!e.sha256 && st.size <= REHASH_MAX_BYTES;
    return rehash && sameBytes(stamps.diskPath(rel), e.sha256!) ? null : 'changed';
  }
  // an archive member without a stamp: its archive's own entry answers for it
  if (rel !== e.original_path) return null;
  return Math.round((st.size / 1024) * 10) / 10 === e.size_kb ? null : 'changed';
}

interface FolderFindings {
  missing: Set<string>;
  fresh: string[];
  budget: number;
}

const childOf = (dir: string, name: string): string => (dir === '.' ? name : `${dir}/${name}`);

/** Files under a folder that appeared after the last ingest (a folder the stamps do not know). */
function walkNew(stamps: FreshnessStamps, rel: string, out: FolderFindings): void {
  let items: Dirent[];
  try {
    items = readdirSync(stamps.diskDir(rel), { withFileTypes: true });
  } catch {
    return;
  }
  for (const it of items) {
    if (--out.budget < 0) return;
    if (ignoredName(it.name)) continue;
    const r = childOf(rel, it.name);
    if (it.isDirectory()) walkNew(stamps, r, out);
    else if (isFileEntry(stamps, r, it) && !stamps.file(r)) out.fresh.push(r);
  }
}

function isFileEntry(stamps: FreshnessStamps, rel: string, it: Dirent): boolean {
  if (it.isFile()) return true;
  if (!it.isSymbolicLink()) return false;
  try {
    return statSync(stamps.diskPath(rel)).isFile();
  } catch {
    return false;
  }
}

/**
 * A stamped folder whose mtime moved (files added or removed): its catalogued files that are gone,
 * and, under the inbox, the files and new sub-folders not catalogued.
 */
function folderChanges(stamps: FreshnessStamps, known: Set<string>, d: FreshnessStamps['dirs'][number], out: FolderFindings): void {
  const abs = stamps.diskDir(d.dir);
  let m: number | null = null;
  try {
    m = statSync(abs).mtimeMs;
  } catch {
    /* gone */
  }
  if (m !== null && Math.abs(m - d.mtimeMs) <= MTIME_TOLERANCE_MS) return;
  let items: Dirent[] = [];
  try {
    items = readdirSync(abs, { withFileTypes: true });
  } catch {
    /* gone: every file it held is missing */
  }
  const present = new Set(items.map((it) => it.name));
  for (const f of stamps.filesIn(d.dir)) if (!present.has(f.slice(f.lastIndexOf('/') + 1))) out.missing.add(f);
  if (!d.inbox) return;
  for (const it of items) {
    if (--out.budget < 0) return;
    if (ignoredName(it.name)) continue;
    const r = childOf(d.dir, it.name);
    if (it.isDirectory()) {
      if (!known.has(r)) walkNew(stamps, r, out);
    } else if (isFileEntry(stamps, r, it) && !stamps.file(r)) out.fresh.push(r);
  }
}

function freshnessOf(builtAt: string | null, changed: string[], missing: string[], fresh: string[], mismatch: string[]): Freshness {
  const stale = changed.length + missing.length + fresh.length + mismatch.length > 0;
  const out: Freshness = { built_at: builtAt, stale, changed: changed.length, missing: missing.length, new_files: fresh.length };
  if (mismatch.length) out.index_mismatch = mismatch;
  if (stale) {
    out.examples = [...changed, ...missing, ...fresh].sort(compareStrings).slice(0, FRESHNESS_LIST_MAX);
    out.warning = staleWarning(out);
  }
  return out;
}

/**
 * Freshness of one answer (search, deep_retrieve, read_source): its returned sources' files, and
 * files added or removed anywhere the last ingest looked (stamped folders whose mtime moved). Its
 * cost grows with the answer and the number of folders, not with the library. A store without
 * current stamps (a fresh clone, a catalog written by `doctor --fix`) gets the full check.
 */
export function checkAnswerFreshness(root: string, lookup: SourceLookup, scope: AnswerScope): Freshness {
  const stamps = readFreshnessStamps(root);
  if (!stamps || !lookup.catalogSha || stamps.catalogSha !== lookup.catalogSha) return checkFreshness(root, lookup.whole ?? readCatalogForQuery(root));
  const changed: string[] = [];
  const missing = new Set<string>();
  for (const e of scope.sources) {
    const c = touchedChange(stamps, e);
    if (c === 'changed') changed.push(e.original_path);
    else if (c === 'missing') missing.add(containerPath(e.original_path));
  }
  const found: FolderFindings = { missing, fresh: [], budget: INBOX_SCAN_MAX_ENTRIES };
  const known = new Set(stamps.dirs.map((d) => d.dir));
  for (const d of stamps.dirs) folderChanges(stamps, known, d, found);
  // an inbox that did not exist at the last ingest: all its files are new (one stat otherwise)
  if (!stamps.dirs.some((d) => d.inbox)) {
    const inbox = inboxName(root);
    if (!inbox.includes('..') && !inbox.startsWith('/')) walkNew(stamps, inbox, found);
  }
  return freshnessOf(lookup.builtAt, [...new Set(changed)], [...missing], found.fresh, scope.indexMismatch ?? []);
}

/** The indexes that should list an indexed source and do not (the keyword index lacks its node file). */
export function sourceIndexMismatch(root: string, entry: Pick<CatalogEntry, 'id' | 'status'>): string[] {
  if (entry.status !== 'indexed' || !existsSync(join(root, KEYWORD_SOURCES_FILE))) return [];
  return existsSync(join(root, keywordNodesFile(entry.id))) ? [] : ['keyword'];
}

/** Freshness of an answer about one source (deep_retrieve, read_source). */
export function sourceFreshness(root: string, lookup: SourceLookup, entry: CatalogEntry): Freshness {
  return checkAnswerFreshness(root, lookup, { sources: [entry], indexMismatch: sourceIndexMismatch(root, entry) });
}
