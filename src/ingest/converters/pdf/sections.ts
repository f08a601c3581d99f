/**
 * The section tree from a flat outline. A section runs from the line where its heading is printed
 * to the line before the next section's heading (not from page to page): positions are (page, body
 * line) pairs, so two sections can share a page and each keeps only its own text. Text before the
 * first section becomes a preface node; a parent's text before its first child an intro node (or,
 * when that is only the heading itself on the child's page, the first child's opening). Leaves
 * longer than maxLeafPages (or too much text) are split on sub-headings found inside them (each
 * financial statement of a 10-K becomes its own node), else into page windows. Small parents whose
 * whole text is short keep their sub-sections folded in (listed as `subsections`).
 * Invariant: every body line is in exactly one leaf, and every page in at least one.
 */
import { BEGINNING_SUFFIX, CONTINUED_SUFFIX, INTRO_SUFFIX, entriesLabel } from '../../../model/place-labels.js';
import type { OutlineEntry } from './outline-types.js';
import { OPEN_ENDING, type Heading } from './headings.js';
import { normTitle } from './printed-toc.js';
import { abstractTitle } from './matter-headings.js';

/** A leaf longer than this many characters (~6k tokens) is split even when it has few pages. */
export const MAX_LEAF_CHARS = 24_000;
/** Sub-headings used to split long sections score at least this much. */
export const SPLIT_MIN_SCORE = 0.45;
/** A parent's text before its first child shorter than this (on the child's page) opens the child. */
export const MIN_INTRO_CHARS = 200;
/** An unnumbered heading with less text than this, right above the next heading on its page, is one title stack with it. */
export const MIN_SECTION_CHARS = 150;
/** A one-page parent whose whole text is at most this long keeps its sub-sections folded into one node. */
export const FOLD_MAX_CHARS = 1500;
/** Kind of the single section standing for a document without any outline. */
const NO_OUTLINE_KIND = 'pages';
/** Parts and items are the document's top structure: never sub-headings inside a section. */
const TOP_LEVEL_KINDS = new Set(['part', 'item']);
/** Titles of sections merged at one position are joined with this. */
export const MERGED_TITLE_SEPARATOR = '; ';
/** Positions are page * POS_PAGE + body line index. */
const POS_PAGE = 1_000_000;

export const pos = (page: number, line = 0): number => page * POS_PAGE + line;
export const posPage = (p: number): number => Math.floor(p / POS_PAGE);
export const posLine = (p: number): number => p % POS_PAGE;

export interface Section {
  title: string;
  /** titles of sub-sections folded into this node */
  folded?: string[];
  kind: string;
  level: number;
  /** first physical page (derived from `from`) */
  start: number;
  /** last physical page (derived from `to`) */
  end: number;
  /** position of the first line (inclusive) */
  from: number;
  /** position after the last line (exclusive) */
  to: number;
  children: Section[];
}

export interface SectionContext {
  pageCount: number;
  maxLeafPages: number;
  /** characters of each body line, per page (index = page - 1) */
  lineChars: number[][];
  /** heading candidates of the whole document, in reading order (`bodyLine` set) */
  headings: Heading[];
  /** a principal-section title under which later headings are its parts (vocabulary packs: "notes to …"); absent: none */
  isContainer?: (title: string) => boolean;
  /** pages of a printed table of contents: inside the front matter they become their own "Contents" node */
  contentsPages?: Set<number>;
  /** where the contents begin on their first page (a title and abstract may be printed above them); absent: at the page's top */
  contentsStart?: number;
  /** contents pages printed later (an exhibit's own) and the body line where each page's contents start: each run becomes a "Contents" leaf wherever it falls */
  laterContentsPages?: Map<number, number>;
  /** whether the text in [from, to) only points elsewhere ("See Item 15", "Included in Item 7"); absent: never */
  isPointer?: (from: number, to: number) => boolean;
  /**
   * whether a heading is printed in a style the outline's own titles use (outline-styles.ts): only
   * such headings split a section of the outline (front matter the outline left out may split on
   * any); absent: every heading may
   */
  isOutlineStyled?: (h: Heading) => boolean;
  /** abstract headings printed on the first pages (matter-headings.ts), at their positions; absent: none */
  abstracts?: Array<{ at: number; title: string }>;
  /** back-matter headings (References, Appendix A…) at their positions (matter-headings.ts); absent: none */
  backMatter?: Array<{ at: number; title: string }>;
  /** term lines of definition lists (terms.ts), at their positions: a long section of them is split into its entries; absent: none */
  terms?: Array<{ at: number; title: string }>;
  /** the key range ("30–84") of the rows of a keyed table filling [from, to) (row-keys.ts), else null; absent: never */
  rowKeys?: (from: number, to: number) => string | null;
}

function section(title: string, kind: string, level: number, from: number, to: number, children: Section[] = []): Section {
  return { title, kind, level, from, to, ...pagesOf(from, to), children };
}

/** Pages [start, end] of a position range [from, to). */
export function pagesOf(from: number, to: number): { start: number; end: number } {
  const start = posPage(from);
  const end = posLine(to) === 0 ? posPage(to) - 1 : posPage(to);
  return { start, end: Math.max(start, end) };
}

/** Characters of body text in [from, to). */
export function charsIn(ctx: Pick<SectionContext, 'lineChars'>, from: number, to: number): number {
  let n = 0;
  const { start, end } = pagesOf(from, to);
  for (let p = start; p <= end; p++) {
    const lines = ctx.lineChars[p - 1] ?? [];
    const a = p === posPage(from) ? posLine(from) : 0;
    const b = p === posPage(to) ? posLine(to) : lines.length;
    for (let i = a; i < Math.min(b, lines.length); i++) n += lines[i]!;
  }
  return n;
}

