/**
 * Builds a page-granular tree from sections the tree role proposed: verifies each section's start
 * page (its title must be printed there; a nearby page fixes it, otherwise it is dropped), nests
 * sections by level, and cuts pages so every page lands in exactly one leaf.
 */
import type { ConvertedNode } from '../model/convert.js';
import { pagesContent } from './paged-text.js';

/** Pages on either side searched when a title is not on its claimed start page. */
export const PAGE_FIX_WINDOW = 2;
/** Titles shorter than this (normalised) cannot be verified and are dropped. */
export const MIN_TITLE_CHARS = 3;
/** Characters of a long title that must match (headings may wrap or be abbreviated later). */
export const TITLE_MATCH_CHARS = 60;
/** Deepest section level kept. */
export const MAX_LEVEL = 3;

export interface ProposedSection {
  title: string;
  start_page: number;
  level: number;
  summary: string;
}

export interface VerifyReport {
  kept: ProposedSection[];
  fixed: number;
  dropped: number;
  /** key sections of the plan: proposed and verified, added from the pages, or not found */
  keys?: { proposed: number; added: number; missing: number };
}

/** What the plan adds to the tree step: key sections (top level) and the expected number of sections. */
export interface TreeHints {
  keySections: string[];
  estimatedNodes: number | null;
}

/** Sections kept are at most this many times the plan's estimate (deepest levels dropped first). */
export const ESTIMATE_SLACK = 3;
/** A page naming this many key sections is a contents page: key sections are not placed there. */
export const CONTENTS_PAGE_KEYS = 3;

function keyMatches(norm: string, key: string): boolean {
  return norm === key || norm.startsWith(key) || key.startsWith(norm);
}

/** Pages naming several key sections (a contents page lists them all). */
function contentsPages(keys: string[], pages: Map<number, string>): Set<number> {
  const out = new Set<number>();
  for (const [p, text] of pages) if (keys.filter((k) => titleOnPage(k, text)).length >= CONTENTS_PAGE_KEYS) out.add(p);
  return out;
}

/** Proposed sections that are key sections become level 1; key sections the reply missed are placed where printed. */
function placeKeys(v: VerifyReport, keyTitles: Array<{ norm: string; title: string }>, pages: Map<number, string>, pageCount: number): VerifyReport {
  const keys = keyTitles.map((k) => k.norm);
  const kept = [...v.kept];
  let proposed = 0;
  let added = 0;
  const skip = contentsPages(keys, pages);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const i = kept.findIndex((s) => keyMatches(normalizeForMatch(s.title), key));
    if (i >= 0) {
      kept[i] = { ...kept[i]!, level: 1 };
      proposed++;
      continue;
    }
    for (let p = 1; p <= pageCount; p++) {
      if (skip.has(p) || !titleOnPage(key, pages.get(p))) continue;
      kept.push({ title: keyTitles[k]!.title, start_page: p, level: 1, summary: '' });
      added++;
      break;
    }
  }
  const order = kept.map((s, i) => ({ s, i })).sort((a, b) => a.s.start_page - b.s.start_page || a.s.level - b.s.level || a.i - b.i);
  return { ...v, kept: order.map((o) => o.s), keys: { proposed, added, missing: keys.length - proposed - added } };
}

/** Deepest sections dropped until no more than ESTIMATE_SLACK × the estimate remain (level 1 always kept). */
function capToEstimate(v: VerifyReport, estimate: number | null): VerifyReport {
  if (!estimate) return v;
  let kept = v.kept;
  const limit = Math.max(MIN_TITLE_CHARS, estimate * ESTIMATE_SLACK);
  for (let level = MAX_LEVEL; level > 1 && kept.length > limit; level--) kept = kept.filter((s) => s.level < level);
  return { ...v, kept, dropped: v.dropped + (v.kept.length - kept.length) };
}

/** The plan's hints applied to verified sections: key sections at the top level, granularity near the estimate. */
export function applyTreeHints(v: VerifyReport, hints: TreeHints, pages: Map<number, string>, pageCount: number): VerifyReport {
  const keys = hints.keySections
    .map((k) => ({ norm: normalizeForMatch(k), title: k.replace(/\s+/g, ' ').trim() }))
    .filter((k) => k.norm.length >= MIN_TITLE_CHARS);
  const placed = keys.length ? placeKeys(v, keys, pages, pageCount) : v;
  return capToEstimate(placed, hints.estimatedNodes);
}

