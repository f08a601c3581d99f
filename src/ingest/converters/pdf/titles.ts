/**
 * Node and document titles as a reader sees them: without the dot leaders and page number of a
 * printed contents line ("3.5 Withdrawal ........ 12"), trailing footnote marks ("Models ∗"), or
 * runs of white space; long titles end at a word boundary, never mid-word.
 */
import { fixLigatures } from './lines.js';

/** Longest title kept whole; longer ones end at the last word boundary before it, with "…". */
export const MAX_TITLE_CHARS = 120;

const LEADERS = /\s*(?:(?:\.\s?){3,}|…+|_{3,}|(?:·\s?){3,}).*$/u;
/** TeX font switches left in bookmark strings: "{\\fam\\ttfam\\tentt parfor}" read as "{ am tfam entt parfor}". */
const TEX_FONT_GROUP = /\{\s*am\s+\S*fam\s+\S+\s+([^{}]*?)\s*\}/gu;
/**
 * A bookmark string written by TeX keeps its control words, and a PDF string reads "\f", "\t", "\b",
 * "\n", "\r" as escapes: "{\fam \ttfam \tentt parfor}" arrives as "{<form feed>am <tab>tfam <tab>entt
 * parfor}". Inside a brace group opened so, each such character is put back as the control word's
 * backslash and letter.
 */
const LOST_ESCAPES: Record<string, string> = { '\f': '\\f', '\t': '\\t', '\b': '\\b', '\n': '\\n', '\r': '\\r' };
const TEX_GROUP_OPENING = /\{\s*[\f\t\b\n\r\\]/u;
/** A brace group opening with control words (font switches: "{\\fam \\ttfam \\tentt parfor}"): its text alone. */
const TEX_CONTROL_GROUP = /\{\s*(?:\\[A-Za-z@]+\s*)+([^{}]*?)\s*\}/gu;
/** Plain TeX's underscore ("\\_") expanded into a bookmark: "pari\\unhbox\\voidb@x\\kern.06em\\vbox{\\hrule width.3em}init" (backslashes lost or kept). */
const TEX_UNDERSCORE = /\\?(?:unhbox\s*\\?voidb@x\s*|leavevmode\s*)?\\?kern\s*\.06em\s*\\?vbox\s*\{\s*\\?hrule\s+width\s*\.3em\s*\}\s*/gu;
/** Control characters left after the ligature codes are spelled out: white space at most. */
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL_CHARS = /[\u0000-\u001f\u007f]+/gu;

/**
 * A title as it was meant to print, from a string TeX wrote (bookmarks): font switches and the
 * underscore macro's expansion gone, ligature codes spelled out, no control characters.
 */
export function cleanTexMarkup(raw: string): string {
  let t = TEX_GROUP_OPENING.test(raw) ? raw.replace(/[\f\t\b\n\r]/gu, (c) => LOST_ESCAPES[c]!) : raw;
  t = t.replace(TEX_UNDERSCORE, '_');
  // innermost groups first: a group may hold another ("{\\bf {\\tt x}}")
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(TEX_CONTROL_GROUP, '$1');
  }
  // a bookmark written by TeX without Unicode keeps its fonts' ligature codes ("In\u001duence"), as page text does
  return fixLigatures(t).replace(CONTROL_CHARS, ' ');
}
/**
 * troff font switches around a word, left in bookmark strings by groff's pdfmark macros: "The
 * \\f[C]pdfmark\\f[] Operator", the backslashes often lost ("The F[C]pdfmarkF[] Operator"); and the
 * classic "\\fBword\\fP" with its backslashes. Only in pairs: "f[X]" alone may be notation.
 */
const TROFF_FONT = /\\?[fF]\[[A-Z]{1,3}\](.*?)\\?[fF]\[[A-Z]{0,3}\]|\\f[BIC](.*?)\\f[RP]/g;
/** Inline TeX math delimiters around a formula kept as its text: "$l$" → "l" (not amounts: "$5 and $6"). */
const TEX_MATH = /\$([^$\s\d][^$]*)\$/gu;
const FOOTNOTE_MARKS = /(?:\s*[∗*†‡§¶])+$|[⁰¹²³⁴⁵⁶⁷⁸⁹]+$/u;
/** A \thanks or footnote mark anywhere in a title that ran over lines ("The dramatist package∗ User Guide", "gb4e.sty ∗and"). */
const INNER_MARKS = /\s*[∗†‡]+\s*/gu;
/** A footnote reference the page reader wrote after a word (lines.ts: "Inference[∗]", "Hothorn[1]"): a title drops it. */
const FOOTNOTE_REFS = /(?<=[\p{L}\p{N}.,;:)”’"'])\[(?:\d{1,3}|[*∗†‡§])\]/gu;

export function tidyOutlineTitle(raw: string, max = MAX_TITLE_CHARS): string {
  // control characters in page text (a NUL in a table label) print as nothing: a title never keeps them
  let t = raw.replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').replace(TEX_FONT_GROUP, '$1').replace(TEX_MATH, '$1').replace(TROFF_FONT, '$1$2').trim();
  const cut = t.replace(LEADERS, '');
  if (cut.length >= 2) t = cut;
  t = t.replace(FOOTNOTE_REFS, (m: string, at: number, all: string) => (/[\p{L}\p{N}]/u.test(all.charAt(at + m.length)) ? ' ' : '')).replace(FOOTNOTE_MARKS, '').replace(INNER_MARKS, ' ').replace(/[\s:;,]+$/, '').trim();
  return clipWords(t, max);
}

/**
 * Two lines of one title joined: a word hyphenated at the line break ("Leading to Bi-" / "nary
 * Failures", "deviance expres-" / "sion") is one word again; a compound broken after its hyphen
 * ("Placebo-" / "Controlled", "Cross-" / "Platform") keeps it without a blank; other lines join with a blank.
 */
export function joinWrapped(first: string, rest: string): string {
  if (!/\p{L}-$/u.test(first)) return `${first} ${rest}`;
  if (/^\p{Ll}/u.test(rest)) return `${first.slice(0, -1)}${rest}`;
  return /^\p{Lu}/u.test(rest) ? `${first}${rest}` : `${first} ${rest}`;
}

/** `t` within `max` characters, cut at a word boundary with "…" when longer. */
export function clipWords(t: string, max: number): string {
  if (t.length <= max) return t;
  const head = t.slice(0, max - 1);
  const sp = head.lastIndexOf(' ');
  return `${(sp > max / 2 ? head.slice(0, sp) : head).replace(/[\s,;:–—-]+$/, '')}…`;
}
