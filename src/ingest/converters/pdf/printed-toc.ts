/**
 * A printed table of contents: pages near the front whose lines end in page numbers (a separate
 * cell, or after dot leaders). Entries keep their printed numbers; the printed→physical offset is
 * found by voting — page labels from the footers, and pages where an entry's title is printed at
 * the start of a line — and each entry is then placed on the page where its title is printed.
 */
import type { Line, PageLayout } from './layout-types.js';
import type { Furniture } from './furniture.js';
import type { OutlineEntry } from './outline-types.js';
import { OPEN_ENDING, numbering, type Numbering } from './headings.js';
import { joinWrapped } from './titles.js';
import { isRomanNumeral, romanValue } from './numerals.js';

/** Pages searched for a printed TOC: at least this many… */
export const TOC_SCAN_MIN_PAGES = 12;
/** …or this share of the document. */
export const TOC_SCAN_SHARE = 0.15;
/** A page is part of the TOC with at least this many entry lines. */
export const TOC_MIN_LINES_PER_PAGE = 5;
/** A TOC continues onto the next page with at least this many entry lines. */
export const TOC_MIN_LINES_CONTINUED = 3;
/** A TOC title without a page number wrapped onto the next line when it reaches this share of its column's width. */
export const WRAPPED_ENTRY_RIGHT = 0.55;
/**
 * An unnumbered contents title goes on in a line indented at least this much further (PDF units),
 * or at its own indent when it ran to WRAPPED_FULL_RIGHT of its column's width ("Performance Goal
 * 1.1.1: Increase the number of small manufacturers that make" / "a first export sale ..... 3").
 */
export const WRAP_INDENT_MIN = 4;
export const WRAPPED_FULL_RIGHT = 0.8;
/** A usable TOC has at least this many entries with page numbers. */
export const TOC_MIN_ENTRIES = 4;
/**
 * An entry's title found this many pages from its predicted page still counts (unnumbered inserts
 * such as maps or photo pages shift the offset within a document).
 */
export const TOC_REFINE_WINDOW = 6;
/** Title keys: this many normalised characters are compared. */
export const TITLE_KEY_CHARS = 40;
/** A heading printed over two lines matches on its first line: at least this many characters… */
export const MIN_PARTIAL_KEY = 10;
/** …and this share of the entry's key. */
export const MIN_PARTIAL_SHARE = 0.5;
/** A line matching an entry's title may be this many (normalised) characters longer than the title. */
export const TITLE_LINE_SLACK = 20;
/** Plausible printed→physical offsets. */
export const MAX_OFFSET = 80;
/** Share of entries whose title must be found near its predicted page (unless page labels agree). */
export const MIN_VERIFIED_SHARE = 0.3;

interface TocLine {
  title: string;
  printed: number | null;
  x: number;
  /** a front-matter entry's page in lower-case roman numerals ("Preface ..... v"), printed then null */
  roman?: number;
}

const DOT_LEADER = /^(.*?\p{L}.*?)\s*(?:\.{3,}|…+|(?:\s?\.){4,}|_{3,})\s*(\d{1,4})$/u;
/** What DOT_LEADER needs at the end of a line, tested first: the full pattern backtracks heavily on long lines. */
const LEADER_TAIL = /[._…]\s*\d{1,4}$/u;
/** A printed page number: 1–9999 (a "0" cell is a table value). */
const PAGE_CELL = /^[1-9]\d{0,3}$/;
/** A cell of leader dots ending in the page number (". . . . 12", "……12"). */
const LEADER_CELL = /^(?:\.\s*){2,}\s*([1-9]\d{0,3})$|^(?:…\s*)+([1-9]\d{0,3})$/;
/** A title, its leader and a roman page number ("Preface ........ v"). */
const ROMAN_LEADER = /^(.*?\p{L}.*?)\s*(?:\.{3,}|…+|(?:\s?\.){4,}|_{3,})\s*([ivx]{1,6})$/u;
/** Leader dots left at the end of a title cell ("Basics . . . . ."). */
const TRAILING_LEADER = /(?:\s*(?:\.\s*){3,}|\s*…+)$/;

