/**
 * How signals become one score — the only place they are combined.
 *
 * Tier 1 (sources), weighted score fusion:
 *
 *   score(s) = 1.0·bm25~(s) + 1.0·coverage(s) + 0.3·card_cos~(s) + 0.15·node_cos~(s)
 *            + 1.0·period(s) + 0.5·identity(s) + 1.0·passage~(s)
 *
 * where x~ is x min-max scaled over the candidates (so BM25 margins survive: a source matching the
 * company and the year clearly wins), coverage and identity are shares in [0,1] and period is in
 * [-1,1], added as they are. Candidates are the sources some content signal (keyword or vector)
 * found; the metadata signals (period, identity) only re-rank them; the passage signal (best node
 * of a source, signals/passage.ts) is computed for the best candidates of a first fusion without it. The sources holding the query's
 * rarest term, when it is rare (signals/rare.ts), are ranked first. Reciprocal-rank fusion was
 * measured against this on the FinanceBench dev set and removed (docs/ARCHITECTURE.md).
 */

/** Weight of each signal. */
export const FUSION_WEIGHTS = {
  /** BM25 over the source fields, scaled over the candidates */
  keyword: 1.0,
  /** idf-weighted share of the query's words a source holds */
  coverage: 1.0,
  /** card-vector cosine, scaled over the candidates: a smaller correction */
  card_vector: 0.3,
  /** best node-vector cosine, scaled over the candidates */
  node_vector: 0.15,
  /**
   * period match in [-1, 1]: a filing of the asked year gains, one whose period contradicts it
   * loses, whatever the other candidates; a query naming no year gives the newest edition of each
   * series among the first SERIES_CANDIDATES of a first fusion LATEST_IN_SERIES (signals/metadata.ts)
   */
  period: 1.0,
  /** share of the query's naming words (company names, tickers) in a source's identity */
  identity: 0.5,
  /** best single node's BM25 (idf over the compared candidates' nodes), scaled over the candidates it was computed for */
  passage: 1.0,
} as const;

export type Signal = keyof typeof FUSION_WEIGHTS;
export const SIGNALS = Object.keys(FUSION_WEIGHTS) as Signal[];

/** Signals whose values are scaled over the candidates; the others are added as they are. */
const SCALED: ReadonlySet<Signal> = new Set<Signal>(['keyword', 'card_vector', 'node_vector', 'passage']);
/** Signals that make a source a candidate. */
const CONTENT: readonly Signal[] = ['keyword', 'coverage', 'card_vector', 'node_vector'];

export type SignalLists = Partial<Record<Signal, Map<string, number>>>;

export interface Fused {
  /** candidate → fused score */
  scores: Map<string, number>;
  /** what one signal added to one candidate's score */
  contribution(signal: Signal, id: string): number;
}

/** Scores scaled to [0,1] by the list's min and max (all 1 when they are equal). */
function minMax<K>(scores: Map<K, number>): Map<K, number> {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of scores.values()) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return new Map([...scores].map(([id, s]) => [id, hi > lo ? (s - lo) / (hi - lo) : 1]));
}

export function fuse(lists: SignalLists): Fused {
  const values = new Map<Signal, Map<string, number>>();
  for (const s of SIGNALS) {
    const m = lists[s];
    if (m && m.size > 0) values.set(s, SCALED.has(s) ? minMax(m) : m);
  }
  const contribution = (s: Signal, id: string): number => FUSION_WEIGHTS[s] * (values.get(s)?.get(id) ?? 0);
  const scores = new Map<string, number>();
  for (const s of CONTENT) for (const id of values.get(s)?.keys() ?? []) scores.set(id, 0);
  for (const id of scores.keys()) {
    let total = 0;
    for (const s of values.keys()) total += contribution(s, id);
    scores.set(id, total);
  }
  return { scores, contribution };
}