/** An outline entry (a bookmark) for the printed contents: a listing of every section, never an answer. */
const CONTENTS_ENTRY = /^(?:table of )?contents$/i;

/** Nests flat entries by level (levels are relative: a deeper number nests under a shallower one). */
export function nest(entries: OutlineEntry[]): Section[] {
  const roots: Section[] = [];
  const stack: Section[] = [];
  for (const e of entries) {
    const at = pos(e.page, e.line ?? 0);
    const s = section(e.title, e.kind ?? (CONTENTS_ENTRY.test(e.title.trim()) ? 'contents' : 'section'), e.level, at, at);
    while (stack.length && stack[stack.length - 1]!.level >= e.level) stack.pop();
    if (stack.length) stack[stack.length - 1]!.children.push(s);
    else roots.push(s);
    stack.push(s);
  }
  return roots;
}

function mergeInto(a: Section, b: Section): void {
  if (normTitle(a.title) !== normTitle(b.title)) a.title = `${a.title}${MERGED_TITLE_SEPARATOR}${b.title}`;
  a.children.push(...b.children);
}

function setRange(s: Section, from: number, to: number): void {
  s.from = from;
  s.to = to;
  Object.assign(s, pagesOf(from, to));
}

/** Assigns [from, to) within [lo, hi) to siblings (and recursively to their children). */
export function place(list: Section[], lo: number, hi: number, ctx: Pick<SectionContext, 'lineChars'>): Section[] {
  const out: Section[] = [];
  const last = Math.max(lo, hi - 1);
  for (const s of list) {
    const from = Math.min(last, Math.max(lo, s.from, out[out.length - 1]?.from ?? lo));
    const prev = out[out.length - 1];
    if (prev && prev.from === from) mergeInto(prev, s);
    else {
      s.from = from;
      out.push(s);
    }
  }
  stackTitles(out, ctx);
  out.forEach((s, i) => {
    setRange(s, s.from, i + 1 < out.length ? out[i + 1]!.from : hi);
    if (!s.children.length) return;
    // the parent's heading alone above its first child (same page) opens that child
    const first = s.children[0]!;
    const firstFrom = Math.min(Math.max(first.from, s.from), Math.max(s.from, s.to - 1));
    if (headingAloneAbove(ctx, s.from, firstFrom)) first.from = s.from;
    s.children = place(s.children, s.from, s.to, ctx);
    const head = s.children[0]!;
    if (head.from > s.from) s.children.unshift(section(s.title, 'intro', head.level, s.from, head.from));
    fold(s, ctx);
  });
  return out;
}

/**
 * Whether only a section's own heading lies between where it starts and where its first part starts,
 * on one page (less than MIN_INTRO_CHARS): the part then opens with that heading, not after an
 * introduction of the heading's line alone.
 */
function headingAloneAbove(ctx: Pick<SectionContext, 'lineChars'>, from: number, partFrom: number): boolean {
  return partFrom > from && posPage(partFrom) === posPage(from) && charsIn(ctx, from, partFrom) < MIN_INTRO_CHARS;
}

/**
 * Headings stacked with (almost) no text between them on one page ("UNITED STATES SECURITIES AND
 * EXCHANGE COMMISSION" / "FORM 8-K" / "AMCOR PLC") are one node: the first title, the others folded;
 * above a numbered heading the stack opens that section. Numbered headings are never folded away
 * (an "Item 1B" with one line of text is still its own section).
 */
function stackTitles(list: Section[], ctx: Pick<SectionContext, 'lineChars'>): void {
  for (let i = 0; i + 1 < list.length; i++) {
    const s = list[i]!;
    const next = list[i + 1]!;
    if (s.kind !== 'style' || s.children.length || posPage(s.from) !== posPage(next.from) || charsIn(ctx, s.from, next.from) >= MIN_SECTION_CHARS) continue;
    if (next.kind === 'style') {
      next.folded = [...(s.folded ?? []), next.title, ...(next.folded ?? [])];
      next.title = s.title;
    } else next.folded = [...(next.folded ?? []), s.title, ...(s.folded ?? [])];
    next.from = s.from;
    list.splice(i, 1);
    i--;
  }
}

/**
 * A parent whose only child covers all of it becomes that child (the parent keeps its title); a
 * parent whose whole text is short keeps its leaf sub-sections as one node, their titles listed.
 */
function fold(s: Section, ctx: Pick<SectionContext, 'lineChars'>): void {
  while (s.children.length === 1 && s.children[0]!.from === s.from && s.children[0]!.to === s.to) {
    const c = s.children[0]!;
    s.folded = [...(s.folded ?? []), ...c.title.split(MERGED_TITLE_SEPARATOR), ...(c.folded ?? [])];
    s.children = c.children;
  }
  if (s.children.length > 1 && s.start === s.end && s.children.every((c) => c.children.length === 0) && charsIn(ctx, s.from, s.to) <= FOLD_MAX_CHARS) {
    const titles = s.children.filter((c) => c.kind !== 'intro').flatMap((c) => [...c.title.split(MERGED_TITLE_SEPARATOR), ...(c.folded ?? [])]);
    s.folded = [...(s.folded ?? []), ...titles];
    s.children = [];
  }
}

function tooLong(s: Section, ctx: SectionContext): boolean {
  const pages = s.end - s.start + 1;
  return pages > ctx.maxLeafPages || (pages > 1 && charsIn(ctx, s.from, s.to) > MAX_LEAF_CHARS);
}

