/**
 * The keys a run of table rows is ordered by: a long table cut into page windows (a table of space
 * groups, error codes, opcodes, registers) is titled by the keys each window holds ("Table of space
 * group symbols (entries 30–84)"), so an agent looking for entry 19 can tell the windows apart. Before,
 * the windows read "… (beginning)", "… (continued) (pages 8–11)" and said nothing of what they held.
 */

/**
 * A row's key: the whole number opening its line ("30:cab C 62v …", "404 Not Found"); a section
 * number ("4.1.9 RF Port" in a contents listing), an amount ("1,250") or a code ("0x1F") is none.
 */
const ROW_KEY = /^(\d{1,6})(?![.,]\d)(?=$|[\s:.)\]-])/;
/** A window is a keyed table when at least this share of its non-empty lines open with a key… */
export const KEYED_ROW_SHARE = 0.6;
/** …and at least this many do. */
export const MIN_KEYED_ROWS = 8;
/** Share of consecutive keys that may step back (a row's continuation line opening with a number; a sub-table restarting). */
export const KEY_STEP_BACK_SHARE = 0.1;
/**
 * The keys run nearly one after another: at least this share of the numbers between the first and
 * the last opens a row. Numbers far apart (the line numbers of a few quoted lines, years, page
 * references) key nothing a reader would look up by.
 */
export const KEY_DENSITY = 0.5;

/**
 * The range of keys ("30–84") of lines that are mostly rows of a table ordered by a number
 * opening each row; null when they are not (prose, a table keyed by words, an unordered list).
 */
export function keyedRowRange(texts: readonly string[]): string | null {
  const lines = texts.map((t) => t.trim()).filter((t) => t.length > 0);
  const keys: number[] = [];
  for (const t of lines) {
    const m = ROW_KEY.exec(t);
    if (m) keys.push(Number(m[1]));
  }
  if (keys.length < MIN_KEYED_ROWS || keys.length < KEYED_ROW_SHARE * lines.length) return null;
  // a numbered heading over the table ("3 Table of space group symbols" over rows 1, 2, …) is no row
  while (keys.length > 1 && keys[0]! > keys[1]!) keys.shift();
  let back = 0;
  for (let i = 1; i < keys.length; i++) if (keys[i]! < keys[i - 1]!) back++;
  const first = keys[0]!;
  const last = keys[keys.length - 1]!;
  if (back > KEY_STEP_BACK_SHARE * (keys.length - 1) || last <= first) return null;
  if (new Set(keys).size < KEY_DENSITY * (last - first + 1)) return null;
  return `${first}–${last}`;
}