/** A title reduced to lowercase letters and digits (for "same title" comparisons). */
export function normTitle(title: string): string {
  return title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '');
}

/** Normalised title prefix for matching a TOC entry against the page where it is printed. */
export function titleKey(title: string): string {
  return normTitle(title).slice(0, TITLE_KEY_CHARS);
}

const LETTER = /\p{L}/gu;

/** True when `s` holds at least `n` letters (counts no further: this runs on every body line). */
function hasLetters(s: string, n: number): boolean {
  LETTER.lastIndex = 0;
  for (let seen = 0; seen < n; seen++) if (!LETTER.exec(s)) return false;
  return true;
}

/** Reads a line as a TOC entry (title + printed page), or null. */
/** A row of a printed table or console output ("infect 0 0 0 44 0 0", "1 NA NA NA NA"), never a contents entry. */
function tableResidue(title: string): boolean {
  const words = title.replace(/^[\d.]+\s+/, '').split(/\s+/).filter(Boolean);
  // bare counts ("0 0 0 44"); dates in a title ("December 31, 2018, 2017 and 2016") are not
  if (words.filter((w) => /^[-+(]?\d[\d.]*\)?%?$/.test(w) && !/^(?:19|20)\d\d$/.test(w)).length >= 2) return true;
  return words.length >= 2 && words.every((w) => w.replace(/\W/g, '').length <= 2);
}

export function tocLine(line: Line): TocLine | null {
  if (line.cells.length >= 2) {
    // the page in a cell of its own, or at the end of the leader's cell ("1 Introduction" | ". . . . 1")
    const cell = line.cells[line.cells.length - 1]!;
    const leader = PAGE_CELL.test(cell) ? null : LEADER_CELL.exec(cell);
    // the number apart, the title and its leader in the last cell ("1" | "Duis ante felis … dolor ........ 1")
    const titled = leader || PAGE_CELL.test(cell) || !LEADER_TAIL.test(cell) ? null : DOT_LEADER.exec(cell);
    const last = leader ? (leader[1] ?? leader[2]) : titled ? titled[2] : PAGE_CELL.test(cell) ? cell : undefined;
    if (!last) return null;
    const title = [...line.cells.slice(0, -1), ...(titled ? [titled[1]!] : [])].join(' ').replace(TRAILING_LEADER, '').trim();
    if (!hasLetters(title, 3) || title.length > 160) return null;
    if (line.cells.slice(0, -1).some((c) => /^[\d,.()$%-]+$/.test(c) && !/^\d{1,2}[A-C]?\.?$/.test(c))) return null;
    if (tableResidue(title)) return null;
    return { title, printed: Number(last), x: line.x };
  }
  const m = LEADER_TAIL.test(line.text) ? DOT_LEADER.exec(line.text) : null;
  if (m && hasLetters(m[1]!, 3)) return { title: m[1]!.trim(), printed: Number(m[2]), x: line.x };
  return romanTocLine(line);
}

/** A front-matter entry with a roman page number after its leader ("Preface ..... v", "Figures and Tables ..... iv"). */
function romanTocLine(line: Line): TocLine | null {
  const m = /[.…_]\s*[ivx]{1,6}$/.test(line.text) ? ROMAN_LEADER.exec(line.text.replace(/\s*\|\s*/g, ' ')) : null;
  if (!m || !isRomanNumeral(m[2]!) || !hasLetters(m[1]!, 3) || m[1]!.length > 160) return null;
  return { title: m[1]!.replace(TRAILING_LEADER, '').trim(), printed: null, x: line.x, roman: romanValue(m[2]!) };
}

/**
 * The horizontal extent of the column a line sits in: the lines of the page overlapping it
 * horizontally (a two-column contents page has two such extents).
 */
function columnOf(p: PageLayout, l: Line, furn: Set<number>): { left: number; right: number } {
  let left = l.x;
  let right = l.x2;
  p.lines.forEach((o, i) => {
    if (furn.has(i) || o.x >= l.x2 || o.x2 <= l.x) return;
    left = Math.min(left, o.x);
    right = Math.max(right, o.x2);
  });
  return { left, right };
}

/**
 * A numbered entry whose page number follows its title after a blank only ("2.14 How do I quickly
 * prototype my code using Attributes 5"), with no leader or cell gap: read on a contents page only
 * (it is counted as an entry, not as evidence that the page is one).
 */
