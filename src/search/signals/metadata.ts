/**
 * Metadata signals of tier 1, about what a source is rather than what it says:
 * - period: the fiscal year / quarter a query asks about against each source's period (period.ts);
 * - identity: the idf-weighted share of the query's naming words (words found in some source's
 *   identity — title, file name, metadata — other than bare numbers, which the period signal
 *   judges) that a source's own identity holds.
 * Both are computed only for candidates another signal found.
 */
import type { CatalogEntry } from '../../store/schemas.js';
import { docFreq, idf, termFreq } from '../bm25.js';
import type { SourceKeywords } from '../keyword-index.js';
import { periodMatch, queryPeriod, sourcePeriod } from '../period.js';

/**
 * A naming word is also rare in the bodies: found in at most this share of the sources, or in at
 * most NAMING_BODY_PER_IDENTITY times as many bodies as identities (a company name is; "operating"
 * in one earnings release's title is not).
 */
export const NAMING_MAX_BODY_SHARE = 0.25;
export const NAMING_BODY_PER_IDENTITY = 2;
const NUMBER_RE = /^\d+$/;

type PeriodEntry = Pick<CatalogEntry, 'filename' | 'title' | 'period' | 'date' | 'doc_type'>;

/**
 * When the query names no period, the newest source of a series (sources titled alike but for their
 * dates: a company's 10-Ks, an agency's annual reports, a manual's editions) gains this much over
 * the others: a user who names no year means the current one. Below PERIOD_CONFLICT_GAP
 * (confidence.ts), so an older edition is not called another period than the one asked.
 */
export const LATEST_IN_SERIES = 0.2;

const MONTH_WORDS = /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/g;

/**
 * A title with its dates, years and bracketed qualifiers taken out: what the editions of a series
 * share. Other numbers stay ("Form 10-K" and "Form 8-K" are two series).
 */
export function seriesKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(new RegExp(`${MONTH_WORDS.source}(?:\\s+\\d{1,2}(?:st|nd|rd|th)?,?)?`, 'g'), ' ')
    .replace(/\b(?:fiscal|calendar|financial)\s+years?\b|\b(?:fy\s?|q[1-4]\s?)?(?:19|20)\d{2}\b|\bfy\s?\d{2}\b|\bq[1-4]\b/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** When a source's period ends (its date, else the end of its last year), '' when unknown. */
function periodEnd(e: PeriodEntry): string {
  if (e.date && /^\d{4}-\d{2}-\d{2}/.test(e.date)) return e.date.slice(0, 10);
  const years = sourcePeriod(e).years;
  return years.length ? `${years[years.length - 1]}-12-31` : '';
}

/**
 * The newest candidate of each series of two or more editions with known, different dates, among
 * `candidates` (search passes the first SERIES_CANDIDATES of a first fusion: each needs its row).
 * For a query that names no period (periodSignal judges those that do).
 */
export function latestInSeries(candidates: Iterable<string>, source: (id: string) => PeriodEntry | null): Map<string, number> {
  const series = new Map<string, Array<{ id: string; end: string }>>();
  for (const id of candidates) {
    const e = source(id);
    const end = e ? periodEnd(e) : '';
    const key = e ? seriesKey(e.title || e.filename) : '';
    if (!end || !key) continue;
    series.set(key, [...(series.get(key) ?? []), { id, end }]);
  }
  const out = new Map<string, number>();
  for (const eds of series.values()) {
    if (eds.length < 2) continue;
    const sorted = [...eds].sort((a, b) => (a.end < b.end ? 1 : a.end > b.end ? -1 : 0));
    if (sorted[0]!.end !== sorted[1]!.end) out.set(sorted[0]!.id, LATEST_IN_SERIES);
  }
  return out;
}

/** Candidates of a first fusion looked at for a series' newest edition (their rows are read). */
export const SERIES_CANDIDATES = 10;

/** Period match in [-1, 1] of each candidate (only those with a non-zero match; empty when the query names no year). */
export function periodSignal(query: string, candidates: Iterable<string>, source: (id: string) => PeriodEntry | null): Map<string, number> {
  const qp = queryPeriod(query);
  const out = new Map<string, number>();
  if (qp.years.length === 0) return out;
  for (const id of candidates) {
    const e = source(id);
    const p = e ? periodMatch(qp, sourcePeriod(e)) : 0;
    if (p !== 0) out.set(id, p);
  }
  return out;
}

interface NamingGroup {
  terms: string[];
  weight: number;
}

/** The query's naming-word groups, each weighed by its rarest term's body idf. */
function namingGroups(kix: SourceKeywords, groups: string[][]): NamingGroup[] {
  const n = kix.ids.length;
  const identity = kix.field('identity');
  const body = kix.field('body');
  const maxNamingDf = Math.max(1, Math.floor(NAMING_MAX_BODY_SHARE * n));
  return groups
    .map((g) => g.filter((t) => {
      if (NUMBER_RE.test(t) || !identity.postings(t)) return false;
      const bodyDf = docFreq(body, t);
      return bodyDf <= maxNamingDf || bodyDf <= NAMING_BODY_PER_IDENTITY * docFreq(identity, t);
    }))
    .filter((g) => g.length > 0)
    .map((g) => ({ terms: g, weight: Math.max(...g.map((t) => idf(n, docFreq(body, t)))) }));
}

/** Identity share in [0, 1] of every allowed source (empty when the query has no naming word). */
export function identitySignal(kix: SourceKeywords, groups: string[][], mask: Uint8Array): Map<string, number> {
  const out = new Map<string, number>();
  const naming = namingGroups(kix, groups);
  if (naming.length === 0) return out;
  const total = naming.reduce((a, g) => a + g.weight, 0);
  const identity = kix.field('identity');
  kix.ids.forEach((id, d) => {
    if (!mask[d]) return;
    let got = 0;
    for (const g of naming) if (g.terms.some((t) => termFreq(identity, t, d) > 0)) got += g.weight;
    out.set(id, got / total);
  });
  return out;
}
