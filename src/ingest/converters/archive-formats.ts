/**
 * One way to list and read the members of the archives mhub expands: zip (yauzl), tar, and gzip —
 * a gzipped tar (`.tar.gz`, `.tgz`) is its tar's members; any other gzipped file (`policy.txt.gz`)
 * is one member, named without its `.gz`. Gzip is inflated whole, within the zip-bomb limits of
 * ./archive.ts, once per archive bytes (a run of members reads the same inflated bytes).
 */
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { SourceType } from '../../store/schemas.js';
import { openZip, readEntry } from './zip-reader.js';
import { isTar, tarEntries, type TarEntry } from './tar-reader.js';

export const ARCHIVE_TYPES: ReadonlySet<SourceType> = new Set<SourceType>(['zip', 'tar', 'gzip']);

/** Most bytes a gzip stream may inflate to (a gzipped tar whole, or one gzipped file). */
export const MAX_GZIP_BYTES = 256 * 1024 * 1024;
/** Largest inflated/compressed ratio of a gzip stream over GZIP_RATIO_EXEMPT_BYTES (as for zip members). */
export const MAX_GZIP_RATIO = 100;
export const GZIP_RATIO_EXEMPT_BYTES = 1024 * 1024;

export interface ArchiveEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  isDirectory: boolean;
  encrypted: boolean;
  /** a link, device or FIFO inside a tar: listed, never read */
  isLink?: boolean;
}

const inflated = new WeakMap<Uint8Array, Uint8Array>();
const tarIndex = new WeakMap<Uint8Array, Map<string, TarEntry>>();

/** A tar's readable entries by name (the first of a name), parsed once per archive bytes. */
function tarByName(tar: Uint8Array): Map<string, TarEntry> {
  let m = tarIndex.get(tar);
  if (!m) {
    m = new Map();
    for (const e of tarEntries(tar)) if (!e.isDirectory && !e.isLink && !m.has(e.name)) m.set(e.name, e);
    tarIndex.set(tar, m);
  }
  return m;
}

/** A gzip stream inflated, refusing to go past MAX_GZIP_BYTES or MAX_GZIP_RATIO. */
export function gunzipBounded(bytes: Uint8Array): Uint8Array {
  const hit = inflated.get(bytes);
  if (hit) return hit;
  const limit = Math.min(MAX_GZIP_BYTES, Math.max(GZIP_RATIO_EXEMPT_BYTES, bytes.length * MAX_GZIP_RATIO));
  let out: Uint8Array;
  try {
    out = gunzipSync(bytes, { maxOutputLength: limit });
  } catch (err) {
    if (err instanceof RangeError || (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new Error(`it inflates past ${limit} bytes (over ${MAX_GZIP_RATIO}:1 or the ${MAX_GZIP_BYTES}-byte limit: possible gzip bomb)`);
    }
    throw new Error(`it is not a valid gzip stream (${(err as Error).message})`);
  }
  inflated.set(bytes, out);
  return out;
}

/** The one member of a gzipped file that is not a tar: its name without `.gz` (`.tgz` → `.tar`). */
export function gzipMemberName(archiveName: string): string {
  const base = basename(archiveName);
  if (/\.tgz$/i.test(base)) return base.replace(/\.tgz$/i, '.tar');
  const stripped = base.replace(/\.gz$/i, '');
  return stripped && stripped !== base ? stripped : `${base}.out`;
}

/** A tar's entries; a member's compressed size is its own (in a gzipped tar it is some unknown share of the stream). */
function tarList(bytes: Uint8Array): ArchiveEntry[] {
  return tarEntries(bytes).map((e) => ({
    name: e.isDirectory && !e.name.endsWith('/') ? `${e.name}/` : e.name,
    compressedSize: e.size,
    uncompressedSize: e.size,
    isDirectory: e.isDirectory,
    encrypted: false,
    ...(e.isLink ? { isLink: true } : {}),
  }));
}

/**
 * The entries of an archive of `type` (zip, tar or gzip); `archiveName` names a gzipped file's one
 * member. Throws when the archive cannot be read.
 */
export async function listArchive(type: SourceType, bytes: Uint8Array, archiveName: string): Promise<ArchiveEntry[]> {
  if (type === 'tar') return tarList(bytes);
  if (type === 'gzip') {
    const inner = gunzipBounded(bytes);
    if (isTar(inner)) return tarList(inner);
    return [{ name: gzipMemberName(archiveName), compressedSize: bytes.length, uncompressedSize: inner.length, isDirectory: false, encrypted: false }];
  }
  const zip = await openZip(bytes);
  try {
    return zip.entries;
  } finally {
    zip.close();
  }
}

/** The bytes of one member, refusing more than `maxBytes`. */
export async function readArchiveEntry(type: SourceType, bytes: Uint8Array, name: string, maxBytes: number, archiveName: string): Promise<Uint8Array> {
  if (type === 'tar' || type === 'gzip') {
    const tar = type === 'tar' ? bytes : gunzipBounded(bytes);
    if (type === 'gzip' && !isTar(tar)) {
      if (name !== gzipMemberName(archiveName)) throw new Error(`no entry ${name}`);
      return tar;
    }
    const e = tarByName(tar).get(name);
    if (!e) throw new Error(`no entry ${name}`);
    if (e.size > maxBytes) throw new Error(`entry ${name} is ${e.size} bytes, over ${maxBytes}`);
    return tar.subarray(e.offset, e.offset + e.size);
  }
  const zip = await openZip(bytes);
  try {
    return await readEntry(zip, name, maxBytes);
  } finally {
    zip.close();
  }
}
