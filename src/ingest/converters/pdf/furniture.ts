/**
 * Page furniture: running headers/footers and page numbers. A line near the top or bottom of a
 * page whose text (digits masked) recurs at the page edge on many pages is furniture; it is kept
 * out of headings, summaries and node text. Printed page numbers found there become page labels.
 */
import { styleKey, type PageLayout } from './layout-types.js';
import { isRomanNumeral } from './numerals.js';
import { median } from './lines.js';

/** Lines inspected at the top and at the bottom of each page. */
export const FURNITURE_EDGE_LINES = 3;
/** A running header/footer recurs on at least this many pages… */
export const FURNITURE_MIN_PAGES = 3;
/** …and on at least this share of the document's pages. */
export const FURNITURE_MIN_SHARE = 0.04;
/** Furniture lies in the top or bottom band of the page, this share of its height. */
export const FURNITURE_BAND = 0.12;
/**
 * A running line starts a run (a heading's first page) only when absent from this many pages before:
 * books alternate two running headers (title on odd pages, chapter on even), each absent every other page.
 */
export const RUN_LOOKBACK_PAGES = 2;
/**
 * A chapter's running header recurs only over its chapter: a line at the page edge on at least
 * FURNITURE_MIN_PAGES pages, each within this many pages of the one before (odd and even pages may
 * carry different headers), is furniture on those pages however short the chapter is next to the
 * whole document (Asymptote's "Chapter 2: Installation" over 6 of 196 pages).
 */
export const RUN_MAX_GAP = 2;
/**
 * A running header set lower than FURNITURE_BAND (CTSim's "CTSim 3.5.0 Manual | CHAPTER 3", 12.9%
 * of the page from its top): the topmost line of a page, within this share of the height from the
 * top, is furniture when the same line (digits masked) is the topmost at the same height
 * (RUNNING_TOP_Y_TOLERANCE) on RUNNING_TOP_MIN_SHARE of the pages. Widening the band itself took
 * real lines for furniture (a caption "Example 2.3" atop pages of pgfmolbio).
 */
export const RUNNING_TOP_BAND = 0.2;
export const RUNNING_TOP_MIN_SHARE = 0.25;
export const RUNNING_TOP_Y_TOLERANCE = 1;

/**
 * Pages whose text stops short of the sheet's bottom: the document's own bottom edge (the median over
 * pages of each page's bottommost line) stands for the sheet's where it lies above the sheet's band.
 * Nike's and Foot Locker's 10-K footers sit 205 and 232 pt above the bottom of the sheet, the
 * bottommost line of nearly every page, and so do the page numbers of LaTeX documents set just above
 * the band (pari's, mhchem's): a line within FRAME_EDGE_TOLERANCE of that edge, set apart from the
 * line above it by FRAME_GAP_ABOVE times that line's size at least, is at the edge. Without the gap, and at the
 * top, the body's own first and last lines stand on the text's edges (pgfmolbio's "Example 2.3"
 * captions atop pages, reledmac's listing lines) and were taken for furniture.
 */
export const FRAME_EDGE_TOLERANCE = 2;
export const FRAME_GAP_ABOVE = 1.8;
/**
 * Pages printed smaller than their sheet (Corning's 10-K fills 596–770 pt of 792, its "© 2016 Corning
 * Incorporated. All Rights Reserved." footer 11 pt above the page number): when the text spans less
 * than this share of the page height, the band above the text's bottom edge is FURNITURE_BAND of
 * that span.
 */
export const SCALED_TEXT_SHARE = 0.6;

/** Longer lines are never furniture. */
export const FURNITURE_MAX_CHARS = 100;

const PAGE_NUMBER = [
  /^(?:page\s+)?(\d{1,4})(?:\s+of\s+\d{1,4})?$/i,
  /^[-–—]\s*(\d{1,4})\s*[-–—]$/,
  /^(?:page\s+)?([ivxlc]{1,7})$/i,
  /^([A-Z]-\d{1,3})$/,
];

