/**
 * Passage signal of tier 1: how well the best single node of a source matches the query — a short
 * section holding the query's words together beats a long document scattering them. Each node is
 * scored by BM25 over its text field (its ancestors' titles, summary and own text, whose first line
 * is its heading); printed contents pages (the node file's `not_suggested`) are never the best node:
 * they list every section's words without saying anything.
 *
 * The idf of a term is taken over the passages being compared: all nodes of the PASSAGE_CANDIDATES
 * best candidates (one node file each). A word found in every source of a family ("zoo" in the four
 * zoo vignettes) but in few of their sections weighs by how few sections hold it, so the section
 * holding the words that tell the siblings apart wins; a word common across a small library's
 * sources but rare in its sections ("y", "lm" in R manuals) still counts where it is concentrated.
 * Measured against the store-wide source idf it replaces (tier-1 hit@1): cross-domain 0.924 →
 * 0.939, its held-out rewording 0.864 → 0.894, FinanceBench dev 0.957 → 0.978, reworded 1.000 →
 * 1.000. The node-title field is not added again: it would count the heading twice, and a short
 * title's length normalisation makes one word in it outweigh a paragraph using every query word
 * (measured: tier-1 hit@1 0.879 with titles added at weight 1, 0.909 without them, on the
 * cross-domain dev set, FinanceBench dev unchanged, its reworded copy 0.978 → 1.000).
 */
import { BM25_K1, docFreq, idf, meanLength, type PostingField } from '../bm25.js';
import { nodeFields, nodeKeywords, type NodeKeywords } from '../keyword-index.js';

/** Candidates (by fused score) whose nodes are read and compared. */
export const PASSAGE_CANDIDATES = 10;
/** Length normalisation of node texts in the passage score. */
export const PASSAGE_B = 0.75;

/** BM25 of every node of one field with given idfs, added into `scores`. */
function addField(field: PostingField, weights: Map<string, number>, scores: Float64Array): void {
  const avg = meanLength(field.lengths);
  for (const [t, tIdf] of weights) {
    const post = field.postings(t);
    if (!post) continue;
    for (let i = 0; i < post.length; i += 2) {
      const d = post[i]!;
      const tf = post[i + 1]!;
      const norm = tf + BM25_K1 * (1 - PASSAGE_B + (PASSAGE_B * field.lengths[d]!) / avg);
      scores[d]! += tIdf * ((tf * (BM25_K1 + 1)) / norm);
    }
  }
}

/** Idf of each term over the passages compared: every node of the given sources. */
function passageIdf(indexes: NodeKeywords[], terms: string[]): Map<string, number> {
  let passages = 0;
  const df = new Map(terms.map((t) => [t, 0]));
  for (const ix of indexes) {
    passages += ix.nodes.length;
    const text = nodeFields(ix).text;
    for (const t of terms) df.set(t, df.get(t)! + docFreq(text, t));
  }
  return new Map(terms.map((t) => [t, idf(passages, df.get(t)!)]));
}

/** Best score of a source's nodes, contents pages left out. */
function bestNode(ix: NodeKeywords, weights: Map<string, number>): number {
  const scores = new Float64Array(ix.nodes.length);
  addField(nodeFields(ix).text, weights, scores);
  for (const i of ix.header.not_suggested ?? []) if (i >= 0 && i < scores.length) scores[i] = 0;
  let best = 0;
  for (const s of scores) if (s > best) best = s;
  return best;
}

/** Best-node score of each of the first PASSAGE_CANDIDATES candidate sources that has nodes. */
export function passageSignal(root: string, terms: string[], candidates: string[]): Map<string, number> {
  const read = candidates.slice(0, PASSAGE_CANDIDATES).map((id) => [id, nodeKeywords(root, id)] as const);
  const indexed = read.filter((r): r is readonly [string, NodeKeywords] => !!r[1] && r[1].nodes.length > 0);
  const weights = passageIdf(indexed.map(([, ix]) => ix), [...new Set(terms)]);
  const out = new Map<string, number>();
  for (const [id, ix] of indexed) {
    const best = bestNode(ix, weights);
    if (best > 0) out.set(id, best);
  }
  return out;
}
