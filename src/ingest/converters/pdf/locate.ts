/**
 * Where on its page an outline entry's heading is printed. Bookmarks and printed-TOC entries give a
 * page only; the section must start at the heading's line, not at the top of the page, so the text
 * above it stays with the previous section. The heading is the first body line (after the previous
 * entry's) whose text starts with the entry's title, or whose text the title starts with when the
 * heading wraps onto the next line. Not found: the top of the page, or the previous entry's line
 * when that one is on the same page (the two then share a node, as before).
 */
import type { Line } from './layout-types.js';
import type { OutlineEntry } from './outline-types.js';
import { normTitle } from './printed-toc.js';

/** Normalised characters compared between an entry's title and a line. */
export const LOCATE_KEY_CHARS = 40;
/** A line that is only the start of a wrapped title must hold this many normalised characters. */
export const LOCATE_MIN_PARTIAL = 8;
/** A matching line may be at most this many normalised characters longer than the title (not prose). */
export const LOCATE_LINE_SLACK = 24;

function matches(title: string, lines: Line[], i: number): boolean {
  const key = normTitle(title).slice(0, LOCATE_KEY_CHARS);
  if (key.length < 2) return false;
  const text = normTitle(lines[i]!.text);
  if (text.length > normTitle(title).length + LOCATE_LINE_SLACK) return false;
  if (text.startsWith(key)) return true;
  if (text.length >= LOCATE_MIN_PARTIAL && key.startsWith(text)) {
    const joined = text + normTitle(lines[i + 1]?.text ?? '');
    return joined.startsWith(key) || key.startsWith(joined);
  }
  // numbering printed apart from the title ("3.5" in one item, "Withdrawal" in the next line)
  const next = lines[i + 1];
  return text.length > 0 && text.length <= 6 && next !== undefined && (text + normTitle(next.text)).startsWith(key);
}

/** Sets `line` on entries that have none, from the body lines of their pages. */
export function locateEntries(entries: OutlineEntry[], body: Line[][]): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  for (const e of entries) {
    if (e.line !== undefined) {
      out.push(e);
      continue;
    }
    const prev = out[out.length - 1];
    const samePage = prev !== undefined && prev.page === e.page;
    const startAt = samePage ? (prev.line ?? 0) + 1 : 0;
    const lines = body[e.page - 1] ?? [];
    let found = -1;
    for (let i = startAt; i < lines.length && found < 0; i++) if (matches(e.title, lines, i)) found = i;
    const line = found >= 0 ? found : samePage ? (prev.line ?? 0) : 0;
    out.push({ ...e, line });
  }
  return out;
}
