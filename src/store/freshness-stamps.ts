/**
 * `.mhub/freshness.tsv` (local, git-ignored): what the sources' files and folders looked like when
 * the catalog was last written, so a query can tell whether what it touches is stale without a stat
 * of every source. Written by ingest's commit stage after catalog.json; read by search/freshness.ts.
 *
 *   #mhub-freshness <format>\t<sha256 of the catalog.json it describes>
 *   D\t<folder>\t<mtime ms>\t<1 when under the inbox, else 0>      sorted by folder
 *   F\t<file>\t<size>\t<mtime ms>                                   sorted by file
 *
 * Folders are store-relative (`inbox/reports`, `external/docs/set-001`; `.` is the store root):
 * every folder holding a catalogued file, and every folder under the inbox. Files are the catalogued
 * sources' disk files (an archive once for all its members), with the size and mtime the ingest saw
 * (empty when it saw none). Adding or removing a file changes its folder's mtime, so a query stats
 * the folders (a few hundred at most in a large library) and the files it returns, nothing else.
 */
import { readdirSync, readFileSync, statSync, type Dirent } from 'node:fs';
import { join, posix } from 'node:path';
import type { CatalogEntry, StatCache } from './schemas.js';
import { FRESHNESS_STAMPS_FILE } from './layout.js';
import { compareStrings } from './json.js';
import { writeIfChanged } from './atomic.js';
import { containerPath, EXTERNAL_PREFIX, readExternalRoots, sourceDiskPath, type ExternalRoots } from './source-path.js';

export const FRESHNESS_STAMPS_FORMAT = 1;
/** Folders under the inbox recorded at most (a deeper tree is still checked through its recorded folders). */
export const MAX_STAMPED_INBOX_DIRS = 10_000;
/** Names never counted as sources (system files, version control, temp files of atomic writes). */
export const IGNORED_NAMES = new Set(['.DS_Store', 'Thumbs.db', '.gitkeep', '.git', 'node_modules']);

export const ignoredName = (name: string): boolean => IGNORED_NAMES.has(name) || name.includes('.tmp-');

const escape = (s: string): string => s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
const unescape = (s: string): string => (s.includes('\\') ? s.replace(/\\([\\tnr])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : '\\')) : s);

/** The disk folder of a store-relative folder (`external/<name>/…` under its registered folder). */
export function diskDir(root: string, rel: string, roots: ExternalRoots): string {
  const parts = rel.split('/');
  if (parts[0] === EXTERNAL_PREFIX && parts.length >= 2 && roots[parts[1]!]) return join(roots[parts[1]!]!, ...parts.slice(2));
  return join(root, rel);
}

const parentOf = (rel: string): string => posix.dirname(rel);

function mtimeOf(abs: string): number | null {
  try {
    return statSync(abs).mtimeMs;
  } catch {
    return null;
  }
}