export function normalizeForMatch(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function titleOnPage(normTitle: string, page: string | undefined): boolean {
  if (!page) return false;
  return normalizeForMatch(page).includes(normTitle.slice(0, TITLE_MATCH_CHARS).trim());
}

export function verifySections(sections: ProposedSection[], pages: Map<number, string>, pageCount: number): VerifyReport {
  const kept: ProposedSection[] = [];
  let fixed = 0;
  let dropped = 0;
  const seen = new Set<string>();
  for (const s of sections) {
    const norm = normalizeForMatch(s.title);
    if (norm.length < MIN_TITLE_CHARS || !Number.isFinite(s.start_page)) {
      dropped++;
      continue;
    }
    let page: number | null = null;
    const claimed = Math.round(s.start_page);
    if (claimed >= 1 && claimed <= pageCount && titleOnPage(norm, pages.get(claimed))) page = claimed;
    else {
      for (let d = 1; d <= PAGE_FIX_WINDOW && page === null; d++) {
        for (const p of [claimed + d, claimed - d]) {
          if (p >= 1 && p <= pageCount && titleOnPage(norm, pages.get(p))) {
            page = p;
            break;
          }
        }
      }
      if (page !== null) fixed++;
    }
    const key = `${page}:${norm}`;
    if (page === null || seen.has(key)) {
      dropped++;
      continue;
    }
    seen.add(key);
    const level = Math.min(MAX_LEVEL, Math.max(1, Math.round(s.level) || 1));
    kept.push({ title: s.title.replace(/\s+/g, ' ').trim(), start_page: page, level, summary: s.summary.trim() });
  }
  // stable sort by start page: the order sections were proposed in breaks ties
  const order = kept.map((s, i) => ({ s, i })).sort((a, b) => a.s.start_page - b.s.start_page || a.i - b.i);
  return { kept: order.map((o) => o.s), fixed, dropped };
}

interface Draft {
  s: ProposedSection;
  start: number;
  end: number;
  children: Draft[];
}

function leafNodes(title: string, from: number, to: number, pages: Map<number, string>, maxLeafPages: number, summary?: string): ConvertedNode {
  const node: ConvertedNode = { title, kind: 'section', page_range: [from, to], children: [] };
  if (summary) node.summary = summary;
  if (to - from + 1 <= maxLeafPages) {
    node.content = pagesContent(pages, from, to);
    return node;
  }
  for (let p = from; p <= to; p += maxLeafPages) {
    const end = Math.min(to, p + maxLeafPages - 1);
    node.children.push({ title: p === end ? `Page ${p}` : `Pages ${p}-${end}`, kind: 'page_group', page_range: [p, end], content: pagesContent(pages, p, end), children: [] });
  }
  return node;
}

/** The tree (root = document) for verified sections; pages before the first section become "Front matter". */
export function buildSectionTree(title: string, sections: ProposedSection[], pages: Map<number, string>, pageCount: number, maxLeafPages: number): ConvertedNode {
  // nest by level; equal start pages: a deeper section nests in the shallower one that opens there
  const roots: Draft[] = [];
  const stack: Draft[] = [];
  const flat: Draft[] = [];
  for (const s of sections) {
    const d: Draft = { s, start: s.start_page, end: pageCount, children: [] };
    while (stack.length && stack[stack.length - 1]!.s.level >= s.level) stack.pop();
    (stack.length ? stack[stack.length - 1]!.children : roots).push(d);
    stack.push(d);
    flat.push(d);
  }
  // a section ends where the next section at the same or a higher level starts
  for (let i = 0; i < flat.length; i++) {
    const d = flat[i]!;
    for (let j = i + 1; j < flat.length; j++) {
      if (flat[j]!.s.level <= d.s.level) {
        d.end = flat[j]!.start - 1;
        break;
      }
    }
  }
  const toNode = (d: Draft, parentEnd: number): ConvertedNode | null => {
    const end = Math.min(d.end, parentEnd);
    if (end < d.start) return null; // shares its start page with the next section: that one owns the page
    const kids = d.children.filter((c) => c.start <= end);
    if (kids.length === 0) return leafNodes(d.s.title, d.start, end, pages, maxLeafPages, d.s.summary);
    const node: ConvertedNode = { title: d.s.title, kind: 'section', page_range: [d.start, end], children: [] };
    if (d.s.summary) node.summary = d.s.summary;
    const firstKid = kids[0]!.start;
    if (firstKid > d.start) node.children.push(leafNodes(`${d.s.title} (opening pages)`, d.start, firstKid - 1, pages, maxLeafPages));
    let covered = firstKid - 1;
    for (const k of kids) {
      if (k.start <= covered) continue; // an earlier sibling already owns this page
      const child = toNode(k, end);
      if (child) {
        node.children.push(child);
        covered = child.page_range![1];
      }
    }
    if (covered < end) node.children.push(leafNodes(`${d.s.title} (continued)`, covered + 1, end, pages, maxLeafPages));
    return node;
  };
  const root: ConvertedNode = { title, kind: 'document', page_range: [1, Math.max(1, pageCount)], children: [] };
  const first = roots[0]?.start ?? pageCount + 1;
  if (first > 1) root.children.push(leafNodes('Front matter', 1, Math.min(pageCount, first - 1), pages, maxLeafPages));
  let covered = first - 1;
  for (const r of roots) {
    if (r.start <= covered) continue;
    const n = toNode(r, pageCount);
    if (n) {
      root.children.push(n);
      covered = n.page_range![1];
    }
  }
  if (covered < pageCount) root.children.push(leafNodes('Remaining pages', covered + 1, pageCount, pages, maxLeafPages));
  return root;
}

/** Pages of every leaf, in order: the check that each page is in exactly one leaf. */
export function leafPages(n: ConvertedNode): number[] {
  if (n.children.length === 0) {
    if (!n.page_range) return [];
    const out: number[] = [];
    for (let p = n.page_range[0]; p <= n.page_range[1]; p++) out.push(p);
    return out;
  }
  return n.children.flatMap(leafPages);
}

export function coversEachPageOnce(root: ConvertedNode, pageCount: number): boolean {
  const ps = leafPages(root);
  if (ps.length !== pageCount) return false;
  return ps.every((p, i) => p === i + 1);
}
