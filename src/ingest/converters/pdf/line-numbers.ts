/**
 * Line numbers printed in the left margin (a manuscript set for review with lineno: AASTeX's "80",
 * "81", "82" beside each line) are no text. Left in, they opened every line and summary ("129 3.
 * FLOATS 130 Floats are…") and made whole summaries of them ("104 106 109 113"). A document numbers
 * its lines when most of the lines on most of its pages open with a number, in a cell of its own at
 * one margin position, counting up down the page; those cells are removed, and lines holding nothing
 * else are dropped.
 */
import type { Line, PageLayout } from './layout-types.js';
import { median } from './lines.js';

/** A page numbers its lines when at least this share of its lines open with a margin number… */
export const LINE_NUMBER_LINE_SHARE = 0.5;
/** …most of them one more than the number above (gaps where display math or a float sits between). */
export const LINE_NUMBER_RISING_SHARE = 0.8;
/** A document numbers its lines when this share of its pages with text do (two pages at least). */
export const LINE_NUMBER_PAGE_SHARE = 0.5;
/** Margin numbers start within this many points of the document's usual margin position. */
export const LINE_NUMBER_X_TOLERANCE = 6;
/** Line numbers have at most this many digits. */
const NUMBER = /^\d{1,5}$/;

/** The line's opening number and where it starts, when the number is a cell of its own (or the whole line). */
function marginNumber(l: Line): { n: number; x: number } | null {
  const first = l.cells[0];
  if (first === undefined || !NUMBER.test(first)) return null;
  if (l.cells.length > 1 && !l.spans) return null;
  return { n: Number(first), x: l.x };
}

/** The margin position of a page whose lines are numbered (the median x of its numbers), or null. */
function numberedPage(p: PageLayout): number | null {
  const nums = p.lines.map(marginNumber).filter((m): m is { n: number; x: number } => m !== null);
  if (p.lines.length === 0 || nums.length < LINE_NUMBER_LINE_SHARE * p.lines.length || nums.length < 2) return null;
  let rising = 0;
  for (let i = 1; i < nums.length; i++) if (nums[i]!.n > nums[i - 1]!.n) rising++;
  if (rising < LINE_NUMBER_RISING_SHARE * (nums.length - 1)) return null;
  return median(nums.map((m) => m.x));
}

/** The line without its margin number (null when the number was all it held). */
function withoutNumber(l: Line): Line | null {
  if (l.cells.length === 1) return null;
  const cells = l.cells.slice(1);
  const spans = l.spans!.slice(2);
  const lead = l.lead && l.lead.text.startsWith(l.cells[0]!) ? l.lead.text.slice(l.cells[0]!.length).trim() : l.lead?.text;
  const out: Line = { ...l, cells, text: cells.join(' '), x: spans[0]! };
  if (cells.length > 1) out.spans = spans;
  else delete out.spans;
  if (l.lead) {
    if (lead) out.lead = { ...l.lead, text: lead };
    else delete out.lead;
  }
  return out;
}

/** Removes the margin numbers of a document that numbers its lines; returns how many lines lost one. */
export function stripLineNumbers(pages: PageLayout[]): number {
  const withText = pages.filter((p) => p.lines.length > 0);
  const margins = withText.map(numberedPage).filter((x): x is number => x !== null);
  if (margins.length < 2 || margins.length < LINE_NUMBER_PAGE_SHARE * withText.length) return 0;
  const margin = median(margins);
  let stripped = 0;
  for (const p of pages) {
    const kept: Line[] = [];
    for (const l of p.lines) {
      const m = marginNumber(l);
      if (!m || Math.abs(m.x - margin) > LINE_NUMBER_X_TOLERANCE) {
        kept.push(l);
        continue;
      }
      stripped++;
      const rest = withoutNumber(l);
      if (rest) kept.push(rest);
    }
    p.lines = kept;
  }
  return stripped;
}

