import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

/** Bounding text answers: a window of at most maxChars from an offset, cut at a line break when one is near. */

/** Default characters of text per read. */
export const DEFAULT_READ_CHARS = 8000;
/** Hard upper bound on --max-chars, whatever the caller asks. */
export const MAX_READ_CHARS = 100_000;
/** A cut moves back to the last line break when it lies within this share of the window's end. */
const LINE_BREAK_WINDOW = 0.2;

export interface TextWindow {
  text: string;
  offset: number;
  /** where the next window starts; null when this one reaches the end */
  next_offset: number | null;
  truncated: boolean;
}

/**
 * The window of `full` starting at `offset`. `more` says whether text exists beyond `full`
 * (the caller stopped reading early), so the window is truncated even when it reaches full's end.
 */
export function textWindow(full: string, offset: number, maxChars: number, more = false): TextWindow {
  const start = Math.min(Math.max(0, offset), full.length);
  const limit = Math.min(Math.max(1, maxChars), MAX_READ_CHARS);
  let end = Math.min(full.length, start + limit);
  if (end < full.length) {
    const nl = full.lastIndexOf('\n', end - 1); // a break at `end` itself would add a character
    if (nl > start && nl >= end - limit * LINE_BREAK_WINDOW) end = nl + 1;
  }
  const truncated = end < full.length || more;
  return { text: full.slice(start, end), offset: start, next_offset: truncated ? end : null, truncated };
}

/** Parse "A-B" (or a single "A") into an inclusive 1-based range; throws a message saying what was expected. */
export function parseRange(flag: string, value: string): [number, number] {
  const m = /^\s*(\d+)\s*(?:[-–:]\s*(\d+)\s*)?$/.exec(value ?? '');
  if (!m) throw new UserError(`Bad range "${value}" for ${flag}.`, `Expected A-B with 1-based whole numbers, e.g. ${flag} 3-5.`, EXIT.USAGE);
  const a = Number(m[1]);
  const b = m[2] !== undefined ? Number(m[2]) : a;
  if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b)) throw new UserError(`Bad range "${value}" for ${flag}: the numbers are too large.`, `Expected A-B with whole numbers below ${Number.MAX_SAFE_INTEGER}, e.g. ${flag} 3-5.`, EXIT.USAGE);
  if (a < 1 || b < a) throw new UserError(`Bad range "${value}" for ${flag}.`, `Expected A-B with 1 <= A <= B, e.g. ${flag} 3-5.`, EXIT.USAGE);
  return [a, b];
}