function looseNumberedEntry(l: Line): TocLine | null {
  if (l.cells.length !== 1 || l.text.length > 160 || !numbering(l.text) || !spacedNumberTail(l.text)) return null;
  // a leader too short for DOT_LEADER ("… by value . 10", "… not found’ . . . 13")
  const m = LOOSE_ENTRY.exec(l.text.replace(/(?:\s+\.)+\s+(\d{1,3})$/, ' $1'));
  return m && hasLetters(m[1]!, 3) && !tableResidue(m[1]!) ? { title: m[1]!.trim(), printed: Number(m[2]), x: l.x } : null;
}

/** `caption`: an entry of a list of figures or tables (twoLists): the page is contents, the entry no section. */
export type PageTocLine = TocLine & { line: number; loose?: boolean; caption?: true };

function tocLinesOf(p: PageLayout, furn: Set<number>): PageTocLine[] {
  const out: PageTocLine[] = [];
  // a numbered title without a page number that runs to the right of its column, whose next line has
  // one ("Item 5. Market for … of Equity" / "Securities   30"), is one entry printed over two lines
  let pendingTitle: string | null = null;
  let pendingX = 0;
  let pendingNumbered = false;
  let pendingFull = false;
  p.lines.forEach((l, i) => {
    if (furn.has(i)) return;
    const strict = tocLine(l);
    const loose = strict ? null : looseNumberedEntry(l);
    const t = strict ?? loose;
    const n = numbering(l.text);
    // an unnumbered title ("Appendix B: Pellentesque … fames") wraps onto an indented line only
    if (t && pendingTitle !== null && !numbering(t.title) && (pendingNumbered || t.x > pendingX + WRAP_INDENT_MIN || (pendingFull && t.x >= pendingX - WRAP_INDENT_MIN))) {
      out.push({ ...t, title: joinWrapped(pendingTitle, t.title), x: pendingX, line: i });
      pendingTitle = null;
      return;
    }
    pendingTitle = null;
    const last = out[out.length - 1];
    // a title that runs on below its page number ("Item 5 | … Issuer Purchases of | 16" / "Equity Securities")
    if (!t && !n && last?.printed !== null && last?.line === i - 1 && OPEN_ENDING.test(last.title) && l.x > last.x && l.cells.length === 1 && l.text.length <= 80) {
      last.title = joinWrapped(last.title, l.text.trim());
      return;
    }
    if (t) out.push({ ...t, line: i, ...(loose ? { loose: true } : {}) });
    else if (n?.kind === 'part' && l.text.length <= 80) out.push({ title: l.text.trim(), printed: null, x: l.x, line: i });
    // (a line ending in a page-number cell is an entry read as something else, never half a title)
    else if ((!n || n.kind !== 'part') && l.cells.length <= 2 && !PAGE_CELL.test(l.cells[l.cells.length - 1]!) && l.text.length <= 160 && hasLetters(l.text, 3) && reachesRight(p, l, furn) && !/\(continued\)$/i.test(l.text)) {
      pendingTitle = l.cells.join(' ').trim();
      pendingX = l.x;
      pendingNumbered = n !== null;
      pendingFull = reachesRight(p, l, furn, WRAPPED_FULL_RIGHT);
    }
  });
  return out;
}

/** The line runs to WRAPPED_ENTRY_RIGHT of its column's width or further (a title that wrapped, not a short group heading). */
function reachesRight(p: PageLayout, l: Line, furn: Set<number>, share = WRAPPED_ENTRY_RIGHT): boolean {
  const col = columnOf(p, l, furn);
  return l.x2 - col.left >= share * (col.right - col.left);
}

