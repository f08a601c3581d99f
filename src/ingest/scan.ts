/**
 * Finds the files to ingest under the given paths, skipping the store's own folders. Never throws
 * for what it finds on disk: whatever cannot or must not be ingested becomes a notice (what, why,
 * what to do) and the walk goes on.
 *
 * Links: a symbolic link is followed only when its target lies inside the folder being ingested
 * (the path given on the command line, links in that path itself resolved), unless
 * `followExternalLinks` is on. A link to a folder already walked (a loop, or a second way into the
 * same folder) and a link to a file ingested under its own path are not ingested twice. Special
 * files (FIFOs, sockets, devices) are never opened; names that are not valid UTF-8 are skipped.
 */
import picomatch from 'picomatch';
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CONVERTED_DIR, TREE_DIR, VECTOR_DIR, LOCAL_DIR, LLM_CACHE_DIR, CATALOG_FILE, CONFIG_FILE, SHARD_FILE } from '../store/layout.js';
import { compareStrings } from '../store/json.js';
import { UserError, errorMessage } from '../store/errors.js';
import { isWithin, storeRelativePath, type ExternalRoots } from '../store/source-path.js';
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

export type ScanNoticeKind = 'link_outside' | 'link_dangling' | 'link_loop' | 'link_duplicate' | 'special_file' | 'unreadable' | 'bad_name' | 'archive_member' | 'store_own';

/** A path found but not ingested, with why and what to do (one line). */
export interface ScanNotice {
  /** store-relative path (or the path as given, when it has none) */
  path: string;
  kind: ScanNoticeKind;
  reason: string;
}

export interface ScanOptions {
  exclude?: string[];
  /** follow links whose target lies outside the folder being ingested (config ingest.follow_external_links, --follow-links) */
  followExternalLinks?: boolean;
  /** registered external roots (config.json external_roots); new ones are added to it */
  externalRoots?: ExternalRoots;
}

export interface ScanResult {
  files: ScannedFile[];
  roots: string[];
  notices: ScanNotice[];
  /** external roots after the scan (the given ones plus any folder outside the store just scanned) */
  externalRoots: ExternalRoots;
}

/** @deprecated kept for callers that only map inside-store paths; use storeRelativePath. */
export function toStoreRelative(root: string, abs: string): string {
  return storeRelativePath(root, abs, {}, abs);
}

const FIX_PERMS = 'fix its permissions (e.g. chmod u+rX) or add it to ingest.exclude in config.json';

function describeSpecial(st: Stats): string | null {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return null;
}