/**
 * Candidates best first (ties by id, so results are deterministic). Those in `first` (the sources
 * holding the query's rare term, signals/rare.ts) come before all others, best first among themselves.
 */
export function ranked<K extends string | number>(scores: Map<K, number>, first?: ReadonlySet<K>): Array<[K, number]> {
  const tier = (k: K) => (first?.has(k) ? 0 : 1);
  return [...scores.entries()].sort((a, b) => tier(a[0]) - tier(b[0]) || b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/**
 * Tier 2: weight of node-vector similarity (min-max scaled over the source's nodes) beside keyword
 * BM25 (scaled by the best node's). Node vectors (USE-lite over title path, summary and opening
 * text) are a weak signal inside one document: they break near-ties of keyword scores rather than
 * override clear keyword margins. 0.2 rather than 0.1: tier-2 hit@3 FinanceBench reworded 0.826 →
 * 0.848, cross-domain 0.924 → 0.939 (and its held-out rewording 0.848 → 0.864), FinanceBench dev
 * hit@1 0.783 → 0.761 (one question); 0.15–0.25 measured within one question of it on every set.
 */
export const NODE_VECTOR_WEIGHT = 0.2;

/** Scores divided by the largest (a list of zeros stays zeros). */
function byMax(scores: Map<number, number>): Map<number, number> {
  let hi = 0;
  for (const v of scores.values()) if (v > hi) hi = v;
  return new Map([...scores].map(([i, s]) => [i, hi > 0 ? s / hi : 0]));
}

/**
 * Tier 2: the nodes of one source scored by
 *   score(n) = bm25(n) / max bm25 + 0.2·cos~(n) + bonus(n) [+ 0.4·proximity(n)]
 * where cos~ is the node-vector cosine min-max scaled over the nodes that have one, bonus is a
 * vocabulary pack's section bonus or a keyed table window's entries bonus (nodes.ts), and proximity, added afterwards to the first nodes
 * of this ranking (addNodeProximity), the share of the query one span of the node's text holds.
 * Scores, not ranks, are fused, so a node that holds
 * the query's words clearly better than the others keeps its lead, and the lead of the first
 * suggestion over the second (or the keyword scores' lead when they put the same node first,
 * nodes.ts firstLead) says how sure it is (node-confidence.ts). Reciprocal-rank fusion
 * (1/(20+rank_kw) + 0.25/(20+rank_vec)) was measured against it and removed (docs/ARCHITECTURE.md).
 */
export function fuseNodeScores(kw: Map<number, number>, vec: Map<number, number>, bonus: Map<number, number>): Map<number, number> {
  const fused = new Map<number, number>();
  const add = (i: number, x: number) => fused.set(i, (fused.get(i) ?? 0) + x);
  for (const [i, s] of byMax(kw)) add(i, s);
  for (const [i, s] of minMax(vec)) add(i, NODE_VECTOR_WEIGHT * s);
  for (const [i, b] of bonus) add(i, b);
  return fused;
}

/**
 * Tier 2: weight of the proximity signal (proximity.ts: the share of the query's idf weight one
 * span of a node's text holds, in [0,1]), added to the fused score of the best PROXIMITY_CANDIDATES
 * nodes, on the scale where the best keyword node scores 1. Tier-2 hit@1 over ten question sets
 * (FinanceBench dev and reworded, cross-domain and its held-out rewording, formats, fields, audits
 * 4 and 5 with their rewordings): mean 0.724 → 0.742 at 0.4, no set lower; 0.3: 0.733, one set
 * lower; 0.5: 0.743, FinanceBench dev 0.783 → 0.761.
 */
export const NODE_PROXIMITY_WEIGHT = 0.4;

/** Add each node's proximity share (proximity.ts), weighted, to its fused score. */
export function addNodeProximity(fused: Map<number, number>, proximity: Map<number, number>): void {
  for (const [i, p] of proximity) fused.set(i, (fused.get(i) ?? 0) + NODE_PROXIMITY_WEIGHT * p);
}
