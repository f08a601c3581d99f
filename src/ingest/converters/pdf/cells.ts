/**
 * Table cells whose text wraps inside the cell ("PK samples | pre-dose | pre- | pre-dose" over
 * "and 2 h | dose | and 2 h", "TB test (IGRA), HBV, HCV, | ×" over "HIV"): the wrapped line's
 * cells are joined to the cells of the row above them, so each row reads as one line
 * ("PK samples | pre-dose and 2 h | pre-dose | …") instead of a row of fragments that an agent
 * cannot put back under their columns.
 *
 * A line continues the row above it when it is printed close under it, closer than that row is to
 * the line above it, at the same size, and each of its cells lies under one cell of that row, a
 * different one each, ending where a wrapped cell's line can end. A line with a cell under the
 * row's first cell (its label) continues it only as that cell alone, opening in lower case or after
 * a label that cannot end there ("Adverse events," / "concomitant medications"); any other line with
 * a label is a row of its own. An amount under a cell is a row's value (a subtotal, a year under a
 * column heading), never a wrapped word, unless the cell above cannot end there ("Day −28 to" / "−1").
 * A list item printed as a marker cell and its text ("• | the amount, number…") is no table row: its
 * wrapped lines stay the prose lines they are.
 */
import type { Line, PageLayout } from './layout-types.js';
import { isNumericCell } from './tables.js';
import { documentWords, keepsHyphen } from './hyphens.js';

/** Greatest baseline distance, in multiples of the line's size, from a row to its wrapped line. */
export const WRAP_GAP_MAX_EM = 1.5;
/**
 * A wrapped line lies closer under its row than the row under the line above it, by this many
 * multiples of its size: a cell's lines are set tighter than the table's rows (1.2 against 1.8 in a
 * protocol's schedule). Lines at one pitch (code, contents, a statement's single-spaced rows) are never joined.
 */
export const WRAP_PITCH_MARGIN_EM = 0.25;
/** Blank allowed, in multiples of the line's size, beyond where a wrapped line's first word would have ended on the line above. */
export const WRAP_FIT_SLACK_EM = 1;
/** Font size difference (points) allowed between a row and its wrapped line. */
export const WRAP_SIZE_TOLERANCE = 0.5;
/** PDF units a wrapped label may start left of the label above it. */
export const WRAP_X_TOLERANCE = 2;

