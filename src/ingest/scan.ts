/** Finds the files to ingest under the given paths, skipping the store's own folders. */
import picomatch from 'picomatch';
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { CONVERTED_DIR, TREE_DIR, VECTOR_DIR, LOCAL_DIR, LLM_CACHE_DIR, CATALOG_FILE, CONFIG_FILE } from '../store/layout.js';
import { compareStrings } from '../store/json.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

/** Folder names never descended into. */
export const IGNORED_DIRS = new Set(['.git', 'node_modules', '.svn', '.hg', '__pycache__']);
/** File names never ingested. */
export const IGNORED_FILES = new Set(['.DS_Store', 'Thumbs.db', '.gitkeep']);

export interface ScannedFile {
  abs: string;
  /** store-relative, POSIX separators (`archive.zip!/member` for archive members) */
  rel: string;
  /** set for an archive member: `abs` is the archive's path and the bytes come from `read` */
  member?: { archiveRel: string; name: string; read: () => Promise<Uint8Array> };
}

export function toStoreRelative(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/');
}

/**
 * Files under `paths`, sorted by store-relative path. `exclude` globs (config.json ingest.exclude)
 * are matched against the store-relative path; dot files are matched too.
 */
export function scanPaths(root: string, paths: string[], cwd = process.cwd(), exclude: string[] = []): { files: ScannedFile[]; roots: string[] } {
  const excluded = exclude.length > 0 ? picomatch(exclude, { dot: true }) : () => false;
  const storeOwn = new Set([CONVERTED_DIR, TREE_DIR, VECTOR_DIR, LOCAL_DIR, LLM_CACHE_DIR, 'skills'].map((d) => join(root, d)));
  const storeFiles = new Set([CATALOG_FILE, CONFIG_FILE].map((f) => join(root, f)));
  const out: ScannedFile[] = [];
  const roots: string[] = [];
  const walk = (abs: string) => {
    let st;
    try {
      st = statSync(abs);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (storeOwn.has(abs)) return;
      for (const name of readdirSync(abs).sort(compareStrings)) {
        if (IGNORED_DIRS.has(name) || IGNORED_FILES.has(name) || name.includes('.tmp-')) continue;
        walk(join(abs, name));
      }
    } else if (st.isFile()) {
      if (storeFiles.has(abs)) return;
      const rel = toStoreRelative(root, abs);
      if (!excluded(rel)) out.push({ abs, rel });
    }
  };
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (!existsSync(abs)) throw new UserError(`Path not found: ${p}`, 'Give a file or folder to ingest (default ./inbox).', EXIT.USAGE);
    roots.push(toStoreRelative(root, abs));
    walk(abs);
  }
  const seen = new Set<string>();
  const files = out.filter((f) => (seen.has(f.rel) ? false : (seen.add(f.rel), true))).sort((a, b) => compareStrings(a.rel, b.rel));
  return { files, roots };
}
