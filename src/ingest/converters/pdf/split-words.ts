/**
 * Words a PDF prints with a wide kerning gap inside them come out in two parts ("Detailed Segment
 * Info rmation", "Octo ber", "c ompliance"): the reader takes the gap for a word space. Neither part
 * is a word and search finds neither "information" nor "october" there. Two parts are joined when
 * the document writes the joined word elsewhere, far more often (MIN_JOINED_RATIO), and writes
 * neither part anywhere but beside the other: the document's own words decide, as for glued
 * capitals (./glued.ts), not a dictionary. "a rise" stays ("a" is a word of the document); so do
 * "carry forwards" and every pair of real words.
 */
import type { PageLayout } from './layout-types.js';

/**
 * The joined word must be written whole at least this many times in the document, and this many
 * times as often as the two parts side by side: a word split by kerning is split once or twice among
 * its many whole uses ("information": 134 whole, 1 split), while two words the document spells
 * either way keep their own share ("Web site" twice beside "Website" 7 times, "flood plains",
 * Spanish "Los desvelados" beside the identifier "LosDesvelados").
 */
export const MIN_JOINED_USES = 3;
export const MIN_JOINED_RATIO = 4;

/**
 * Two runs of letters parted by one blank, the second opening lower-case, neither touching a letter,
 * digit or joiner. The second is only looked at, not taken, so every word is tried as the first part
 * too ("and cert ain": "and cert", then "cert ain"); a join drops the blank.
 */
const PAIR = /(?<![\p{L}\p{N}'’_-])(\p{L}+) (?=(\p{Ll}+)(?![\p{L}\p{N}'’_-]))/gu;
/** A character a part may not touch: a digit or a joiner (letters cannot: a part is a whole run of them). */
const TOUCHING = /[\p{N}'’_-]/u;
/** A part is looked at only when the document writes it at most this often (a split part is rare; "a", "the" are not). */
const MAX_PART_USES = 3;

const key = (a: string, b: string): string => `${a.toLowerCase()} ${b.toLowerCase()}`;

/** Every cell's words, lower-cased, with where each starts and ends in the cell. */
interface CellWords {
  cell: string;
  words: string[];
  at: number[];
}

const LETTER = /\p{L}/u;
/** Whether the character at `i` is a letter (ASCII by its code, others by the letter class). */
function letterAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i) | 32;
  if (c >= 97 && c <= 122) return true;
  return s.charCodeAt(i) > 127 && LETTER.test(s[i]!);
}

/** The document's cells as words (runs of letters), and how often each word is written. */
function readWords(pages: readonly PageLayout[]): { cells: CellWords[]; uses: Map<string, number> } {
  const uses = new Map<string, number>();
  const cells: CellWords[] = [];
  for (const p of pages) {
    for (const line of p.lines) {
      for (const cell of line.cells) {
        const lower = cell.toLowerCase();
        const words: string[] = [];
        const at: number[] = [];
        for (let i = 0; i < lower.length; ) {
          if (!letterAt(lower, i)) {
            i++;
            continue;
          }
          let j = i + 1;
          while (j < lower.length && letterAt(lower, j)) j++;
          const w = lower.slice(i, j);
          words.push(w);
          at.push(i, j);
          uses.set(w, (uses.get(w) ?? 0) + 1);
          i = j;
        }
        if (words.length > 1) cells.push({ cell, words, at });
      }
    }
  }
  return { cells, uses };
}

/** How often each pair of rare parts is written side by side, for the pairs whose joined word the document writes. */
function pairUses(cells: readonly CellWords[], uses: ReadonlyMap<string, number>): Map<string, number> {
  const pairs = new Map<string, number>();
  const rare = (w: string) => (uses.get(w) ?? 0) <= MAX_PART_USES;
  for (const { cell, words, at } of cells) {
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i]!;
      const b = words[i + 1]!;
      const end = at[2 * i + 1]!;
      const next = at[2 * i + 2]!;
      if (next !== end + 1 || cell[end] !== ' ' || !rare(a) || !rare(b) || (uses.get(a + b) ?? 0) < MIN_JOINED_USES) continue;
      if (cell[next]! === cell[next]!.toUpperCase() || TOUCHING.test(cell[at[2 * i]! - 1] ?? '') || TOUCHING.test(cell[at[2 * i + 3]!] ?? '')) continue;
      const k = `${a} ${b}`;
      pairs.set(k, (pairs.get(k) ?? 0) + 1);
    }
  }
  return pairs;
}

/** Joins the split words of every page in place (each line's cells, text and run-in lead); returns how many lines changed. */
export function mendSplitWords(pages: PageLayout[]): number {
  const { cells, uses } = readWords(pages);
  const pairs = pairUses(cells, uses);
  const joinable = new Set<string>();
  for (const [pair, together] of pairs) {
    const [a, b] = pair.split(' ') as [string, string];
    const whole = uses.get(a + b) ?? 0;
    if (whole >= MIN_JOINED_USES && whole >= together * MIN_JOINED_RATIO && (uses.get(a) ?? 0) <= together && (uses.get(b) ?? 0) <= together) joinable.add(pair);
  }
  if (joinable.size === 0) return 0;
  const mend = (s: string): string => s.replace(PAIR, (pair, a: string, b: string) => (joinable.has(key(a, b)) ? a : pair));
  let changed = 0;
  for (const p of pages) {
    for (const line of p.lines) {
      const cells = line.cells.map(mend);
      const lead = line.lead ? mend(line.lead.text) : undefined;
      if (cells.every((c, i) => c === line.cells[i]) && lead === line.lead?.text) continue;
      line.cells = cells;
      line.text = cells.join(' ');
      if (line.lead) line.lead = { ...line.lead, text: lead! };
      changed++;
    }
  }
  return changed;
}
