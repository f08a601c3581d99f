/**
 * Where on its page an outline entry's heading is printed. Bookmarks and printed-TOC entries give a
 * page only; the section must start at the heading's line, not at the top of the page, so the text
 * above it stays with the previous section. The heading is the first body line (after the previous
 * entry's) whose text starts with the entry's title — also when the printed heading carries a
 * number the bookmark leaves out ("4.2. Splitting criteria" for "Splitting criteria"), or when the
 * heading runs into its paragraph ("1.1. How do I get started. If you have…") — or whose
 * text the title starts with when the heading wraps onto the next line. A bookmark whose destination
 * names a position on the page is matched near that position; a line reading like its title
 * elsewhere on the page wins over the position (a destination set on the next heading: "Item 1B"
 * pointing at "ITEM 2. PROPERTIES"), and when no line reads like it (a run-in heading: "Column The
 * column(x) function…"), the first line at the position is the heading. A label line right above
 * the title ("CHAPTER 4", "ITEM 1B.") is part of the heading. A bookmark whose title is printed
 * nowhere on its page, not even misread, but on a later page before the next entry's is moved there
 * (a generator's off-by-some destinations). Not found: the top of the page, or the previous entry's line when that one is on the same
 * page (the two then share a node, as before).
 */
import type { Line } from './layout-types.js';
import type { OutlineEntry } from './outline-types.js';
import { normTitle } from './printed-toc.js';
import { median } from './lines.js';

/** Normalised characters compared between an entry's title and a line. */
export const LOCATE_KEY_CHARS = 40;
/** A line that is only the start of a wrapped title must hold this many normalised characters. */
export const LOCATE_MIN_PARTIAL = 8;
/** A matching line may be at most this many normalised characters longer than the title (not prose). */
export const LOCATE_LINE_SLACK = 24;
/**
 * A bookmark's heading may sit this far above its destination (PDF units): the destination is
 * usually at or above the heading's top, but rounding and large capitals can put the baseline higher.
 */
export const DEST_ABOVE_SLACK = 6;
/** A title of at least this many normalised characters, printed on its page, is its heading wherever the destination points. */
export const SPECIFIC_TITLE_CHARS = 16;
/** A bookmark's heading lies at most this far below its destination (PDF units; about four lines). */
export const DEST_BELOW_WINDOW = 60;

/** A destination may point this many lines below the heading line that reads as its title. */
export const DEST_LINES_BELOW_TITLE = 2;

/** Pages after its destination searched for a bookmark whose title is not printed where it points. */
export const MAX_BOOKMARK_DRIFT = 10;
/** A title shorter than this (normalised) found on a later page counts only as one of the page's first lines (a chapter opening it). */
export const DRIFT_TOP_LINES = 3;

/** Share of character pairs a line must share with a title to be that title misread ("7 Formafling Labels"). */
export const MISREAD_TITLE_SIMILARITY = 0.6;

function pairs(s: string): Map<string, number> {
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < s.length; i++) out.set(s.slice(i, i + 2), (out.get(s.slice(i, i + 2)) ?? 0) + 1);
  return out;
}