/** A cell's text that cannot end it: a comma, an open bracket, a hyphen or dash, a slash, an ampersand or a joining word. */
const OPEN_END = /(?:[,(&/\-–—]|\b(?:and|or|of|to|the|for|in|with|by|from|at|on|per|vs\.?))$/iu;
const LOWER_START = /^\p{Ll}/u;
/** A cell this long is prose (a paragraph split at a wide gap), not a table value… */
export const PROSE_CELL_CHARS = 40;
/** …and runs on unless it closes a sentence or a parenthesis. */
const CLOSED_END = /[.!?:;)\]]["”’)]?$/u;
/** A list item's marker in a cell of its own ("•", "◦", "1.", "(a)", "iv)"): the item's wrapped lines are prose, not a cell's. */
const LIST_MARKER = /^(?:[^\p{L}\p{N}\s]|\(?(?:\d{1,3}|\p{L}|[ivxlc]{1,5})[.)])$/iu;
/** A cell holding a word or a number: a row of brackets and radicals is typeset mathematics, not a table. */
const HAS_WORD = /[\p{L}\p{N}]/u;
/** A word cut after its hyphen at the cell's edge ("pre-" / "dose", "im-" / "port"): its letters before the hyphen. */
const HYPHEN_END = /(\p{L}+)-$/u;
/** The word opening a cell's next line, lower-case. */
const WORD_START = /^\p{Ll}\p{L}*/u;

/** A cell that cannot end where it does: an open ending (OPEN_END) or a parenthesis left open ("toxicity (except"). */
function cellOpen(c: string): boolean {
  return OPEN_END.test(c) || (c.match(/\(/g)?.length ?? 0) > (c.match(/\)/g)?.length ?? 0);
}

/** The x range of cell `k` of a line with recorded spans, else of the whole line. */
function span(l: Line, k: number): [number, number] {
  return l.spans && l.spans.length === l.cells.length * 2 ? [l.spans[2 * k]!, l.spans[2 * k + 1]!] : [l.x, l.x2];
}

/** The one cell of `row` the range [x, x2] lies under (overlaps it and no other), else -1. */
function cellUnder(row: Line, x: number, x2: number): number {
  let found = -1;
  for (let j = 0; j < row.cells.length; j++) {
    const [a, b] = span(row, j);
    if (Math.min(b, x2) <= Math.max(a, x)) continue;
    if (found >= 0) return -1;
    found = j;
  }
  return found;
}

/**
 * Whether a line's text in [x, x2] could be the rest of a cell ending at `above2`: a cell wraps only
 * when its next word does not fit, so the line ends before where its first word would have ended
 * after the cell's text. A paragraph under a run-in heading ("7.04 | Limitations on Actions." over
 * "Any claim filed under Article VII and any action…") runs on far beyond it.
 */
function fitsUnder(above2: number, x: number, x2: number, text: string, size: number): boolean {
  const first = /^\S+/.exec(text)?.[0] ?? '';
  const wordWidth = ((x2 - x) / Math.max(1, text.length)) * first.length;
  return x2 <= above2 + wordWidth + WRAP_FIT_SLACK_EM * size;
}

/** For each cell of `next`, the cell of `row` it continues; null when `next` is no wrapped line of `row`. */
function continuation(row: Line, rowY: number, next: Line): number[] | null {
  if (row.cells.length < 2 || !row.spans || LIST_MARKER.test(row.cells[0]!) || Math.abs(row.size - next.size) > WRAP_SIZE_TOLERANCE) return null;
  const gap = rowY - next.y;
  const em = Math.max(1, next.size);
  if (gap <= 0 || gap > WRAP_GAP_MAX_EM * em || gap / em > row.gapAbove - WRAP_PITCH_MARGIN_EM) return null;
  const under: number[] = [];
  for (let k = 0; k < next.cells.length; k++) {
    const [x, x2] = span(next, k);
    const j = cellUnder(row, x, x2);
    if (j < 0 || under.includes(j) || !fitsUnder(span(row, j)[1], x, x2, next.cells[k]!, next.size)) return null;
    under.push(j);
  }
  const above = (k: number) => row.cells[under[k]!]!;
  if (next.cells.some((_, k) => !HAS_WORD.test(above(k)))) return null;
  if (under.includes(0)) {
    const [x0] = span(row, 0);
    const label = next.cells[0]!;
    if (next.cells.length !== 1 || next.x < x0 - WRAP_X_TOLERANCE) return null;
    if (cellOpen(above(0))) return under;
    // a lower-case line continues a label that could end, unless the row's last cell runs on as prose
    // ("(1) Includes 2,246,070 | shares issuable … and assumes payout at" over "maximum levels."; an
    // index's two columns): then it is that paragraph's next line, or an entry of its own
    const last = row.cells[row.cells.length - 1]!;
    return LOWER_START.test(label) && !(last.length >= PROSE_CELL_CHARS && !CLOSED_END.test(last)) ? under : null;
  }
  return next.cells.every((c, k) => !isNumericCell(c) || OPEN_END.test(above(k))) ? under : null;
}

/**
 * Two parts of one cell's text: a word cut after its hyphen is one word again, the hyphen kept as
 * the document writes the word ("pre-dose", but "import"); other parts join with a blank.
 */
function joinCell(first: string, rest: string, words: () => ReadonlySet<string>): string {
  const head = HYPHEN_END.exec(first)?.[1];
  const tail = head ? WORD_START.exec(rest)?.[0] : undefined;
  if (!head || !tail) return `${first} ${rest}`;
  return keepsHyphen(head, tail, words()) ? `${first}${rest}` : `${first.slice(0, -1)}${rest}`;
}

/** Joins wrapped cell lines into their rows on every page, in place; returns how many lines were joined. */
export function joinWrappedCells(pages: PageLayout[]): number {
  let joined = 0;
  let known: Set<string> | null = null;
  // (read once, and only for a document that breaks a word in a cell)
  const words = () => (known ??= documentWords(pages.map((p) => p.lines)));
  for (const p of pages) {
    const out: Line[] = [];
    // the baseline of each kept row's last wrapped line
    let rowY = Infinity;
    for (const l of p.lines) {
      const row = out[out.length - 1];
      const under = row ? continuation(row, rowY, l) : null;
      if (!row || !under) {
        out.push(l);
        rowY = l.y;
        continue;
      }
      under.forEach((j, k) => {
        row.cells[j] = joinCell(row.cells[j]!, l.cells[k]!, words);
        const [x, x2] = span(l, k);
        row.spans![2 * j] = Math.min(row.spans![2 * j]!, x);
        row.spans![2 * j + 1] = Math.max(row.spans![2 * j + 1]!, x2);
      });
      row.text = row.cells.join(' ');
      rowY = l.y;
      joined++;
    }
    if (out.length !== p.lines.length) p.lines = out;
  }
  return joined;
}
