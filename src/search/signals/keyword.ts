/**
 * Keyword signals of tier 1, from the source-level keyword index: BM25 over each source's fields
 * (identity, opening, card, body), the idf-weighted share of the query's words a source holds
 * (coverage, for ranking) and the calibrated keyword relevance (for the verdict).
 */
import { SOURCE_FIELDS, type SourceField } from '../../model/keyword-format.js';
import { bm25Field, docFreq, idf, termFreq } from '../bm25.js';
import { keywordRelevance, type TermEvidence } from '../confidence.js';
import type { SourceKeywords } from '../keyword-index.js';

/** weight of each source-level field in BM25 (identity terms — names, years, forms — tell sources apart) */
export const FIELD_WEIGHTS: Record<SourceField, number> = { identity: 2.0, opening: 1.0, card: 0.5, body: 0.5 };
/**
 * BM25 length normalisation per field. Bodies get little: a 150-page annual report is not less
 * about its subject than a 5-page letter, it just says more.
 */
export const FIELD_B: Record<SourceField, number> = { identity: 0.5, opening: 0.5, card: 0.75, body: 0.3 };

export interface KeywordSignals {
  /** BM25 of each allowed source with a score > 0 */
  bm25: Map<string, number>;
  /** idf-weighted share of the query's words held, for the sources in `bm25` */
  coverage: Map<string, number>;
  /** calibrated keyword relevance of the allowed sources holding a query term (absent: 0) */
  relevance: Map<string, number>;
  /** the query terms each source holds (only with `explain`) */
  matched: Map<string, string[]>;
}

/** Row mask of the sources allowed by the filters. */
export function allowedRows(kix: SourceKeywords, allowed: ReadonlySet<string>): Uint8Array {
  const mask = new Uint8Array(kix.ids.length);
  kix.ids.forEach((id, i) => { if (allowed.has(id)) mask[i] = 1; });
  return mask;
}

/** Evidence of each query term in source row d, grouped as the query's words. */
function evidence(kix: SourceKeywords, groups: string[][], weight: Map<string, number>, d: number): TermEvidence[][] {
  const f = (name: SourceField) => kix.field(name);
  return groups.map((g) => g.map((t) => ({
    term: t,
    weight: weight.get(t)!,
    known: SOURCE_FIELDS.some((name) => !!f(name).postings(t)),
    cardTf: termFreq(f('identity'), t, d) + termFreq(f('opening'), t, d) + termFreq(f('card'), t, d),
    bodyTf: termFreq(f('body'), t, d),
  })));
}

/**
 * Allowed rows holding at least one query term in some field, in row order: the only ones with
 * keyword evidence (a source holding none has relevance 0), so the work grows with the postings
 * read, not with the library.
 */
function matchingRows(kix: SourceKeywords, terms: string[], mask: Uint8Array): number[] {
  const seen = new Uint8Array(kix.ids.length);
  for (const f of SOURCE_FIELDS) {
    for (const t of terms) {
      const post = kix.field(f).postings(t);
      if (post) for (let i = 0; i < post.length; i += 2) if (mask[post[i]!]) seen[post[i]!] = 1;
    }
  }
  const rows: number[] = [];
  seen.forEach((v, d) => { if (v) rows.push(d); });
  return rows;
}

export function keywordSignals(kix: SourceKeywords, groups: string[][], mask: Uint8Array, explain = false): KeywordSignals {
  const n = kix.ids.length;
  const terms = groups.flat();
  const scores = new Float64Array(n);
  for (const f of SOURCE_FIELDS) bm25Field(terms, kix.field(f), scores, FIELD_WEIGHTS[f], mask, FIELD_B[f]);
  const body = kix.field('body');
  const weight = new Map(terms.map((t) => [t, idf(n, docFreq(body, t))]));
  const out: KeywordSignals = { bm25: new Map(), coverage: new Map(), relevance: new Map(), matched: new Map() };
  for (const d of matchingRows(kix, terms, mask)) {
    const id = kix.ids[d]!;
    const ev = evidence(kix, groups, weight, d);
    out.relevance.set(id, keywordRelevance(ev));
    if (scores[d]! > 0) {
      out.bm25.set(id, scores[d]!);
      out.coverage.set(id, keywordRelevance(ev, { forRanking: true }));
    }
    if (explain) out.matched.set(id, ev.flat().filter((e) => e.cardTf + e.bodyTf > 0).map((e) => e.term!));
  }
  return out;
}
