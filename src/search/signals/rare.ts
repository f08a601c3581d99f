/**
 * The rare-term guarantee: a term found in only a few sources is the strongest evidence a query can
 * carry (a product name, an error code, a made-up word), so the sources holding the query's rarest
 * term always come back, whatever the relevance thresholds say. In a short query (at most
 * RARE_FIRST_MAX_WORDS words after stopwords) they come first; in a longer question a rare word may
 * be incidental ("something" in a store of filings), so they are kept among the results but ranked
 * by the fused score.
 */
import { sourcesHolding, type SourceKeywords } from '../keyword-index.js';

/** A term in at most this many sources is rare. */
export const RARE_TERM_MAX_SOURCES = 3;
/** Queries of at most this many words (after stopwords) put the rare term's sources first. */
export const RARE_FIRST_MAX_WORDS = 4;
/**
 * Terms that can be rare by meaning: a word with a run of at least three letters ("hypershow",
 * "xylophone314"), or a number of at least five digits (an id, a case number). Shorter codes and
 * numbers ("fy2018", "q3", "3m", "2018", "314") are spellings of common things or rare by chance.
 */
const MEANINGFUL_RE = /\p{L}{3,}|^\p{N}{5,}$/u;

export interface RareTerm {
  term: string;
  /** ids of the allowed sources holding it */
  sources: Set<string>;
  /** the query is short: these sources rank first (else they are only kept in the results) */
  first: boolean;
}

/** The query's rarest term when it is rare (in 1..RARE_TERM_MAX_SOURCES sources), else null. */
export function rarestTerm(kix: SourceKeywords, groups: string[][], mask: Uint8Array): RareTerm | null {
  let best: { term: string; rows: Set<number> } | null = null;
  for (const t of new Set(groups.flat())) {
    if (!MEANINGFUL_RE.test(t)) continue;
    const rows = sourcesHolding(kix, t);
    if (rows.size === 0 || rows.size > RARE_TERM_MAX_SOURCES) continue;
    if (!best || rows.size < best.rows.size) best = { term: t, rows };
  }
  if (!best) return null;
  const sources = new Set([...best.rows].filter((d) => mask[d]).map((d) => kix.ids[d]!));
  return sources.size > 0 ? { term: best.term, sources, first: groups.length <= RARE_FIRST_MAX_WORDS } : null;
}