function pageChars(ctx: SectionContext, p: number): number {
  return (ctx.lineChars[p - 1] ?? []).reduce((a, b) => a + b, 0);
}

/**
 * Page windows of at most maxLeafPages pages and about MAX_LEAF_CHARS characters, balanced. The
 * first keeps the section's title; later ones are named after the first heading printed in them
 * (the ancestors' titles stay on the path), else "<section> (continued)"; no page numbers in the
 * titles (a document without an outline excepted: "Pages 1–5").
 */
function windows(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): Section[] {
  const out: Section[] = [];
  const total = s.end - s.start + 1;
  const k = Math.max(Math.ceil(total / ctx.maxLeafPages), Math.ceil(charsIn(ctx, s.from, s.to) / MAX_LEAF_CHARS));
  const target = Math.ceil(total / k);
  let a = s.start;
  while (a <= s.end) {
    let b = a;
    let c = pageChars(ctx, a);
    while (b < s.end && b - a + 1 < target && c + pageChars(ctx, b + 1) <= MAX_LEAF_CHARS) {
      b++;
      c += pageChars(ctx, b);
    }
    const from = a === s.start ? s.from : pos(a);
    const to = b === s.end ? s.to : pos(b + 1);
    let name = s.title;
    if (s.kind === NO_OUTLINE_KIND) name = 'Pages';
    else if (a > s.start) name = windowName(s, a, b, byPage, s.kind === 'preface' ? undefined : ctx.isOutlineStyled);
    // a window of a long keyed table is named by the keys it holds, not "(beginning)" / "(continued)"
    const keys = s.kind !== NO_OUTLINE_KIND && s.kind !== 'contents' && (name === s.title || name === `${s.title}${CONTINUED_SUFFIX}`) ? ctx.rowKeys?.(from, to) : null;
    if (keys) name = `${s.title}${entriesLabel(keys)}`;
    const span = a === b ? `page ${a}` : `pages ${a}–${b}`;
    // a window is titled as a reader sees it (its pages are its range); windows of one name are told apart by distinguishSiblings
    const title = s.kind === NO_OUTLINE_KIND ? span.charAt(0).toUpperCase() + span.slice(1) : name;
    out.push(section(title, 'page_group', s.level + 1, from, to));
    a = b + 1;
  }
  return out;
}

/**
 * A later window's name: the heading that opens it (a strong one at the top of its first page, inside
 * the section), else "<section> (continued)". A heading further down would name text that is mostly
 * the section's (the next section's heading at the end of the window is not in it at all).
 */
function windowName(s: Section, a: number, b: number, byPage: Map<number, Heading[]>, styled?: (h: Heading) => boolean): string {
  const from = pos(a);
  const to = Math.min(s.to, pos(b + 1));
  const opening = (byPage.get(a) ?? []).find((h) => {
    // as for splits: in a style the outline's titles use, or reading as a title (a listing's line names nothing)
    if (styled && !styled(h) && !plainTitle(h.title)) return false;
    const at = pos(h.page, h.bodyLine ?? 0);
    // an index entry in bold ("EPSILON_COCIRCULAR, 196") names nothing
    return at >= from && at < to && h.top && h.score >= SPLIT_MIN_SCORE && !TOP_LEVEL_KINDS.has(h.kind) && normTitle(h.title) !== normTitle(s.title) && !/,\s*\d+\b/.test(h.title);
  });
  return opening ? opening.title : `${s.title}${CONTINUED_SUFFIX}`;
}

/** One sub-heading per page inside the section: a statement title, else a numbered heading, else the first strong one. */
function subHeadings(s: Section, byPage: Map<number, Heading[]>, isContainer: (title: string) => boolean, ctx: Pick<SectionContext, 'lineChars' | 'isOutlineStyled'>): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const styled = s.kind === 'preface' ? undefined : ctx.isOutlineStyled;
  let lastKey = normTitle(s.title);
  let notesLevel: number | null = null;
  // on the section's own first page, a financial statement counts only printed under the section heading; other
  // headings below the section's own split it as on any page (NMEA 0183's first three sentences had been its introduction)
  for (let p = s.start; p <= s.end; p++) {
    const hs = (byPage.get(p) ?? []).filter((h) => {
      const at = pos(p, h.bodyLine ?? 0);
      if (at <= s.from || at >= s.to) return false;
      // parts and items are the outline's top level, except in front matter the outline left out (an 8-K's items before its exhibit)
      const kindOk = !TOP_LEVEL_KINDS.has(h.kind) || s.kind === 'preface';
      // a heading in a style the outline does not use splits it only when it reads as a title
      if (styled && !styled(h) && !plainTitle(h.title)) return false;
      return h.score >= SPLIT_MIN_SCORE && kindOk && (p > s.start || firstPageSplits(s, h, isContainer));
    });
    for (const pick of pagePicks(hs, p, ctx)) {
      const key = normTitle(pick.title);
      if (key === lastKey) continue; // "(continued)" pages stay with their section
      lastKey = key;
      // after "Notes to the financial statements", every later heading is one of the notes (or inside one)
      const level = notesLevel !== null ? Math.max(pick.level, notesLevel + 1) : pick.level;
      if (pick.kind === 'statement' && isContainer(pick.title)) notesLevel = pick.level;
      out.push({ title: pick.title, level, page: p, line: pick.bodyLine ?? 0, kind: pick.kind });
    }
  }
  // one heading on the first page and none after it is the section's subtitle, not the first of its parts: split on
  // it, it would title every later page ("Risks associated with the deadly conflict in Ukraine" over 8 pages of risks)
  if (out.length === 1 && out[0]!.page === s.start && out[0]!.kind !== 'statement') return [];
  return out;
}

