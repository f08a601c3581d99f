/**
 * Table rows from cells: a line whose items are separated by wide gaps is a row; its cells are
 * tidied (a lone `$` joins the amount after it, a lone `)` or `%` the amount before it) and joined
 * with ` | `, so `Purchases of PP&E | (1,577) | (1,373)` reads as one row, not one number per line.
 */
import type { Line } from './layout-types.js';

/** Separator between the cells of a rebuilt table row. */
export const CELL_SEPARATOR = ' | ';

const CURRENCY = /^[$€£¥]$/;
const TRAILING_CURRENCY = /^(.*?\S)\s*([$€£¥])$/;
const CLOSING = /^(\)|%|\)%|%\))$/;
const MAY_BE_NUMERIC = /[\d\-–—]/;
const NUMERIC = /^[(\-–—$€£¥]*\s*\d[\d,.]*\s*[)%]*$|^[-–—]+$/;

/** True when a cell is an amount (or a dash standing for zero). */
export function isNumericCell(cell: string): boolean {
  // an amount holds a digit or a dash: most cells are words and fail here without a copy
  if (!MAY_BE_NUMERIC.test(cell)) return false;
  return NUMERIC.test(cell.replace(/\s+/g, ''));
}

/** Joins currency signs and closing parentheses to their amounts. */
export function tidyCells(cells: string[]): string[] {
  const out: string[] = [];
  let pending = '';
  // "interests $ | 2,210.8 $ | 1,786.2": a currency sign printed right after a cell belongs to the next amount
  const moved = [...cells];
  for (let i = 0; i + 1 < moved.length; i++) {
    const trailing = TRAILING_CURRENCY.exec(moved[i]!);
    if (trailing && /^[\d(]/.test(moved[i + 1]!)) {
      moved[i] = trailing[1]!;
      moved[i + 1] = `${trailing[2]}${moved[i + 1]}`;
    }
  }
  for (const c of moved) {
    if (CURRENCY.test(c)) {
      pending += c;
      continue;
    }
    if (CLOSING.test(c) && out.length > 0 && !pending) {
      out[out.length - 1] += c;
      continue;
    }
    out.push(pending ? `${pending}${c}` : c);
    pending = '';
  }
  if (pending) out.push(pending);
  return out;
}

/** True when the line reads as a table row: several cells, at least one an amount. */
export function isTableRow(line: Line): boolean {
  return line.cells.length >= 2 && line.cells.some(isNumericCell);
}

/** The line as it is written into node content: a table row with ` | ` between cells, else plain text. */
export function renderLine(line: Line): string {
  if (line.cells.length < 2) return line.text;
  return tidyCells(line.cells).join(CELL_SEPARATOR);
}
