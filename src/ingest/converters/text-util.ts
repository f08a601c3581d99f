/** Shared helpers for text-like converters. */
import { ConvertError } from './types.js';
import { decodeBytes } from '../encoding.js';

/**
 * Decode text in its detected encoding (UTF-8, UTF-16 LE/BE with or without BOM, Windows-1252;
 * see ../encoding.ts), BOM stripped, CRLF normalised. Throws on binary content.
 */
export function decodeText(bytes: Uint8Array): string {
  const { text } = decodeBytes(bytes);
  if (text.includes('\u0000')) throw new ConvertError('The file contains binary data (NUL bytes), not text.', 'Check that the file type matches its extension, or remove it from the folder.');
  return text.replace(/\r\n?/g, '\n');
}

/** decodeText, refusing a file with no text (empty or only blanks): the one error every text converter gives for it. */
export function decodeNonEmptyText(bytes: Uint8Array): string {
  const text = decodeText(bytes);
  if (text.trim().length === 0) throw new ConvertError('The file is empty.', 'Add content or remove the file from the inbox.');
  return text;
}

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The 1-based line of each character index of a text (binary search over its line starts), and its
 * line count: the file lines of HTML sections, notebook cells and structured-data nodes.
 */
export function lineLocator(text: string): { lineAt: (index: number) => number; count: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  // a final newline ends the last line; it opens none
  const count = starts[starts.length - 1] === text.length && starts.length > 1 ? starts.length - 1 : starts.length;
  const lineAt = (index: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return Math.min(lo + 1, count);
  };
  return { lineAt, count };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML/HTML character references decoded: the five named ones and numeric ones (&#39; &#x2014;). */
export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? m;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}