/** Every folder under the inbox (store-relative), the inbox itself first. */
function inboxDirs(root: string, inbox: string): string[] {
  if (!inbox || inbox.includes('..') || inbox.startsWith('/')) return [];
  const out: string[] = [];
  const walk = (rel: string): void => {
    if (out.length >= MAX_STAMPED_INBOX_DIRS) return;
    let items: Dirent[];
    try {
      items = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    out.push(rel);
    for (const d of items) if (d.isDirectory() && !ignoredName(d.name)) walk(`${rel}/${d.name}`);
  };
  walk(inbox.replace(/\/+$/, ''));
  return out;
}

/** The stamps file's text for these entries (stats from the ingest's stat cache, folders stat'ed now). */
export function freshnessStampsText(root: string, entries: CatalogEntry[], files: StatCache['files'], inbox: string, catalogSha: string): string {
  const roots = readExternalRoots(root);
  const containers = [...new Set(entries.map((e) => containerPath(e.original_path)))].sort(compareStrings);
  const inboxSet = new Set(inboxDirs(root, inbox));
  const dirs = [...new Set([...containers.map(parentOf), ...inboxSet])].sort(compareStrings);
  const lines = [`#mhub-freshness ${FRESHNESS_STAMPS_FORMAT}\t${catalogSha}`];
  for (const d of dirs) {
    const m = mtimeOf(diskDir(root, d, roots));
    if (m !== null) lines.push(`D\t${escape(d)}\t${m}\t${inboxSet.has(d) ? 1 : 0}`);
  }
  for (const f of containers) {
    const s = files[f];
    lines.push(`F\t${escape(f)}\t${s ? s.size : ''}\t${s ? s.mtime_ms : ''}`);
  }
  return lines.join('\n') + '\n';
}

/** Write `.mhub/freshness.tsv` (only when its bytes change). */
export function writeFreshnessStamps(root: string, entries: CatalogEntry[], files: StatCache['files'], inbox: string, catalogSha: string): void {
  writeIfChanged(join(root, FRESHNESS_STAMPS_FILE), freshnessStampsText(root, entries, files, inbox, catalogSha), false);
}

export interface StampedDir {
  dir: string;
  mtimeMs: number;
  inbox: boolean;
}

export interface FileStamp {
  size: number | null;
  mtimeMs: number | null;
}

/** The stamps of one store, read once; files are found in the text, not parsed all at once. */
export interface FreshnessStamps {
  catalogSha: string;
  dirs: StampedDir[];
  /** the stamp of a catalogued disk file (store-relative container path), or null when it is not catalogued */
  file(rel: string): FileStamp | null;
  /** catalogued disk files directly in a folder */
  filesIn(dir: string): string[];
  /** where a store-relative path lives on disk */
  diskPath(rel: string): string;
  diskDir(rel: string): string;
}

const num = (s: string | undefined): number | null => (s === undefined || s === '' ? null : Number(s));

/** `.mhub/freshness.tsv`, or null when absent or of another format. */
export function readFreshnessStamps(root: string): FreshnessStamps | null {
  let text: string;
  try {
    text = readFileSync(join(root, FRESHNESS_STAMPS_FILE), 'utf8');
  } catch {
    return null;
  }
  const head = /^#mhub-freshness (\d+)\t([0-9a-f]{64})\n/.exec(text);
  if (!head || Number(head[1]) !== FRESHNESS_STAMPS_FORMAT) return null;
  const dirs: StampedDir[] = [];
  let pos = head[0].length;
  while (text.startsWith('D\t', pos)) {
    const end = text.indexOf('\n', pos);
    const c = text.slice(pos, end).split('\t');
    dirs.push({ dir: unescape(c[1]!), mtimeMs: Number(c[2]), inbox: c[3] === '1' });
    pos = end + 1;
  }
  const roots = readExternalRoots(root);
  const fileLine = (rel: string): string[] | null => {
    const at = text.indexOf(`\nF\t${escape(rel)}\t`, pos - 1);
    return at < 0 ? null : text.slice(at + 1, text.indexOf('\n', at + 1)).split('\t');
  };
  return {
    catalogSha: head[2]!,
    dirs,
    file: (rel) => {
      const c = fileLine(rel);
      return c ? { size: num(c[2]), mtimeMs: num(c[3]) } : null;
    },
    filesIn: (dir) => {
      const prefix = `\nF\t${escape(dir === '.' ? '' : `${dir}/`)}`;
      const out: string[] = [];
      for (let at = text.indexOf(prefix, pos - 1); at >= 0 && text.startsWith(prefix, at); at = text.indexOf('\n', at + 1)) {
        const rel = unescape(text.slice(at + 3, text.indexOf('\t', at + 3)));
        if (parentOf(rel) === dir) out.push(rel);
      }
      return out;
    },
    diskPath: (rel) => sourceDiskPath(root, rel, roots),
    diskDir: (rel) => diskDir(root, rel, roots),
  };
}