/** A file name's bytes as shown in messages: invalid UTF-8 bytes as \xNN. */
function showName(name: Buffer): string {
  let out = '';
  for (const ch of name.toString('latin1')) {
    const c = ch.charCodeAt(0);
    out += c >= 0x20 && c < 0x7f ? ch : `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return out;
}

function validUtf8Name(name: Buffer): string | null {
  const s = name.toString('utf8');
  return Buffer.from(s, 'utf8').equals(name) ? s : null;
}

interface PendingLink {
  /** the link's path as seen in the walk */
  abs: string;
  /** the real folder the link itself sits in */
  parentReal: string;
}

/** One scan of one argument path: a folder (or file), its real location and the store-relative naming. */
class Walker {
  readonly files: ScannedFile[] = [];
  readonly notices: ScanNotice[] = [];
  private readonly visitedDirs = new Set<string>();
  private readonly realFiles = new Set<string>();
  private readonly links: PendingLink[] = [];

  constructor(
    private readonly root: string,
    private readonly scope: string,
    private readonly folder: string,
    private readonly roots: ExternalRoots,
    private readonly excluded: (rel: string) => boolean,
    private readonly storeOwn: Set<string>,
    private readonly storeFiles: Set<string>,
    private readonly followExternal: boolean,
  ) {}

  rel(abs: string): string {
    return storeRelativePath(this.root, abs, this.roots, this.folder);
  }

  note(abs: string, kind: ScanNoticeKind, reason: string): void {
    this.notices.push({ path: this.rel(abs), kind, reason });
  }

  addFile(abs: string, real: string): void {
    if (this.storeFiles.has(real)) return;
    const rel = this.rel(abs);
    if (this.excluded(rel)) return;
    this.realFiles.add(real);
    this.files.push({ abs, rel });
  }

  /** Walk a folder (seen at `abs`, really at `real`); links are queued for after the real tree. */
  walkDir(abs: string, real: string): void {
    if (this.storeOwn.has(real) || this.visitedDirs.has(real)) return;
    this.visitedDirs.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true, encoding: 'buffer' }) as unknown as Dirent[];
    } catch (err) {
      this.note(abs, 'unreadable', `folder not ingested: it cannot be read (${errorMessage(err)}); ${FIX_PERMS}.`);
      return;
    }
    const named = entries.map((d) => ({ d, raw: d.name as unknown as Buffer })).sort((a, b) => Buffer.compare(a.raw, b.raw));
    for (const { d, raw } of named) {
      const name = validUtf8Name(raw);
      if (name === null) {
        this.notices.push({ path: `${this.rel(abs)}/${showName(raw)}`, kind: 'bad_name', reason: 'not ingested: its name is not valid UTF-8, so it cannot be recorded in the catalog; rename it (e.g. with convmv or by hand).' });
        continue;
      }
      if (IGNORED_DIRS.has(name) || IGNORED_FILES.has(name) || name.includes('.tmp-')) continue;
      this.visit(join(abs, name), join(real, name), d);
    }
  }

  private visit(abs: string, real: string, d: Dirent): void {
    if (d.isSymbolicLink()) {
      this.links.push({ abs, parentReal: dirname(real) });
      return;
    }
    if (d.isDirectory()) return this.walkDir(abs, real);
    if (d.isFile()) return this.addFile(abs, real);
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch (err) {
      this.note(abs, 'unreadable', `not ingested: it vanished or cannot be read while scanning (${errorMessage(err)}).`);
      return;
    }
    if (st.isDirectory()) return this.walkDir(abs, real);
    if (st.isFile()) return this.addFile(abs, real);
    if (st.isSymbolicLink()) return void this.links.push({ abs, parentReal: dirname(real) });
    this.note(abs, 'special_file', `not ingested: it is ${describeSpecial(st) ?? 'not a regular file'}, not a document; remove it from the folder or add it to ingest.exclude.`);
  }

  /** Follow (or refuse) the queued links; folders reached through a link may queue more. */
  drainLinks(): void {
    for (let i = 0; i < this.links.length; i++) this.followLink(this.links[i]!);
  }

  private followLink(link: PendingLink): void {
    const { abs } = link;
    let target: string;
    try {
      target = readlinkSync(abs);
    } catch {
      target = '?';
    }
    let real: string;
    try {
      real = realpathSync(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return this.note(abs, 'link_loop', `link not followed: it points to itself through a chain of links (${target}); remove or fix the link.`);
      if (code === 'ENOENT' || code === 'ENOTDIR') return this.note(abs, 'link_dangling', `link not followed: its target ${target} does not exist (dangling link); remove or fix the link.`);
      return this.note(abs, 'unreadable', `link not followed: its target cannot be resolved (${errorMessage(err)}); ${FIX_PERMS}.`);
    }
    if (!isWithin(this.scope, real) && !this.followExternal) {
      return this.note(abs, 'link_outside', `link not followed: its target ${real} lies outside the folder being ingested (${this.scope}); copy the file in, or allow such links with ingest.follow_external_links in config.json (or --follow-links).`);
    }
    let st: Stats;
    try {
      st = statSync(real);
    } catch (err) {
      return this.note(abs, 'unreadable', `link not followed: its target ${real} cannot be read (${errorMessage(err)}); ${FIX_PERMS}.`);
    }
    if (st.isDirectory()) {
      if (isWithin(real, link.parentReal)) return this.note(abs, 'link_loop', `link not followed: it points to ${real}, a folder that contains the link itself (a loop).`);
      if (this.visitedDirs.has(real)) return this.note(abs, 'link_duplicate', `link not followed: its target folder ${real} is already ingested through another path.`);
      return this.walkDir(abs, real);
    }
    if (st.isFile()) {
      if (this.realFiles.has(real)) return this.note(abs, 'link_duplicate', `link not ingested separately: its target ${real} is already ingested under its own path.`);
      return this.addFile(abs, real);
    }
    this.note(abs, 'special_file', `link not followed: its target is ${describeSpecial(st) ?? 'not a regular file'}, not a document; remove the link.`);
  }
}

function resolveArgument(abs: string, given: string): { real: string; st: Stats } {
  let real: string;
  try {
    real = realpathSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UserError(`Path not found: ${given}`, 'Give a file or folder to ingest (default ./inbox).', EXIT.USAGE);
    if (code === 'ELOOP') throw new UserError(`Path ${given} is a link loop.`, 'Give a file or folder to ingest, not a looping link.', EXIT.USAGE);
    throw new UserError(`Path ${given} cannot be read: ${errorMessage(err)}`, 'Fix its permissions or give another folder.', EXIT.USAGE);
  }
  return { real, st: statSync(real) };
}

/**
 * Files under `paths`, sorted by store-relative path, and notices for everything not ingested.
 * `exclude` globs (config.json ingest.exclude) are matched against the store-relative path; dot
 * files are matched too. Paths outside the store are named `external/<name>/…` (see
 * ../store/source-path.ts).
 */
export function scanPaths(root: string, paths: string[], cwd = process.cwd(), exclude: string[] = [], opts: ScanOptions = {}): ScanResult {
  const excludeAll = [...exclude, ...(opts.exclude ?? [])];
  const excluded = excludeAll.length > 0 ? picomatch(excludeAll, { dot: true }) : () => false;
  const realRoot = safeRealpath(root);
  const storeOwn = new Set([CONVERTED_DIR, TREE_DIR, VECTOR_DIR, LOCAL_DIR, LLM_CACHE_DIR, 'skills'].map((d) => join(realRoot, d)));
  const storeFiles = new Set([CATALOG_FILE, CONFIG_FILE, SHARD_FILE].map((f) => join(realRoot, f)));
  const externalRoots: ExternalRoots = { ...opts.externalRoots };
  const out: ScannedFile[] = [];
  const notices: ScanNotice[] = [];
  const roots: string[] = [];
  for (const p of paths) {
    const abs = resolve(cwd, p);
    const { real, st } = resolveArgument(abs, p);
    // Naming follows the path as given when it lies in the store, else its real location.
    const named = isWithin(root, abs) ? abs : real;
    const folder = st.isDirectory() ? named : dirname(named);
    const w = new Walker(root, real, folder, externalRoots, excluded, storeOwn, storeFiles, !!opts.followExternalLinks);
    roots.push(w.rel(named));
    if (storeOwn.has(real) || storeFiles.has(real) || [...storeOwn].some((d) => isWithin(d, real))) {
      w.note(named, 'store_own', 'not ingested: it is part of the store itself (MetadataHub writes it); ingest your documents, e.g. ./inbox.');
    } else if (st.isDirectory()) w.walkDir(named, real);
    else if (st.isFile()) w.addFile(named, real);
    else w.note(named, 'special_file', `not ingested: it is ${describeSpecial(st) ?? 'not a regular file'}, not a document.`);
    w.drainLinks();
    out.push(...w.files);
    notices.push(...w.notices);
  }
  const seen = new Set<string>();
  const files = out.filter((f) => (seen.has(f.rel) ? false : (seen.add(f.rel), true))).sort((a, b) => compareStrings(a.rel, b.rel));
  const seenNotice = new Set<string>();
  const uniqueNotices = notices.filter((n) => (seenNotice.has(n.path) ? false : (seenNotice.add(n.path), true))).sort((a, b) => compareStrings(a.path, b.path));
  return { files, roots, notices: uniqueNotices, externalRoots };
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}
