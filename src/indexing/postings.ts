/**
 * Postings of one term as the keyword builder gathers them: [doc, tf] pairs appended in increasing
 * doc order, held as varint bytes (doc as the gap from the previous doc, then tf) instead of a JS
 * array of numbers. A 200 MB text source has ~20 million (node, term) pairs: as number arrays they
 * took ~400 MB, as varints ~60 MB. `toArray()` gives the flat [doc, tf, doc, tf, …] array the index
 * files hold, one term at a time, when the file is written.
 */

/** Bytes a new list starts with; it doubles when full. */
export const POSTINGS_INITIAL_BYTES = 16;
const VARINT_MAX_BYTES = 5;

export class CompactPostings {
  private bytes = new Uint8Array(POSTINGS_INITIAL_BYTES);
  private size = 0;
  private lastDoc = 0;
  /** pairs held */
  count = 0;
  /** sum of the term frequencies */
  tfSum = 0;

  /** Append one pair; `doc` must not be below the previous one. */
  add(doc: number, tf: number): void {
    if (doc < this.lastDoc) throw new Error(`postings out of order: doc ${doc} after ${this.lastDoc}`);
    this.reserve(2 * VARINT_MAX_BYTES);
    this.put(doc - this.lastDoc);
    this.put(tf);
    this.lastDoc = doc;
    this.count++;
    this.tfSum += tf;
  }

  /** The flat [doc, tf, …] array. */
  toArray(): number[] {
    const out = new Array<number>(2 * this.count);
    let pos = 0;
    let doc = 0;
    const b = this.bytes;
    const next = (): number => {
      let v = 0;
      let shift = 0;
      for (;;) {
        const byte = b[pos++]!;
        v += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) return v;
        shift += 7;
      }
    };
    for (let i = 0; i < this.count; i++) {
      doc += next();
      out[2 * i] = doc;
      out[2 * i + 1] = next();
    }
    return out;
  }

  private reserve(n: number): void {
    if (this.size + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.size + n));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  private put(v: number): void {
    if (!Number.isInteger(v) || v < 0 || v >= 2 ** 35) throw new Error(`postings value out of range: ${v}`);
    while (v >= 0x80) {
      this.bytes[this.size++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.bytes[this.size++] = v;
  }
}
