/**
 * Archive expansion for the pipeline: each member of a scanned .zip becomes a scanned item of its
 * own (`archive.zip!/member`) that carries a reader for its bytes instead of a disk path. Limits
 * against zip bombs are in ./converters/archive.ts; a refused archive yields no members (its own
 * entry records why).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ScannedFile } from './scan.js';
import { detectBytes, detectType, type Detected } from './detect.js';
import { planArchive, MAX_ARCHIVE_MEMBER_BYTES, MAX_ARCHIVE_TOTAL_BYTES } from './converters/archive.js';
import { openZip, readEntry } from './converters/zip-reader.js';

/** Separator between an archive's path and a member's path inside it. */
export const ARCHIVE_SEPARATOR = '!/';

export function isArchiveMemberPath(rel: string): boolean {
  return rel.includes(ARCHIVE_SEPARATOR);
}

/** Expand scanned .zip archives: the archive stays (as a listing) and its members follow it. */
export async function expandArchives(files: ScannedFile[]): Promise<ScannedFile[]> {
  const out: ScannedFile[] = [];
  for (const f of files) {
    out.push(f);
    if (f.member || !/\.zip$/i.test(f.rel)) continue;
    let bytes: Buffer;
    try {
      bytes = readFileSync(f.abs);
    } catch {
      continue; // the pipeline records the read error for the archive itself
    }
    if (detectType(f.rel, bytes).type !== 'zip') continue;
    let plan;
    try {
      plan = await planArchive(bytes);
    } catch {
      continue; // refused or unreadable: the archive's own entry says why
    }
    let zipBytes: Buffer | null = bytes;
    let inflated = 0;
    const read = async (name: string): Promise<Uint8Array> => {
      zipBytes ??= readFileSync(f.abs);
      const zip = await openZip(zipBytes);
      try {
        const data = await readEntry(zip, name, Math.min(MAX_ARCHIVE_MEMBER_BYTES, MAX_ARCHIVE_TOTAL_BYTES - inflated));
        inflated += data.length;
        return data;
      } finally {
        zip.close();
      }
    };
    for (const m of plan.members) out.push({ abs: f.abs, rel: `${f.rel}${ARCHIVE_SEPARATOR}${m.name}`, member: { archiveRel: f.rel, name: m.name, read: () => read(m.name) } });
    // the archive's bytes are read again on demand; drop them so a large inbox does not hold every zip
    zipBytes = null;
  }
  return out;
}

/** Detect an archive member: its own bytes and hash; size/mtime are the archive's (for the stat cache fast path). */
export async function detectMember(file: ScannedFile, id: string): Promise<Detected> {
  const st = statSync(file.abs);
  const bytes = await file.member!.read();
  return { ...detectBytes(bytes, file.rel, id, st.mtimeMs), size: st.size };
}

/**
 * Whether a catalog source not seen in this scan still exists: plain files while they are on disk;
 * archive members while their archive exists and was not itself re-scanned (a re-scanned archive
 * lists all its current members, so a member missing from it is gone).
 */
export function sourceStillExists(root: string, originalPath: string, scannedRels: Set<string>): boolean {
  const i = originalPath.indexOf(ARCHIVE_SEPARATOR);
  if (i < 0) return existsSync(join(root, originalPath));
  const archive = originalPath.slice(0, i);
  if (scannedRels.has(archive)) return false;
  return existsSync(join(root, archive));
}
