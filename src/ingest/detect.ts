/**
 * Detection: the converter registry's formats (extension, magic bytes, content tests, priority)
 * applied to a file give its card. Reads the whole file once (for the hash) and hands the bytes on
 * so conversion does not read it again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { FileCard, SourceType } from '../store/schemas.js';
import type { FormatSpec } from './converters/types.js';
import { FORMATS, formatOf } from './converters/index.js';
import { decodeBytes, decodeHead, hasBinaryControls } from './encoding.js';

/** How many leading bytes are inspected for magic numbers and text/binary sniffing. */
export const SNIFF_BYTES = 512;
/** Share of control bytes in the sniff window above which a file is treated as binary. */
export const BINARY_CONTROL_RATIO = 0.1;
/** Extensionless files up to this size that start like JSON are parsed whole to decide JSON vs text. */
export const JSON_SNIFF_MAX_BYTES = 16 * 1024 * 1024;

export interface Detected {
  card: FileCard;
  bytes: Uint8Array;
  size: number;
  mtimeMs: number;
  /** extension and content disagree (e.g. a .txt that is a PDF); conversion follows the content */
  mislabelled: string | null;
  /** why the file cannot be converted at all, when detection already knows */
  broken: string | null;
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Decide the type from extension and content. Content wins for binary formats; text formats keep the extension's type. */
export interface TypeGuess {
  type: SourceType;
  language?: string;
  /** extension and content disagree; conversion follows the content */
  mislabelled: string | null;
  /** the name promises a binary format whose signature is missing: the file cannot be converted */
  broken?: string;
}

/**
 * True when the sniff window looks like text: decoded in its detected encoding (UTF-8, UTF-16 with
 * or without BOM, Windows-1252; ./encoding.ts), it holds no NUL and few control characters.
 */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  return !hasBinaryControls(decodeHead(head, head.length).text, BINARY_CONTROL_RATIO);
}

/** Text that starts like JSON is JSON only when the whole content parses as JSON (content decides, not the first byte). */
function contentIsJson(bytes: Uint8Array): boolean {
  if (bytes.length > JSON_SNIFF_MAX_BYTES) return false;
  try {
    JSON.parse(decodeBytes(bytes).text);
    return true;
  } catch {
    return false;
  }
}

function startsWith(buf: Uint8Array, sig: readonly number[]): boolean {
  return sig.every((b, i) => buf[i] === b);
}

/** The format the file name promises (its extension), if any. */
export function formatByName(filename: string): { format: FormatSpec; ext: string } | null {
  const ext = extname(filename).toLowerCase();
  const format = ext ? FORMATS.find((f) => f.extensions?.includes(ext)) : undefined;
  return format ? { format, ext } : null;
}

/** Formats whose magic bytes (and further content test) match, by priority. */
export function formatsByMagic(bytes: Uint8Array): FormatSpec[] {
  const head = bytes.subarray(0, SNIFF_BYTES);
  return FORMATS.filter((f) => f.magic?.some((sig) => startsWith(head, sig)) && (!f.contains || f.contains(bytes)));
}

/** Binary content: the most specific matching format, or the named one when it is among the best. */
function byContent(hits: FormatSpec[], named: { format: FormatSpec; ext: string } | null): TypeGuess {
  const best = hits[0]!;
  const chosen = named && hits.includes(named.format) && named.format.priority === best.priority ? named.format : best;
  const mislabelled = named && !hits.includes(named.format) ? `extension ${named.ext} but the content is ${describe(chosen.type)}` : null;
  return { type: chosen.type, mislabelled };
}

/** "a" or "an" before a format's name spelled in capitals, as it is read aloud ("an RTF", "an XLSX", "a PDF"). */
function article(type: SourceType): string {
  return /^[aefhilmnorsx]/i.test(type) ? 'an' : 'a';
}

function describe(type: SourceType): string {
  return type === 'pdf' ? 'a PDF' : `a ${type.toUpperCase()} ${type === 'image' ? 'file' : 'package'}`;
}

/**
 * A text file whose name says nothing: the first format whose text test matches its leading text
 * (decoded in its own encoding); a JSON look-alike must also parse as JSON as a whole.
 */
function byText(bytes: Uint8Array): TypeGuess {
  const s = decodeHead(bytes, SNIFF_BYTES).text.trimStart();
  const f = FORMATS.find((x) => x.sniffText?.(s) && (x.type !== 'json' || contentIsJson(bytes)));
  if (!f) return { type: 'text', mislabelled: null };
  return f.sniffedLanguage ? { type: f.type, language: f.sniffedLanguage, mislabelled: null } : { type: f.type, mislabelled: null };
}