/**
 * Counters printed in the right margin every few lines (a bill's "5", "10", "15" … beside its
 * lines, restarting on each page) are no text either. Left in, "8 Disapplication 10" read as a
 * contents entry and seven pages of a bill became a table of contents. A page counts its lines so
 * when at least MARGIN_COUNTER_MIN_PER_PAGE numbers stand right of its text, at one margin position,
 * rising by one step down the page; a document does when this share of its pages with text do.
 */
export const MARGIN_COUNTER_MIN_PER_PAGE = 3;
/** Share of a document's pages with text that count their lines in the margin (two pages at least). */
export const MARGIN_COUNTER_PAGE_SHARE = 0.5;
/** A counter stands at least this far right of the right edge of most of the page's lines. */
export const MARGIN_COUNTER_GAP = 12;

interface Counter {
  line: number;
  n: number;
  x: number;
  /** the number is all the line holds (else it is the line's last cell) */
  whole: boolean;
}

/** Numbers ending a line (a cell of their own) or making it up, right of the page's usual right edge. */
function rightCounters(p: PageLayout): Counter[] {
  const edges = p.lines.filter((l) => !NUMBER.test(l.text.trim())).map((l) => l.x2);
  if (edges.length === 0) return [];
  const edge = median(edges);
  const out: Counter[] = [];
  p.lines.forEach((l, i) => {
    const last = l.cells[l.cells.length - 1]!;
    if (l.cells.length === 1 && NUMBER.test(last.trim())) out.push({ line: i, n: Number(last), x: l.x, whole: true });
    else if (l.cells.length > 1 && l.spans && NUMBER.test(last)) out.push({ line: i, n: Number(last), x: l.spans[l.spans.length - 2]!, whole: false });
  });
  return out.filter((c) => c.x >= edge + MARGIN_COUNTER_GAP);
}

/** The step a page's counters rise by down the page (every one the same), or null when they do not. */
function counterStep(cs: Counter[]): number | null {
  if (cs.length < MARGIN_COUNTER_MIN_PER_PAGE) return null;
  const step = cs[1]!.n - cs[0]!.n;
  if (step <= 0) return null;
  for (let i = 2; i < cs.length; i++) if (cs[i]!.n - cs[i - 1]!.n !== step) return null;
  return step;
}

/** Removes the right-margin line counters of a document that prints them; returns how many it removed. */
export function stripMarginCounters(pages: PageLayout[]): number {
  const withText = pages.filter((p) => p.lines.length > 0);
  const found = withText.map((p) => ({ p, cs: rightCounters(p) })).map((e) => ({ ...e, step: counterStep(e.cs) }));
  const counting = found.filter((e) => e.step !== null);
  if (counting.length < 2 || counting.length < MARGIN_COUNTER_PAGE_SHARE * withText.length) return 0;
  const margin = median(counting.map((e) => median(e.cs.map((c) => c.x))));
  const step = median(counting.map((e) => e.step!));
  let removed = 0;
  for (const { p, cs } of found) {
    // on a page too short to show the rise (a last page's one or two counters), the margin and the step tell them
    const drop = new Map(cs.filter((c) => Math.abs(c.x - margin) <= LINE_NUMBER_X_TOLERANCE && c.n % step === 0).map((c) => [c.line, c]));
    if (drop.size === 0) continue;
    removed += drop.size;
    p.lines = p.lines.flatMap((l, i) => {
      const c = drop.get(i);
      if (!c) return [l];
      return c.whole ? [] : [withoutLast(l)];
    });
  }
  return removed;
}

/** The line without its last cell. */
function withoutLast(l: Line): Line {
  const cells = l.cells.slice(0, -1);
  const spans = l.spans!.slice(0, -2);
  const out: Line = { ...l, cells, text: cells.join(' '), x2: spans[spans.length - 1]! };
  if (cells.length > 1) out.spans = spans;
  else delete out.spans;
  return out;
}
