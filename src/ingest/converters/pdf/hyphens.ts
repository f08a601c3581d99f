/**
 * Words a justified page broke at a line's end ("subdi-" / "rectory, which…"): mended so the text
 * holds the word ("subdirectory,") for search, summaries and readers. The word moves up to the first
 * line and the second keeps the rest, so lines stay lines. Whether the hyphen stays is read from the
 * document itself: kept when the document writes the hyphenated form elsewhere and never the closed
 * one ("two-column"), dropped otherwise (a syllable break, the usual case in typeset text); after a
 * number it always stays ("2-hour", "30-day"). Only
 * prose lines (one cell) on one page are joined; a table's cells and a page's last line are not.
 */
import type { Line } from './layout-types.js';

/** A line ending in a letter run cut by a hyphen: the run before the hyphen ends lower-case. */
const BROKEN_END = /(\p{L}*\p{Ll})-$/u;
/** A line ending in a number and a hyphen: the first half of a compound ("2-" / "hour samples", "30-" / "day"). */
const NUMBER_END = /(?<![\d.,])(\d{1,4})-$/u;
/** The next line opening with the rest of the word (lower-case), its punctuation, and the blanks after. */
const WORD_REST = /^(\p{Ll}\p{L}*)([^\s\p{L}]*)\s*/u;
const WORDS = /\p{L}+(?:-\p{L}+)*/gu;

/** Every word and hyphenated compound the document writes within a line, lower-cased. */
export function documentWords(pages: readonly Line[][]): Set<string> {
  const out = new Set<string>();
  for (const lines of pages) for (const l of lines) for (const w of l.text.matchAll(WORDS)) out.add(w[0].toLowerCase());
  return out;
}

/**
 * Whether a word broken after `head`'s hyphen keeps it when joined to `tail`: after a number always
 * ("2-" / "hour samples": "2-hour"), else when the document writes the hyphenated form and never the closed one.
 */
export function keepsHyphen(head: string, tail: string, words: ReadonlySet<string>): boolean {
  return /\d$/.test(head) || (!words.has(`${head}${tail}`.toLowerCase()) && words.has(`${head}-${tail}`.toLowerCase()));
}

/** Mends the broken words of every page in place (each line's text and its one cell); returns how many. */
export function mendHyphenation(pages: Line[][]): number {
  let words: Set<string> | null = null;
  let mended = 0;
  for (const lines of pages) {
    for (let i = 0; i + 1 < lines.length; i++) {
      const a = lines[i]!;
      const b = lines[i + 1]!;
      if (a.cells.length !== 1 || b.cells.length !== 1) continue;
      const end = BROKEN_END.exec(a.text.trimEnd()) ?? NUMBER_END.exec(a.text.trimEnd());
      const rest = end ? WORD_REST.exec(b.text.trimStart()) : null;
      if (!end || !rest || rest[0].length >= b.text.trimStart().length) continue;
      const head = end[1]!;
      const tail = rest[1]!;
      // (read once, and only for a document that breaks a word)
      words ??= documentWords(pages);
      const keep = keepsHyphen(head, tail, words);
      a.text = `${a.text.trimEnd().slice(0, -1)}${keep ? '-' : ''}${tail}${rest[2]}`;
      b.text = b.text.trimStart().slice(rest[0].length);
      a.cells = [a.text];
      b.cells = [b.text];
      mended++;
    }
  }
  return mended;
}
