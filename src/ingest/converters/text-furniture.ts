/**
 * Page furniture of plain text laid out in pages (groff/nroff output, RFCs, reports saved as text):
 * running heads and feet such as "NetHack Guidebook      26" and "NetHack 3.6      March 8, 2020",
 * or "RFC 2616      HTTP/1.1      June 1999". They are blanked, line for line, before the text is
 * read, so they neither title nodes nor sit in node text, and every other line keeps its number.
 */

/** A running line recurs at least this many times… */
export const TEXT_FURNITURE_MIN_REPEATS = 4;
/**
 * …and at least once per this many lines of the file on average (once a page, pages of 55–66 lines,
 * with room for pages without one): a row of figures repeated under a few tables is not furniture.
 */
export const TEXT_FURNITURE_LINES_PER_REPEAT = 250;
/**
 * Running lines are a page apart: the median gap between a line's occurrences is at least this many
 * lines (a total under each of many short tables recurs more often than pages turn).
 */
export const TEXT_FURNITURE_MIN_GAP = 15;
/** Longer lines are text. */
export const TEXT_FURNITURE_MAX_CHARS = 100;
/** A running line spreads its parts over the width: two of them at least this many spaces apart. */
const WIDE_GAP = /\S {3,}\S/;

const blank = (l: string | undefined) => l === undefined || l.trim() === '';

/** The line stands apart from the text: a blank line (or a page break) before or after it. */
function standsAlone(lines: string[], i: number): boolean {
  return blank(lines[i - 1]) || blank(lines[i + 1]) || lines[i]!.includes('\f') || !!lines[i + 1]?.startsWith('\f');
}

/** Lines equal up to their numbers and spacing are the same running line. */
function furnitureKey(t: string): string {
  return t.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
}

function medianGap(at: number[]): number {
  const gaps = at.slice(1).map((i, k) => i - at[k]!).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}

/** Indexes of the text's running heads and feet (empty when it has none). */
export function textFurniture(lines: string[]): Set<number> {
  const at = new Map<string, number[]>();
  lines.forEach((l, i) => {
    const t = l.replace(/\f/g, '').trim();
    if (!t || t.length > TEXT_FURNITURE_MAX_CHARS || !WIDE_GAP.test(t) || !/\p{L}{2}/u.test(t) || !standsAlone(lines, i)) return;
    const k = furnitureKey(t);
    const list = at.get(k);
    if (list) list.push(i);
    else at.set(k, [i]);
  });
  const need = Math.max(TEXT_FURNITURE_MIN_REPEATS, lines.length / TEXT_FURNITURE_LINES_PER_REPEAT);
  const out = new Set<number>();
  for (const list of at.values()) if (list.length >= need && medianGap(list) >= TEXT_FURNITURE_MIN_GAP) for (const i of list) out.add(i);
  return out;
}

/** The text with its running heads and feet blanked (page breaks kept), or the text itself when it has none. */
export function withoutTextFurniture(text: string, lines: string[]): string {
  const f = textFurniture(lines);
  if (f.size === 0) return text;
  return lines.map((l, i) => (f.has(i) ? l.replace(/[^\f]/g, '') : l)).join('\n');
}
