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

/** Period match in [-1, 1] of each candidate (only those with a non-zero match; empty when the query names no year). */
export function periodSignal(query: string, candidates: Iterable<string>, source: (id: string) => Pick<CatalogEntry, 'filename' | 'title' | 'period' | 'date' | 'doc_type'> | null): Map<string, number> {
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