function tidyEntryTitle(raw: string, itemColumn: boolean): string {
  // the rest of a leader the line's page cell cut off ("… in a package .", "… constructors . .")
  let t = raw.replace(/\s+/g, ' ').trim().replace(/(?:\s\.)+$/, '');
  if (itemColumn && /^\d{1,2}[A-C]?\.?\s/i.test(t)) t = `Item ${t}`;
  const m = /^item(?:\s+|(?=\d))(\d{1,2}[a-d]?)\.?\s+(.*)$/i.exec(t);
  if (m) t = `Item ${m[1]!.toUpperCase()}. ${m[2]}`;
  const p = /^part\s+([ivx]{1,4})\b\.?\s*(.*)$/i.exec(t);
  const rest = p?.[2]?.replace(/^[\s.:—–-]+/, '');
  if (p) t = `Part ${p[1]!.toUpperCase()}${rest ? ` — ${rest}` : ''}`;
  return t;
}

export interface PrintedToc {
  entries: OutlineEntry[];
  tocPages: number[];
  offset: number;
}

/** Finds the TOC pages (first run of entry-rich pages near the front). */
export function findTocPages(pages: PageLayout[], furniture: Furniture): Map<number, PageTocLine[]> {
  const scan = Math.min(pages.length, Math.max(TOC_SCAN_MIN_PAGES, Math.ceil(pages.length * TOC_SCAN_SHARE)));
  const found = new Map<number, PageTocLine[]>();
  for (let pi = 0; pi < scan; pi++) {
    const lines = tocLinesOf(pages[pi]!, furniture.lines[pi]!);
    const entries = lines.filter((l) => l.printed !== null && !l.loose);
    const printed = entries.map((l) => l.printed!);
    const need = found.size > 0 ? TOC_MIN_LINES_CONTINUED : TOC_MIN_LINES_PER_PAGE;
    // a contents page's numbers go up; a table's column of figures (acres, units, years) does not. A
    // page after contents may hold two lists, each going up (a list of figures, then one of tables)
    const rising = nonDecreasingShare(printed) >= LATER_TOC_MONOTONIC_SHARE;
    const lists = !rising && found.size > 0 && twoLists(entries);
    // lists of figures and tables are contents pages, but their captions are no sections of the outline
    if (printed.length >= need && (rising || lists)) found.set(pages[pi]!.page, lists ? lines.map((l) => ({ ...l, caption: true as const })) : lines);
    else if (found.size > 0) break;
  }
  return found;
}

/**
 * A section number of two or more parts opening a contents entry ("6.3.1 \styleA", "2.4 dvips
 * options"): in a listing of sections it is the entry's number whatever its title starts with, where
 * a heading in running text needs a capital after it (headings.ts numbering).
 */
const DOTTED_ENTRY = /^(\d{1,2}(?:\.\d{1,3}){1,4})\.?\s+(\S.*)$/;

/** A contents entry's numbering: as headings are numbered, or a dotted section number before any title. */
export function entryNumbering(title: string): Numbering | null {
  const n = numbering(title);
  if (n) return n;
  const m = DOTTED_ENTRY.exec(title);
  return m ? { kind: 'numbered', level: m[1]!.split('.').length, number: m[1]!, rest: m[2]!.trim() } : null;
}

function levelsFor(lines: TocLine[]): number[] {
  const nums = lines.map((l) => entryNumbering(l.title));
  const hasItems = nums.some((n) => n?.kind === 'item');
  const itemX = Math.min(...lines.filter((_, i) => nums[i]?.kind === 'item').map((l) => l.x), Infinity);
  // when only the chapters are numbered ("2 Installation" over "   Quick installation instructions"),
  // an unnumbered entry's level counts the chapters' indent too: the section is one level down, not
  // the chapters' sibling. Numbered sections ("10.1") set the levels themselves.
  const chaptersOnly = !nums.some((n) => n && n.level > 1);
  const xs = [...new Set(lines.filter((_, i) => chaptersOnly || !nums[i]).map((l) => Math.round(l.x / 4)))].sort((a, b) => a - b);
  return lines.map((l, i) => {
    const n = nums[i];
    if (n) return n.level;
    if (hasItems) return l.x > itemX + 4 ? 3 : 2;
    return 1 + Math.max(0, xs.indexOf(Math.round(l.x / 4)));
  });
}

