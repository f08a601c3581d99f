/**
 * Where a catalogued source lives on disk. Catalog paths (`original_path`) are store-relative and
 * never start with `../`:
 *   - a file inside the store: its path from the store root (`inbox/report.pdf`);
 *   - an archive member: the archive's path, `!/`, the member's path (`inbox/a.zip!/b.txt`; nested
 *     archives repeat the separator: `inbox/a.zip!/b.zip!/c.txt`); it lives in the outermost archive;
 *   - a file under a folder outside the store: `external/<name>/<path inside that folder>`, where
 *     `<name>` is registered in config.json `external_roots` (`{"<name>": "/absolute/folder"}`) the
 *     first time that folder is ingested. Moving the folder = editing that one line; ids stay.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CONFIG_FILE } from './layout.js';
import { writeIfChanged } from './atomic.js';
import { canonicalJson, compareStrings, sortKeys } from './json.js';

/** Separator between an archive's path and a member's path inside it. */
export const ARCHIVE_SEPARATOR = '!/';
/** Catalog paths of sources from folders outside the store start with this folder name. */
export const EXTERNAL_PREFIX = 'external';

/** name → absolute folder */
export type ExternalRoots = Record<string, string>;

export function isArchiveMemberPath(rel: string): boolean {
  return rel.includes(ARCHIVE_SEPARATOR);
}

/** The outermost file of a catalog path: the archive for a member, the path itself otherwise. */
export function containerPath(rel: string): string {
  const i = rel.indexOf(ARCHIVE_SEPARATOR);
  return i < 0 ? rel : rel.slice(0, i);
}

/** True when `child` is `parent` or lies under it (absolute, normalised paths). */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** External roots registered in config.json (read raw: works even when other fields are invalid). */
export function readExternalRoots(root: string): ExternalRoots {
  try {
    const raw = JSON.parse(readFileSync(join(root, CONFIG_FILE), 'utf8')) as { external_roots?: unknown };
    const ext = raw?.external_roots;
    if (!ext || typeof ext !== 'object' || Array.isArray(ext)) return {};
    const out: ExternalRoots = {};
    for (const [k, v] of Object.entries(ext)) if (typeof v === 'string' && isAbsolute(v) && /^[^/\\]+$/.test(k)) out[k] = v;
    return out;
  } catch {
    return {};
  }
}

/** Record new external roots in config.json (other keys and their order untouched). */
export function writeExternalRoots(root: string, roots: ExternalRoots): void {
  const p = join(root, CONFIG_FILE);
  let raw: Record<string, unknown> = {};
  if (existsSync(p)) raw = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
  raw['external_roots'] = sortKeys(roots);
  writeIfChanged(p, canonicalJson(raw));
}

/** The absolute path of the disk file that holds a catalogued source (the archive for a member). */
export function sourceDiskPath(root: string, rel: string, roots: ExternalRoots): string {
  const file = containerPath(rel);
  const parts = file.split('/');
  if (parts[0] === EXTERNAL_PREFIX && parts.length > 2 && roots[parts[1]!]) return join(roots[parts[1]!]!, ...parts.slice(2));
  return resolve(root, file);
}

/** A folder name usable as an external root's name: the folder's own name, made safe. */
function rootName(abs: string): string {
  const n = basename(abs).replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '');
  return n || 'folder';
}

/**
 * The store-relative path for a disk path `abs` (POSIX separators). Inside the store: relative to
 * the root. Outside: under `external/<name>/`, using an existing root that contains it or
 * registering `folder` (the ingested folder) under a new, unique name in `roots` (mutated).
 */
export function storeRelativePath(root: string, abs: string, roots: ExternalRoots, folder: string): string {
  if (isWithin(root, abs)) return relative(root, abs).split(sep).join('/');
  const names = Object.keys(roots).sort(compareStrings);
  // the deepest registered root holding the path wins
  let best: string | null = null;
  for (const n of names) if (isWithin(roots[n]!, abs) && (best === null || roots[n]!.length > roots[best]!.length)) best = n;
  if (best === null) {
    const base = rootName(folder);
    let name = base;
    for (let i = 2; roots[name] !== undefined; i++) name = `${base}-${i}`;
    roots[name] = folder;
    best = name;
  }
  const inner = relative(roots[best]!, abs).split(sep).join('/');
  return inner ? `${EXTERNAL_PREFIX}/${best}/${inner}` : `${EXTERNAL_PREFIX}/${best}`;
}
