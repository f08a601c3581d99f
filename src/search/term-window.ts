/**
 * Where a query's words lie close together in a text: the words holding query terms (found by
 * indexOf, never by tokenizing the whole text) and the window of a given width holding the most
 * weight of distinct terms. Read by tier 2's proximity signal (proximity.ts) and by the passages
 * search and read_source show (retrieve/snippets.ts).
 */
import { tokenize } from '../model/tokenize.js';

/**
 * Characters of the span whose query words are counted: a sentence or two. The same width picks
 * the passage search shows and scores tier 2's proximity (250 and 350 measured no better there).
 */
export const DENSE_WINDOW_CHARS = 180;

/** A word of the text holding query terms, by character position. */
export interface TermHit { start: number; end: number; terms: string[] }

/** Characters of a term that a word must contain to be tokenized (other words cannot hold it). */
const PREFIX_CHARS = 3;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const JOINER = /[.'’&\-/]/;
const isWordChar = (c: string | undefined) => c !== undefined && WORD_CHAR.test(c);

/**
 * The words of `text` holding a term of `weights`: the occurrences of each term's first characters
 * (indexOf), widened to whole words and tokenized; other words are never looked at, so a long
 * node scans in about a millisecond.
 */
export function termHits(text: string, weights: ReadonlyMap<string, number>): TermHit[] {
  const prefixes = [...new Set([...weights.keys()].map((t) => t.slice(0, PREFIX_CHARS)))].filter(Boolean);
  const lower = text.toLowerCase();
  const byStart = new Map<number, TermHit>();
  for (const p of prefixes) {
    for (let k = lower.indexOf(p); k >= 0; k = lower.indexOf(p, k + 1)) {
      let s = k;
      while (isWordChar(lower[s - 1])) s--;
      if (byStart.has(s)) continue;
      let e = k + p.length;
      while (isWordChar(lower[e]) || (JOINER.test(lower[e] ?? '') && isWordChar(lower[e + 1]))) e++;
      const terms = tokenize(lower.slice(s, e)).filter((t) => weights.has(t));
      byStart.set(s, { start: s, end: e, terms });
      k = e;
    }
  }
  return [...byStart.values()].filter((h) => h.terms.length > 0).sort((x, y) => x.start - y.start);
}

export interface TermWindow {
  /** hit index range [from, to) */
  from: number;
  to: number;
  /** summed weight of the distinct terms (or term groups) in it */
  score: number;
}

/**
 * The span of at most `chars` characters holding the most weight of distinct terms; a term counts
 * once however often it occurs, and terms `keyOf` maps to one key count once together (a typed
 * word's forms). Null when there is no hit.
 */
export function bestWindow(hits: TermHit[], weights: ReadonlyMap<string, number>, chars: number, keyOf: (t: string) => string = (t) => t): TermWindow | null {
  const count = new Map<string, number>();
  let score = 0;
  let best: TermWindow | null = null;
  const add = (h: TermHit, d: number) => {
    for (const t of h.terms) {
      const key = keyOf(t);
      const c = (count.get(key) ?? 0) + d;
      count.set(key, c);
      if (d > 0 && c === 1) score += weights.get(t)!;
      if (d < 0 && c === 0) score -= weights.get(t)!;
    }
  };
  let i = 0;
  for (let j = 0; j < hits.length; j++) {
    add(hits[j]!, 1);
    while (hits[j]!.end - hits[i]!.start > chars) add(hits[i++]!, -1);
    if (score > (best?.score ?? 0) + 1e-9) best = { from: i, to: j + 1, score };
  }
  return best;
}
