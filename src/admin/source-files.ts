/**
 * What is on disk versus what the catalog recorded: the files ingest would see (the inbox and the
 * folders that hold catalogued sources) and, per file, whether it is new, changed or unchanged.
 * Size + mtime from the stat cache decide cheaply; the file is hashed only when they disagree.
 */
import { existsSync, statSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { scanPaths } from '../ingest/scan.js';
import { readStatCache } from '../ingest/stat-cache.js';
import { compareStrings } from '../store/json.js';
import { sha256File } from '../store/file-hash.js';
import { errorMessage } from '../store/errors.js';
import { containerPath, readExternalRoots, sourceDiskPath, type ExternalRoots } from '../store/source-path.js';
import type { CatalogEntry, Config, StatCache } from '../store/schemas.js';
import { inShard, readShardFile } from '../ingest/shard.js';

/** `unreadable`: the file is there but cannot be read or checked (permissions, a folder in its place, …). */
export type FileState = 'new' | 'changed' | 'unchanged' | 'removed' | 'unreadable';

/** The hash recorded for a source that could not be read at ingest. */
export const UNKNOWN_SHA256 = '0'.repeat(64);

export interface FileCheck {
  /** store-relative path (POSIX) */
  file: string;
  state: FileState;
  /** catalog id when the file is catalogued */
  id?: string;
  /** how the verdict was reached: the stat cache or a fresh hash */
  by?: 'stat' | 'hash';
  /** why the file could not be checked (state `unreadable`) */
  reason?: string;
}

function statOf(abs: string): { st: Stats | null; gone: boolean; error?: string } {
  try {
    return { st: statSync(abs), gone: false };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { st: null, gone: code === 'ENOENT' || code === 'ENOTDIR', error: errorMessage(err) };
  }
}

/** Context for checking many entries: registered external folders and the archives' own entries. */
export interface CheckContext {
  roots: ExternalRoots;
  byPath: Map<string, CatalogEntry>;
}

export function checkContext(root: string, entries: CatalogEntry[]): CheckContext {
  return { roots: readExternalRoots(root), byPath: new Map(entries.map((e) => [e.original_path, e])) };
}

/**
 * Compare one catalogued file with its entry: `stat` when size+mtime match the stat cache (and the
 * cached hash says whether it changed), else hash the file ("hash on doubt"). An archive member is
 * checked through its outermost archive: unchanged while the archive is. Never throws.
 */
export function checkCatalogued(root: string, entry: CatalogEntry, cache: StatCache, ctx: CheckContext = { roots: readExternalRoots(root), byPath: new Map() }): FileCheck {
  const file = entry.original_path;
  const abs = sourceDiskPath(root, file, ctx.roots);
  const { st, gone, error } = statOf(abs);
  if (gone) return { file, state: 'removed', id: entry.id };
  if (!st || !st.isFile()) return { file, state: 'unreadable', id: entry.id, reason: error ?? 'not a regular file' };
  const cached = cache.files[file];
  if (cached && cached.size === st.size && cached.mtime_ms === st.mtimeMs) {
    return { file, state: cached.sha256 === entry.sha256 ? 'unchanged' : 'changed', id: entry.id, by: 'stat' };
  }
  // a file that could not be read when ingested has no known hash: only its stat can tell
  if (entry.sha256 === UNKNOWN_SHA256) return { file, state: 'changed', id: entry.id, by: 'stat' };
  const archive = containerPath(file);
  // a member: compare the archive with the archive's own entry (its hash covers every member)
  const against = archive !== file ? ctx.byPath.get(archive) : entry;
  if (!against) return { file, state: 'unchanged', id: entry.id, by: 'stat' };
  try {
    const sha = sha256File(abs);
    return { file, state: sha === against.sha256 ? 'unchanged' : 'changed', id: entry.id, by: 'hash' };
  } catch (err) {
    return { file, state: 'unreadable', id: entry.id, reason: errorMessage(err) };
  }
}

/** Folders to watch: the inbox plus every folder holding a catalogued source (the store root itself excluded). */
export function watchedFolders(root: string, config: Config, entries: CatalogEntry[]): string[] {
  const dirs = new Set<string>();
  const inbox = isAbsolute(config.inbox) ? config.inbox : join(root, config.inbox);
  if (existsSync(inbox)) dirs.add(resolve(inbox));
  const roots = readExternalRoots(root);
  for (const e of entries) {
    const d = dirname(sourceDiskPath(root, e.original_path, roots));
    if (d !== resolve(root) && existsSync(d)) dirs.add(d);
  }
  // Drop folders already covered by a watched ancestor.
  const sorted = [...dirs].sort(compareStrings);
  return sorted.filter((d) => !sorted.some((o) => o !== d && d.startsWith(o.endsWith('/') ? o : o + '/')));
}

/** Every watched file and catalogued source, classified. Sorted by path. */
export function diffSources(root: string, config: Config, entries: CatalogEntry[]): FileCheck[] {
  const cache = readStatCache(root);
  const ctx = checkContext(root, entries);
  const out = new Map<string, FileCheck>();
  const folders = watchedFolders(root, config, entries);
  const { files } = folders.length > 0 ? scanPaths(root, folders, root, config.ingest.exclude, { externalRoots: ctx.roots }) : { files: [] };
  const shard = readShardFile(root);
  for (const f of files) {
    if (shard && !inShard(f.rel, shard)) continue; // a partial store watches its slice only
    const e = ctx.byPath.get(f.rel);
    out.set(f.rel, e ? checkCatalogued(root, e, cache, ctx) : { file: f.rel, state: 'new' });
  }
  for (const e of entries) {
    if (!out.has(e.original_path)) out.set(e.original_path, checkCatalogued(root, e, cache, ctx));
  }
  return [...out.values()].sort((a, b) => compareStrings(a.file, b.file));
}