/**
 * Whether a heading on a section's own first page splits it: a financial statement only when printed
 * under the section heading (at the top, not the notes' container); another heading when the section
 * has a heading of its own on that page (not front matter, whose first page is the cover, nor the
 * pages of a document without an outline, whose first page is its title page).
 */
function firstPageSplits(s: Section, h: Heading, isContainer: (title: string) => boolean): boolean {
  if (h.kind === 'statement') return h.top && !isContainer(h.title);
  return s.kind !== 'preface' && s.kind !== NO_OUTLINE_KIND;
}

/** A second sub-heading on one page splits there when at least this much text lies between it and the one before. */
export const MIN_SPLIT_GAP_CHARS = 2000;
/**
 * …or this much, when it is the one before's peer: a heading of the same kind in the same print (the
 * entries of a reference, one after another on a page). NMEA 0183's sentences, five or six a page,
 * had split once a page, its GGA sentence inside a node titled "BWW Bearing – Waypoint to Waypoint".
 */
export const PEER_SPLIT_GAP_CHARS = MIN_SECTION_CHARS;

/**
 * The sub-headings a page splits on: a statement title alone (its page is the statement); else the
 * first numbered heading or the first strong one, and each later one with a good share of text
 * between it and the one before (a heading in mid-page starts its own node: its text does not sit
 * under the heading above it).
 */
function pagePicks(hs: Heading[], p: number, ctx: Pick<SectionContext, 'lineChars'>): Heading[] {
  const statement = hs.find((h) => h.kind === 'statement');
  if (statement) return [statement];
  const first = firstPick(hs);
  if (!first) return [];
  const picks = [{ ...first }];
  for (const h of hs) {
    const prev = picks[picks.length - 1]!;
    if ((h.bodyLine ?? 0) <= (prev.bodyLine ?? 0)) continue;
    // tables close together are one statement's parts (a balance sheet's "Current liabilities"): joined below, never peers
    const peers = prev.print !== undefined && h.print === prev.print && h.kind === prev.kind && !(h.table && prev.table);
    if (charsIn(ctx, pos(p, prev.bodyLine ?? 0), pos(p, h.bodyLine ?? 0)) >= (peers ? PEER_SPLIT_GAP_CHARS : MIN_SPLIT_GAP_CHARS)) {
      if (wellFormed(h.title)) picks.push({ ...h });
    }
    // a second table close below the first, or the next numbered heading of the same rank after a short
    // section ("10. Contingencies" / "11. Segments"): the node holds both, so it is titled after both
    else if ((h.table && prev.table) || peerNumbered(prev, h)) {
      const joined = prev.title.split(MERGED_TITLE_SEPARATOR);
      if (!joined.includes(h.title) && prev.title.length + h.title.length < MAX_JOINED_TABLE_TITLES) prev.title = `${prev.title}${MERGED_TITLE_SEPARATOR}${h.title}`;
      // the next peer follows the last one joined ("5.3; 5.4; 5.5" goes on to "5.6")
      if (h.number) prev.number = h.number;
    }
  }
  return picks;
}

/**
 * The heading a page's split starts at: its first numbered heading, unless a heading above it scores
 * higher (xfig's "Install xfig" in 14 pt over the list "1. Get xfig.3.2.5d.tar.gz and gunzip and untar
 * it." / "2. Uncomment…", whose first step had titled the node); else its first heading.
 */
function firstPick(hs: Heading[]): Heading | undefined {
  const numbered = hs.find((h) => h.kind !== 'style');
  if (!numbered) return hs[0];
  return hs.find((h) => (h.bodyLine ?? 0) < (numbered.bodyLine ?? 0) && h.score > numbered.score) ?? numbered;
}

/** A label and its number opening a title ("Section 5.05.", "Note 9 –", "10."): what follows is the title's own words. */
const LABEL_AND_NUMBER = /^(?:\p{L}+\.?\s+)?[\dA-Z]{1,4}(?:[.-]\d{1,3})*[.:—–-]?\s*/u;

/**
 * Two headings numbered alike at one level ("10." and "11.", "Item 7." and "Item 7A."), the second
 * a title of its own words (not a bare "Section 2.21" cross-reference).
 */
function peerNumbered(a: Heading, b: Heading): boolean {
  if (a.kind === 'style' || a.kind === 'statement' || a.kind !== b.kind || a.level !== b.level) return false;
  if (!a.number || !b.number || a.number === b.number || !wellFormed(b.title) || !numberFollows(a.number, b.number)) return false;
  return /\p{L}{3}/u.test(b.title.replace(LABEL_AND_NUMBER, ''));
}

/** Numbers a peer heading may skip ("10." then "12.", the "11." on another page). */
export const PEER_NUMBER_MAX_STEP = 2;

/**
 * Whether number `b` may follow `a` at one level: at the first part where they differ, b's is just
 * after a's and its later parts start over ("10" → "11", "5.5" → "5.6", "3.5" → "4.1", "7" → "7A",
 * "7A" → "8"). Rows of a table opening with figures ("14 Quarter", "12 Half", "34 Three quarters" in
 * zsh's compose-character list) do not. Parts that are not decimal (letters, roman numerals) are not judged.
 */
