/**
 * Detection: extension + magic bytes + the first 512 bytes give a file card. Reads the whole file
 * once (for the hash) and hands the bytes on so conversion does not read it again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { FileCard, SourceType } from '../store/schemas.js';

/** How many leading bytes are inspected for magic numbers and text/binary sniffing. */
export const SNIFF_BYTES = 512;
/** Share of control bytes in the sniff window above which a file is treated as binary. */
export const BINARY_CONTROL_RATIO = 0.1;

const CODE_LANGUAGES: Record<string, string> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.c': 'c', '.h': 'c',
  '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.cs': 'csharp', '.rb': 'ruby', '.php': 'php',
  '.kt': 'kotlin', '.swift': 'swift', '.scala': 'scala', '.sh': 'shell', '.bash': 'shell',
  '.sql': 'sql', '.lua': 'lua', '.r': 'r', '.pl': 'perl', '.css': 'css', '.scss': 'css',
};

const EXTENSION_TYPES: Record<string, SourceType> = {
  '.pdf': 'pdf', '.md': 'markdown', '.markdown': 'markdown', '.mdx': 'markdown',
  '.txt': 'text', '.text': 'text', '.rst': 'text', '.docx': 'docx', '.doc': 'doc',
  '.xlsx': 'xlsx', '.xlsm': 'xlsx', '.xls': 'xls', '.csv': 'csv', '.tsv': 'tsv', '.tab': 'tsv',
  '.html': 'html', '.htm': 'html', '.xhtml': 'html', '.json': 'json', '.jsonl': 'json',
  '.yaml': 'yaml', '.yml': 'yaml', '.xml': 'xml', '.log': 'log',
  '.png': 'image', '.jpg': 'image', '.jpeg': 'image', '.tif': 'image', '.tiff': 'image',
  '.gif': 'image', '.bmp': 'image', '.webp': 'image', '.zip': 'zip',
};

const MIME: Partial<Record<SourceType, string>> = {
  pdf: 'application/pdf', markdown: 'text/markdown', text: 'text/plain', html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv', tsv: 'text/tab-separated-values', json: 'application/json', yaml: 'application/yaml',
  xml: 'application/xml', zip: 'application/zip', doc: 'application/msword', xls: 'application/vnd.ms-excel',
};

function startsWith(buf: Uint8Array, sig: number[]): boolean {
  return sig.every((b, i) => buf[i] === b);
}

/** What the magic bytes say, or null when they say nothing definite. */
export function sniffMagic(head: Uint8Array): SourceType | 'ooxml' | 'ole' | null {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46])) return 'pdf'; // %PDF
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'ooxml'; // zip family
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole'; // legacy Office
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47]) || startsWith(head, [0xff, 0xd8, 0xff]) || startsWith(head, [0x47, 0x49, 0x46, 0x38])) return 'image';
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'image';
  return null;
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

function zipKind(bytes: Uint8Array): SourceType {
  // OOXML packages name their main part near the start of the central directory; a cheap scan of the names suffices.
  const text = Buffer.from(bytes.subarray(0, Math.min(bytes.length, 1 << 20))).toString('latin1');
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - (1 << 16)))).toString('latin1');
  const names = text + tail;
  if (names.includes('word/document.xml')) return 'docx';
  if (names.includes('xl/workbook.xml')) return 'xlsx';
  return 'zip';
}

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

export function detectType(filename: string, bytes: Uint8Array): TypeGuess {
  const ext = extname(filename).toLowerCase();
  const byExt: SourceType | undefined = CODE_LANGUAGES[ext] ? 'code' : EXTENSION_TYPES[ext];
  const head = bytes.subarray(0, SNIFF_BYTES);
  const magic = sniffMagic(head);
  const language = CODE_LANGUAGES[ext];
  const withLang = (type: SourceType, mislabelled: string | null = null) => (language && type === 'code' ? { type, language, mislabelled } : { type, mislabelled });

  if (magic === 'ooxml') {
    const kind = zipKind(bytes);
    if (byExt && byExt !== kind && !(byExt === 'zip' && kind !== 'zip')) {
      return { type: kind, mislabelled: `extension ${ext} but the content is a ${kind.toUpperCase()} package` };
    }
    return { type: kind, mislabelled: null };
  }
  if (magic === 'ole') return { type: byExt === 'xls' ? 'xls' : 'doc', mislabelled: null };
  if (magic === 'pdf') return { type: 'pdf', mislabelled: byExt && byExt !== 'pdf' ? `extension ${ext} but the content is a PDF` : null };
  if (magic === 'image') return { type: 'image', mislabelled: null };

  if (byExt && ['pdf', 'docx', 'xlsx', 'zip', 'image', 'doc', 'xls'].includes(byExt)) {
    // binary format by name, but the magic bytes are missing
    return { type: byExt, mislabelled: null, broken: `The file is named ${ext} but does not start with a ${byExt.toUpperCase()} signature: it is corrupt, truncated or mislabelled.` };
  }
  if (!looksLikeText(head)) return { type: 'unknown', mislabelled: null };
  if (byExt) return withLang(byExt);
  // extensionless text: sniff a few shapes
  const s = Buffer.from(head).toString('utf8').trimStart();
  if (s.startsWith('<!DOCTYPE html') || /^<html[\s>]/i.test(s)) return { type: 'html', mislabelled: null };
  if (s.startsWith('<?xml')) return { type: 'xml', mislabelled: null };
  if (s.startsWith('{') || s.startsWith('[')) return { type: 'json', mislabelled: null };
  if (s.startsWith('#!')) return { type: 'code', language: 'shell', mislabelled: null };
  if (/^#{1,6} \S/m.test(s)) return { type: 'markdown', mislabelled: null };
  return { type: 'text', mislabelled: null };
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
    ...(MIME[type] ? { mime: MIME[type] } : {}),
    ...(language ? { language } : {}),
    size_kb: Math.round((size / 1024) * 10) / 10,
    sha256: sha256(bytes),
  };
  return { card, bytes, size, mtimeMs, mislabelled, broken: broken ?? (size === 0 ? 'The file is empty (0 bytes).' : null) };
}
