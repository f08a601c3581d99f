/**
 * How sure a tier-2 suggestion is, on the same scale and with the same verdict words as tier-1
 * search (confidence.ts): the idf-weighted share of the query's words the node holds (full credit in
 * its title, partial in its text; idf over the source's nodes) combined with its node-vector
 * similarity when vectors were used. A node holding every distinctive word of the query is `strong`;
 * one sharing only common words is `weak` or `none`, whatever its rank.
 *
 * A node is judged against lower thresholds than a source (NODE_STRONG_SHARE and NODE_WEAK_SHARE of
 * config.json's): questions seldom use a section's own words, so relevance runs lower inside one
 * document. On the cross-domain dev set at the source thresholds (0.6 / 0.3), half of the first
 * suggestions labelled `none` held the answer (18 of 35); at 0.45 / 0.15, 2 of 8 did, and 9 of the
 * 10 labelled `strong` held it.
 */
import { docFreq, idf, termFreq } from './bm25.js';
import { combineRelevance, keywordRelevance, NODE_COS_CEILING, NODE_COS_FLOOR, clamp01, verdictOf } from './confidence.js';
import { nodeFields, type NodeKeywords } from './keyword-index.js';
import type { Verdict } from './types.js';

/** A node's `strong` threshold as a share of config.json's (source) strong threshold. */
export const NODE_STRONG_SHARE = 0.75;
/** A node's `weak` threshold as a share of config.json's (source) weak threshold. */
export const NODE_WEAK_SHARE = 0.5;

export interface NodeConfidence {
  relevance: number;
  verdict: Verdict;
}

/** Relevance and verdict of node i of a source for the query's word groups. */
export function nodeConfidence(
  ix: NodeKeywords, groups: string[][], i: number, cosine: number | undefined, thresholds: { strong: number; weak: number },
): NodeConfidence {
  const f = nodeFields(ix);
  const n = ix.nodes.length;
  const ev = groups.map((g) => g.map((t) => ({
    term: t,
    weight: idf(n, docFreq(f.text, t)),
    known: !!f.text.postings(t) || !!f.title.postings(t),
    cardTf: termFreq(f.title, t, i),
    bodyTf: termFreq(f.text, t, i),
  })));
  const kw = keywordRelevance(ev);
  const vec = cosine === undefined ? null : clamp01((cosine - NODE_COS_FLOOR) / (NODE_COS_CEILING - NODE_COS_FLOOR));
  const relevance = Math.round(combineRelevance(kw, vec) * 1000) / 1000;
  return { relevance, verdict: verdictOf(relevance, NODE_STRONG_SHARE * thresholds.strong, NODE_WEAK_SHARE * thresholds.weak) };
}
