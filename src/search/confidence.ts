/**
 * Calibrated relevance in [0,1] and verdicts. Keyword relevance = idf-weighted share of the query's
 * terms a source contains (full credit in its card, partial credit in its body); vector relevance =
 * cosine mapped linearly between a floor (unrelated text) and a ceiling (clearly on topic).
 */
import type { Verdict } from './types.js';

/** credit for a term found only in the body, scaled by tf/(tf+BODY_TF_HALF) */
export const BODY_MATCH_CREDIT = 0.8;
export const BODY_TF_HALF = 2;
/**
 * Cosines at or below the floor mean "unrelated", at or above the ceiling "on topic"; cards and
 * nodes have their own ranges (the best of a source's many nodes runs higher than its one card).
 * Measured with use-lite on financebench: off-topic queries peak at card 0.39 / node 0.53; the
 * right filing has median card 0.44 / node 0.57.
 */
export const CARD_COS_FLOOR = 0.3;
export const CARD_COS_CEILING = 0.55;
export const NODE_COS_FLOOR = 0.45;
export const NODE_COS_CEILING = 0.7;
/** a query word found nowhere in the store weighs this share of the rarest possible word */
export const UNKNOWN_TERM_SHARE = 0.5;
/** share of keyword vs vector relevance in hybrid mode */
export const HYBRID_KEYWORD_SHARE = 0.6;

export function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

function ramp(x: number, lo: number, hi: number): number {
  return clamp01((x - lo) / (hi - lo));
}

/** Vector relevance of a source from its card cosine and its best node cosine (either may be absent). */
export function vectorRelevance(cardCos: number | undefined, nodeCos: number | undefined): number {
  const c = cardCos === undefined ? 0 : ramp(cardCos, CARD_COS_FLOOR, CARD_COS_CEILING);
  const n = nodeCos === undefined ? 0 : ramp(nodeCos, NODE_COS_FLOOR, NODE_COS_CEILING);
  return Math.max(c, n);
}

export interface TermEvidence {
  /** the term (for explanations) */
  term?: string;
  /** idf of the term; 0 when the term occurs nowhere in the store */
  weight: number;
  /** the term occurs somewhere in the store */
  known?: boolean;
  cardTf: number;
  bodyTf: number;
}

/** Credit of a term in a source: full in its card fields, partial (growing with tf) in its body alone. */
export function termCredit(cardTf: number, bodyTf: number): number {
  return cardTf > 0 ? 1 : BODY_MATCH_CREDIT * (bodyTf / (bodyTf + BODY_TF_HALF));
}

/**
 * The weight of each group of the query's terms (0 for an empty group): its rarest term's idf.
 * `forRanking`: every typed word keeps its full specificity (an unseen "fy2018" makes its year
 * group decisive between filings of the same company); for confidence a group weighs by its known
 * terms ("FY2018" by "2018" when no source writes "fy2018"), and an unknown word by
 * UNKNOWN_TERM_SHARE, so an unknown spelling does not make its expansion look rarer than it is.
 */
export function groupWeights(groups: Array<Array<Pick<TermEvidence, 'weight' | 'known'>>>, forRanking: boolean): number[] {
  return groups.map((g) => {
    if (g.length === 0) return 0;
    if (forRanking) return Math.max(...g.map((t) => t.weight));
    const known = g.filter((t) => t.known !== false);
    return known.length ? Math.max(...known.map((t) => t.weight)) : UNKNOWN_TERM_SHARE * Math.max(...g.map((t) => t.weight));
  });
}

/** Sum of the non-empty groups' weights, in group order (the denominator of keywordRelevance). */
export function totalWeight(groups: unknown[][], weights: number[]): number {
  let total = 0;
  groups.forEach((g, i) => { if (g.length > 0) total += weights[i]!; });
  return total;
}

/**
 * Idf-weighted share of the query's words found in a source (`forRanking`: the coverage signal
 * used in fusion; otherwise the calibrated keyword relevance). Each group holds the terms one typed
 * word expands to ("FY2018" → fy2018, 2018): the group weighs as groupWeights says and earns the
 * best credit of its terms.
 */
