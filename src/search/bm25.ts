/**
 * BM25 over flat postings arrays ([doc, tf, doc, tf, …], sorted by doc), as stored by the keyword
 * index. A field is read through `PostingField`, so the index behind it can be one file or split by term.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** One field of a keyword index: per-document token counts and a posting list per term. */
export interface PostingField {
  lengths: ArrayLike<number>;
  /** mean of `lengths` (1 when empty) */
  avgLength: number;
  postings(term: string): ArrayLike<number> | undefined;
}

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function meanLength(lengths: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < lengths.length; i++) s += lengths[i]!;
  return s / Math.max(1, lengths.length) || 1;
}

/** A field over an in-memory postings record (node indexes). */
export function recordField(postings: Record<string, number[]>, lengths: number[]): PostingField {
  return { lengths, avgLength: meanLength(lengths), postings: (t) => (Object.hasOwn(postings, t) ? postings[t] : undefined) };
}

/** Document frequency of a term in a field. */
export function docFreq(field: PostingField, t: string): number {
  return (field.postings(t)?.length ?? 0) / 2;
}

/**
 * Add each query term's BM25 contribution to `scores` (indexed by doc). `weight` scales the field;
 * `allowed` (optional) restricts to some docs.
 */
export function bm25Field(
  terms: string[],
  field: PostingField,
  scores: Float64Array,
  weight: number,
  allowed?: Uint8Array,
  b: number = BM25_B,
): void {
  const n = field.lengths.length;
  for (const t of terms) {
    const post = field.postings(t);
    if (!post) continue;
    const w = idf(n, post.length / 2);
    for (let i = 0; i < post.length; i += 2) {
      const d = post[i]!;
      if (allowed && !allowed[d]) continue;
      const tf = post[i + 1]!;
      const norm = tf + BM25_K1 * (1 - b + (b * field.lengths[d]!) / field.avgLength);
      scores[d]! += weight * w * ((tf * (BM25_K1 + 1)) / norm);
    }
  }
}

/** tf of term t in doc d (0 when absent), by binary search over the doc-sorted postings. */
export function termFreq(field: PostingField, t: string, d: number): number {
  const post = field.postings(t);
  if (!post) return 0;
  let lo = 0;
  let hi = post.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = post[mid * 2]!;
    if (v === d) return post[mid * 2 + 1]!;
    if (v < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}