/** The contents entries with a printed page (group entries take the next entry's), printed pages never going down. */
function tocEntries(pages: PageLayout[], tocMap: Map<number, PageTocLine[]>): TocLine[] {
  const itemColumn = [...tocMap.keys()].some((pg) => pages[pg - 1]!.lines.some((l) => /^items?$/i.test(l.cells[0] ?? '')));
  // fill page numbers of un-numbered group entries (PART I) from the next numbered entry
  const lines: TocLine[] = [...tocMap.values()].flat().filter((l) => l.roman === undefined && !l.caption).map((l) => ({ title: tidyEntryTitle(l.title, itemColumn), printed: l.printed, x: l.x }));
  for (let i = lines.length - 1, next: number | null = null; i >= 0; i--) {
    if (lines[i]!.printed === null) lines[i]!.printed = next;
    else next = lines[i]!.printed;
  }
  const mono: TocLine[] = [];
  for (const l of lines) if (l.printed !== null && (mono.length === 0 || l.printed >= mono[mono.length - 1]!.printed!)) mono.push(l);
  return mono;
}

/** The pages after the contents where each entry's title is printed as a line of its own. */
function titleHits(pages: PageLayout[], lastToc: number, entries: TocLine[]): number[][] {
  // entries are few, so a scan over all lines is cheap
  const lineKeys: Array<{ page: number; key: string; len: number }> = [];
  for (const p of pages) {
    if (p.page <= lastToc) continue;
    for (const l of p.lines) {
      if (l.text.length > 200) continue;
      const norm = normTitle(l.text);
      lineKeys.push({ page: p.page, key: norm.slice(0, TITLE_KEY_CHARS), len: norm.length });
    }
  }
  // a title is printed as a line of its own: the line is about as long as the title, not prose starting with it
  return entries.map((e) => {
    const full = normTitle(e.title);
    const k = full.slice(0, TITLE_KEY_CHARS);
    if (k.length < 5) return [];
    const pagesHit = new Set<number>();
    for (const lk of lineKeys) {
      if (lk.len > full.length + TITLE_LINE_SLACK) continue;
      if (lk.key.startsWith(k) || (lk.key.length >= MIN_PARTIAL_KEY && k.startsWith(lk.key) && lk.key.length >= k.length * MIN_PARTIAL_SHARE)) pagesHit.add(lk.page);
    }
    return [...pagesHit];
  });
}

/**
 * Physical minus printed page, by vote. Titles found where they are printed decide; printed page labels
 * decide only when no title is found (footers can carry other numberings, e.g. a combined filing's
 * running page count).
 */
function pageOffset(furniture: Furniture, lastToc: number, entries: TocLine[], hits: number[][]): number | null {
  const titleVotes = new Map<number, number>();
  const labelVotes = new Map<number, number>();
  const vote = (votes: Map<number, number>, off: number, w: number) => {
    if (Math.abs(off) <= MAX_OFFSET) votes.set(off, (votes.get(off) ?? 0) + w);
  };
  furniture.labels.forEach((label, i) => {
    if (label !== null && i + 1 > lastToc) vote(labelVotes, i + 1 - label, 1);
  });
  entries.forEach((e, i) => {
    const h = hits[i]!;
    for (const pg of h) vote(titleVotes, pg - e.printed!, 1 / h.length);
  });
  const votes = titleVotes.size > 0 ? titleVotes : labelVotes;
  if (votes.size === 0) return null;
  return [...votes].sort((a, b) => b[1] - a[1] || Math.abs(a[0]) - Math.abs(b[0]) || a[0] - b[0])[0]![0];
}

/**
 * The first entries whose headings are printed on the last contents page itself, below its last
 * entry (a short paper's contents, then its introduction and "1 Theoretical Background"): each
 * entry's index and the heading's body line (furniture left out), in order, up to the first entry not printed there.
 * Searched only after the contents, their heading lines would be moved to the next page and their
 * text left in the "Contents" node.
 */
