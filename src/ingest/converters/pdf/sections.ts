/**
 * The section tree from a flat outline. A section starts on the page where its heading is printed
 * and ends before the next section starts; siblings that start on the same page share one node.
 * Pages before the first section become a preface node; pages of a parent before its first child
 * an intro node. Leaves longer than maxLeafPages (or too much text) are split on sub-headings found
 * inside them (each financial statement of a 10-K becomes its own node), else into page windows.
 * Invariant: every page is covered by exactly one leaf.
 */
import type { OutlineEntry } from './outline-types.js';
import type { Heading } from './headings.js';
import { normTitle } from './printed-toc.js';

/** A leaf longer than this many characters (~6k tokens) is split even when it has few pages. */
export const MAX_LEAF_CHARS = 24_000;
/** Sub-headings used to split long sections score at least this much. */
export const SPLIT_MIN_SCORE = 0.45;
/** Kind of the single section standing for a document without any outline. */
const NO_OUTLINE_KIND = 'pages';
/** Parts and items are the document's top structure: never sub-headings inside a section. */
const TOP_LEVEL_KINDS = new Set(['part', 'item']);
/** Titles of sections merged onto one page are joined with this. */
export const MERGED_TITLE_SEPARATOR = '; ';

export interface Section {
  title: string;
  /** titles of sub-sections folded into this node because they share its only page(s) */
  folded?: string[];
  kind: string;
  level: number;
  start: number;
  end: number;
  children: Section[];
}

export interface SectionContext {
  pageCount: number;
  maxLeafPages: number;
  /** characters of text per page (index = page - 1) */
  pageChars: number[];
  /** heading candidates of the whole document, in reading order */
  headings: Heading[];
}