export function keywordRelevance(groups: TermEvidence[][], opts: { forRanking?: boolean } = {}): number {
  const weights = groupWeights(groups, !!opts.forRanking);
  const total = totalWeight(groups, weights);
  let got = 0;
  groups.forEach((g, i) => {
    if (g.length > 0) got += weights[i]! * Math.max(...g.map((t) => termCredit(t.cardTf, t.bodyTf)));
  });
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

/**
 * A first-ranked source is `strong` only when its fused score leads the second's by at least this
 * share of its own. Measured on FinanceBench dev, its reworded copy and the cross-domain set (157
 * questions with results; scripts/calibrate-verdicts.mjs): first sources leading by 0.08 or more
 * were the expected file 139 times of 141, those leading by less 10 of 16; sources ranked below
 * the first were the expected file 6 times of 544, whatever their relevance (under the old rule,
 * relevance ≥ strong_threshold, 2 of 101 later sources labelled `strong` were right).
 */
export const SOURCE_SURE_LEAD = 0.08;
/**
 * A source whose period match (signals/metadata.ts, in [-1, 1]) is this much below the best
 * candidate's names another period than the query's (a 10-K for fiscal 2023 when a 10-Q of Q2
 * fiscal 2024 is there): never `strong`. A negative period match (another year) never is either.
 */
export const PERIOD_CONFLICT_GAP = 0.25;
/** A source holding less than this share of the best candidate's naming-word share (company, product) names something else. */
export const IDENTITY_CONFLICT_SHARE = 0.5;

export interface SourceEvidence {
  /** 1-based rank in the whole answer (not within a page) */
  rank: number;
  relevance: number;
  /** (score₁ − score₂) / |score₁| of the ranking (1 with one candidate); only read for rank 1 */
  lead: number;
  /** for rank 1: the second listed source's own relevance (absent: none listed) */
  next?: number;
  /** for rank 1: the second listed source names another period or company than the query (sourceConflict) */
  nextConflicts?: boolean;
  /** this source's period match and the best candidate's (undefined: the query names no period) */
  period?: { own: number; best: number };
  /** this source's naming-word share and the best candidate's (undefined: no naming words) */
  identity?: { own: number; best: number };
}

/** Why a source cannot be the one the query names: another period or another company/product than the best candidate's. */
export function sourceConflict(e: Pick<SourceEvidence, 'period' | 'identity'>): string | null {
  if (e.period && (e.period.own < 0 || e.period.own < e.period.best - PERIOD_CONFLICT_GAP)) return 'period';
  if (e.identity && e.identity.best > 0 && e.identity.own < IDENTITY_CONFLICT_SHARE * e.identity.best) return 'identity';
  return null;
}

/**
 * Verdict of a listed source: `none` under the weak threshold; `strong` only for the first source,
 * clearly ahead of the second (SOURCE_SURE_LEAD), holding more of the query than the second does
 * (relevance) unless the second names another period or company than the query does, and not
 * conflicting with the period or the name the query gives itself; every other listed source `weak`
 * (an alternative, rarely the answer). Twelve dev and held-out sets (533 questions,
 * scripts/calibrate-verdicts.mjs): first sources leading the fusion but no more relevant than the
 * second were the expected file 57 times of 65, those more relevant 418 of 424 (an agent stayed in
 * MrBayes' manual, `strong`, for a BUGS-model question JAGS's manual answers, equally relevant).
 * A second source of another year is no rival, however many of the query's words it holds: 3M's
 * 2018 10-K, asked for 2018, was `weak` behind its 2015 one's relevance (0.718 vs 0.724), and
 * agents of the FinanceBench agent test read that as doubt four times.
 */
export function sourceVerdict(e: SourceEvidence, weak: number): Verdict {
  if (e.relevance < weak) return 'none';
  const aheadOfNext = e.relevance > (e.next ?? -Infinity) || e.nextConflicts === true;
  if (e.rank === 1 && e.lead >= SOURCE_SURE_LEAD && aheadOfNext && !sourceConflict(e)) return 'strong';
  return 'weak';
}