export function detectType(filename: string, bytes: Uint8Array): TypeGuess {
  const named = formatByName(filename);
  const hits = formatsByMagic(bytes);
  if (hits.length > 0) return byContent(hits, named);
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (named?.format.magic) {
    const t = named.format.type;
    return { type: t, mislabelled: null, broken: `The file is named ${named.ext} but does not start with ${article(t)} ${t.toUpperCase()} signature: it is corrupt, truncated or mislabelled.` };
  }
  if (!looksLikeText(head)) {
    if (!named) return { type: 'unknown', mislabelled: null };
    return { type: named.format.type, mislabelled: null, broken: `The file is named ${named.ext} but its content is binary, not text (read as UTF-8, UTF-16 and Windows-1252): it is corrupt or mislabelled. Replace it or remove it from the folder.` };
  }
  if (!named) return byText(bytes);
  const language = named.format.languages?.[named.ext];
  return language ? { type: named.format.type, language, mislabelled: null } : { type: named.format.type, mislabelled: null };
}

/** A file that vanished between the scan and the read: not an error of the file, just gone. */
export class VanishedError extends Error {
  constructor(readonly path: string) {
    super(`${path} vanished while it was being ingested`);
    this.name = 'VanishedError';
  }
}

/** Reads of a file that keeps changing while it is read, before giving up on it for this run. */
export const READ_ATTEMPTS = 2;

/** One line for a file that could not be read: what happened and what to do. */
export function readErrorMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'EACCES':
    case 'EPERM':
      return 'Could not read the file: permission denied. Fix its permissions (e.g. chmod u+r) or add it to ingest.exclude in config.json.';
    case 'EISDIR':
      return 'Could not read the file: a folder took its place while ingesting. Run `mhub ingest` again.';
    case 'ERR_FS_FILE_TOO_LARGE':
    case 'ENOMEM':
      return 'Could not read the file: it is too large to load into memory. Split it, or add it to ingest.exclude in config.json.';
    case 'ECHANGING':
      return 'Could not read the file: it kept changing while it was read (still being written or downloaded?). Run `mhub ingest` again once it is complete.';
    case 'ESPECIAL':
      return 'Could not read the file: it is no longer a regular file (a pipe, socket or device took its place). Remove it from the folder.';
    case 'EIO':
      return 'Could not read the file: the disk reported an input/output error. Check the disk or copy the file again.';
    default:
      return `Could not read the file: ${e?.message ?? String(err)}. Check the file, then run \`mhub ingest\` again.`;
  }
}

/**
 * Read and classify a file. `id` and `relPath` come from the caller (ids are path-derived). A file
 * whose size or mtime changes while it is read is read again, once; if it is still changing, the
 * error says so. A file that is gone throws VanishedError; anything else that is not a regular file
 * is refused without being opened (a FIFO would block the read forever).
 */
export function detectFile(absPath: string, relPath: string, id: string): Detected {
  for (let attempt = 1; ; attempt++) {
    let before;
    try {
      before = statSync(absPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') throw new VanishedError(relPath);
      throw err;
    }
    if (!before.isFile()) throw Object.assign(new Error('not a regular file'), { code: before.isDirectory() ? 'EISDIR' : 'ESPECIAL' });
    let bytes: Buffer;
    try {
      bytes = readFileSync(absPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new VanishedError(relPath);
      throw err;
    }
    let after;
    try {
      after = statSync(absPath);
    } catch {
      throw new VanishedError(relPath);
    }
    if (after.size === before.size && after.mtimeMs === before.mtimeMs && bytes.length === after.size) return detectBytes(bytes, relPath, id, after.mtimeMs);
    if (attempt >= READ_ATTEMPTS) {
      throw Object.assign(new Error('the file kept changing while it was read'), { code: 'ECHANGING' });
    }
  }
}

/** Classify bytes that are already in memory (e.g. an archive member, `archive.zip!/member`). */
export function detectBytes(bytes: Uint8Array, relPath: string, id: string, mtimeMs: number): Detected {
  const size = bytes.length;
  const { type, language, mislabelled, broken } = detectType(relPath, bytes);
  const card: FileCard = {
    id,
    filename: basename(relPath),
    original_path: relPath,
    type,
    ...(formatOf(type)?.mime ? { mime: formatOf(type)!.mime } : {}),
    ...(language ? { language } : {}),
    size_kb: Math.round((size / 1024) * 10) / 10,
    sha256: sha256(bytes),
  };
  return { card, bytes, size, mtimeMs, mislabelled, broken: broken ?? (size === 0 ? 'The file is empty (0 bytes): there is nothing to index. Add content, or remove it from the folder.' : null) };
}
