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

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
