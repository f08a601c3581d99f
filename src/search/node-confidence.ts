/**
 * How sure a tier-2 suggestion is, on the same scale and with the same verdict words as tier-1
 * search (confidence.ts): the idf-weighted share of the query's words the node holds (full credit in
 * its title, partial in its text; idf over the source's nodes) combined with its node-vector
 * similarity when vectors were used. The verdict (nodeVerdict) adds how far the first suggestion
 * leads the second: holding the query's words is not enough to be sure when another node holds them
 * as well; one sharing only common words is `none` unless it clearly leads.
 *
 * A node's relevance is judged against a lower weak threshold than a source's (NODE_WEAK_SHARE of
 * config.json's): questions seldom use a section's own words, so relevance runs lower inside one
 * document. On the cross-domain dev set at the source threshold (0.3), half of the first suggestions
 * labelled `none` held the answer (18 of 35); at 0.15, 2 of 8 did.
 */
import { docFreq, idf, termFreq } from './bm25.js';
import { combineRelevance, keywordRelevance, NODE_COS_CEILING, NODE_COS_FLOOR, clamp01 } from './confidence.js';
import { nodeFields, type NodeKeywords } from './keyword-index.js';
import type { Verdict } from './types.js';

/** A node's `weak` threshold as a share of config.json's (source) weak threshold. */
export const NODE_WEAK_SHARE = 0.5;

/**
 * The first suggestion is `strong` only when its fused score leads the second's by at least this
 * share of its own, or its keyword score does with the keyword ranking putting it first too
 * (nodes.ts firstLead), and it holds enough of the query (relevance at the weak threshold). On the dev
 * sets (FinanceBench dev and its reworded copy with and without the finance pack, cross-domain;
 * 250 first suggestions) a first suggestion leading by 0.3 or more held the answer 87% of the time,
 * one leading by less than 0.08 32% of the time, whatever its relevance: near-ties are guesses.
 */
export const NODE_SURE_LEAD = 0.3;
/** A first suggestion leading by less than this and holding few of the query's words is `none`. */
export const NODE_TIE_LEAD = 0.1;

/**
 * Verdict of the suggestion at `rank` (1-based) given its relevance and the first suggestion's
 * lead (nodes.ts): `strong` only for a first suggestion clearly ahead of the rest and holding the
 * query's words; `none` for a node holding too few of them (below the node weak threshold) unless it
 * leads clearly; otherwise `weak`. A node ranked below another is never `strong`.
 */
export function nodeVerdict(relevance: number, rank: number, lead: number, thresholds: { strong: number; weak: number }): Verdict {
  const weak = NODE_WEAK_SHARE * thresholds.weak;
  if (rank === 1 && lead >= NODE_SURE_LEAD) return relevance >= weak ? 'strong' : 'weak';
  if (rank === 1 && lead >= NODE_TIE_LEAD) return 'weak';
  return relevance >= weak ? 'weak' : 'none';
}

/**
 * Relevance of node i of a source for the query's word groups, in [0,1] (3 decimals). Words in
 * `named` count as in the node's title (a data row's column names, nodes.ts addRowColumnScores).
 */
export function nodeRelevance(ix: NodeKeywords, groups: string[][], i: number, cosine: number | undefined, named?: ReadonlySet<string>): number {
  const f = nodeFields(ix);
  const n = ix.nodes.length;
  const ev = groups.map((g) => g.map((t) => ({
    term: t,
    weight: idf(n, docFreq(f.text, t)),
    known: !!f.text.postings(t) || !!f.title.postings(t),
    cardTf: named?.has(t) ? Math.max(1, termFreq(f.title, t, i)) : termFreq(f.title, t, i),
    bodyTf: termFreq(f.text, t, i),
  })));
  const kw = keywordRelevance(ev);
  const vec = cosine === undefined ? null : clamp01((cosine - NODE_COS_FLOOR) / (NODE_COS_CEILING - NODE_COS_FLOOR));
  return Math.round(combineRelevance(kw, vec) * 1000) / 1000;
}
