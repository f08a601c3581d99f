/**
 * Bookmarks that skip some of the document's numbered headings: DICOMscope's outline lists "1.1
 * Revision History" but not 1.2–1.5, printed in the same style on the next pages, so the node titled
 * "Revision History" held the abbreviations, the scope and the reading guide. A numbered heading no
 * bookmark points at, whose number follows a bookmarked (or already added) sibling's ("1.1" → "1.2"
 * → "1.3"), is added at that sibling's level. Only siblings: a level the bookmarks leave out as a
 * whole is the author's choice of depth.
 */
import { numbering, type Heading } from './headings.js';
import type { OutlineEntry } from './outline-types.js';

/** A heading added to the bookmarks is this sure at least (a numbered heading in a heading's print scores 1.25). */
export const UNLISTED_MIN_SCORE = 1;

const place = (page: number, line: number | undefined) => `${page}:${line ?? -1}`;

/** The number before the given one under the same parent ("1.2" → "1.1"; null for a first number). */
function previousNumber(n: string): string | null {
  const parts = n.split('.').filter(Boolean);
  const last = Number(parts[parts.length - 1]);
  return last > 1 ? [...parts.slice(0, -1), String(last - 1)].join('.') : null;
}

/** Position in the document, for ordering bookmarks and headings together. */
function at(page: number, line: number | undefined): number {
  return page * 100_000 + (line ?? -1);
}

/**
 * The bookmark entries (located on their lines) with the numbered headings they skip added. Going
 * through the document, each level remembers the number of its last entry: a skipped heading is
 * added when its number follows that of the last entry at some level, with no entry of that level
 * or above between them (a licence's "8. Termination" in an appendix does not follow the manual's
 * chapter "7").
 */
export function withUnlistedNumbered(entries: OutlineEntry[], headings: readonly Heading[]): OutlineEntry[] {
  const headingAt = new Map(headings.map((h) => [place(h.page, h.bodyLine), h] as const));
  const taken = new Set(entries.map((e) => place(e.page, e.line)));
  type Step = { pos: number; entry?: OutlineEntry; number: string | null; heading?: Heading };
  const steps: Step[] = entries.map((e) => {
    const h = e.line === undefined ? undefined : headingAt.get(place(e.page, e.line));
    return { pos: at(e.page, e.line), entry: e, number: h?.kind === 'numbered' ? numbering(h.title)?.number ?? null : null };
  });
  for (const h of headings) {
    if (h.kind !== 'numbered' || h.score < UNLISTED_MIN_SCORE || taken.has(place(h.page, h.bodyLine))) continue;
    const n = numbering(h.title)?.number;
    if (n) steps.push({ pos: at(h.page, h.bodyLine), number: n, heading: h });
  }
  steps.sort((a, b) => a.pos - b.pos || (a.entry ? 0 : 1) - (b.entry ? 0 : 1));
  const last = new Map<number, string | null>();
  const enter = (level: number, number: string | null) => {
    for (const k of [...last.keys()]) if (k > level) last.delete(k);
    last.set(level, number);
  };
  const added = new Map<Heading, OutlineEntry>();
  for (const s of steps) {
    if (s.entry) {
      enter(s.entry.level, s.number);
      continue;
    }
    const prev = previousNumber(s.number!);
    const level = [...last].find(([, n]) => n !== null && n === prev)?.[0];
    if (level === undefined) continue;
    const h = s.heading!;
    added.set(h, { title: h.title, level, page: h.page, ...(h.bodyLine !== undefined ? { line: h.bodyLine } : {}), kind: 'numbered' });
    enter(level, s.number);
  }
  if (added.size === 0) return entries;
  const out = [...entries];
  // each before the first entry printed after it (the bookmarks keep their own order)
  for (const a of added.values()) {
    const i = out.findIndex((e) => e.page > a.page || (e.page === a.page && e.line !== undefined && e.line > a.line!));
    out.splice(i < 0 ? out.length : i, 0, a);
  }
  return out;
}
