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
import { WORD_RE, dateToken, hexPairRuns, tokenize } from '../model/tokenize.js';
import { QUERY_STOPWORDS } from './stopwords.js';

const POSSESSIVE_RE = /['’]s$/iu;
const DIGITS_RE = /^\p{N}+$/u;
const JOINER_RE = /[.'’&\-/]/;
/** True when a term is a stopword of the query (general list or one of `extra`). */
export function isQueryStopword(t: string, extra?: ReadonlySet<string>): boolean {
  return QUERY_STOPWORDS.has(t) || (extra?.has(t) ?? false);
}

/** A lower-case letter then an upper-case one, or two upper-case letters then a lower-case one: "vcov|HAC", "JP|Morgan". */
const CAMEL_BOUNDARY_RE = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/** Parts of a camel-case word shorter than this are not searched on their own ("Co" of "PepsiCo"). */
export const MIN_CAMEL_PART = 3;

/**
 * The words inside a camel-case identifier as typed ("vcovHAC" → vcov, hac): a document may name
 * what the identifier does in words ("HAC covariance"), so they are searched as alternatives of the
 * whole (the word's group). Lower- or upper-case words have none.
 */
export function camelParts(word: string): string[] {
  const parts = word.split(CAMEL_BOUNDARY_RE);
  if (parts.length < 2) return [];
  return parts.filter((p) => /^\p{L}+$/u.test(p) && p.length >= MIN_CAMEL_PART).flatMap((p) => tokenize(p));
}

/** The terms a typed word is searched by (before stopwords); with `camel`, its camel-case parts last. */
export function wordTerms(word: string, camel = false): string[] {
  const w = word.replace(POSSESSIVE_RE, '');
  const terms = [...tokenize(w), ...versionedName(w)];
  return camel ? [...terms, ...w.split(JOINER_RE).flatMap(camelParts)] : terms;
}

/**
 * The name a version is typed onto ("GPLv3" → gpl, "SSLv3" → ssl, "SNMPv2c" → snmp): texts name
 * the thing apart from its version ("the GNU GPL", "version 3"), and "gplv3" and "gplv" alone
 * matched only a manual that says "GPLv3" once, ranked above the license itself. Names of at least
 * VERSIONED_NAME_MIN letters ("IPv6" keeps "ip" out).
 */
function versionedName(w: string): string[] {
  const m = VERSIONED_RE.exec(w);
  return m && m[1]!.length >= VERSIONED_NAME_MIN ? tokenize(m[1]!) : [];
}

const VERSIONED_RE = /^(\p{L}+)v\d+[a-z]?$/iu;
/** Letters a name before a version suffix has at least. */
export const VERSIONED_NAME_MIN = 3;

/** Each month's full name, as dates are written out (January first). */
const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** Month names and abbreviations, by month number. */
const MONTHS: Record<string, number> = {
  ...Object.fromEntries(MONTH_NAMES.map((name, k) => [name, k + 1])),
  jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
/** A day of the month (its number the first group) and a year, as typed next to a month's name. */
const DAY_RE = /^(0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?$/i;
const YEAR_RE = /^(?:1[6-9]|2\d)\d\d$/;
/** A date's token as the tokenizer writes it ("2015-03-15"). */
const DATE_TOKEN_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The number of the month a word names ("Sept." → 9), else undefined. */
const monthOf = (word: string): number | undefined => MONTHS[word.toLowerCase().replace(/\.$/, '')];

/**
 * The other spellings of the month a word names when it is part of a date as typed ("15 March
 * 2015", "Feb 1, 2014", "Sept 2019": a day or a year next to it): its full name (a filing writes
 * "February 1, 2014") and its two-digit number (data write a month in numbers: "2015/03", "03/2015";
 * a whole date in numbers is one token, which typedDate gives). None for a month's name alone
 * ("march", "may"): a word like any other.
 */
function dateMonth(words: string[], i: number): string[] {
  const m = monthOf(words[i]!);
  if (!m) return [];
  const nextToIt = [words[i - 1], words[i + 1]].some((w) => w !== undefined && (DAY_RE.test(w) || YEAR_RE.test(w)));
  // its other spellings too: a filing writes "February 1, 2014" where a user types "Feb 1, 2014"
  return nextToIt ? [MONTH_NAMES[m - 1]!, String(m).padStart(2, '0')] : [];
}

/**
 * The date typed in words around a month's name ("15 March 2015", "March 15, 2015") as the tokenizer
 * indexes a date written in numbers ("2015/03/15" → 2015-03-15); null without a day and a year.
 */
function typedDate(words: string[], i: number): string | null {
  const m = monthOf(words[i]!);
  if (!m) return null;
  const day = [words[i - 1], words[i + 1]].map((w) => (w ? DAY_RE.exec(w)?.[1] : undefined)).find(Boolean);
  const year = [words[i + 1], words[i + 2]].find((w) => w !== undefined && YEAR_RE.test(w));
  return day && year ? dateToken(year, m, day) : null;
}

/**
 * Query terms grouped by the word they came from: "FY2018" → ["fy2018", "2018"]. A group counts
 * as matched when any of its terms is found (for relevance), so expansions do not dilute it.
 * A month's name in a typed date is also searched as its number (dateMonth: "March" → march, 03),
 * and a whole typed date as the one token the tokenizer makes of a date in numbers (typedDate:
 * "15 March 2015" → 2015-03-15); a number written in parts ("12:30"; a date in numbers: its token
 * and its year) is a group per part, where one group let a row holding any one of them match as well.
 * `camel` adds the camel-case parts of identifiers (camelParts) — for choosing sources, where a
 * title or body naming what "vcovHAC" does ("HAC covariance") tells one document from another;
 * node ranking leaves them out (inside a document, "ComplexMatrix" is found as written, and
 * "complex" and "matrix" alone would pull in every node using either word).
 */
export function queryTermGroups(query: string, stopwords?: ReadonlySet<string>, camel = false): string[][] {
  const build = (skip: (t: string) => boolean): string[][] => {
    const groups: string[][] = [];
    const seen = new Set<string>();
    const found = [...query.matchAll(WORD_RE)];
    const words = found.map((m) => m[0]);
    const hexRuns = hexPairRuns(query);
    for (let i = 0; i < words.length; i++) {
      // a MAC address or OUI typed with colons ("08:00:27") is one term, its pairs joined, as the index holds it
      const run = hexRuns.get(found[i]!.index);
      if (run) {
        while (i + 1 < words.length && found[i + 1]!.index < run.end) i++;
        if (!seen.has(run.joined)) groups.push([run.joined]);
        seen.add(run.joined);
        continue;
      }
      const month = dateMonth(words, i);
      const typed = wordTerms(words[i]!, camel).filter((t) => !skip(t));
      const g = [...typed, ...month].filter((t) => !seen.has(t));
      g.forEach((t) => seen.add(t));
      const terms = [...new Set(g)];
      // a number written in parts ("12:30") is all of its parts, not any one of them; so is a date
      // (its token and its year)
      if (terms.length > 1 && terms.every((t) => DIGITS_RE.test(t) || DATE_TOKEN_RE.test(t))) groups.push(...terms.map((t) => [t]));
      else if (terms.length) groups.push(terms);
      const date = typedDate(words, i);
      if (date && !seen.has(date)) {
        seen.add(date);
        groups.push([date]);
      }
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

/** Letters each part of a word taken apart (splitCompounds) has at least. */
export const COMPOUND_PART_MIN = 3;

/**
 * A typed word no source holds, taken apart into two words that name one source together: a name
 * written joined ("palmerpenguins", R's package name, for the "Palmer penguins" CSV) is searched as
 * its parts, each a group of its own. `named(a, b)` says whether some source's identity (title, file
 * name) holds both; any two words the library holds would take "donated" for "don" and "ated".
 * Of several ways to split a word, the one whose shorter part is longest. Groups with a term the
 * library holds, numbers and words too short to split stay as they are.
 */
export function splitCompounds(groups: string[][], known: (t: string) => boolean, named: (a: string, b: string) => boolean): string[][] {
  return groups.flatMap((g) => {
    if (g.length !== 1 || known(g[0]!)) return [g];
    const w = g[0]!;
    if (!/^\p{L}+$/u.test(w) || w.length < 2 * COMPOUND_PART_MIN) return [g];
    let best: [string, string] | null = null;
    for (let i = COMPOUND_PART_MIN; i <= w.length - COMPOUND_PART_MIN; i++) {
      const a = tokenize(w.slice(0, i))[0];
      const b = tokenize(w.slice(i))[0];
      if (!a || !b || !named(a, b)) continue;
      if (!best || Math.min(a.length, b.length) > Math.min(best[0].length, best[1].length)) best = [a, b];
    }
    return best ? [[best[0]], [best[1]]] : [g];
  });
}