function numberFollows(a: string, b: string): boolean {
  const pa = a.split('.');
  const pb = b.split('.');
  if (pa.length !== pb.length) return false;
  const i = pa.findIndex((x, k) => x !== pb[k]);
  if (i < 0) return false;
  const na = Number.parseInt(pa[i]!, 10);
  const nb = Number.parseInt(pb[i]!, 10);
  if (Number.isNaN(na) || Number.isNaN(nb)) return true;
  const after = (nb > na && nb <= na + PEER_NUMBER_MAX_STEP) || (nb === na && pb[i] !== pa[i]);
  return after && pb.slice(i + 1).every((x) => /^[01]$/.test(x));
}

/**
 * A title a second split on a page may take: after its numbering it starts with a capital and does
 * not end open ("3.2 the grant of the Option is voluntary and … or other", "“materiality,” … or
 * other similar materiality" are clauses of running text printed in a heading's style).
 */
function wellFormed(title: string): boolean {
  const rest = title.replace(/^(?:\d{1,2}(?:\.\d{1,3})*\.?|[A-Z]\.|[IVX]{1,5}\.)\s+/, '');
  return /^\p{Lu}/u.test(rest) && !OPEN_ENDING.test(rest);
}

/** Markup of code or TeX source printed in a heading's style (a listing's `\\def\\horotimetext#1{%`). */
const CODE_MARKUP = /\\[A-Za-z@]|[{}]/;
/** A term followed by the page it is found on, as an index prints it. */
const INDEX_ENTRY = /\p{L}[\p{L}\d_)]*,\s*\d{1,3}(?:[\s,]|$)/u;
/** Words such a title has at most (a sentence printed in another face is longer: "In Example 3.4, only residues … are shown"). */
const PLAIN_TITLE_MAX_WORDS = 14;
/** Letters of a word checked for being a word (shorter ones are abbreviations, units, symbols). */
const WORD_CHECK_LETTERS = 5;
/** Consonants in a row no word of a title has (board diagrams: "SNAQJBMR"; sequences: "KNSQVWLG…"). */
const MAX_CONSONANT_RUN = 5;

/** A run of letters that reads as a word: a vowel, no long consonant run, not one short unit repeated ("POPOPOPO"). */
function wordLike(w: string): boolean {
  if (w.length < WORD_CHECK_LETTERS) return true;
  const lower = w.toLowerCase();
  if (!/[aeiouy]/.test(lower)) return false;
  // (digraphs count as one sound: "strengths", "eighths")
  if (new RegExp(`[bcdfghjklmnpqrstvwxz]{${MAX_CONSONANT_RUN},}`).test(lower.replace(/th|ch|sh|ph|gh|ck|ng/g, 'c'))) return false;
  return !/^(.{1,3})\1{2,}$/.test(lower);
}

/**
 * A title as people write one (wellFormed, no code markup, its longer words words): what a heading
 * printed in a style the outline's titles never use must be to split a section of that outline.
 * Board diagrams, protein sequences and listings in a heading-like face are not.
 */
export function plainTitle(title: string): boolean {
  // (a year opening the title is its subject, not its number: "2017 Debt Activity")
  if (!wellFormed(title.replace(/^(?:19|20)\d\d\s+(?=\p{Lu})/u, '')) || CODE_MARKUP.test(title) || title.split(/\s+/).length > PLAIN_TITLE_MAX_WORDS) return false;
  // an index entry in bold ("compute_active_areas, 9") points at a page: it titles nothing
  if (INDEX_ENTRY.test(title)) return false;
  const words = title.match(/\p{L}+/gu) ?? [];
  return words.some((w) => w.length >= 3) && words.every((w) => !/^[A-Za-z]+$/.test(w) || wordLike(w));
}

/** Table titles joined into one node title stay under this many characters. */
export const MAX_JOINED_TABLE_TITLES = 160;

/** Front matter of more than one page holding at least this many headings after its first page is split on them, however short. */
export const FRONT_MIN_SECTIONS = 2;

/**
 * Front matter before a printed contents that holds sections of its own (an 8-K's "Item 8.01" and
 * "Item 9.01" on the pages before its exhibit's contents) is split on them like a long section, so
 * they are not hidden in "Cover and front matter"; headings on its first page (a cover's) never count.
 */
function frontWithSections(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): boolean {
  return s.kind === 'preface' && s.end > s.start && subHeadings(s, byPage, ctx.isContainer ?? (() => false), ctx).length >= FRONT_MIN_SECTIONS;
}

function split(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): void {
  if (s.children.length) {
    for (const c of s.children) split(c, ctx, byPage);
    return;
  }
  if (!tooLong(s, ctx) && !frontWithSections(s, ctx, byPage)) return;
  if (s.kind === 'contents') {
    // long contents stay contents, in windows of pages
    s.children = windows(s, ctx, byPage).map((w) => ({ ...w, kind: 'contents' }));
    return;
  }
  const subs = subHeadings(s, byPage, ctx.isContainer ?? (() => false), ctx);
  if (subs.length === 0) {
    s.children = entriesOrWindows(s, ctx, byPage);
    return;
  }
  const children = place(nest(subs), s.from, s.to, ctx);
  const first = children[0]!;
  // the section's heading alone above its first part (same page) opens that part: an introduction of the
  // heading's own line says nothing (Starlink AST's "astFindFrame" over "Find a coordinate system…")
  if (headingAloneAbove(ctx, s.from, first.from)) setRange(first, s.from, first.to);
  const introTitle = s.kind === NO_OUTLINE_KIND ? 'Opening pages' : s.title;
  if (first.from > s.from) children.unshift(section(introTitle, 'intro', first.level, s.from, first.from));
  s.children = children;
  fold(s, ctx);
  if (!s.children.length) {
    if (tooLong(s, ctx)) s.children = entriesOrWindows(s, ctx, byPage);
    return;
  }
  for (const c of s.children) {
    if (c.children.length) split(c, ctx, byPage);
    else if (tooLong(c, ctx)) {
      // a sub-heading section still too long: split it on its own sub-headings, else its entries, else windows
      if (subHeadings(c, byPage, ctx.isContainer ?? (() => false), ctx).length) split(c, ctx, byPage);
      else c.children = entriesOrWindows(c, ctx, byPage);
    }
  }
}

