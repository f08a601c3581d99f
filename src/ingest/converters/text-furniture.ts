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

/** One line of the text: its number (0-based), where it starts and ends (the newline left out). */
interface TextLine {
  n: number;
  start: number;
  end: number;
  blank: boolean;
}

/** Lines equal up to their numbers and spacing are the same running line. */
function furnitureKey(t: string): string {
  return t.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ');
}

function medianGap(at: TextLine[]): number {
  const gaps = at.slice(1).map((l, k) => l.n - at[k]!.n).sort((a, b) => a - b);
  return gaps[Math.floor(gaps.length / 2)] ?? 0;
}

/**
 * The text's running heads and feet, read line by line without splitting the text (a 200 MB log is
 * held once): each line is judged with the lines around it, standing apart from the text (a blank
 * line or a page break before or after it).
 */
export function textFurniture(text: string): TextLine[] {
  const at = new Map<string, TextLine[]>();
  let lines = 0;
  const judge = (prev: TextLine | null, cur: TextLine, next: TextLine | null) => {
    if (cur.blank || cur.end - cur.start > TEXT_FURNITURE_MAX_CHARS * 2) return;
    const raw = text.slice(cur.start, cur.end);
    const alone = !prev || prev.blank || !next || next.blank || raw.includes('\f') || text.charCodeAt(next.start) === 12;
    const t = raw.replace(/\f/g, '').trim();
    if (!alone || t.length > TEXT_FURNITURE_MAX_CHARS || !WIDE_GAP.test(t) || !/\p{L}{2}/u.test(t)) return;
    const k = furnitureKey(t);
    const list = at.get(k);
    if (list) list.push(cur);
    else at.set(k, [cur]);
  };
  let prev: TextLine | null = null;
  let cur: TextLine | null = null;
  for (let start = 0; start < text.length || (start === text.length && lines === 0); lines++) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    const line: TextLine = { n: lines, start, end, blank: /^\s*$/.test(text.slice(start, end)) };
    if (cur) judge(prev, cur, line);
    prev = cur;
    cur = line;
    start = end + 1;
  }
  if (cur) judge(prev, cur, null);
  const need = Math.max(TEXT_FURNITURE_MIN_REPEATS, lines / TEXT_FURNITURE_LINES_PER_REPEAT);
  const out: TextLine[] = [];
  for (const list of at.values()) if (list.length >= need && medianGap(list) >= TEXT_FURNITURE_MIN_GAP) out.push(...list);
  return out.sort((a, b) => a.start - b.start);
}

/** The text with its running heads and feet blanked (page breaks kept, every line where it was), or the text itself when it has none. */
export function withoutTextFurniture(text: string): string {
  const lines = textFurniture(text);
  if (lines.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const l of lines) {
    parts.push(text.slice(from, l.start), text.slice(l.start, l.end).replace(/[^\f]/g, ''));
    from = l.end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}
