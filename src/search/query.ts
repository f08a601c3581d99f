/**
 * Query analysis: the terms of a query, grouped by the word they came from, with the query-only
 * stopwords left out. Indexed text is tokenized by the same `tokenize`, so terms match.
 */
import { WORD_RE, tokenize } from '../model/tokenize.js';

/**
 * Query-only stopwords: the instruction and formatting vocabulary of questions ("answer in USD
 * millions, round to two decimal places, assume you are an analyst, using the details shown…").
 * They say how to answer, not where the answer is, yet long documents repeat them ("million"
 * heads every table), so they would pull ranking towards wordy pages. Indexed text keeps them (a
 * query of nothing but these words still falls back to them). Stemmed forms.
 */
export const QUERY_FILLER = new Set(
  ('answer respond response responding reply question ask asked use used using rely relying based base show shown ' +
    'provide provided please give detail information info primarily primary mainly only solely assume assuming ' +
    'assumed perspective analyst banker investor investment role imagine pretend resource here following follow ' +
    'need want know tell explain describe calculate calculated calculating calculation compute computed computing ' +
    'define defined definition metric measure useful usd dollar million billion thousand round rounded rounding ' +
    'decimal place unit percents amount figure value roughly approximately approximate judgment judgement ' +
    'conclusion drawing draw stated state according reported reporting within report company firm business kindly')
    .split(' '),
);

/**
 * Query terms grouped by the word they came from: "FY2018" → ["fy2018", "2018"]. A group counts
 * as matched when any of its terms is found (for relevance), so expansions do not dilute it.
 */
export function queryTermGroups(query: string): string[][] {
  const build = (skip: (t: string) => boolean): string[][] => {
    const groups: string[][] = [];
    const seen = new Set<string>();
    for (const m of query.toLowerCase().matchAll(WORD_RE)) {
      const g = tokenize(m[0]).filter((t) => !seen.has(t) && !skip(t));
      g.forEach((t) => seen.add(t));
      if (g.length) groups.push([...new Set(g)]);
    }
    return groups;
  };
  const groups = build((t) => QUERY_FILLER.has(t));
  return groups.length > 0 ? groups : build(() => false);
}

/** Distinct query terms in first-seen order, instruction filler left out (unless that is all there is). */
export function queryTerms(query: string): string[] {
  const all = [...new Set(tokenize(query))];
  const kept = all.filter((t) => !QUERY_FILLER.has(t));
  return kept.length > 0 ? kept : all;
}

