/**
 * Tier-1 search: which sources answer a query. Filters first, then keyword (BM25 over each
 * source's card and body) fused with vector similarity (card vectors, and the best node vector of
 * each source) by weighted score fusion, plus two query-structure signals: the period match (asked
 * fiscal year / quarter vs each source's period, period.ts) and the share of the query's naming
 * words (company names, tickers) in each source's identity. Each hit carries a calibrated
 * relevance, a verdict and its best nodes. No model or no vector index → keyword-only, with a warning.
 */
import { readCatalog } from '../store/catalog.js';
import { loadConfig } from '../store/config.js';
import type { CatalogEntry } from '../store/schemas.js';
import type { SearchOptions, SearchResult, SourceHit } from './types.js';
import { applyFilters, hasFilters } from './filters.js';
import { queryTermGroups } from './tokenize.js';
import { bm25Field, idf, termFreq } from './bm25.js';
import { SOURCE_FIELDS, readNodesIndex, readSourcesIndex, type SourceField } from './keyword-format.js';
import { combineRelevance, keywordRelevance, vectorRelevance, verdictOf } from './confidence.js';
import { loadCardVectors, loadNodeVectors, nodeScores, queryEmbedder, cardScores, type NodeVectors } from './vectors.js';
import { DEFAULT_MAX_PAGES, rankNodesIn } from './nodes.js';
import { staleIndexWarnings } from './staleness.js';
import { periodMatch, queryPeriod, sourcePeriod } from './period.js';

/** weight of each source-level field in BM25 (identity terms — names, years, forms — tell sources apart) */
export const FIELD_WEIGHTS: Record<SourceField, number> = { identity: 2.0, opening: 1.0, card: 0.5, body: 0.5 };
/**
 * BM25 length normalisation per field. Bodies get little: a 150-page annual report is not less
 * about its subject than a 5-page letter, it just says more.
 */
export const FIELD_B: Record<SourceField, number> = { identity: 0.5, opening: 0.5, card: 0.75, body: 0.3 };
/** reciprocal-rank-fusion constant and per-signal weights */
export const RRF_K = 10;
export const RRF_WEIGHTS = { keyword: 1.0, coverage: 0.5, card_vector: 0.6, node_vector: 0.6 } as const;
export const DEFAULT_NODES_PER_SOURCE = 3;

/**
 * How signals are fused: `weighted` sums each signal's score scaled to [0,1] over the candidates
 * (keeps keyword margins: a source matching the company and year clearly wins), `rrf` sums
 * weighted reciprocal ranks.
 */
export const FUSION = 'weighted' as 'weighted' | 'rrf';
/**
 * Weighted fusion: BM25 (scaled by the best candidate) plus the idf-weighted share of the query's
 * words a source holds (so a source naming the company and the year beats one that merely repeats
 * common words), plus card-vector and best-node-vector similarity as smaller corrections.
 */
export const FUSION_WEIGHTS = { keyword: 1.0, coverage: 1.0, card_vector: 0.3, node_vector: 0.15 } as const;
/**
 * Weight of the period signal (periodMatch in [-1, 1]: the asked fiscal year / quarter against each
 * source's period). Added as is, not rescaled: a filing of the asked year gains, one whose period
 * contradicts it loses, whatever the other candidates. In `rrf` fusion it is scaled like a rank-1 hit.
 */
export const PERIOD_WEIGHT = 1.0;
/**
 * Weight of the identity signal: the idf-weighted share of the query's naming words (words found in
 * some source's identity — title, file name, metadata — other than bare numbers, which the period
 * signal judges) that a source's own identity holds. A question naming a company is about that
 * company's filings, however often another filing repeats the question's other words.
 */
export const IDENTITY_WEIGHT = 0.5;
/**
 * A naming word is also rare in the bodies: found in at most this share of the sources, or in at
 * most NAMING_BODY_PER_IDENTITY times as many bodies as identities (a company name is; "operating"
 * in one earnings release's title is not).
 */
export const NAMING_MAX_BODY_SHARE = 0.25;
export const NAMING_BODY_PER_IDENTITY = 2;
const NUMBER_RE = /^\d+$/;

type Signal = keyof typeof RRF_WEIGHTS;

/** Scores scaled to [0,1] by the list's min and max (all 1 when they are equal). */
function normalized(scores: Map<string, number>): Map<string, number> {
  const v = [...scores.values()];
  const lo = Math.min(...v);
  const hi = Math.max(...v);
  return new Map([...scores].map(([id, s]) => [id, hi > lo ? (s - lo) / (hi - lo) : 1]));
}