function entriesOnContents(pages: PageLayout[], furniture: Furniture, tocMap: Map<number, PageTocLine[]>, lastToc: number, entries: TocLine[]): Map<number, number> {
  const out = new Map<number, number>();
  const lines = pages[lastToc - 1]?.lines ?? [];
  const furn = furniture.lines[lastToc - 1] ?? new Set<number>();
  let from = Math.max(...tocMap.get(lastToc)!.map((l) => l.line)) + 1;
  for (const [i, e] of entries.entries()) {
    const full = normTitle(e.title);
    const key = full.slice(0, TITLE_KEY_CHARS);
    if (key.length < 5) break;
    let at = -1;
    for (let k = from; k < lines.length && at < 0; k++) {
      if (furn.has(k)) continue;
      const norm = normTitle(lines[k]!.text);
      if (norm.length <= full.length + TITLE_LINE_SLACK && norm.startsWith(key)) at = k;
    }
    if (at < 0) break;
    let body = 0;
    for (let k = 0; k < at; k++) if (!furn.has(k)) body++;
    out.set(i, body);
    from = at + 1;
  }
  return out;
}

/**
 * Each entry on the page nearest its printed page + offset where its title is found (or on the last
 * contents page, at its heading line, when `onContents` has it); how many were found.
 */
function placeEntries(entries: TocLine[], hits: number[][], offset: number, pageCount: number, toc: { first: number; last: number; onContents: Map<number, number> }): { placed: OutlineEntry[]; verified: number } {
  let verified = 0;
  const levels = levelsFor(entries);
  const placed: OutlineEntry[] = [];
  const lastToc = toc.last;
  entries.forEach((e, i) => {
    const n = entryNumbering(e.title);
    const line = toc.onContents.get(i);
    if (line !== undefined) {
      verified++;
      placed.push({ title: e.title, level: levels[i]!, page: lastToc, line, ...(n ? { kind: n.kind } : {}) });
      return;
    }
    const predicted = e.printed! + offset;
    const near = hits[i]!.filter((pg) => Math.abs(pg - predicted) <= TOC_REFINE_WINDOW).sort((a, b) => Math.abs(a - predicted) - Math.abs(b - predicted) || a - b);
    if (near.length) verified++;
    // an entry printed before the contents (a protocol's synopsis) stays in the front matter: moved
    // after the contents it took the next entry's place ("Protocol Synopsis; List of Abbreviations")
    else if (predicted < toc.first) return;
    const prev = placed[placed.length - 1];
    const page = Math.min(pageCount, Math.max(lastToc + 1, prev?.page ?? 1, near[0] ?? predicted));
    placed.push({ title: e.title, level: levels[i]!, page, ...(n ? { kind: n.kind } : {}) });
  });
  return { placed, verified };
}

/** A contents page's own heading ("Contents", "TABLE OF CONTENTS"). */
const CONTENTS_HEADING = /^(?:table of )?contents$/i;

/**
 * Where the printed contents begin on their first page, as a body line (furniture left out): the
 * "Contents" heading right above the first entry, else the first entry. A paper's first page may
 * print its title, authors and abstract above the contents; they are not part of it. Null without contents.
 */
export function contentsOpening(pages: PageLayout[], furniture: Furniture, tocMap: Map<number, PageTocLine[]>): { page: number; line: number } | null {
  if (tocMap.size === 0) return null;
  const page = Math.min(...tocMap.keys());
  const furn = furniture.lines[page - 1] ?? new Set<number>();
  const lines = pages[page - 1]!.lines;
  let first = Math.min(...tocMap.get(page)!.map((l) => l.line));
  let above = first - 1;
  while (above >= 0 && furn.has(above)) above--;
  if (above >= 0 && CONTENTS_HEADING.test(lines[above]!.text.trim())) first = above;
  let line = 0;
  for (let i = 0; i < first; i++) if (!furn.has(i)) line++;
  return { page, line };
}

/** Parses a printed TOC and maps it to physical pages; null when there is none or it cannot be placed. */
export function printedToc(pages: PageLayout[], furniture: Furniture, tocMap = findTocPages(pages, furniture)): PrintedToc | null {
  if (tocMap.size === 0) return null;
  const tocPages = [...tocMap.keys()];
  const lastToc = Math.max(...tocPages);
  const mono = tocEntries(pages, tocMap);
  if (mono.length < TOC_MIN_ENTRIES) return null;
  const hits = titleHits(pages, lastToc, mono);
  const offset = pageOffset(furniture, lastToc, mono, hits);
  if (offset === null) return null;
  const onContents = entriesOnContents(pages, furniture, tocMap, lastToc, mono);
  const { placed, verified } = placeEntries(mono, hits, offset, pages.length, { first: Math.min(...tocPages), last: lastToc, onContents });
  const labelsAgree = furniture.labels.some((l, i) => l !== null && i + 1 - l === offset);
  if (placed.length < TOC_MIN_ENTRIES || (verified / mono.length < MIN_VERIFIED_SHARE && !labelsAgree)) return null;
  const front = placeFrontEntries(pages, tocMap, lastToc, placed[0]!.page);
  return { entries: [...front, ...placed], tocPages, offset };
}

