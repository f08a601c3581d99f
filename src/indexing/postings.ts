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

/** Pairs a new arena holds before it first grows (it doubles when full). */
export const ARENA_INITIAL_PAIRS = 4096;

/**
 * Every term's postings of one field in three shared typed arrays, for fields with many terms and
 * few pairs each (the source-level fields: one document per source). A CompactPostings per term
 * costs a JS object and a typed array (~250 bytes) before its first pair; at 6,000 sources (930,000
 * terms over four fields) those objects were most of the index build's memory. Pairs are appended in
 * document order; on the first read they are counting-sorted by term (documents stay in order) and
 * the append buffers are released.
 */
export class PostingsArena {
  private readonly ids = new Map<string, number>();
  private pairTerm = new Int32Array(ARENA_INITIAL_PAIRS);
  private pairDoc = new Int32Array(ARENA_INITIAL_PAIRS);
  private pairTf = new Int32Array(ARENA_INITIAL_PAIRS);
  private size = 0;
  private lastDoc = 0;
  private sorted: { offsets: Int32Array; docs: Int32Array; tfs: Int32Array } | null = null;

  /** One document's term frequencies; documents must come in increasing order, and before any read. */
  addDoc(doc: number, tf: ReadonlyMap<string, number>): void {
    if (this.sorted) throw new Error('postings arena: add after read');
    if (doc < this.lastDoc) throw new Error(`postings out of order: doc ${doc} after ${this.lastDoc}`);
    this.lastDoc = doc;
    this.reserve(tf.size);
    for (const [t, n] of tf) {
      let id = this.ids.get(t);
      if (id === undefined) this.ids.set(t, (id = this.ids.size));
      this.pairTerm[this.size] = id;
      this.pairDoc[this.size] = doc;
      this.pairTf[this.size] = n;
      this.size++;
    }
  }

  /** The terms held, in first-seen order. */
  terms(): IterableIterator<string> {
    return this.ids.keys();
  }

  /** A term's flat [doc, tf, …] postings, undefined when no document has it. */
  postings(term: string): number[] | undefined {
    const id = this.ids.get(term);
    if (id === undefined) return undefined;
    const s = this.sort();
    const out = new Array<number>(2 * (s.offsets[id + 1]! - s.offsets[id]!));
    for (let i = s.offsets[id]!, k = 0; i < s.offsets[id + 1]!; i++) {
      out[k++] = s.docs[i]!;
      out[k++] = s.tfs[i]!;
    }
    return out;
  }

  private sort(): { offsets: Int32Array; docs: Int32Array; tfs: Int32Array } {
    if (this.sorted) return this.sorted;
    const offsets = new Int32Array(this.ids.size + 1);
    for (let i = 0; i < this.size; i++) offsets[this.pairTerm[i]! + 1]!++;
    for (let t = 0; t < this.ids.size; t++) offsets[t + 1]! += offsets[t]!;
    const next = offsets.slice(0, this.ids.size);
    const docs = new Int32Array(this.size);
    const tfs = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const at = next[this.pairTerm[i]!]!++;
      docs[at] = this.pairDoc[i]!;
      tfs[at] = this.pairTf[i]!;
    }
    this.pairTerm = this.pairDoc = this.pairTf = new Int32Array(0);
    return (this.sorted = { offsets, docs, tfs });
  }

  private reserve(n: number): void {
    if (this.size + n <= this.pairTerm.length) return;
    const cap = Math.max(this.pairTerm.length * 2, this.size + n);
    const grow = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a.subarray(0, this.size));
      return b;
    };
    this.pairTerm = grow(this.pairTerm);
    this.pairDoc = grow(this.pairDoc);
    this.pairTf = grow(this.pairTf);
  }
}