/** Entries of a definition list a long section needs before it is split into them. */
export const MIN_SECTION_ENTRIES = 4;
/** A definition list's entries are short: over this many characters for the median entry, the terms found are not its entries. */
export const ENTRY_MEDIAN_MAX_CHARS = 2000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : 0;
}

/**
 * A long section without sub-headings: one node per entry of the definition list it holds (the
 * text before the first entry its introduction; an entry still too long in page windows), else
 * page windows. An option list had been cut every few pages ("Option Descriptions (continued)"),
 * the option asked about titled by nothing.
 */
function entriesOrWindows(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): Section[] {
  const terms = (ctx.terms ?? []).filter((t) => t.at > s.from && t.at < s.to);
  if (terms.length < MIN_SECTION_ENTRIES) return windows(s, ctx, byPage);
  const out = terms.map((t, i) => section(t.title, 'term', s.level + 1, t.at, terms[i + 1]?.at ?? s.to));
  // entries pages long are a few lines of a longer list that looked like terms (a tax-code table's wrapped rows): its titles would mislead
  if (median(out.map((e) => charsIn(ctx, e.from, e.to))) > ENTRY_MEDIAN_MAX_CHARS) return windows(s, ctx, byPage);
  if (charsIn(ctx, s.from, terms[0]!.at) > 0) out.unshift(section(s.title, 'intro', s.level + 1, s.from, terms[0]!.at));
  for (const e of out) if (tooLong(e, ctx)) e.children = windows(e, ctx, byPage);
  return out;
}

/**
 * The text before the first section: one "Cover and front matter" node, or, when a printed table
 * of contents sits inside it, the cover, the "Contents" pages (kind `contents`: an agent sees what
 * they are and skips them) and the front matter after them, each its own node.
 */
function frontMatter(from: number, to: number, contents: Set<number>, contentsStart?: number): Section[] {
  const { start, end } = pagesOf(from, to);
  // only whole pages before the first section's own page, or the contents on it above its heading
  const last = posLine(to) === 0 || contents.has(end) ? end : end - 1;
  let a = start;
  while (a <= last && !contents.has(a)) a++;
  if (a > last) return [section('Cover and front matter', 'preface', 1, from, to)];
  let b = a;
  while (b + 1 <= last && contents.has(b + 1)) b++;
  const out: Section[] = [];
  // what is printed above the contents on their first page (a title, an abstract) is the cover's
  const at = contentsStart !== undefined && posPage(contentsStart) === a && contentsStart > from ? contentsStart : pos(a);
  if (at > from) out.push(section('Cover and front matter', 'preface', 1, from, at));
  // contents running on into the page where the first section opens end at its heading, not in a "Front matter" of entries
  const contentsTo = Math.min(pos(b + 1), to);
  out.push(section('Contents', 'contents', 1, at, contentsTo));
  if (contentsTo < to) out.push(section('Front matter', 'preface', 1, contentsTo, to));
  return out;
}

/** The document's first section counts as its cover when it spans at most this many pages (a paper's title, authors and abstract). */
export const COVER_MAX_PAGES = 2;

/**
 * The first abstract heading printed inside the cover (a top-level leaf before the outline's first
 * section: front matter or a section split out of it; or a first section holding the title page)
 * opens a section of its own, to that leaf's end: the abstract no longer hides in "Cover and front
 * matter" beside the title and authors. Front matter opening on the heading is titled by it. An
 * outline that has the abstract already is left as it is.
 */
function splitAbstract(top: Section[], abstracts: Array<{ at: number; title: string }>, bodyFrom: number): void {
  if (top.some((s) => abstractTitle(s.title) !== null)) return;
  const cover = (s: Section, i: number) => !s.children.length && s.kind !== 'contents' && (s.to <= bodyFrom || (i === 0 && s.from === pos(1) && s.end - s.start < COVER_MAX_PAGES));
  for (const a of abstracts) {
    const i = top.findIndex((s) => s.from <= a.at && a.at < s.to);
    const s = top[i];
    if (!s || !cover(s, i)) continue;
    if (s.from === a.at) {
      if (s.kind !== 'preface') continue;
      s.title = a.title;
    } else top.splice(i, 1, { ...s, to: a.at, ...pagesOf(s.from, a.at) }, section(a.title, s.kind === 'preface' ? 'preface' : 'section', s.level, a.at, s.to));
    return;
  }
}

/**
 * A back-matter heading the outline left out (References, Appendix A) that is printed inside a
 * top-level section opens a top-level section of its own, to that section's end: the section and
 * its last sub-sections end at the heading. Not when sub-sections follow it (a heading of that name
 * in the middle of a section is one of its parts), nor where an outline entry already starts, nor
 * inside a part or an item (a filing's exhibits have appendices of their own).
 */
function splitBackMatter(top: Section[], headings: Array<{ at: number; title: string }>): void {
  for (const h of headings) {
    const i = top.findIndex((s) => s.from < h.at && h.at < s.to);
    const s = top[i];
    if (!s || s.kind === 'contents' || s.kind === 'preface' || TOP_LEVEL_KINDS.has(s.kind) || !endsAt(s, h.at) || namedAs(s, h.title)) continue;
    const to = s.to;
    cutAt(s, h.at);
    top.splice(i + 1, 0, section(h.title, 'section', s.level, h.at, to));
  }
}