/**
 * The entries listed before the first numbered page with roman page numbers ("Preface ..... v",
 * "Executive Summary ..... vii"), each on the first page after the contents (and after the entry
 * before it, before the body's first entry) where its title is printed as a line of its own; an
 * entry printed nowhere there is left out (the front matter keeps its text).
 */
function placeFrontEntries(pages: PageLayout[], tocMap: Map<number, PageTocLine[]>, lastToc: number, bodyPage: number): OutlineEntry[] {
  const listed = [...tocMap.values()].flat().filter((l) => !l.caption);
  const firstArabic = listed.findIndex((l) => l.roman === undefined && l.printed !== null);
  const front = listed.slice(0, firstArabic < 0 ? listed.length : firstArabic).filter((l) => l.roman !== undefined);
  if (front.length === 0) return [];
  const hits = titleHits(pages, lastToc, front);
  const out: OutlineEntry[] = [];
  front.forEach((e, i) => {
    const after = out[out.length - 1]?.page ?? lastToc + 1;
    const page = hits[i]!.filter((pg) => pg >= after && pg <= bodyPage).sort((a, b) => a - b)[0];
    if (page !== undefined) out.push({ title: e.title, level: 1, page });
  });
  return out;
}

/**
 * A contents line printed later in the document (an exhibit's own table of contents): a strict entry
 * (dot leader or page-number cell) or a title whose last word is its page number ("Section 1.01. The
 * Merger 2"). Its printed page, or null.
 */
const LOOSE_ENTRY = /^(.*\p{L}.*?[^\d\s.,;:$%)])\s+(\d{1,3})$/u;
const SECTION_NUMBER = /^\d{1,2}(?:\.\d{1,3})*\.?$/;
/** Later contents: entry lines on the first page, and their share of the page's lines with letters. */
export const LATER_TOC_MIN_LINES = 5;
export const LATER_TOC_MIN_SHARE = 0.5;
/** Later contents: share of consecutive entries whose printed page does not go down. */
export const LATER_TOC_MONOTONIC_SHARE = 0.85;

/** Whether `t` ends in 1–3 digits after a blank: what LOOSE_ENTRY needs, checked without running it (it backtracks on every line of every page). */
function spacedNumberTail(t: string): boolean {
  let i = t.length;
  while (i > 0 && t.charCodeAt(i - 1) >= 48 && t.charCodeAt(i - 1) <= 57) i--;
  const digits = t.length - i;
  return digits >= 1 && digits <= 3 && i > 0 && /\s/.test(t[i - 1]!);
}

function laterEntryPage(line: Line): number | null {
  const strict = tocLine(line);
  if (strict) return strict.printed;
  if (line.text.length > 160) return null;
  if (line.cells.length > 1) {
    // "1.1 | Purpose. | 1": a numbered entry in columns
    const [first, ...rest] = line.cells;
    const last = rest.pop();
    if (!last || !PAGE_CELL.test(last) || !SECTION_NUMBER.test(first!) || rest.some((c) => /^[\d,.()$%-]+$/.test(c))) return null;
    return hasLetters(rest.join(' '), 3) ? Number(last) : null;
  }
  const m = spacedNumberTail(line.text) ? LOOSE_ENTRY.exec(line.text) : null;
  return m && hasLetters(m[1]!, 3) && !tableResidue(m[1]!) ? Number(m[2]) : null;
}

interface PageEntries {
  printed: number[];
  /** lines with letters (furniture left out) */
  textLines: number;
  /** body-line index (furniture left out) where the contents start: the first entry, with the short caption lines above it */
  first: number;
}