/** Dice similarity of a normalised title (its character pairs `pa`) and a normalised line's start `b`. */
function similarity(a: string, pa: Map<string, number>, b: string): number {
  if (a.length < 2 || b.length < 2) return a === b ? 1 : 0;
  let shared = 0;
  for (const [k, n] of pairs(b)) shared += Math.min(n, pa.get(k) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/** True when no line of the entry's page (after the previous entry's line there) reads as its title, even misread. */
function notOnItsPage(e: OutlineEntry, prev: OutlineEntry | undefined, body: Line[][]): boolean {
  const lines = body[e.page - 1] ?? [];
  const startAt = prev?.page === e.page ? (prev.line ?? 0) + 1 : 0;
  const key = normTitle(e.title);
  const keyPairs = pairs(key);
  for (let i = startAt; i < lines.length; i++) {
    if (matches(e.title, lines, i)) return false;
    const text = normTitle(lines[i]!.text);
    if (text.length <= key.length + LOCATE_LINE_SLACK && similarity(key, keyPairs, text.slice(0, key.length)) >= MISREAD_TITLE_SIMILARITY) return false;
  }
  return true;
}

/**
 * A bookmark pointing a few pages before its heading (a generator that numbered pages from the wrong
 * origin; 4ti2's manual points AUTHORS at NEWS's first page, six pages early): the entry on the first
 * later page, up to the next entry's page, where its title is printed — anywhere on that page for a
 * specific title, among its first lines for a short one ("THANKS"). Null when it is printed nowhere there.
 */
function drifted(e: OutlineEntry, next: OutlineEntry | undefined, body: Line[][]): OutlineEntry | null {
  const last = Math.min(body.length, e.page + MAX_BOOKMARK_DRIFT, next && next.page >= e.page ? next.page : Infinity);
  const specific = normTitle(e.title).length >= SPECIFIC_TITLE_CHARS;
  for (let page = e.page + 1; page <= last; page++) {
    const lines = body[page - 1] ?? [];
    const upTo = specific ? lines.length : Math.min(lines.length, DRIFT_TOP_LINES);
    for (let i = 0; i < upTo; i++) {
      if (!matches(e.title, lines, i)) continue;
      const { top: _destination, ...moved } = e;
      return { ...moved, page };
    }
  }
  return null;
}

/** A section number printed before a heading's title: "4.2.", "A.1", "IV", "Chapter 3:". */
const HEADING_NUMBER = /^\s*(?:(?:chapter|section|appendix|part)\s+)?(?:\d+(?:[.-]\d+)*|[A-Z](?:\.\d+)*|[IVXLC]+)[.:)]?\s+(?=\S)/i;

/** The line's normalised text, and the same without a leading section number. */
function lineKeys(text: string): string[] {
  const stripped = text.replace(HEADING_NUMBER, '');
  return stripped === text ? [normTitle(text)] : [normTitle(text), normTitle(stripped)];
}

function matchesText(key: string, titleLen: number, text: string, next: Line | undefined): boolean {
  if (text.length > titleLen + LOCATE_LINE_SLACK) return false;
  if (text.startsWith(key)) return true;
  if (text.length >= LOCATE_MIN_PARTIAL && key.startsWith(text)) {
    const joined = text + normTitle(next?.text ?? '');
    return joined.startsWith(key) || key.startsWith(joined);
  }
  // numbering printed apart from the title ("3.5" in one item, "Withdrawal" in the next line)
  return text.length > 0 && text.length <= 6 && next !== undefined && (text + normTitle(next.text)).startsWith(key);
}

/** A run-in heading: the title, then a period or colon and the paragraph on the same line. */
const RUN_IN_END = /[.:?]\s+\S/;

/** "1.1. How do I get started. If you have Rcpp installed…": the whole title, closed, opening a paragraph. */
function runIn(title: string, raw: string, keys: string[]): boolean {
  const full = normTitle(title);
  return full.length >= LOCATE_MIN_PARTIAL && keys.some((k) => k.startsWith(full)) && RUN_IN_END.test(raw.slice(0, title.length + 8));
}

export function matches(title: string, lines: Line[], i: number): boolean {
  const key = normTitle(title).slice(0, LOCATE_KEY_CHARS);
  if (key.length < 2) return false;
  const titleLen = normTitle(title).length;
  const keys = lineKeys(lines[i]!.text);
  return keys.some((text) => matchesText(key, titleLen, text, lines[i + 1])) || runIn(title, lines[i]!.text, keys);
}

/** The line is the title and nothing else (a section number aside): "NOMENCLATURE" for "Nomenclature", not "(Section 6.1)" for "se_". */
function readsAs(title: string, l: Line): boolean {
  const key = normTitle(title);
  return lineKeys(l.text).includes(key);
}

/** True when line `l` lies where a destination at `top` points (at it or a few lines below). */
function nearTop(l: Line, top: number): boolean {
  return l.y <= top + DEST_ABOVE_SLACK && l.y >= top - DEST_BELOW_WINDOW;
}

/** The heading line of an entry on its page, from `startAt`; -1 when not found. */
function findHeading(e: OutlineEntry, lines: Line[], startAt: number): number {
  let firstMatch = -1;
  for (let i = startAt; i < lines.length; i++) {
    if (!matches(e.title, lines, i)) continue;
    if (e.top === undefined || nearTop(lines[i]!, e.top)) return i;
    if (firstMatch < 0) firstMatch = i;
  }
  // a long title printed on the page away from where the destination points (a destination set on the
  // next heading): the title wins; a short one ("Column") may be a word on a line of its own elsewhere
  if (e.top === undefined || (firstMatch >= 0 && normTitle(e.title).length >= SPECIFIC_TITLE_CHARS)) return firstMatch;
  const at = lines.findIndex((l, i) => i >= startAt && nearTop(l, e.top!));
  // the title printed right above where the destination points: an anchor set after the heading
  // (LaTeX's \addcontentsline under a starred "\section*{NOMENCLATURE}") left the heading line in
  // the section before
  if (firstMatch >= 0 && at >= 0 && firstMatch < at && at - firstMatch <= DEST_LINES_BELOW_TITLE && readsAs(e.title, lines[firstMatch]!)) return firstMatch;
  // a destination with no title-like line on the page: the first line there is the (run-in) heading
  return at >= 0 ? at : firstMatch;
}

/**
 * A heading's label printed on its own line above the title ("CHAPTER 4" over "Assignment
 * Operators", "ITEM 1B." over "Unresolved Staff Comments", "NOTE 4" over "Goodwill"): part of the
 * heading, so the section starts there and the label does not close the section before.
 */
const LABEL_LINE = /^(?:chapter|part|item|note|section|article|appendix|lecture|unit|schedule)(?:\s+(?:\d{1,3}[A-Z]?(?:\.\d{1,3})*|[IVXLC]{1,6}|[A-Z])|\d{1,3}[A-Z]?(?:\.\d{1,3})*)[.:]?$/i;

/** The heading's first line: `i`, or the label line right above it (not before `startAt`). */
export function withLabelAbove(lines: Line[], i: number, startAt: number): number {
  return i > startAt && LABEL_LINE.test(lines[i - 1]!.text.trim()) ? i - 1 : i;
}

/** Sets `line` on entries that have none, from the body lines of their pages. */
export function locateEntries(entries: OutlineEntry[], body: Line[][]): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  for (const [k, e0] of entries.entries()) {
    if (e0.line !== undefined) {
      out.push(e0);
      continue;
    }
    const prev = out[out.length - 1];
    const e = notOnItsPage(e0, prev, body) ? (drifted(e0, entries[k + 1], body) ?? e0) : e0;
    const samePage = prev !== undefined && prev.page === e.page;
    const startAt = samePage ? (prev.line ?? 0) + 1 : 0;
    const lines = body[e.page - 1] ?? [];
    const heading = findHeading(e, lines, startAt);
    const found = heading >= 0 ? withLabelAbove(lines, heading, startAt) : heading;
    const line = found >= 0 ? found : samePage ? (prev.line ?? 0) : 0;
    const whole = heading >= 0 ? printedTitle(e.title, lines[heading]!, lines) : null;
    out.push({ ...e, ...(whole ? { title: whole } : {}), line });
  }
  return out;
}