/** Nests flat entries by level (levels are relative: a deeper number nests under a shallower one). */
export function nest(entries: OutlineEntry[]): Section[] {
  const roots: Section[] = [];
  const stack: Section[] = [];
  for (const e of entries) {
    const s: Section = { title: e.title, kind: e.kind ?? 'section', level: e.level, start: e.page, end: e.page, children: [] };
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

/** Assigns [start, end] within [lo, hi] to siblings (and recursively to their children). */
export function place(list: Section[], lo: number, hi: number): Section[] {
  const out: Section[] = [];
  for (const s of list) {
    s.start = Math.min(hi, Math.max(lo, s.start, out[out.length - 1]?.start ?? lo));
    const prev = out[out.length - 1];
    if (prev && prev.start === s.start) mergeInto(prev, s);
    else out.push(s);
  }
  out.forEach((s, i) => {
    s.end = i + 1 < out.length ? out[i + 1]!.start - 1 : hi;
    if (s.children.length) {
      s.children = place(s.children, s.start, s.end);
      const first = s.children[0]!;
      if (first.start > s.start) s.children.unshift({ title: s.title, kind: 'intro', level: first.level, start: s.start, end: first.start - 1, children: [] });
      fold(s);
    }
  });
  return out;
}

/** A parent whose only child covers all of its pages becomes that child: the parent keeps its title. */
function fold(s: Section): void {
  while (s.children.length === 1 && s.children[0]!.start === s.start && s.children[0]!.end === s.end) {
    const c = s.children[0]!;
    s.folded = [...(s.folded ?? []), ...c.title.split(MERGED_TITLE_SEPARATOR), ...(c.folded ?? [])];
    s.children = c.children;
  }
}

function chars(ctx: SectionContext, a: number, b: number): number {
  let n = 0;
  for (let p = a; p <= b; p++) n += ctx.pageChars[p - 1] ?? 0;
  return n;
}

function tooLong(s: Section, ctx: SectionContext): boolean {
  const pages = s.end - s.start + 1;
  return pages > ctx.maxLeafPages || (pages > 1 && chars(ctx, s.start, s.end) > MAX_LEAF_CHARS);
}

/**
 * Page windows of at most maxLeafPages pages and about MAX_LEAF_CHARS characters, balanced. The
 * first keeps the section's title; later ones are named after the first heading printed in them
 * (the ancestors' titles stay on the path), else "<section> (continued)".
 */
function windows(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): Section[] {
  const out: Section[] = [];
  const total = s.end - s.start + 1;
  const k = Math.max(Math.ceil(total / ctx.maxLeafPages), Math.ceil(chars(ctx, s.start, s.end) / MAX_LEAF_CHARS));
  const target = Math.ceil(total / k);
  let a = s.start;
  while (a <= s.end) {
    let b = a;
    let c = ctx.pageChars[a - 1] ?? 0;
    while (b < s.end && b - a + 1 < target && c + (ctx.pageChars[b] ?? 0) <= MAX_LEAF_CHARS) {
      b++;
      c += ctx.pageChars[b - 1] ?? 0;
    }
    let name = s.title;
    if (s.kind === NO_OUTLINE_KIND) name = 'Pages';
    else if (a > s.start) {
      let inner: Heading | undefined;
      for (let p = a; p <= b && !inner; p++) inner = byPage.get(p)?.find((h) => !TOP_LEVEL_KINDS.has(h.kind) && normTitle(h.title) !== normTitle(s.title));
      name = inner ? inner.title : `${s.title} (continued)`;
    }
    const span = a === b ? `page ${a}` : `pages ${a}–${b}`;
    out.push({ title: s.kind === NO_OUTLINE_KIND ? span.charAt(0).toUpperCase() + span.slice(1) : `${name} (${span})`, kind: 'page_group', level: s.level + 1, start: a, end: b, children: [] });
    a = b + 1;
  }
  return out;
}

/** One sub-heading per page inside (start, end]: a statement title, else a numbered heading, else the first strong one. */
function subHeadings(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  let lastKey = normTitle(s.title);
  let notesLevel: number | null = null;
  // the section's own first page counts only for a financial statement printed under the section heading
  for (let p = s.start; p <= s.end; p++) {
    const hs = (byPage.get(p) ?? []).filter(
      (h) => h.score >= SPLIT_MIN_SCORE && !TOP_LEVEL_KINDS.has(h.kind) && (p > s.start || (h.kind === 'statement' && h.top && !/^notes? to/i.test(h.title))),
    );
    const pick = hs.find((h) => h.kind === 'statement') ?? hs.find((h) => h.kind !== 'style') ?? hs[0];
    if (!pick) continue;
    const key = normTitle(pick.title);
    if (key === lastKey) continue; // "(continued)" pages stay with their section
    lastKey = key;
    // after "Notes to the financial statements", every later heading is one of the notes (or inside one)
    const level = notesLevel !== null ? Math.max(pick.level, notesLevel + 1) : pick.level;
    if (pick.kind === 'statement' && /^notes? to/i.test(pick.title)) notesLevel = pick.level;
    out.push({ title: pick.title, level, page: p, kind: pick.kind });
  }
  return out;
}

function split(s: Section, ctx: SectionContext, byPage: Map<number, Heading[]>): void {
  if (s.children.length) {
    for (const c of s.children) split(c, ctx, byPage);
    return;
  }
  if (!tooLong(s, ctx)) return;
  const subs = subHeadings(s, ctx, byPage);
  if (subs.length === 0) {
    s.children = windows(s, ctx, byPage);
    return;
  }
  const children = place(nest(subs), s.start, s.end);
  const first = children[0]!;
  const introTitle = s.kind === NO_OUTLINE_KIND ? 'Opening pages' : s.title;
  if (first.start > s.start) children.unshift({ title: introTitle, kind: 'intro', level: first.level, start: s.start, end: first.start - 1, children: [] });
  s.children = children;
  fold(s);
  if (!s.children.length) {
    if (tooLong(s, ctx)) s.children = windows(s, ctx, byPage);
    return;
  }
  for (const c of children) {
    if (c.children.length) split(c, ctx, byPage);
    else if (tooLong(c, ctx)) {
      // a sub-heading section still too long: split it on its own sub-headings, else windows
      const inner = subHeadings(c, ctx, byPage);
      if (inner.length) split(c, ctx, byPage);
      else c.children = windows(c, ctx, byPage);
    }
  }
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
  let top: Section[];
  if (valid.length === 0) {
    top = [{ title: 'Document', kind: NO_OUTLINE_KIND, level: 1, start: 1, end: n, children: [] }];
  } else {
    top = place(nest(valid), 1, n);
    const first = top[0]!;
    if (first.start > 1) top.unshift({ title: 'Cover and front matter', kind: 'preface', level: 1, start: 1, end: first.start - 1, children: [] });
  }
  for (const s of top) split(s, ctx, byPage);
  return top;
}

/** Leaves of a section list, in order (for coverage checks). */
export function leaves(list: Section[]): Section[] {
  const out: Section[] = [];
  const walk = (s: Section) => (s.children.length ? s.children.forEach(walk) : out.push(s));
  list.forEach(walk);
  return out;
}