function ranks(scores: Map<string, number>): Map<string, number> {
  const order = [...scores.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return new Map(order.map(([id], i) => [id, i + 1]));
}

const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

export async function searchStore(root: string, query: string, opts: SearchOptions = {}): Promise<SearchResult> {
  const config = loadConfig(root);
  const catalog = readCatalog(root);
  const k = opts.k ?? config.search.default_k;
  const warnings: string[] = [];
  const entries = applyFilters(catalog.sources, opts.filters ?? {});
  const byId = new Map<string, CatalogEntry>(entries.map((e) => [e.id, e]));
  // an empty store has nothing to index: say only that, not that its indexes are missing
  const storeHasSources = catalog.sources.some((e) => e.status === 'indexed');
  const groups = queryTermGroups(query);
  const terms = groups.flat();
  let mode: SearchResult['mode'] = opts.mode === 'vector' ? 'vector' : opts.mode === 'keyword' ? 'keyword' : 'hybrid';

  // vector signals
  const cardCos = new Map<string, number>();
  const nodeCos = new Map<string, number>();
  let qvec: Float32Array | null = null;
  let nodeVectors: NodeVectors | null = null;
  if (mode !== 'keyword') {
    const cv = loadCardVectors(root);
    const emb = typeof cv === 'string' ? cv : await queryEmbedder(root, config, cv.meta.model);
    if (typeof cv === 'string' || typeof emb === 'string') {
      if (storeHasSources) warnings.push(`keyword-only results: ${typeof emb === 'string' ? emb : ''}`);
      mode = 'keyword';
    } else {
      qvec = (await emb.embed([query]))[0]!;
      for (const [id, s] of await cardScores(cv, qvec)) if (byId.has(id)) cardCos.set(id, s);
      nodeVectors = loadNodeVectors(root, cv.meta.model);
      if (nodeVectors) {
        for (const id of byId.keys()) {
          let best = -1;
          for (const s of nodeScores(nodeVectors, id, qvec).values()) if (s > best) best = s;
          if (best > -1) nodeCos.set(id, best);
        }
      }
    }
  }
  // keyword signal
  const kwScores = new Map<string, number>();
  const kwRel = new Map<string, number>();
  const kwCoverage = new Map<string, number>();
  const identityShare = new Map<string, number>();
  const matched = new Map<string, string[]>();
  const kix = readSourcesIndex(root);
  if (!kix) {
    if (storeHasSources) warnings.push('keyword index missing (vector_store/keyword/sources.json); run `mhub ingest` to build it');
  } else if (mode !== 'vector') {
    const n = kix.ids.length;
    const allowed = new Uint8Array(n);
    kix.ids.forEach((id, i) => { if (byId.has(id)) allowed[i] = 1; });
    const scores = new Float64Array(n);
    for (const f of SOURCE_FIELDS) bm25Field(terms, kix.fields[f], kix.lengths[f], scores, FIELD_WEIGHTS[f], allowed, FIELD_B[f]);
    const { identity, opening, card, body } = kix.fields;
    const weight = new Map(terms.map((t) => [t, idf(n, (body[t]?.length ?? 0) / 2)]));
    const maxNamingDf = Math.max(1, Math.floor(NAMING_MAX_BODY_SHARE * n));
    // naming words: groups with a non-numeric term in some source's identity, weighed by identity idf
    const idGroups = groups
      .map((g) => g.filter((t) => {
        if (NUMBER_RE.test(t) || !identity[t]) return false;
        const bodyDf = (body[t]?.length ?? 0) / 2;
        return bodyDf <= maxNamingDf || bodyDf <= NAMING_BODY_PER_IDENTITY * (identity[t].length / 2);
      }))
      .filter((g) => g.length > 0)
      .map((g) => ({ terms: g, weight: Math.max(...g.map((t) => idf(n, (body[t]?.length ?? 0) / 2))) }));
    const idTotal = idGroups.reduce((a, g) => a + g.weight, 0);
    kix.ids.forEach((id, d) => {
      if (!allowed[d]) return;
      if (scores[d]! > 0) kwScores.set(id, scores[d]!);
      const ev = groups.map((g) => g.map((t) => ({ term: t, weight: weight.get(t)!, known: !!body[t] || !!identity[t] || !!opening[t] || !!card[t], cardTf: termFreq(identity, t, d) + termFreq(opening, t, d) + termFreq(card, t, d), bodyTf: termFreq(body, t, d) })));
      kwRel.set(id, keywordRelevance(ev));
      kwCoverage.set(id, keywordRelevance(ev, { forRanking: true }));
      if (idGroups.length > 0) {
        let got = 0;
        for (const g of idGroups) if (g.terms.some((t) => termFreq(identity, t, d) > 0)) got += g.weight;
        identityShare.set(id, got / idTotal);
      }
      if (opts.explain) matched.set(id, ev.flat().filter((e) => e.cardTf + e.bodyTf > 0).map((e) => e.term));
    });
  }


  // fusion
  const coverage = new Map([...kwCoverage].filter(([id]) => kwScores.has(id)));
  const lists: Record<Signal, Map<string, number>> = { keyword: kwScores, coverage, card_vector: cardCos, node_vector: nodeCos };
  const rankLists = Object.fromEntries(Object.entries(lists).map(([s, m]) => [s, ranks(m)])) as Record<Signal, Map<string, number>>;
  const normLists = Object.fromEntries(Object.entries(lists).map(([s, m]) => [s, normalized(m)])) as Record<Signal, Map<string, number>>;
  const fused = new Map<string, number>();
  const contribution = (s: Signal, id: string): number => {
    if (FUSION === 'rrf') {
      const r = rankLists[s].get(id);
      return r ? RRF_WEIGHTS[s] / (RRF_K + r) : 0;
    }
    // coverage is already an absolute share in [0,1]; the others are scaled over the candidates
    return FUSION_WEIGHTS[s] * ((s === 'coverage' ? lists[s] : normLists[s]).get(id) ?? 0);
  };
  for (const s of Object.keys(lists) as Signal[]) {
    for (const id of lists[s].keys()) fused.set(id, (fused.get(id) ?? 0) + contribution(s, id));
  }
  // period signal: only when the query names a year, only for sources some other signal found
  const qp = queryPeriod(query);
  const period = new Map<string, number>();
  if (qp.years.length > 0 && mode !== 'vector') {
    const scale = FUSION === 'rrf' ? 1 / (RRF_K + 1) : 1;
    for (const id of fused.keys()) {
      const p = periodMatch(qp, sourcePeriod(byId.get(id)!));
      if (p !== 0) {
        period.set(id, p);
        fused.set(id, fused.get(id)! + PERIOD_WEIGHT * scale * p);
      }
    }
  }
  if (identityShare.size > 0) {
    const scale = FUSION === 'rrf' ? 1 / (RRF_K + 1) : 1;
    for (const id of fused.keys()) fused.set(id, fused.get(id)! + IDENTITY_WEIGHT * scale * (identityShare.get(id) ?? 0));
  }
  const hasVec = cardCos.size > 0;
  const relevanceOf = (id: string): { kw: number | null; vec: number | null; rel: number } => {
    const kw = mode === 'vector' ? null : (kwRel.get(id) ?? 0);
    const vec = hasVec ? vectorRelevance(cardCos.get(id), nodeCos.get(id)) : null;
    return { kw, vec, rel: combineRelevance(kw, vec) };
  };
  const { strong_threshold: strong, weak_threshold: weak } = config.search;
  const ordered = [...fused.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const results: SourceHit[] = [];
  let closest: { id: string; rel: number } | null = null;
  for (const [id, score] of ordered) {
    if (results.length >= k) break;
    const e = byId.get(id)!;
    const r = relevanceOf(id);
    if (r.rel < weak && !opts.includeNone) {
      if (!closest || r.rel > closest.rel) closest = { id, rel: r.rel };
      continue;
    }
    const nix = readNodesIndex(root, id);
    const nodes = nix
      ? rankNodesIn(nix, { terms, text: query, query: qvec, nodeVectors, k: opts.nodesPerSource ?? DEFAULT_NODES_PER_SOURCE, maxPages: DEFAULT_MAX_PAGES })
      : [];
    const hit: SourceHit = {
      id, title: e.title, file: e.original_path, type: e.type, score: round(score, 6), relevance: round(r.rel, 3),
      verdict: verdictOf(r.rel, strong, weak), summary: e.summary, nodes,
    };
    if (opts.explain) {
      const ex: Record<string, number | string> = {};
      for (const s of Object.keys(lists) as Signal[]) {
        const rank = rankLists[s].get(id);
        if (lists[s].size === 0) continue;
        ex[`${s}_score`] = round(lists[s].get(id) ?? 0);
        ex[`${s}_rank`] = rank ?? 0;
        ex[`${s}_contribution`] = round(contribution(s, id), 5);
      }
      if (identityShare.has(id)) ex['identity_share'] = round(identityShare.get(id)!, 3);
      if (period.has(id)) ex['period_score'] = round(period.get(id)!, 3);
      if (r.kw !== null) ex['keyword_relevance'] = round(r.kw, 3);
      if (r.vec !== null) ex['vector_relevance'] = round(r.vec, 3);
      ex['matched_terms'] = (matched.get(id) ?? []).join(' ');
      hit.explain = ex;
    }
    results.push(hit);
  }
  if (results.length === 0 || results.every((h) => h.verdict === 'none')) {
    const sub = hasFilters(opts.filters) ? ` among the ${entries.length} sources passing the filters` : '';
    const near = closest ? ` (closest: ${byId.get(closest.id)?.title ?? closest.id}, relevance ${round(closest.rel, 2)})` : '';
    warnings.push(entries.length === 0 ? 'no sources to search (empty store, or the filters exclude everything)' : `nothing matches this query${sub}${near}`);
  } else if (results.length === 1 && k > 1 && entries.length > 1) {
    warnings.push(`all hits come from one source (${results[0]!.title}); the answer may not be elsewhere in the store`);
  }
  warnings.push(...staleIndexWarnings(root, catalog, kix?.ids ?? null));
  const verdict = results[0]?.verdict ?? 'none';
  return { query, mode, verdict, results, warnings };
}
