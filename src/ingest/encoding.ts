/**
 * Text encodings: UTF-8 (with or without BOM), UTF-16 LE/BE (with or without BOM) and
 * Latin-1/Windows-1252. The bytes decide: a BOM when there is one, else the pattern of zero bytes
 * (UTF-16 text of mostly Latin script has a zero in every other byte), else strict UTF-8, else
 * Windows-1252 (a superset of the printable Latin-1 range, as in browsers).
 */

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Bytes inspected for the UTF-16 zero-byte pattern. */
export const ENCODING_SNIFF_BYTES = 4096;
/** Share of the even (or odd) bytes that must be zero to call BOM-less text UTF-16. */
export const UTF16_ZERO_SHARE = 0.3;
/** Share of the other half that may be zero at most (UTF-16 text has few NUL characters). */
export const UTF16_OTHER_ZERO_SHARE = 0.05;

export interface Decoded {
  text: string;
  encoding: TextEncodingName;
  /** the file started with a byte-order mark (dropped from `text`) */
  bom: boolean;
}

/** The encoding a BOM announces, with the BOM's length, or null. */
function bomOf(b: Uint8Array): { encoding: TextEncodingName; length: number } | null {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

/** 'utf-16le' / 'utf-16be' when the zero bytes fall on one side of each byte pair, else null. */
export function sniffUtf16(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, ENCODING_SNIFF_BYTES) & ~1;
  if (n < 2) return null;
  let evenZero = 0;
  let oddZero = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZero++;
    if (bytes[i + 1] === 0) oddZero++;
  }
  const pairs = n / 2;
  if (oddZero / pairs >= UTF16_ZERO_SHARE && evenZero / pairs <= UTF16_OTHER_ZERO_SHARE) return 'utf-16le';
  if (evenZero / pairs >= UTF16_ZERO_SHARE && oddZero / pairs <= UTF16_OTHER_ZERO_SHARE) return 'utf-16be';
  return null;
}

/** True when the bytes are valid UTF-8 (`partial`: a character cut at the very end is allowed). */
export function isValidUtf8(bytes: Uint8Array, partial = false): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: partial });
    return true;
  } catch {
    return false;
  }
}

/** Which encoding the bytes are in (see the module comment for the order of evidence). */
export function detectEncoding(bytes: Uint8Array, partial = false): { encoding: TextEncodingName; bomLength: number } {
  const bom = bomOf(bytes);
  if (bom) return { encoding: bom.encoding, bomLength: bom.length };
  const utf16 = sniffUtf16(bytes);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  return { encoding: isValidUtf8(bytes, partial) ? 'utf-8' : 'windows-1252', bomLength: 0 };
}

/**
 * Windows-1252's characters for bytes 0x80-0x9F (the rest is Latin-1). Decoded by hand: Node's
 * TextDecoder('windows-1252') maps these bytes to C1 control characters, as Latin-1 does.
 */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeCp1252(bytes: Uint8Array): string {
  const latin = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return latin.replace(/[\u0080-\u009f]/g, (ch) => CP1252_HIGH[ch.charCodeAt(0) - 0x80]!);
}

function decodeAs(encoding: TextEncodingName, bytes: Uint8Array, stream = false): string {
  return encoding === 'windows-1252' ? decodeCp1252(bytes) : new TextDecoder(encoding).decode(bytes, { stream });
}

/** Decode bytes to a string in the detected encoding (BOM dropped). Never throws. */
export function decodeBytes(bytes: Uint8Array): Decoded {
  const { encoding, bomLength } = detectEncoding(bytes);
  const body = bytes.subarray(bomLength);
  const text = decodeAs(encoding, body);
  return { text, encoding, bom: bomLength > 0 };
}

/** Bytes decoded at a time by decodeChunks. */
export const DECODE_CHUNK_BYTES = 4 << 20;

/**
 * Decode in the detected encoding (BOM dropped) a chunk at a time, handing each piece to `onText`:
 * the same text as decodeBytes without ever holding all of it. A character cut by a chunk boundary
 * is completed by the next chunk.
 */
export function decodeChunks(bytes: Uint8Array, onText: (text: string) => void): void {
  const { encoding, bomLength } = detectEncoding(bytes);
  const decoder = encoding === 'windows-1252' ? null : new TextDecoder(encoding);
  for (let at = bomLength; at < bytes.length; at += DECODE_CHUNK_BYTES) {
    const chunk = bytes.subarray(at, Math.min(bytes.length, at + DECODE_CHUNK_BYTES));
    onText(decoder ? decoder.decode(chunk, { stream: at + DECODE_CHUNK_BYTES < bytes.length }) : decodeCp1252(chunk));
  }
}

/** Decode only the first `maxBytes` (for sniffing): a multi-byte character cut at the end is dropped. */
export function decodeHead(bytes: Uint8Array, maxBytes: number): Decoded {
  const end = Math.min(bytes.length, maxBytes);
  const { encoding, bomLength } = detectEncoding(bytes.subarray(0, end), end < bytes.length);
  const text = decodeAs(encoding, bytes.subarray(bomLength, Math.max(bomLength, end)), true);
  return { text, encoding, bom: bomLength > 0 };
}

/** True for decoded text holding control characters no text file has (other than tab, LF, CR, FF). */
export function hasBinaryControls(text: string, ratio: number): boolean {
  if (text.length === 0) return false;
  let control = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return true;
    if (c < 9 || (c > 13 && c < 32)) control++;
  }
  return control / text.length >= ratio;
}
