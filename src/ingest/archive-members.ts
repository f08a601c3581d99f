/**
 * Archive expansion for the pipeline: each member of a scanned .zip, .tar or gzip file becomes a scanned item of its
 * own (`archive.zip!/member`) that carries a reader for its bytes instead of a disk path. Archives
 * inside archives are expanded the same way (`a.zip!/b.zip!/c.txt`) up to MAX_ARCHIVE_DEPTH, within
 * one byte budget per outermost archive. Limits against zip bombs are in ./converters/archive.ts; a
 * refused archive yields no members (its own entry records why); a refused member is skipped alone
 * and reported as a notice.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import type { ScanNotice, ScannedFile } from './scan.js';
import { detectBytes, detectType, type Detected } from './detect.js';
import { planArchive, MAX_ARCHIVE_DEPTH, MAX_ARCHIVE_MEMBER_BYTES, MAX_ARCHIVE_TOTAL_BYTES } from './converters/archive.js';
import { ARCHIVE_TYPES, readArchiveEntry } from './converters/archive-formats.js';
import type { SourceType } from '../store/schemas.js';
import { ARCHIVE_SEPARATOR, containerPath, isArchiveMemberPath, sourceDiskPath, type ExternalRoots } from '../store/source-path.js';

export { ARCHIVE_SEPARATOR, isArchiveMemberPath };

/** Names whose content may be an archive (a .docx or .xlsx that is not an Office package is expanded like a .zip). */
const MAYBE_ARCHIVE_NAME = /\.(zip|docx|xlsx|xlsm|tar|tgz|gz)$/i;

/** Declared bytes all members of one outermost archive, nested ones included, may still inflate to. */
interface Budget {
  left: number;
}

/**
 * The last archives read, by store-relative path: members are read in order, so the archive they
 * come from is read once per run of members, not once per member (and not kept for the whole run).
 */
const ZIP_CACHE_SLOTS = 2;
const zipCache: { rel: string; bytes: Promise<Uint8Array> }[] = [];

function cachedZip(rel: string, read: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const hit = zipCache.find((c) => c.rel === rel);
  if (hit) return hit.bytes;
  const bytes = read();
  zipCache.unshift({ rel, bytes });
  zipCache.length = Math.min(zipCache.length, ZIP_CACHE_SLOTS);
  return bytes;
}

/** Read one member (yauzl checks a zip member's inflated size against the declared one, which planArchive bounded). */
function readMember(type: SourceType, archiveBytes: Uint8Array, name: string, archiveRel: string): Promise<Uint8Array> {
  return readArchiveEntry(type, archiveBytes, name, MAX_ARCHIVE_MEMBER_BYTES, archiveRel);
}

/** The archive type of a file's content (zip, tar, gzip), or null. */
function archiveType(name: string, bytes: Uint8Array): SourceType | null {
  const t = detectType(name, bytes).type;
  return ARCHIVE_TYPES.has(t) ? t : null;
}

async function expandInto(out: ScannedFile[], notices: ScanNotice[], abs: string, archiveRel: string, type: SourceType, bytes: Uint8Array, readZip: () => Promise<Uint8Array>, depth: number, budget: Budget): Promise<void> {
  let plan;
  try {
    plan = await planArchive(bytes, type, archiveRel);
  } catch {
    return; // refused or unreadable: the archive's own entry says why
  }
  const skip = (name: string, reason: string) => notices.push({ path: `${archiveRel}${ARCHIVE_SEPARATOR}${name}`, kind: 'archive_member', reason });
  for (const s of plan.skipped) skip(s.name, `archive member not ingested: ${s.reason}.`);
  for (const m of plan.members) {
    if (m.size > budget.left) {
      skip(m.name, `archive member not ingested: the archive and the archives inside it already reach the ${MAX_ARCHIVE_TOTAL_BYTES}-byte total limit (possible zip bomb).`);
      continue;
    }
    budget.left -= m.size;
    const rel = `${archiveRel}${ARCHIVE_SEPARATOR}${m.name}`;
    const read = async () => readMember(type, await cachedZip(archiveRel, readZip), m.name, archiveRel);
    out.push({ abs, rel, member: { archiveRel, name: m.name, read } });
    if (!MAYBE_ARCHIVE_NAME.test(m.name)) continue;
    if (depth >= MAX_ARCHIVE_DEPTH) {
      skip(m.name, `archive not expanded: it is nested ${depth + 1} levels deep, past the limit of ${MAX_ARCHIVE_DEPTH}; unzip it yourself if its contents are wanted.`);
      continue;
    }
    let inner: Uint8Array;
    try {
      inner = await read();
    } catch {
      continue; // the member's own entry records the read error
    }
    const innerType = archiveType(m.name, inner);
    if (innerType) await expandInto(out, notices, abs, rel, innerType, inner, read, depth + 1, budget);
  }
}

/** Expand scanned archives (.zip, .tar, .tar.gz, .gz): the archive stays (as a listing) and its members follow it. */
export async function expandArchives(files: ScannedFile[], notices: ScanNotice[] = []): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  zipCache.length = 0; // archives may have changed since the last run in this process
  for (const f of files) {
    out.push(f);
    if (f.member || !MAYBE_ARCHIVE_NAME.test(f.rel)) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(f.abs);
    } catch {
      continue; // the pipeline records the read error for the archive itself
    }
    const type = archiveType(f.rel, bytes);
    if (!type) continue;
    // the outer archive's bytes are read again on demand, so a large inbox does not hold every archive
    const readZip = () => Promise.resolve(new Uint8Array(readFileSync(f.abs)));
    await expandInto(out, notices, f.abs, f.rel, type, bytes, readZip, 1, { left: MAX_ARCHIVE_TOTAL_BYTES });
  }
  return out;
}

/** Detect an archive member: its own bytes and hash; size/mtime are the archive's (for the stat cache fast path). */
export async function detectMember(file: ScannedFile, id: string): Promise<Detected> {
  const st = statSync(file.abs);
  const bytes = await file.member!.read();
  return { ...detectBytes(bytes, file.rel, id, st.mtimeMs), size: st.size };
}

/** 'gone' when the path certainly does not exist; 'unknown' when it cannot be checked (e.g. permissions). */
function diskState(abs: string): 'present' | 'gone' | 'unknown' {
  try {
    lstatSync(abs);
    return 'present';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : 'unknown';
  }
}

/**
 * Whether a catalog source not seen in this scan still exists: plain files while they are on disk
 * (or cannot be checked, e.g. inside a folder that became unreadable: kept, not dropped); archive
 * members while their outermost archive exists and was not itself re-scanned (a re-scanned archive
 * lists all its current members, nested ones included, so a member missing from it is gone).
 * Entries recorded with a path outside the store (`../x`, by older versions) are dropped.
 */
export function sourceStillExists(root: string, originalPath: string, scannedRels: Set<string>, roots: ExternalRoots = {}): boolean {
  // a path climbing out of the store (recorded by an older version) is never kept: re-ingesting its
  // folder records it as external/<name>/…
  if (/^(\.\.(\/|$)|\/)/.test(originalPath)) return false;
  const archive = containerPath(originalPath);
  if (archive !== originalPath && scannedRels.has(archive)) return false;
  return diskState(sourceDiskPath(root, originalPath, roots)) !== 'gone';
}