/** A lower-case roman page number (front matter: "iv", "xii") opening or closing a running line. */
const ROMAN_EDGE_TOKEN = /^(?:[ivxlc]+ (?=\S)|)|(?:(?<=\S) [ivxlc]+|)$/g;

/**
 * Text of a line with digits masked and case folded: equal keys are "the same line". A roman page
 * number at either end is masked too: "ERDC/CRREL SR-05-78 | iv" is the running head of "… | 12".
 */
export function lineKey(text: string): string {
  const t = text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
  return t.replace(ROMAN_EDGE_TOKEN, (m) => (isRomanNumeral(m.trim()) ? m.replace(m.trim(), '#') : m));
}

export interface Furniture {
  /** per page (index = page - 1): indexes of furniture lines */
  lines: Array<Set<number>>;
  /** per page: furniture lines that start a run (first page of a repeated header) */
  runStart: Array<Set<number>>;
  /** per page: the printed page number found in the furniture, when numeric */
  labels: Array<number | null>;
  /** line key → number of pages on which it occurs anywhere */
  repeats: Map<string, number>;
}

/** Where the document's text begins and ends on its pages: the median topmost and bottommost line (y up). */
interface TextFrame {
  top: number;
  bottom: number;
}

function textFrame(pages: PageLayout[]): TextFrame | null {
  const tops: number[] = [];
  const bottoms: number[] = [];
  for (const p of pages) {
    if (p.lines.length === 0) continue;
    let top = -Infinity;
    let bottom = Infinity;
    for (const l of p.lines) {
      if (l.y > top) top = l.y;
      if (l.y < bottom) bottom = l.y;
    }
    tops.push(top);
    bottoms.push(bottom);
  }
  return tops.length > 0 ? { top: median(tops), bottom: median(bottoms) } : null;
}

/**
 * The line at `k` in `byY` (lines top to bottom) is at the text's own bottom edge (FRAME_EDGE_TOLERANCE,
 * SCALED_TEXT_SHARE) where that edge lies above the sheet's band, set apart from the line above it.
 */
function atTextBottom(p: PageLayout, byY: ReadonlyArray<readonly [number, number]>, k: number, band: number, frame: TextFrame | null): boolean {
  if (!frame || frame.bottom <= band || k === 0) return false;
  const span = frame.top - frame.bottom;
  const near = span < SCALED_TEXT_SHARE * p.height ? Math.max(FRAME_EDGE_TOLERANCE, FURNITURE_BAND * span) : FRAME_EDGE_TOLERANCE;
  const [y] = byY[k]!;
  const [aboveY, above] = byY[k - 1]!;
  return y <= frame.bottom + near && aboveY - y >= FRAME_GAP_ABOVE * p.lines[above]!.size;
}

function edgeIndexes(p: PageLayout, frame: TextFrame | null): number[] {
  const n = p.lines.length;
  if (n === 0) return [];
  const byY = p.lines.map((l, i) => [l.y, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const picked = new Set<number>();
  const band = p.height > 0 ? p.height * FURNITURE_BAND : Infinity;
  const inBand = (y: number) => p.height <= 0 || y >= p.height - band || y <= band;
  for (let i = 0; i < Math.min(FURNITURE_EDGE_LINES, n); i++) if (inBand(byY[i]![0])) picked.add(byY[i]![1]);
  for (let i = Math.max(0, n - FURNITURE_EDGE_LINES); i < n; i++) if (inBand(byY[i]![0]) || atTextBottom(p, byY, i, band, frame)) picked.add(byY[i]![1]);
  return [...picked].sort((a, b) => a - b);
}

function pageNumberOf(text: string): { label: number | null } | null {
  const t = text.trim();
  for (const re of PAGE_NUMBER) {
    const m = re.exec(t);
    if (m) return { label: /^\d+$/.test(m[1]!) ? Number(m[1]) : null };
  }
  return null;
}

/** The line holds a number within a few of its physical page (printed page numbers run close to it). */
function pageNumberInside(text: string, page: number): boolean {
  return (text.match(/\d{1,4}/g) ?? []).some((d) => Math.abs(Number(d) - page) <= PAGE_NUMBER_DRIFT);
}

/** Printed page numbers in a running header differ from the physical page by at most this (front matter). */
export const PAGE_NUMBER_DRIFT = 40;

/**
 * Pages where an edge line too rare for the whole document recurs as a chapter's running header:
 * runs of at least FURNITURE_MIN_PAGES occurrences, each within RUN_MAX_GAP pages of the last.
 */
function chapterRuns(edgePages: Map<string, number[]>, minPages: number): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const [k, at] of edgePages) {
    if (at.length >= minPages || at.length < FURNITURE_MIN_PAGES || !/\p{L}{3}/u.test(k)) continue;
    let run: number[] = [];
    const flush = () => {
      if (run.length >= FURNITURE_MIN_PAGES) {
        const set = out.get(k) ?? new Set<number>();
        for (const pi of run) set.add(pi);
        out.set(k, set);
      }
    };
    for (const pi of at) {
      if (run.length && pi - run[run.length - 1]! > RUN_MAX_GAP) {
        flush();
        run = [];
      }
      run.push(pi);
    }
    flush();
  }
  return out;
}

