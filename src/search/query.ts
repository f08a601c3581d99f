/**
 * Query analysis: the terms of a query, grouped by the word they came from, with stopwords left
 * out — the general English list (stopwords.ts) plus those of the store's vocabulary packs. Indexed
 * text is tokenized by the same `tokenize` and keeps every word, so a query made only of stopwords
 * still finds what holds them.
 *
 * A possessive's "'s" is not asked for ("lme4's" → lme4, as plural stemming already makes "Rcpp's"
 * rcpp): a document about lme4 need not write "lme4's", and the joined spelling would count as a
 * rare word of its own.
 */
import { WORD_RE, tokenize } from '../model/tokenize.js';
import { QUERY_STOPWORDS } from './stopwords.js';

const POSSESSIVE_RE = /['’]s$/u;
/** True when a term is a stopword of the query (general list or one of `extra`). */
export function isQueryStopword(t: string, extra?: ReadonlySet<string>): boolean {
  return QUERY_STOPWORDS.has(t) || (extra?.has(t) ?? false);
}

/** The terms a typed word is searched by (before stopwords). */
export function wordTerms(word: string): string[] {
  return tokenize(word.replace(POSSESSIVE_RE, ''));
}

/**
 * Query terms grouped by the word they came from: "FY2018" → ["fy2018", "2018"]. A group counts
 * as matched when any of its terms is found (for relevance), so expansions do not dilute it.
 */
export function queryTermGroups(query: string, stopwords?: ReadonlySet<string>): string[][] {
  const build = (skip: (t: string) => boolean): string[][] => {
    const groups: string[][] = [];
    const seen = new Set<string>();
    for (const m of query.toLowerCase().matchAll(WORD_RE)) {
      const g = wordTerms(m[0]).filter((t) => !seen.has(t) && !skip(t));
      g.forEach((t) => seen.add(t));
      if (g.length) groups.push([...new Set(g)]);
    }
    return groups;
  };
  const groups = build((t) => isQueryStopword(t, stopwords));
  return groups.length > 0 ? groups : build(() => false);
}

/** Distinct query terms in first-seen order, stopwords left out (unless that is all there is). */
export function queryTerms(query: string, stopwords?: ReadonlySet<string>): string[] {
  return queryTermGroups(query, stopwords).flat();
}