/** The section or its last leaf is already titled as the heading ("References ." over "References"): its own heading, not a new section. */
function namedAs(s: Section, title: string): boolean {
  const key = normTitle(title);
  for (let x: Section | undefined = s; x; x = x.children[x.children.length - 1]) if (normTitle(x.title).includes(key)) return true;
  return false;
}

/** Whether the section can end at `at`: `at` lies in its last leaf, after that leaf's start. */
function endsAt(s: Section, at: number): boolean {
  const last = s.children[s.children.length - 1];
  return last ? last.from < at && endsAt(last, at) : s.from < at;
}

function cutAt(s: Section, at: number): void {
  setRange(s, s.from, at);
  const last = s.children[s.children.length - 1];
  if (last) cutAt(last, at);
}

/** Builds the top-level sections covering pages 1..pageCount. */
export function buildSections(entries: OutlineEntry[], ctx: SectionContext): Section[] {
  const n = ctx.pageCount;
  if (n === 0) return [];
  const byPage = new Map<number, Heading[]>();
  for (const h of ctx.headings) {
    const list = byPage.get(h.page);
    if (list) list.push(h);
    else byPage.set(h.page, [h]);
  }
  const valid = entries.filter((e) => e.page >= 1 && e.page <= n && e.title.trim().length > 0);
  const lo = pos(1);
  const hi = pos(n + 1);
  let top: Section[];
  // where the outline's first section starts (the front matter lies before it)
  let bodyFrom = lo;
  if (valid.length === 0) {
    top = [section('Document', NO_OUTLINE_KIND, 1, lo, hi)];
  } else {
    const roots = nest(valid);
    // a few lines above the first heading on its own page (a title line) open the first section
    const first = roots[0]!;
    if (first.from > lo && posPage(first.from) === 1 && charsIn(ctx, lo, first.from) < MIN_INTRO_CHARS) first.from = lo;
    top = place(roots, lo, hi, ctx);
    const head = top[0]!;
    bodyFrom = head.from;
    if (head.from > lo) top.unshift(...frontMatter(lo, head.from, ctx.contentsPages ?? new Set(), ctx.contentsStart));
  }
  if (ctx.backMatter?.length && valid.length) splitBackMatter(top, ctx.backMatter);
  const pieces = new Set<Section>();
  if (ctx.laterContentsPages?.size) for (const s of top) isolateContents(s, ctx.laterContentsPages, byPage, pieces);
  for (const s of top) split(s, ctx, byPage);
  if (pieces.size) for (const s of top) hoistPieces(s, pieces);
  for (const s of top) hoistIntroParts(s);
  if (ctx.isPointer) liftFromPointers(top, ctx.isPointer);
  const out = top.flatMap(promoteFrontMatter);
  if (ctx.abstracts?.length) splitAbstract(out, ctx.abstracts, bodyFrom);
  distinguishSiblings(out);
  nameOwnText(out);
  return out;
}


/**
 * A child holding its parent's own text under the parent's very title (the text before the first
 * sub-section; the first page window of a long section) is named for what it is: "Close Book
 * (introduction)", "2.2 Examples (beginning)" before "2.2 Examples (continued)". Agents took a parent and such a child for two
 * sections of one name and read both.
 */
function nameOwnText(list: Section[]): void {
  for (const s of list) {
    const key = normTitle(s.title);
    for (const c of s.children) {
      if (c.children.length || normTitle(c.title) !== key) continue;
      if (c.kind === 'intro') c.title = `${s.title}${INTRO_SUFFIX}`;
      else if (c.kind === 'page_group') c.title = `${s.title}${BEGINNING_SUFFIX}`;
    }
    nameOwnText(s.children);
  }
}

/** Title of the printed contents nodes. */
export const CONTENTS_TITLE = 'Contents';

/** Position ranges [from, to) of contents runs inside the leaf (a run starts where its first page's contents start). */
function contentsRuns(s: Section, pages: Map<number, number>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let p = s.start; p <= s.end; p++) {
    const line = pages.get(p);
    if (line === undefined) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === pos(p)) last[1] = Math.min(s.to, pos(p + 1));
    else {
      // a section whose heading is printed below the list's start on that page (a bibliography after a
      // list of figures) holds its own text there, not the list
      const from = pos(p, line);
      const to = Math.min(s.to, pos(p + 1));
      if (from >= s.from && to > from) runs.push([from, to]);
    }
  }
  return runs;
}

/**
 * A leaf holding contents pages printed later in the document (an agreement's own table of contents,
 * an index of statements) is cut around them: the contents become a `contents` node (never
 * suggested: it lists, not holds), the text after them is named by the heading opening it, else
 * "<leaf> (continued)".
 */
function isolateContents(s: Section, pages: Map<number, number>, byPage: Map<number, Heading[]>, pieces: Set<Section>): void {
  if (s.children.length) {
    for (const c of s.children) isolateContents(c, pages, byPage, pieces);
    return;
  }
  if (s.kind === 'contents') return;
  const runs = contentsRuns(s, pages);
  if (!runs.length) return;
  const parts: Section[] = [];
  let at = s.from;
  let name = s.title;
  // the leaf's own text before the contents opens it, as a parent's text before its first child does
  let kind = 'intro';
  for (const [a, b] of runs) {
    if (a > at) parts.push(section(name, kind, s.level + 1, at, a));
    parts.push(section(CONTENTS_TITLE, 'contents', s.level + 1, a, b));
    at = b;
    name = posPage(b) <= s.end && posLine(b) === 0 ? windowName(s, posPage(b), posPage(b), byPage) : `${s.title}${CONTINUED_SUFFIX}`;
    kind = 'section';
  }
  if (at < s.to) parts.push(section(name, kind, s.level + 1, at, s.to));
  for (const p of parts) if (p.kind !== 'contents') pieces.add(p);
  if (parts.length === 1) {
    // the whole leaf is the list: it keeps its own title ("List of Figures", "Index")
    s.kind = parts[0]!.kind;
    return;
  }
  s.children = parts;
}

