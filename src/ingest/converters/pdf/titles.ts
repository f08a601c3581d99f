/**
 * Node and document titles as a reader sees them: without the dot leaders and page number of a
 * printed contents line ("3.5 Withdrawal ........ 12"), trailing footnote marks ("Models ∗"), or
 * runs of white space; long titles end at a word boundary, never mid-word.
 */

/** Longest title kept whole; longer ones end at the last word boundary before it, with "…". */
export const MAX_TITLE_CHARS = 120;

const LEADERS = /\s*(?:(?:\.\s?){3,}|…+|_{3,}|(?:·\s?){3,}).*$/u;
/** TeX font switches left in bookmark strings: "{\\fam\\ttfam\\tentt parfor}" read as "{ am tfam entt parfor}". */
const TEX_FONT_GROUP = /\{\s*am\s+\S*fam\s+\S+\s+([^{}]*?)\s*\}/gu;
/** Inline TeX math delimiters around a formula kept as its text: "$l$" → "l" (not amounts: "$5 and $6"). */
const TEX_MATH = /\$([^$\s\d][^$]*)\$/gu;
const FOOTNOTE_MARKS = /(?:\s*[∗*†‡§¶])+$|[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/u;

export function tidyOutlineTitle(raw: string): string {
  let t = raw.replace(/\s+/g, ' ').replace(TEX_FONT_GROUP, '$1').replace(TEX_MATH, '$1').trim();
  const cut = t.replace(LEADERS, '');
  if (cut.length >= 2) t = cut;
  t = t.replace(FOOTNOTE_MARKS, '').replace(/[\s:;,]+$/, '').trim();
  return clipWords(t, MAX_TITLE_CHARS);
}

/** `t` within `max` characters, cut at a word boundary with "…" when longer. */
export function clipWords(t: string, max: number): string {
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  const sp = head.lastIndexOf(' ');
  return `${(sp > max / 2 ? head.slice(0, sp) : head).replace(/[\s,;:–—-]+$/, '')}…`;
}
