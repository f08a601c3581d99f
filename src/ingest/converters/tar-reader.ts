/**
 * Tar archives held in memory (POSIX ustar, GNU and pax): the list of entries and their bytes.
 * Nothing is copied until an entry is read. Long names come from GNU `L` entries and pax `path`
 * records; links, devices and FIFOs are listed as links (never read).
 */

/** Tar's block size: headers and padded data come in blocks of this many bytes. */
export const TAR_BLOCK = 512;
/** Offset and value of the ustar magic ("ustar\0" POSIX, "ustar  \0" GNU). */
const MAGIC_OFFSET = 257;
const MAGIC = 'ustar';

export interface TarEntry {
  name: string;
  size: number;
  /** byte offset of the entry's data in the archive */
  offset: number;
  isDirectory: boolean;
  /** a hard or symbolic link, device or FIFO: listed, never read */
  isLink: boolean;
}

const ascii = (b: Uint8Array, from: number, len: number): string => {
  let end = from;
  while (end < from + len && b[end] !== 0) end++;
  return Buffer.from(b.buffer, b.byteOffset + from, end - from).toString('utf8');
};

/** A numeric header field: octal text, or base-256 when its first byte has the high bit (GNU, sizes over 8 GB). */
function numberField(b: Uint8Array, from: number, len: number): number {
  if (b[from]! & 0x80) {
    let n = b[from]! & 0x7f;
    for (let i = from + 1; i < from + len; i++) n = n * 256 + b[i]!;
    return n;
  }
  const s = ascii(b, from, len).trim();
  return s ? parseInt(s, 8) : 0;
}

/** True when `bytes` starts with a tar header: the ustar magic at offset 257. */
export function isTar(bytes: Uint8Array): boolean {
  return bytes.length >= TAR_BLOCK && ascii(bytes, MAGIC_OFFSET, MAGIC.length) === MAGIC;
}

function checksumOk(b: Uint8Array, at: number): boolean {
  let sum = 0;
  for (let i = 0; i < TAR_BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : b[at + i]!;
  return sum === numberField(b, at + 148, 8);
}

/** The `path` of a pax extended header's records ("30 path=some/long/name\n"), or null. */
function paxPath(b: Uint8Array, from: number, size: number): string | null {
  const text = Buffer.from(b.buffer, b.byteOffset + from, size).toString('utf8');
  for (const rec of text.split('\n')) {
    const m = /^\d+ path=(.*)$/s.exec(rec);
    if (m) return m[1]!;
  }
  return null;
}

/**
 * The entries of a tar archive, in archive order. Throws on a header whose checksum is wrong or
 * whose data runs past the end of the archive (a truncated or corrupt file).
 */
export function tarEntries(b: Uint8Array): TarEntry[] {
  const out: TarEntry[] = [];
  let at = 0;
  let longName: string | null = null;
  while (at + TAR_BLOCK <= b.length) {
    if (b.subarray(at, at + TAR_BLOCK).every((x) => x === 0)) break;
    if (!checksumOk(b, at)) throw new Error(`header at byte ${at} has a wrong checksum`);
    const size = numberField(b, at + 124, 12);
    const type = String.fromCharCode(b[at + 156]!);
    const data = at + TAR_BLOCK;
    if (data + size > b.length) throw new Error(`entry at byte ${at} runs past the end of the archive (truncated?)`);
    const next = data + Math.ceil(size / TAR_BLOCK) * TAR_BLOCK;
    if (type === 'L') longName = ascii(b, data, size);
    else if (type === 'x') longName = paxPath(b, data, size) ?? longName;
    else if (type !== 'g' && type !== 'K') {
      const prefix = ascii(b, at + 345, 155);
      const short = ascii(b, at, 100);
      const name = (longName ?? (prefix && ascii(b, at + MAGIC_OFFSET, 5) === MAGIC ? `${prefix}/${short}` : short)).replace(/^(\.\/)+/, '');
      longName = null;
      const isDirectory = type === '5' || name.endsWith('/');
      const isLink = !isDirectory && !['0', '\0', '7'].includes(type);
      if (name) out.push({ name, size: isDirectory || isLink ? 0 : size, offset: data, isDirectory, isLink });
    }
    at = next;
  }
  // a header cut short (the end-of-archive blocks are optional, a partial block is not)
  if (at < b.length && at + TAR_BLOCK > b.length && b.subarray(at).some((x) => x !== 0)) throw new Error(`the archive ends inside a header at byte ${at} (truncated?)`);
  return out;
}
