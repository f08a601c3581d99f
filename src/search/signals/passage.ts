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
 *
 * A query word a source never writes is looked for in the forms the source does write (termNodes):
 * cross-domain tier-1 hit@1 0.939 → 0.955, the other sets unchanged.
 */
import { BM25_K1, idf, meanLength } from '../bm25.js';
import { stemVariants } from '../nodes.js';
import { nodeFields, nodeKeywords, type NodeKeywords } from '../keyword-index.js';

/** Candidates (by fused score) whose nodes are read and compared. */
export const PASSAGE_CANDIDATES = 10;
/** Length normalisation of node texts in the passage score. */
export const PASSAGE_B = 0.75;

/**
 * tf of a query term in each node of one source: its own, or, when the source never writes it, the
 * summed tf of the source's words sharing its stem (nodes.ts stemVariants: "regressing" is found
 * as "regression" in a source that says it that way), so a source is not judged by the form a word
 * was typed in. Its idf counts the nodes holding any of those forms.
 */
function termNodes(ix: NodeKeywords, t: string): Map<number, number> {
  const text = nodeFields(ix).text;
  const forms = text.postings(t) ? [t] : stemVariants(ix, t);
  const out = new Map<number, number>();
  for (const f of forms) {
    const post = text.postings(f);
    if (post) for (let i = 0; i < post.length; i += 2) out.set(post[i]!, (out.get(post[i]!) ?? 0) + post[i + 1]!);
  }
  return out;
}

interface Passages {
  ix: NodeKeywords;
  tfs: Map<string, Map<number, number>>;
}

/** Idf of each term over the passages compared: every node of the given sources. */
function passageIdf(sources: Passages[], terms: string[]): Map<string, number> {
  let passages = 0;
  const df = new Map(terms.map((t) => [t, 0]));
  for (const s of sources) {
    passages += s.ix.nodes.length;
    for (const t of terms) df.set(t, df.get(t)! + s.tfs.get(t)!.size);
  }
  return new Map(terms.map((t) => [t, idf(passages, df.get(t)!)]));
}

/** Best BM25 of a source's nodes, contents pages left out. */
function bestNode(s: Passages, weights: Map<string, number>): number {
  const lengths = nodeFields(s.ix).text.lengths;
  const avg = meanLength(lengths);
  const scores = new Float64Array(s.ix.nodes.length);
  for (const [t, w] of weights) {
    for (const [d, tf] of s.tfs.get(t)!) {
      const norm = tf + BM25_K1 * (1 - PASSAGE_B + (PASSAGE_B * lengths[d]!) / avg);
      scores[d]! += w * ((tf * (BM25_K1 + 1)) / norm);
    }
  }
  for (const i of s.ix.header.not_suggested ?? []) if (i >= 0 && i < scores.length) scores[i] = 0;
  let best = 0;
  for (const x of scores) if (x > best) best = x;
  return best;
}

/** Best-node score of each of the first PASSAGE_CANDIDATES candidate sources that has nodes. */
export function passageSignal(root: string, terms: string[], candidates: string[]): Map<string, number> {
  const typed = [...new Set(terms)];
  const sources: Array<[string, Passages]> = [];
  for (const id of candidates.slice(0, PASSAGE_CANDIDATES)) {
    const ix = nodeKeywords(root, id);
    if (ix && ix.nodes.length > 0) sources.push([id, { ix, tfs: new Map(typed.map((t) => [t, termNodes(ix, t)])) }]);
  }
  const weights = passageIdf(sources.map(([, s]) => s), typed);
  const out = new Map<string, number>();
  for (const [id, s] of sources) {
    const best = bestNode(s, weights);
    if (best > 0) out.set(id, best);
  }
  return out;
}