/** Kind of the principal sections a vocabulary pack names (a filing's financial statements). */
const PRINCIPAL_KIND = 'statement';

/**
 * A section whose text only points elsewhere ("Item 8. Financial Statements — See Item 15") is not
 * where its matter is printed: principal sections found inside a sibling section (the statements
 * printed after the MD&A, inside "Item 7") are that sibling's no more: from the first of them on,
 * they become the sibling's own siblings, each its own node at that level.
 */
function liftFromPointers(list: Section[], isPointer: (from: number, to: number) => boolean): void {
  for (const s of list) if (s.children.length) liftFromPointers(s.children, isPointer);
  const pointers = list.filter((s) => s.kind !== 'intro' && !s.children.length && isPointer(s.from, s.to));
  if (!pointers.length) return;
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    const k = s.children.findIndex((c) => c.kind === PRINCIPAL_KIND);
    if (k <= 0) continue;
    // the pointer is about these sections (its title shares more of their words than the holder's does)
    const words = titleWords(s.children.slice(k).filter((c) => c.kind === PRINCIPAL_KIND).map((c) => c.title).join(' '));
    const shared = (t: string) => [...titleWords(t)].filter((w) => words.has(w)).length;
    if (!pointers.some((p) => shared(p.title) > shared(s.title))) continue;
    const lifted = s.children.slice(k).map((c) => ({ ...c, level: s.level }));
    const kept = s.children.slice(0, k);
    setRange(s, s.from, lifted[0]!.from);
    s.children = kept.length === 1 && kept[0]!.kind === 'intro' ? [] : kept;
    list.splice(i + 1, 0, ...lifted);
    i += lifted.length;
  }
}

/** Words of a title that say what it is about: five letters or more, plural "s" left off. */
function titleWords(t: string): Set<string> {
  return new Set((t.toLowerCase().match(/\p{L}{5,}/gu) ?? []).map((w) => w.replace(/s$/, '')));
}

/** A piece cut around contents pages that was split on its own sub-headings gives its parts to its parent (no extra level). */
function hoistPieces(s: Section, pieces: Set<Section>): void {
  for (const c of s.children) hoistPieces(c, pieces);
  if (!s.children.some((c) => pieces.has(c) && c.children.length)) return;
  s.children = s.children.flatMap((c) => (pieces.has(c) && c.children.length ? c.children.map((g, i) => (i === 0 && g.kind === 'intro' ? { ...g, kind: c.kind, title: c.title } : g)) : [c]));
}

/**
 * A parent's own text (its intro) split into page windows or on sub-headings gives those parts to the
 * parent: "2.2 Examples" → ["2.2 Examples", "2.2 Examples (continued)", "2.3 …"], not a second "2.2
 * Examples" holding them (three levels of one title say nothing and cost a reader a step).
 */
export function hoistIntroParts(s: Section): void {
  for (const c of s.children) hoistIntroParts(c);
  if (!s.children.some((c) => c.kind === 'intro' && c.children.length)) return;
  s.children = s.children.flatMap((c) => (c.kind === 'intro' && c.children.length ? c.children.map((g) => withLevel(g, c.level)) : [c]));
}

/** The section at `level`, its sub-sections moved along (relative levels kept). */
function withLevel(s: Section, level: number): Section {
  const shift = level - s.level;
  const move = (x: Section): Section => ({ ...x, level: x.level + shift, children: x.children.map(move) });
  return move(s);
}

/**
 * Siblings with the same title (the "ARTICLE I" of each agreement in an exhibit, overloads in a
 * reference manual) are told apart by their pages: "ARTICLE I (pages 120–124)".
 */
function distinguishSiblings(list: Section[]): void {
  const count = new Map<string, number>();
  for (const s of list) count.set(normTitle(s.title), (count.get(normTitle(s.title)) ?? 0) + 1);
  for (const s of list) {
    if ((count.get(normTitle(s.title)) ?? 0) > 1 && !/\(pages? \d/.test(s.title)) s.title = `${s.title} (${s.start === s.end ? `page ${s.start}` : `pages ${s.start}–${s.end}`})`;
    distinguishSiblings(s.children);
  }
}

/**
 * Front matter split on headings of its own holds sections, not a cover: a reader sees them beside
 * the document's other sections ("Query dates", "Preface", "About this document"), and the cover
 * keeps only the text before the first of them.
 */
function promoteFrontMatter(s: Section): Section[] {
  if (s.kind !== 'preface' || s.children.length < 2 || s.children.every((c) => c.kind === 'page_group')) return [s];
  return s.children.map((c, i) => (i === 0 && c.kind === 'intro' ? { ...c, kind: 'preface', level: 1 } : { ...c, level: Math.min(c.level, 1) }));
}

/** Leaves of a section list, in order (for coverage checks). */
export function leaves(list: Section[]): Section[] {
  const out: Section[] = [];
  const walk = (s: Section) => (s.children.length ? s.children.forEach(walk) : out.push(s));
  list.forEach(walk);
  return out;
}