/** A heading printed longer than this is a title's start in a sentence, not the title. */
export const PRINTED_TITLE_MAX_CHARS = 80;

/**
 * The heading as printed, when the entry's title is its start cut short by the document ("Mathematical"
 * and "Theorem and" in elsarticle's bookmarks, for "10. Mathematical symbols and formulae" and "7.
 * Theorem and theorem like environments"; "Chapter 1" in Brewtarget's, printed "Chapter 1: A Walkthrough"):
 * the title's words and the rest of the line, in a print at least the page's usual size; null when
 * the line says no more, or reads as a sentence.
 */
function printedTitle(title: string, line: Line, lines: Line[]): string | null {
  const t = title.trim();
  // the title may hold the heading's number itself ("Chapter 1"), else the heading's number is not the title's
  const whole = line.text.trim();
  const printed = whole.toLowerCase().startsWith(t.toLowerCase()) ? whole : whole.replace(HEADING_NUMBER, '');
  if (printed.length > PRINTED_TITLE_MAX_CHARS || /[.,;:!?]$/.test(printed) || !printed.toLowerCase().startsWith(t.toLowerCase())) return null;
  // a label's title after a colon or a dash ("Chapter 1: A Walkthrough" for Brewtarget's bookmark "Chapter 1")
  const [, mark = '', after = ''] = /^([:.–—-]?)\s*(.*)$/u.exec(printed.slice(t.length).trim())!;
  const rest = after.split(/\s+/).filter(Boolean);
  // the rest of a title: words ("symbols and formulae", "for Fiscal 2022"), not a label or a command's values ("B", "solid 0.5 border -1")
  if (rest.length < PRINTED_REST_MIN_WORDS || !rest.every((w) => /^\p{L}/u.test(w) || /^(?:19|20)\d\d$/.test(w))) return null;
  // in a heading's print, on a line that does not fill the measure (a paragraph's first line opening with the title does)
  if (line.size < median(lines.map((l) => l.size)) || line.x2 >= Math.max(...lines.map((l) => l.x2)) - FILLED_LINE_EMS * line.size) return null;
  const joint = mark === '' ? ' ' : mark === ':' || mark === '.' ? `${mark} ` : ` ${mark} `;
  return `${t}${joint}${rest.join(' ')}`;
}

/** Words a cut title's printed rest has at least. */
export const PRINTED_REST_MIN_WORDS = 2;
/** A line ending within this many ems of the page's right edge fills the measure. */
export const FILLED_LINE_EMS = 2;

