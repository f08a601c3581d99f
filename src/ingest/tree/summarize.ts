/** Extractive summaries for offline use: the leading sentences of a text, trimmed to a budget. */

/** Longest offline node summary, in characters. */
export const SUMMARY_MAX_CHARS = 300;

const PAGE_MARK = /^<!-- page \d+ -->$/gm;

/**
 * A table's rule row ("| --- | :---: |", "--- ---") or a rule: layout, not words. Tested per line
 * without a regex: nested quantifiers over runs of dashes backtracked exponentially (PostGIS's
 * reference, 86 s in one regex).
 */
function isRule(line: string): boolean {
  const t = line.replace(/[|:\s]/g, '');
  return t.length >= 3 && /^-+$/.test(t);
}
/** An image an HTML or Word converter wrote as "[image: alt]" (alt maybe bracketed itself: "[image: [Note]]"). */
const IMAGE_STUB = /\[image(?::[ \t]*(?:\[[^\]\n]*\]|[^\]\n])*)?\]/g;
/** A heading line or page mark: opening a node's text, the node's title already says it. */
const HEADING_OR_MARK = /^(?:#{1,6}[ \t]|<!-- page \d+ -->)/;

/** The text after the heading lines, page marks and blank lines opening it. */
function afterLeadingHeadings(text: string): string {
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const line = text.slice(at, end < 0 ? text.length : end);
    if (line.trim() !== '' && !HEADING_OR_MARK.test(line.trimStart())) break;
    at = end < 0 ? text.length : end + 1;
  }
  return text.slice(at);
}

/** Text without page markers, Markdown/HTML syntax and bare URLs: what a summary should quote. */
export function cleanText(text: string): string {
  return text
    .split('\n')
    .filter((l) => !isRule(l))
    .join('\n')
    .replace(IMAGE_STUB, ' ')
    .replace(PAGE_MARK, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images → alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links → their text
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ') // inline HTML tags
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/^[ \t]*(```|~~~).*$/gm, ' ') // code fences
    .replace(/^[ \t]*(#{1,6}|>|[-*+]|\d+[.)])[ \t]+/gm, '') // heading, quote and list markers
    .replace(/\*\*|__|`+|\|/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Sentences of already-cleaned text: a break needs end punctuation followed by white space and a
 * capital, digit or quote, so decimals ("14.5 meters") and abbreviations before lower case stay whole.
 */
export function splitSentences(clean: string): string[] {
  return clean.split(/(?<=[.!?])\s+(?=["'([A-Z0-9])/).filter((x) => x.length > 0);
}

/** Characters past a title's length in which the sentence repeating it must end. */
const TITLE_SENTENCE_SLACK = 40;

/** A title or sentence as compared with another: no section number, no closing punctuation, one case. */
function titleKey(t: string): string {
  return t.replace(/^\s*(?:\d+(?:\.\d+)*|[A-Z])[.)]?\s+/, '').replace(/[\s.:;!?]+$/, '').replace(/\s+/g, ' ').toLowerCase();
}

/**
 * `clean` without its first sentence when that sentence is the node's title: a title run into its
 * paragraph ("Grant of Patent License. Subject to the terms…", Apache 2.0) or a heading line the
 * text keeps. Four of its nine sections were summarised by their own title alone.
 */
function withoutTitleSentence(clean: string, title: string | undefined): string {
  if (!title) return clean;
  // (only the opening is split: a node's text may be megabytes, its title a line)
  const first = splitSentences(clean.slice(0, title.length + TITLE_SENTENCE_SLACK))[0];
  if (!first || titleKey(first) !== titleKey(title)) return clean;
  const rest = clean.slice(first.length).trim();
  return rest || clean;
}

/**
 * First sentences of `text` after its opening headings that fit in `max` characters (the text itself
 * when short), leaving out a first sentence that only repeats the node's `title`.
 */
export function leadSummary(text: string, max = SUMMARY_MAX_CHARS, title?: string): string {
  // the node's own heading opens its text: a summary says what follows it (an empty section: its heading)
  const body = afterLeadingHeadings(text);
  const clean = withoutTitleSentence(cleanText(body.trim() ? body : text), title);
  if (clean.length <= max) return clean;
  const sentences = splitSentences(clean);
  let out = '';
  for (const s of sentences) {
    const next = (out + ' ' + s).trim();
    if (next.length > max) break;
    out = next;
  }
  out = out.trim();
  if (out.length === 0) {
    const cut = clean.slice(0, max - 1);
    const sp = cut.lastIndexOf(' ');
    out = (sp > max / 2 ? cut.slice(0, sp) : cut) + '…';
  }
  return out;
}
