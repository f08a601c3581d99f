/**
 * What is on disk versus what the catalog recorded: the files ingest would see (the inbox and the
 * folders that hold catalogued sources) and, per file, whether it is new, changed or unchanged.
 * Size + mtime from the stat cache decide cheaply; the file is hashed only when they disagree.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { scanPaths } from '../ingest/scan.js';
import { readStatCache } from '../ingest/stat-cache.js';
import { compareStrings } from '../store/json.js';
import type { CatalogEntry, Config, StatCache } from '../store/schemas.js';

export type FileState = 'new' | 'changed' | 'unchanged' | 'removed';

export interface FileCheck {
  /** store-relative path (POSIX) */
  file: string;
  state: FileState;
  /** catalog id when the file is catalogued */
  id?: string;
  /** how the verdict was reached: the stat cache or a fresh hash */
  by?: 'stat' | 'hash';
}

export function sha256File(abs: string): string {
  return createHash('sha256').update(readFileSync(abs)).digest('hex');
}

/**
 * Compare one catalogued file with its entry: `stat` when size+mtime match the stat cache (and the
 * cached hash says whether it changed), else hash the file ("hash on doubt").
 */
export function checkCatalogued(root: string, entry: CatalogEntry, cache: StatCache): FileCheck {
  const abs = resolve(root, entry.original_path);
  if (!existsSync(abs)) return { file: entry.original_path, state: 'removed', id: entry.id };
  const st = statSync(abs);
  const cached = cache.files[entry.original_path];
  if (cached && cached.size === st.size && cached.mtime_ms === st.mtimeMs) {
    return { file: entry.original_path, state: cached.sha256 === entry.sha256 ? 'unchanged' : 'changed', id: entry.id, by: 'stat' };
  }
  const sha = sha256File(abs);
  return { file: entry.original_path, state: sha === entry.sha256 ? 'unchanged' : 'changed', id: entry.id, by: 'hash' };
}

/** Folders to watch: the inbox plus every folder holding a catalogued source (the store root itself excluded). */
export function watchedFolders(root: string, config: Config, entries: CatalogEntry[]): string[] {
  const dirs = new Set<string>();
  const inbox = isAbsolute(config.inbox) ? config.inbox : join(root, config.inbox);
  if (existsSync(inbox)) dirs.add(resolve(inbox));
  for (const e of entries) {
    const d = resolve(root, dirname(e.original_path));
    if (d !== resolve(root) && existsSync(d)) dirs.add(d);
  }
  // Drop folders already covered by a watched ancestor.
  const sorted = [...dirs].sort(compareStrings);
  return sorted.filter((d) => !sorted.some((o) => o !== d && d.startsWith(o.endsWith('/') ? o : o + '/')));
}

/** Every watched file and catalogued source, classified. Sorted by path. */
export function diffSources(root: string, config: Config, entries: CatalogEntry[]): FileCheck[] {
  const cache = readStatCache(root);
  const byPath = new Map(entries.map((e) => [e.original_path, e]));
  const out = new Map<string, FileCheck>();
  const folders = watchedFolders(root, config, entries);
  const { files } = folders.length > 0 ? scanPaths(root, folders, root, config.ingest.exclude) : { files: [] };
  for (const f of files) {
    const e = byPath.get(f.rel);
    out.set(f.rel, e ? checkCatalogued(root, e, cache) : { file: f.rel, state: 'new' });
  }
  for (const e of entries) {
    if (!out.has(e.original_path)) out.set(e.original_path, checkCatalogued(root, e, cache));
  }
  return [...out.values()].sort((a, b) => compareStrings(a.file, b.file));
}
