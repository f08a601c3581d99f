/**
 * The letters a document writes in its body text. A line in a music or symbol font mapped onto
 * accented capitals ("ŰŰˇ", "ĽĽ ĽĽ G ˇ": an engraving guide's notation examples) is in other
 * letters, and is neither a heading nor the document's title; a document in a language that writes
 * such letters has them in its body too.
 */
import type { PageLayout } from './layout-types.js';
import type { Furniture } from './furniture.js';

/** A letter the body text uses at least this many times is one of the document's letters. */
export const BODY_LETTER_MIN_COUNT = 3;
/** A title has at least this share of its letters among the document's (case aside). */
export const TITLE_BODY_LETTER_SHARE = 0.5;

/** The letters (lower case) the body's print writes BODY_LETTER_MIN_COUNT times or more. */
export function bodyLetters(pages: PageLayout[], furniture: Furniture, body: { font: string }): Set<string> {
  const count = new Map<string, number>();
  pages.forEach((p, pi) => {
    p.lines.forEach((l, i) => {
      if (furniture.lines[pi]?.has(i) || l.font !== body.font) return;
      for (const ch of l.text.toLowerCase()) if (/\p{L}/u.test(ch)) count.set(ch, (count.get(ch) ?? 0) + 1);
    });
  });
  return new Set([...count].filter(([, n]) => n >= BODY_LETTER_MIN_COUNT).map(([ch]) => ch));
}

/** A letter that is not a modifier (a caron "ˇ" set alone is a mark, not a letter of a word). */
const BASE_LETTER = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}]/u;
/** Two such letters in a row: a word, not marks and note heads. */
const WORD = /[\p{Lu}\p{Ll}\p{Lt}\p{Lo}]{2}/u;

/**
 * Whether a title (or a headline) is written in the document's letters: a word of two letters at
 * least, and half its letters the body's (any title when the body has none).
 */
export function inBodyLetters(title: string, letters: ReadonlySet<string>): boolean {
  if (letters.size === 0) return true;
  if (!WORD.test(title)) return false;
  const own = [...title.toLowerCase()].filter((ch) => BASE_LETTER.test(ch));
  return own.filter((ch) => letters.has(ch)).length >= TITLE_BODY_LETTER_SHARE * own.length;
}
