/**
 * Keyword signals of tier 1, from the source-level keyword index: BM25 over each source's fields
 * (identity, opening, card, body), the idf-weighted share of the query's words a source holds
 * (coverage, for ranking) and the calibrated keyword relevance (for the verdict).
 */
import { SOURCE_FIELDS, type SourceField } from '../../model/keyword-format.js';
import { bm25Field, docFreq, idf } from '../bm25.js';
import { clamp01, groupWeights, termCredit, totalWeight } from '../confidence.js';
import { libraryHolds, type SourceKeywords } from '../keyword-index.js';

/**
 * Weight of each source-level field in BM25 (identity terms — names, years, forms — tell sources
 * apart). The opening (the first 3,000 characters) is also part of the body, where its words count
 * too: at 1.0 a word of the first page outweighed the same word used all through a sibling document
 * (the abstracts of one package's vignettes share their words). Opening 1.0 → 0.6, tier-1 hit@1:
 * cross-domain 0.939 → 0.955, its held-out rewording 0.894 → 0.909, FinanceBench dev and reworded
 * unchanged (0.978, 1.000); 0.5–0.75 measure the same, 0.8 gains nothing, 0.4 loses a FinanceBench
 * dev question.
 */
export const FIELD_WEIGHTS: Record<SourceField, number> = { identity: 2.0, opening: 0.6, card: 0.5, body: 0.5 };
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

/** tf of one term in one field for increasing rows: walks the doc-sorted postings once. */
class TfCursor {
  private at = 0;
  constructor(private readonly post: ArrayLike<number> | undefined) {}
  tf(d: number): number {
    const p = this.post;
    if (!p) return 0;
    while (this.at < p.length && p[this.at]! < d) this.at += 2;
    return this.at < p.length && p[this.at] === d ? p[this.at + 1]! : 0;
  }
}

/** One query term of one group: cursors over its card fields (identity, opening, card) and body. */
interface TermCursors {
  term: string;
  card: TfCursor[];
  body: TfCursor;
}

/**
 * The evidence of each query term in the matching rows, row after row in increasing order, with
 * the calibrated relevance and the ranking coverage of each (confidence.ts keywordRelevance's
 * arithmetic, in the same order, without building evidence objects per row: at 10,000 sources a
 * common word matches most of them).
 */
function evidenceScorer(kix: SourceKeywords, groups: string[][], n: number) {
  const body = kix.field('body');
  const meta = groups.map((g) => g.map((t) => ({ weight: idf(n, docFreq(body, t)), known: libraryHolds(kix, t) })));
  const rel = groupWeights(meta, false);
  const cov = groupWeights(meta, true);
  const relTotal = totalWeight(groups, rel);
  const covTotal = totalWeight(groups, cov);
  const cursors: TermCursors[][] = groups.map((g) => g.map((t) => ({
    term: t,
    card: (['identity', 'opening', 'card'] as const).map((f) => new TfCursor(kix.field(f).postings(t))),
    body: new TfCursor(body.postings(t)),
  })));
  return (d: number, matched: string[] | null): { relevance: number; coverage: number } => {
    let gotRel = 0;
    let gotCov = 0;
    cursors.forEach((g, i) => {
      if (g.length === 0) return;
      let best = -Infinity;
      for (const c of g) {
        const cardTf = c.card[0]!.tf(d) + c.card[1]!.tf(d) + c.card[2]!.tf(d);
        const bodyTf = c.body.tf(d);
        best = Math.max(best, termCredit(cardTf, bodyTf));
        if (matched && cardTf + bodyTf > 0) matched.push(c.term);
      }
      gotRel += rel[i]! * best;
      gotCov += cov[i]! * best;
    });
    return { relevance: relTotal > 0 ? clamp01(gotRel / relTotal) : 0, coverage: covTotal > 0 ? clamp01(gotCov / covTotal) : 0 };
  };
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
  const out: KeywordSignals = { bm25: new Map(), coverage: new Map(), relevance: new Map(), matched: new Map() };
  const score = evidenceScorer(kix, groups, n);
  for (const d of matchingRows(kix, terms, mask)) {
    const id = kix.ids[d]!;
    const matched = explain ? [] : null;
    const ev = score(d, matched);
    out.relevance.set(id, ev.relevance);
    if (scores[d]! > 0) {
      out.bm25.set(id, scores[d]!);
      out.coverage.set(id, ev.coverage);
    }
    if (matched) out.matched.set(id, matched);
  }
  return out;
}
