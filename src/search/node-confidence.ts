/**
 * How sure a tier-2 suggestion is, on the same scale and with the same verdict words as tier-1
 * search (confidence.ts): the idf-weighted share of the query's words the node holds (full credit in
 * its title, partial in its text; idf over the source's nodes) combined with its node-vector
 * similarity when vectors were used. A node holding every distinctive word of the query is `strong`;
 * one sharing only common words is `weak` or `none`, whatever its rank.
 */
import { docFreq, idf, termFreq } from './bm25.js';
import { combineRelevance, keywordRelevance, NODE_COS_CEILING, NODE_COS_FLOOR, clamp01, verdictOf } from './confidence.js';
import { nodeFields, type NodeKeywords } from './keyword-index.js';
import type { Verdict } from './types.js';

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
  return { relevance, verdict: verdictOf(relevance, thresholds.strong, thresholds.weak) };
}
