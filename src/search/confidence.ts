/**
 * Calibrated relevance in [0,1] and verdicts. Keyword relevance = idf-weighted share of the query's
 * terms a source contains (full credit in its card, partial credit in its body); vector relevance =
 * cosine mapped linearly between a floor (unrelated text) and a ceiling (clearly on topic).
 */
import type { Verdict } from './types.js';

/** credit for a term found only in the body, scaled by tf/(tf+BODY_TF_HALF) */
export const BODY_MATCH_CREDIT = 0.8;
export const BODY_TF_HALF = 2;
/** cosines at or below the floor mean "unrelated", at or above the ceiling "on topic" */
export const VECTOR_COS_FLOOR = 0.15;
export const VECTOR_COS_CEILING = 0.5;
/** share of keyword vs vector relevance in hybrid mode */
export const HYBRID_KEYWORD_SHARE = 0.6;

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

export function vectorRelevance(cos: number): number {
  return clamp01((cos - VECTOR_COS_FLOOR) / (VECTOR_COS_CEILING - VECTOR_COS_FLOOR));
}

export interface TermEvidence {
  weight: number;
  cardTf: number;
  bodyTf: number;
}

function credit(t: TermEvidence): number {
  return t.cardTf > 0 ? 1 : BODY_MATCH_CREDIT * (t.bodyTf / (t.bodyTf + BODY_TF_HALF));
}

/**
 * Idf-weighted share of the query's words found in a source. Each group holds the terms one typed
 * word expands to ("FY2018" → fy2018, 2018): the group weighs as its rarest term and earns the
 * best credit of its terms.
 */
export function keywordRelevance(groups: TermEvidence[][]): number {
  let total = 0;
  let got = 0;
  for (const g of groups) {
    if (g.length === 0) continue;
    const w = Math.max(...g.map((t) => t.weight));
    total += w;
    got += w * Math.max(...g.map(credit));
  }
  return total > 0 ? clamp01(got / total) : 0;
}

export function combineRelevance(kw: number | null, vec: number | null): number {
  if (kw === null) return vec ?? 0;
  if (vec === null) return kw;
  return clamp01(HYBRID_KEYWORD_SHARE * kw + (1 - HYBRID_KEYWORD_SHARE) * vec);
}

export function verdictOf(relevance: number, strong: number, weak: number): Verdict {
  return relevance >= strong ? 'strong' : relevance >= weak ? 'weak' : 'none';
}