/** Each page's topmost line when it lies below FURNITURE_BAND but within RUNNING_TOP_BAND of the top, with words. */
function lowTopLine(p: PageLayout): number | null {
  if (p.lines.length === 0 || !(p.height > 0)) return null;
  let top = 0;
  p.lines.forEach((l, i) => {
    if (l.y > p.lines[top]!.y) top = i;
  });
  const l = p.lines[top]!;
  const fromTop = p.height - l.y;
  if (fromTop <= p.height * FURNITURE_BAND || fromTop > p.height * RUNNING_TOP_BAND) return null;
  return l.text.length <= FURNITURE_MAX_CHARS && /\p{L}{3}/u.test(l.text) ? top : null;
}

/** The low top lines (lowTopLine) that recur as the topmost line at one height on enough pages: page index → line index. */
function runningTopLines(pages: PageLayout[]): Map<number, number> {
  const byKey = new Map<string, Array<{ pi: number; i: number; y: number }>>();
  pages.forEach((p, pi) => {
    const i = lowTopLine(p);
    if (i === null) return;
    const k = lineKey(p.lines[i]!.text);
    const at = byKey.get(k);
    if (at) at.push({ pi, i, y: p.lines[i]!.y });
    else byKey.set(k, [{ pi, i, y: p.lines[i]!.y }]);
  });
  const out = new Map<number, number>();
  const need = Math.max(FURNITURE_MIN_PAGES, Math.ceil(RUNNING_TOP_MIN_SHARE * pages.length));
  for (const at of byKey.values()) {
    if (at.length < need) continue;
    const same = atOneHeight(at);
    if (same.length >= need) for (const a of same) out.set(a.pi, a.i);
  }
  return out;
}

/** The lines set at the median height of the list, within RUNNING_TOP_Y_TOLERANCE. */
function atOneHeight<T extends { y: number }>(at: T[]): T[] {
  const mid = median(at.map((a) => a.y));
  return at.filter((a) => Math.abs(a.y - mid) <= RUNNING_TOP_Y_TOLERANCE);
}

/**
 * Running heads in a print of their own, whose words change from chapter to chapter: a book's
 * "Chapter 1. Beginner's guide | 7" in slanted type 100 pt from the top of each odd page (below
 * FURNITURE_BAND, and each chapter's words on too few pages for RUNNING_TOP_MIN_SHARE), MUSIC's
 * "CHAPTER 3. STARTING A MULTI-SIMULATION" on the one page after a short chapter's first. The
 * topmost line of a page, within RUNNING_TOP_BAND of the top, is one when its print (not the body's,
 * not larger) is that of the topmost line at the same height on RUNNING_TOP_MIN_SHARE of the pages,
 * a gap of FRAME_GAP_ABOVE times its size parts it from the line below, and most lines in that place
 * repeat their words on another page (a reference manual's topics, each atop its own page, do not).
 */