/** Caption lines over a contents list ("TABLE OF CONTENTS", "Page", "Note Page") have at most this many words (an exhibit's title above them stays outside). */
export const CONTENTS_CAPTION_WORDS = 4;

function pageEntries(p: PageLayout, furn: Set<number>): PageEntries {
  const printed: number[] = [];
  const body = p.lines.filter((_, i) => !furn.has(i));
  let textLines = 0;
  let first = -1;
  body.forEach((l, i) => {
    if (!hasLetters(l.text, 1)) return;
    textLines++;
    const n = laterEntryPage(l);
    if (n === null) return;
    printed.push(n);
    if (first < 0) first = i;
  });
  while (first > 0 && isCaption(body[first - 1]!)) first--;
  return { printed, textLines, first: Math.max(0, first) };
}

/** The caption of a contents list or of its page column ("TABLE OF CONTENTS", "Index", "Page", "Note Page"). */
const CONTENTS_CAPTION = /^(?:(?:table of )?contents|index(?: to .*)?|(?:\p{L}+\s+)?pages?)(?:\s*\(continued\))?$/iu;

function isCaption(l: Line): boolean {
  return l.text.split(/\s+/).length <= CONTENTS_CAPTION_WORDS && CONTENTS_CAPTION.test(l.text.trim());
}

/**
 * Two lists, each going up: the printed numbers drop once, where the entries' first word changes,
 * and the entries on either side share theirs (ERDC's "Figure 1. Castle … 4" … "Figure A1 … 10",
 * then "Table 2. Yearly Dividends … 3"); a page of prose whose lines end in numbers is no list.
 */
function twoLists(entries: ReadonlyArray<{ title: string; printed: number | null }>): boolean {
  const at: number[] = [];
  for (let i = 1; i < entries.length; i++) if (entries[i]!.printed! < entries[i - 1]!.printed!) at.push(i);
  if (at.length !== 1) return false;
  const word = (e: { title: string }) => e.title.trim().split(/\s+/)[0]!.toLowerCase();
  const same = (list: ReadonlyArray<{ title: string }>) => list.length > 0 && list.every((e) => word(e) === word(list[0]!));
  const before = entries.slice(0, at[0]);
  const after = entries.slice(at[0]);
  return same(before) && same(after) && word(before[0]!) !== word(after[0]!);
}

function nonDecreasingShare(ns: number[]): number {
  if (ns.length < 2) return 1;
  let ok = 0;
  for (let i = 1; i < ns.length; i++) if (ns[i]! >= ns[i - 1]!) ok++;
  return ok / (ns.length - 1);
}

/**
 * Contents pages printed after the front (an agreement filed as an exhibit carries its own, a
 * statements section its index): most of the page's lines end in page numbers that do not go down.
 * The following pages continue the run while their entries continue the numbers. `front` holds the
 * front contents pages (left out). Returned: each page and the body line where its contents start
 * (a heading printed above them, "Item 8. Financial Statements", stays outside).
 */
export function laterContentsPages(pages: PageLayout[], furniture: Furniture, front: Set<number>): Map<number, number> {
  const out = new Map<number, number>();
  let last: number | null = null;
  pages.forEach((p, pi) => {
    if (front.has(p.page)) return;
    const e = pageEntries(p, furniture.lines[pi]!);
    // pages a document does not have are no page numbers: a table of codes (CFITSIO's error
    // statuses "BAD_KEYCHAR | 207", "BAD_ORDER | 208" … in a 40-page guide) is not its contents
    if (e.printed.filter((n) => n > pages.length).length * 2 > e.printed.length) {
      last = null;
      return;
    }
    const share = e.textLines ? e.printed.length / e.textLines : 0;
    const ordered = nonDecreasingShare(e.printed) >= LATER_TOC_MONOTONIC_SHARE;
    const continues = last !== null && e.printed.length > 0 && e.printed[0]! >= last && share >= LATER_TOC_MIN_SHARE && ordered;
    if (continues || (e.printed.length >= LATER_TOC_MIN_LINES && share >= LATER_TOC_MIN_SHARE && ordered && new Set(e.printed).size > 1)) {
      out.set(p.page, continues ? 0 : e.first);
      last = e.printed[e.printed.length - 1]!;
    } else last = null;
  });
  return out;
}
