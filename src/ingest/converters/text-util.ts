/** Shared helpers for text-like converters. */
import { ConvertError } from './types.js';

/** Decode UTF-8 (BOM stripped, CRLF normalised). Throws on binary content. */
export function decodeText(bytes: Uint8Array): string {
  let text = Buffer.from(bytes).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) throw new ConvertError('The file contains binary data, not text.', 'Check that the file type matches its extension.');
  return text.replace(/\r\n?/g, '\n');
}

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