export const STYLED_TOP_REPEATED_SHARE = 0.5;
/** A styled running head is no larger than the body print, times this (slide titles are larger). */
export const STYLED_TOP_MAX_SIZE = 1.05;

/**
 * A print holding at least this share of the commonest print's characters ties with it for the body:
 * reledmac's prose at 10 pt and its commented code at 9 pt hold 353,000 and 369,000 characters, and
 * which one leads turned on how six pages read again with pdfjs named their fonts.
 */
export const BODY_PRINT_TIE_SHARE = 0.9;

/**
 * The print (font and size together) holding most of the document's characters, furniture included
 * (it is not known yet), and the largest size among the prints tying with it (BODY_PRINT_TIE_SHARE).
 * Not headings.ts's bodyStyle, which takes the commonest size and the commonest font apart, after
 * the furniture: reledmac's running heads share its commonest font and size, but not its commonest
 * print, and were kept as text when measured that way.
 */
function bodyPrint(pages: PageLayout[]): { key: string; size: number } {
  const chars = new Map<string, { n: number; size: number }>();
  for (const p of pages) for (const l of p.lines) {
    const k = styleKey(l);
    const c = chars.get(k);
    if (c) c.n += l.text.length;
    else chars.set(k, { n: l.text.length, size: l.size });
  }
  let best = { key: '', size: 0, n: -1 };
  for (const [key, c] of chars) if (c.n > best.n) best = { key, size: c.size, n: c.n };
  let size = best.size;
  for (const c of chars.values()) if (c.n >= best.n * BODY_PRINT_TIE_SHARE) size = Math.max(size, c.size);
  return { key: best.key, size };
}

/** The page's two topmost lines (line indexes), or null when it has fewer than two. */
function topTwo(p: PageLayout): [number, number] | null {
  if (p.lines.length < 2) return null;
  let a = 0;
  let b = -1;
  for (let i = 1; i < p.lines.length; i++) {
    const y = p.lines[i]!.y;
    if (y > p.lines[a]!.y) [a, b] = [i, a];
    else if (b < 0 || y > p.lines[b]!.y) b = i;
  }
  return [a, b];
}

/** The page's topmost line when it may be a running head in its own print (styledTopLines). */
function styledTop(p: PageLayout, body: { key: string; size: number }): number | null {
  const top = p.height > 0 ? topTwo(p) : null;
  if (!top) return null;
  const l = p.lines[top[0]]!;
  if (p.height - l.y > p.height * RUNNING_TOP_BAND || l.text.length > FURNITURE_MAX_CHARS || !/\p{L}{3}/u.test(l.text)) return null;
  if (styleKey(l) === body.key || l.size > body.size * STYLED_TOP_MAX_SIZE || l.y - p.lines[top[1]]!.y < FRAME_GAP_ABOVE * l.size) return null;
  return top[0];
}

/** The styled running heads (see STYLED_TOP_REPEATED_SHARE): page index → line index. */
function styledTopLines(pages: PageLayout[]): Map<number, number> {
  const body = bodyPrint(pages);
  const bySlot = new Map<string, Array<{ pi: number; i: number; y: number; key: string }>>();
  pages.forEach((p, pi) => {
    const i = styledTop(p, body);
    if (i === null) return;
    const l = p.lines[i]!;
    const slot = styleKey(l);
    const at = bySlot.get(slot) ?? [];
    at.push({ pi, i, y: l.y, key: lineKey(l.text) });
    bySlot.set(slot, at);
  });
  const out = new Map<number, number>();
  const need = Math.max(FURNITURE_MIN_PAGES, Math.ceil(RUNNING_TOP_MIN_SHARE * pages.length));
  for (const at of bySlot.values()) {
    if (at.length < need) continue;
    const same = atOneHeight(at);
    const keys = new Map<string, number>();
    for (const a of same) keys.set(a.key, (keys.get(a.key) ?? 0) + 1);
    const repeated = same.filter((a) => keys.get(a.key)! > 1).length;
    if (same.length >= need && repeated >= STYLED_TOP_REPEATED_SHARE * same.length) for (const a of same) out.set(a.pi, a.i);
  }
  return out;
}

