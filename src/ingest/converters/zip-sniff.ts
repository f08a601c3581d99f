/** A cheap look inside a ZIP package for the names of its parts (OOXML main parts), without unzipping. */

/** Bytes read from each end of the package: part names sit in local headers and the central directory. */
export const ZIP_SNIFF_HEAD_BYTES = 1 << 20;
export const ZIP_SNIFF_TAIL_BYTES = 1 << 16;

const cache = new WeakMap<Uint8Array, string>();

/** The package's leading and trailing bytes as latin1 text, where part names can be searched for. */
export function ooxmlPartNames(bytes: Uint8Array): string {
  let names = cache.get(bytes);
  if (names === undefined) {
    const head = Buffer.from(bytes.subarray(0, Math.min(bytes.length, ZIP_SNIFF_HEAD_BYTES))).toString('latin1');
    const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - ZIP_SNIFF_TAIL_BYTES))).toString('latin1');
    names = head + tail;
    cache.set(bytes, names);
  }
  return names;
}
