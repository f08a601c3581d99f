/**
 * An outline from detected headings when there are neither bookmarks nor a printed TOC: numbered
 * structure (parts, items, articles, sections, Roman/decimal numbering) and large or emphasised
 * titles. Parts and items must advance (a later "Item 8" cross-reference is not a new section).
 */
import type { Heading } from './headings.js';
import type { OutlineEntry } from './outline-types.js';
import { normTitle } from './printed-toc.js';
import { romanValue } from './numerals.js';

/** Fewest detected headings that make an outline. */
export const MIN_DETECTED_ENTRIES = 1;
/** Headings with only style (no numbering) need this score to be structural. */
export const STYLE_OUTLINE_SCORE = 0.75;
/** Numbered headings need this score. */
export const NUMBERED_OUTLINE_SCORE = 0.5;
/** The first top-level number of a numbered outline is at most this ("83 Tower Road" is an address)… */
export const MAX_FIRST_NUMBER = 5;
/** …and each next top-level number at most this far above the previous one. */
export const MAX_NUMBER_STEP = 3;
/** Most outline entries per page on average before only the strongest are kept. */
export const MAX_ENTRIES_PER_PAGE = 1.5;

function orderValue(h: Heading): number {
  const num = h.number ?? '';
  if (/^\d/.test(num)) {
    const m = /^(\d+)([A-Z]?)/.exec(num)!;
    return Number(m[1]) * 10 + (m[2] ? m[2].charCodeAt(0) - 64 : 0);
  }
  return romanValue(num);
}

function tidy(h: Heading): string {
  // "Item 8.01 Other Events": a two-part item number (8-K items) is kept whole
  const dotted = /^item\s+(\d{1,2})\.\s?(\d{2})\b\s*(.*)$/i.exec(h.title);
  if (dotted) return `Item ${dotted[1]}.${dotted[2]}${dotted[3] ? ` ${dotted[3]}` : ''}`;
  const m = /^item\s+(\d{1,2}[a-d]?)\b[.:—–-]?\s*(.*)$/i.exec(h.title);
  if (m) return `Item ${m[1]!.toUpperCase()}.${m[2] ? ` ${m[2]}` : ''}`;
  const p = /^part\s+([ivx]{1,4})\b[.:—–-]?\s*(.*)$/i.exec(h.title);
  const rest = p?.[2]?.replace(/^[\s.:—–-]+/, '');
  if (p) return `Part ${p[1]!.toUpperCase()}${rest ? ` — ${rest}` : ''}`;
  return h.title;
}

function structural(h: Heading): boolean {
  switch (h.kind) {
    case 'part':
    case 'item':
    case 'article':
    case 'section':
    case 'roman':
      return h.score >= NUMBERED_OUTLINE_SCORE;
    case 'numbered':
      return h.level <= 2 && h.score >= NUMBERED_OUTLINE_SCORE;
    case 'style':
      return h.score >= STYLE_OUTLINE_SCORE;
    default:
      return false;
  }
}

/**
 * Decimal numbering must read as a sequence: top numbers start low and advance by small steps, and
 * a sub-number (2.1) sits under the current top number. Street numbers, years and list items in a
 * large font are not sections.
 */
function numberingFits(h: Heading, state: { top: number }): boolean {
  if (h.kind !== 'numbered' || !h.number) return true;
  const parts = h.number.split('.').filter(Boolean).map(Number);
  const top = parts[0]!;
  if (parts.length === 1) {
    const ok = state.top === 0 ? top <= MAX_FIRST_NUMBER : top > state.top && top <= state.top + MAX_NUMBER_STEP;
    if (ok) state.top = top;
    return ok;
  }
  if (state.top === 0 || top === state.top) {
    state.top = top;
    return true;
  }
  if (top > state.top && top <= state.top + MAX_NUMBER_STEP) {
    state.top = top; // the top heading itself was not detected (e.g. printed as a running title)
    return true;
  }
  return false;
}

/** Outline entries from heading candidates (document order). */
export function detectOutline(headings: Heading[], pageCount: number): OutlineEntry[] {
  let picked = headings.filter(structural);
  if (picked.length > pageCount * MAX_ENTRIES_PER_PAGE) picked = picked.filter((h) => h.kind !== 'style' || h.level === 1);
  const out: OutlineEntry[] = [];
  let lastPart = 0;
  let lastItem = 0;
  let lastKey = '';
  const numbers = { top: 0 };
  for (const h of picked) {
    if (!numberingFits(h, numbers)) continue;
    if (h.kind === 'part') {
      const v = orderValue(h);
      if (v <= lastPart) continue;
      lastPart = v;
      lastItem = 0;
    } else if (h.kind === 'item') {
      const v = orderValue(h);
      if (v <= lastItem) continue;
      lastItem = v;
    }
    const key = normTitle(h.title);
    if (key === lastKey) continue;
    lastKey = key;
    out.push({ title: tidy(h), level: h.level, page: h.page, ...(h.bodyLine !== undefined ? { line: h.bodyLine } : {}), kind: h.kind });
  }
  return out.length >= MIN_DETECTED_ENTRIES ? out : [];
}