/**
 * The furniture key an edge line is read under: its own, or that of its running head with the page
 * number, when the number was read apart from it on this page (Maxima's "CHAPTER 2. AVAILABLE
 * INTERFACES TO MAXIMA | 25" on a page of a two-column key table: the head's words alone, once, read
 * as a heading and took a node of their own) and that head is furniture on a page within
 * RUN_MAX_GAP of it; null when neither is furniture.
 */
function furnitureKey(k: string, pi: number, isFurniture: (key: string, page: number) => boolean): string | null {
  if (isFurniture(k, pi)) return k;
  if (/^# | #$/.test(k) || !/\p{L}{3}/u.test(k)) return null;
  for (const twin of [`${k} #`, `# ${k}`]) {
    for (let d = 1; d <= RUN_MAX_GAP; d++) if (isFurniture(twin, pi - d) || isFurniture(twin, pi + d)) return twin;
  }
  return null;
}

export function findFurniture(pages: PageLayout[]): Furniture {
  const n = pages.length;
  const runningTop = runningTopLines(pages);
  for (const [pi, i] of styledTopLines(pages)) if (!runningTop.has(pi)) runningTop.set(pi, i);
  const edgeCount = new Map<string, number>();
  const edgePages = new Map<string, number[]>();
  const repeats = new Map<string, number>();
  const frame = textFrame(pages);
  const edges = pages.map((p) => edgeIndexes(p, frame));
  pages.forEach((p, pi) => {
    const seenEdge = new Set<string>();
    const seenAll = new Set<string>();
    for (const l of p.lines) {
      if (l.text.length > FURNITURE_MAX_CHARS) continue;
      seenAll.add(lineKey(l.text));
    }
    for (const i of edges[pi]!) {
      const l = p.lines[i]!;
      if (l.text.length <= FURNITURE_MAX_CHARS) seenEdge.add(lineKey(l.text));
    }
    for (const k of seenEdge) {
      edgeCount.set(k, (edgeCount.get(k) ?? 0) + 1);
      const at = edgePages.get(k);
      if (at) at.push(pi);
      else edgePages.set(k, [pi]);
    }
    for (const k of seenAll) repeats.set(k, (repeats.get(k) ?? 0) + 1);
  });
  const minPages = Math.max(FURNITURE_MIN_PAGES, Math.ceil(FURNITURE_MIN_SHARE * n));
  const inRun = chapterRuns(edgePages, minPages);
  const lines: Array<Set<number>> = [];
  const runStart: Array<Set<number>> = [];
  const labels: Array<number | null> = [];
  const recent: Array<Set<string>> = [];
  pages.forEach((p, pi) => {
    const f = new Set<number>();
    const starts = new Set<number>();
    const keys = new Set<string>();
    let label: number | null = null;
    for (const i of edges[pi]!) {
      const l = p.lines[i]!;
      const pn = pageNumberOf(l.text);
      if (pn) {
        f.add(i);
        if (pn.label !== null) label = pn.label;
        continue;
      }
      if (l.text.length > FURNITURE_MAX_CHARS) continue;
      const k = furnitureKey(lineKey(l.text), pi, (key, at) => (edgeCount.get(key) ?? 0) >= minPages || !!inRun.get(key)?.has(at));
      if (k === null) continue;
      f.add(i);
      keys.add(k);
      // a running header carrying the page number ("12 Various Versatile Variances") never starts a run
      if (!recent.some((r) => r.has(k)) && !(k.includes('#') && pageNumberInside(l.text, pi + 1))) starts.add(i);
      const trailing = /(\d{1,4})$/.exec(l.text.trim());
      if (label === null && trailing && k.endsWith('#')) label = Number(trailing[1]);
    }
    const top = runningTop.get(pi);
    if (top !== undefined) f.add(top);
    recent.push(keys);
    if (recent.length > RUN_LOOKBACK_PAGES) recent.shift();
    lines.push(f);
    runStart.push(starts);
    labels.push(label);
  });
  return { lines, runStart, labels, repeats };
}
