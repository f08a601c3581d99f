/**
 * Archives: zip, tar, and gzip (a gzipped tar, or one gzipped file). The pipeline ingests each member as its own source (`archive.zip!/member`, see
 * ../archive-members.ts), archives inside archives too (`a.zip!/b.zip!/c.txt`, up to
 * MAX_ARCHIVE_DEPTH); this converter indexes the archive itself as a listing of its members.
 * Limits against zip bombs: an archive with too many entries is refused whole; a member that is too
 * big, compresses suspiciously well, is encrypted or has an unsafe name is skipped alone (the
 * listing says why), and members past the archive's total budget are skipped too.
 */
import { basename, extname } from 'node:path';
import type { Converter, ConvertedNode } from './types.js';
import { PRIORITY_GENERIC, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { listArchive, type ArchiveEntry } from './archive-formats.js';
import { isTar } from './tar-reader.js';
import type { SourceType } from '../../store/schemas.js';
import { followPlan, type Capabilities } from './plan-shape.js';

/** Most members an archive may have. */
export const MAX_ARCHIVE_ENTRIES = 10_000;
/** Most bytes all members may inflate to, together. */
export const MAX_ARCHIVE_TOTAL_BYTES = 1024 * 1024 * 1024;
/** Most bytes one member may inflate to. */
export const MAX_ARCHIVE_MEMBER_BYTES = 256 * 1024 * 1024;
/** Largest uncompressed/compressed ratio accepted for a member (members over it are skipped alone). */
export const MAX_COMPRESSION_RATIO = 100;
/** Members smaller than this are exempt from the ratio check (tiny files of zeros compress absurdly well). */
export const RATIO_EXEMPT_BYTES = 1024 * 1024;
/** Archives nested deeper than this (an archive inside an archive inside …) are listed, not expanded. */
export const MAX_ARCHIVE_DEPTH = 3;

/** Folders and files inside archives never ingested. */
const IGNORED_MEMBER = /(^|\/)(__MACOSX|\.git|node_modules)\/|(^|\/)(\.DS_Store|Thumbs\.db)$/;

export interface ArchiveMember {
  name: string;
  size: number;
}

export interface ArchivePlan {
  members: ArchiveMember[];
  /** entries not ingested, each with why */
  skipped: { name: string; reason: string }[];
  total_bytes: number;
}

/** Why a member name is unsafe or unwanted, or null when it is fine. */
function memberProblem(e: ArchiveEntry): string | null {
  if (IGNORED_MEMBER.test(e.name)) return 'system/metadata file';
  if (e.isLink) return 'a link, device or FIFO, not a file';
  if (e.name.startsWith('/') || /^[A-Za-z]:/.test(e.name) || e.name.split('/').includes('..')) return 'unsafe path (absolute or containing ..)';
  if (e.encrypted) return 'encrypted member (password-protected archives are not read)';
  if (e.uncompressedSize > MAX_ARCHIVE_MEMBER_BYTES) return `inflates to ${e.uncompressedSize} bytes, over the ${MAX_ARCHIVE_MEMBER_BYTES}-byte member limit`;
  if (e.uncompressedSize > RATIO_EXEMPT_BYTES && e.compressedSize > 0 && e.uncompressedSize / e.compressedSize > MAX_COMPRESSION_RATIO) {
    return `compression ratio ${Math.round(e.uncompressedSize / e.compressedSize)}:1 is over the ${MAX_COMPRESSION_RATIO}:1 limit (possible zip bomb)`;
  }
  return null;
}

/**
 * Check an archive against the zip-bomb limits and list the members to ingest. Throws ConvertError
 * when the archive as a whole is refused. Reads only the central directory; the declared sizes are
 * enforced again while inflating (yauzl validates them and ../archive-members.ts caps the bytes read).
 */
export async function planArchive(bytes: Uint8Array, type: SourceType = 'zip', archiveName = 'archive'): Promise<ArchivePlan> {
  let entries: ArchiveEntry[];
  try {
    entries = await listArchive(type, bytes, archiveName);
  } catch (err) {
    const what = type === 'zip' ? '.zip' : type === 'tar' ? '.tar' : 'gzip (.gz, .tgz)';
    throw new ConvertError(`The archive could not be read: ${err instanceof Error ? err.message : String(err)}`, `Check that it is a complete ${what} file (re-download or re-create it).`);
  }
  const files = entries.filter((e) => !e.isDirectory);
  if (files.length > MAX_ARCHIVE_ENTRIES) {
    throw new ConvertError(`The archive has ${files.length} entries, over the limit of ${MAX_ARCHIVE_ENTRIES}; it was not expanded (possible zip bomb).`, 'Unzip it yourself into the inbox if its contents are wanted.');
  }
  const members: ArchiveMember[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const names = new Set<string>();
  let total = 0;
  for (const e of files) {
    let problem = memberProblem(e);
    if (!problem && names.has(e.name)) problem = 'duplicate name (only the first entry of that name is read)';
    if (!problem && total + e.uncompressedSize > MAX_ARCHIVE_TOTAL_BYTES) problem = `the archive's members already reach the ${MAX_ARCHIVE_TOTAL_BYTES}-byte total limit (possible zip bomb)`;
    names.add(e.name);
    if (problem) {
      skipped.push({ name: e.name, reason: problem });
      continue;
    }
    total += e.uncompressedSize;
    members.push({ name: e.name, size: e.uncompressedSize });
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  members.sort((a, b) => cmp(a.name, b.name));
  skipped.sort((a, b) => cmp(a.name, b.name));
  return { members, skipped, total_bytes: total };
}

/** What this converter does with each plan field (see plan-shape.ts). */
const ARCHIVE_CAPS: Capabilities = {
  approaches: ['tree_index'],
  keySections: 'an archive lists its members, each ingested as its own source',
  tablesAsRows: 'an archive has no tables; its members follow their own plans',
  twoColumns: 'an archive has no page layout; its members follow their own plans',
  plaintext: { native: null, reason: '' },
  estimatedNodes: 'an archive is one node per member',
};

export const archiveConverter: Converter = {
  name: 'archive',
  version: 1,
  async convert({ bytes, card, options }) {
    const plan = await planArchive(bytes, card.type, card.filename);
    const title = basename(card.filename, extname(card.filename));
    const children: ConvertedNode[] = plan.members.map((m) => ({
      title: m.name,
      kind: 'member',
      summary: `${m.name} (${m.size} bytes), ingested as ${card.original_path}!/${m.name}`,
      meta: { source_path: `${card.original_path}!/${m.name}`, size: m.size },
      children: [],
    }));
    for (const s of plan.skipped) children.push({ title: s.name, kind: 'skipped_member', summary: `${s.name}: not ingested (${s.reason})`, meta: { reason: s.reason }, children: [] });
    const lines = [
      `Archive ${card.filename}: ${plan.members.length} members ingested as their own sources, ${plan.skipped.length} skipped, ${plan.total_bytes} bytes uncompressed.`,
      '',
      ...plan.members.map((m) => `- ${m.name} (${m.size} bytes)`),
      ...plan.skipped.map((s) => `- ${s.name}: skipped, ${s.reason}`),
      '',
      `Archives inside this archive are expanded as their own sources, up to ${MAX_ARCHIVE_DEPTH} levels deep.`,
    ];
    return followPlan({
      title,
      toc_source: 'detected',
      approach: 'tree_index',
      root: { title, kind: 'archive', summary: lines[0]!, content: lines.join('\n'), children },
      card: { sections_overview: plan.members.map((m) => m.name).slice(0, 20) },
      meta: { members: String(plan.members.length), skipped_members: String(plan.skipped.length) },
    }, options.plan, ARCHIVE_CAPS, 'an archive');
  },
};

/** Any ZIP archive that is not a more specific package (Word, Excel): the catch-all of the ZIP signature; tar and gzip. */
export const archiveRegistration: ConverterRegistration = {
  converter: archiveConverter,
  formats: [
    { type: 'zip', mime: 'application/zip', extensions: ['.zip'], magic: [[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06]], priority: PRIORITY_GENERIC },
    // tar's signature ("ustar") sits at byte 257: every file passes the empty one, the content test decides
    { type: 'tar', mime: 'application/x-tar', extensions: ['.tar'], magic: [[]], contains: isTar, priority: PRIORITY_GENERIC },
    // the catch-all of the gzip signature: a gzipped manual page (man.ts) is read as a page first
    { type: 'gzip', mime: 'application/gzip', extensions: ['.gz', '.tgz'], magic: [[0x1f, 0x8b]], priority: PRIORITY_GENERIC + 1 },
  ],
};
