/** BM25 over flat postings arrays ([doc, tf, doc, tf, …]), as stored by the keyword index. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

export function idf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Add each query term's BM25 contribution to `scores` (indexed by doc). `weight` scales the field;
 * `allowed` (optional) restricts to some docs. Returns per-term idf for explanation/calibration.
 */
export function bm25Field(
  terms: string[],
  postings: Record<string, number[]>,
  lengths: number[],
  scores: Float64Array,
  weight: number,
  allowed?: Uint8Array,
  b: number = BM25_B,
): Map<string, number> {
  const n = lengths.length;
  const avg = lengths.reduce((a, b) => a + b, 0) / Math.max(1, n) || 1;
  const idfs = new Map<string, number>();
  for (const t of terms) {
    const post = postings[t];
    if (!post) continue;
    const w = idf(n, post.length / 2);
    idfs.set(t, w);
    for (let i = 0; i < post.length; i += 2) {
      const d = post[i]!;
      if (allowed && !allowed[d]) continue;
      const tf = post[i + 1]!;
      const norm = tf + BM25_K1 * (1 - b + (b * lengths[d]!) / avg);
      scores[d]! += weight * w * ((tf * (BM25_K1 + 1)) / norm);
    }
  }
  return idfs;
}

/** tf of term t in doc d (0 when absent). Postings are sorted by doc. */
export function termFreq(postings: Record<string, number[]>, t: string, d: number): number {
  const post = postings[t];
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
