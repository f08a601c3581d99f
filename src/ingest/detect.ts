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

/** How many leading bytes are inspected for magic numbers and text/binary sniffing. */
export const SNIFF_BYTES = 512;
/** Share of control bytes in the sniff window above which a file is treated as binary. */
export const BINARY_CONTROL_RATIO = 0.1;

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

/** True when the sniff window looks like text (UTF-8 without many control bytes). */
export function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  let control = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return control / head.length < BINARY_CONTROL_RATIO;
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

function describe(type: SourceType): string {
  return type === 'pdf' ? 'a PDF' : `a ${type.toUpperCase()} ${type === 'image' ? 'file' : 'package'}`;
}

/** A text file whose name says nothing: the first format whose text test matches its leading text. */
function byText(head: Uint8Array): TypeGuess {
  const s = Buffer.from(head).toString('utf8').trimStart();
  const f = FORMATS.find((x) => x.sniffText?.(s));
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
    return { type: t, mislabelled: null, broken: `The file is named ${named.ext} but does not start with a ${t.toUpperCase()} signature: it is corrupt, truncated or mislabelled.` };
  }
  if (!looksLikeText(head)) return { type: 'unknown', mislabelled: null };
  if (!named) return byText(head);
  const language = named.format.languages?.[named.ext];
  return language ? { type: named.format.type, language, mislabelled: null } : { type: named.format.type, mislabelled: null };
}

/** Read and classify a file. `id` and `relPath` come from the caller (ids are path-derived). */
export function detectFile(absPath: string, relPath: string, id: string): Detected {
  const st = statSync(absPath);
  return detectBytes(readFileSync(absPath), relPath, id, st.mtimeMs);
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
  return { card, bytes, size, mtimeMs, mislabelled, broken: broken ?? (size === 0 ? 'The file is empty (0 bytes).' : null) };
}
