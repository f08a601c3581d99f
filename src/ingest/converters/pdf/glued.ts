/**
 * Capitals set without word spaces ("ITEM3. LEGALPROCEEDINGS", "NOTE10—INCOMETAXES"): a PDF that
 * places each word by position with no blank between them reads as one token in its headings, so
 * neither readers nor search find "legal proceedings" there. A run of capitals is split where the
 * document itself writes its parts as words next to each other ("legal proceedings" in its prose),
 * and a label glued to its number ("ITEM3") where the document writes the label as a word. The
 * document's own words decide, not a dictionary: a run the document also writes in lower case
 * ("CONSOLIDATED") or that no split of its words explains ("NONSTATUTORY") is left as printed.
 */
import type { Line, PageLayout } from './layout-types.js';

/** Shortest run of capitals looked at as glued words. */
export const MIN_GLUED_LETTERS = 8;
/** Shortest part a run is split into ("OF", "AND" count; "A" does not). */
export const MIN_PART_LETTERS = 2;
/** A part must be written as a word (not in capitals) this many times in the document. */
export const MIN_PART_USES = 2;
/** Most parts one run is split into. */
export const MAX_PARTS = 6;
/**
 * In a line already shown to be glued (a label glued to its number, or a run split on the document's
 * word pairs), a run may also split into words the document writes at least MIN_LOOSE_USES times,
 * of MIN_LOOSE_LETTERS letters or more, that it never happens to print side by side ("ITEM1A.
 * RISKFACTORS" in a filing that names its risk factors nowhere else).
 */
export const MIN_LOOSE_USES = 3;
export const MIN_LOOSE_LETTERS = 3;

/** A run of capitals standing alone: not part of an identifier ("EPSILON_SPLITMERGE", "ARG1"). */
const CAPS_RUN = new RegExp(`(?<![\\p{L}\\d_])\\p{Lu}{${MIN_GLUED_LETTERS},}(?![\\p{L}\\d_])`, 'gu');
/** A label of capitals opening a cell, glued to its number: "ITEM3.", "NOTE10—", "ITEM1A.". */
const LABEL_NUMBER = /^(\p{Lu}{3,})(?=\d{1,3}[A-Z]?[.:—–-])/u;
/** A part that is a roman numeral: "ARTICLEII" is a label and its number. */
const ROMAN = /^[ivxl]{1,5}$/;
/**
 * Fewest parts a run must split into to be split on word pairs alone, in a line showing no other
 * glue: two words the document pairs may still be one name set in capitals ("PAPERSIZE", "MAILFROM").
 */
export const MIN_PARTS_ALONE = 3;
/** Only cells set in capitals are read (headings, captions): glue in mixed text is code or a name ("HTML5", "TEXFONTS"). */
export const MIN_CAPS_SHARE = 0.8;

export interface Lexicon {
  /** lower-cased words as the document writes them outside runs of capitals, with their counts */
  uses: Map<string, number>;
  /** adjacent word pairs ("legal proceedings"), in any case; null: not read yet (any pair passes, to see whether a split could exist) */
  pairs: Set<string> | null;
}

function isCaps(w: string): boolean {
  return w.length > 1 && w === w.toUpperCase();
}

/** Letters of the scripts a run of capitals may be in (Latin, Greek, Cyrillic); anything else splits words. */
const NOT_LETTERS = /[^A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]+/;

/** Every part a run could split into: its substrings of MIN_PART_LETTERS letters or more, the run itself included. */
function partsOf(runs: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const r of runs) for (let i = 0; i < r.length; i++) for (let j = i + MIN_PART_LETTERS; j <= r.length; j++) out.add(r.slice(i, j));
  return out;
}

/** The document's words in reading order (split on anything but letters). */
function documentWords(pages: readonly PageLayout[]): string[] {
  const texts: string[] = [];
  for (const p of pages) for (const l of p.lines) texts.push(l.text);
  return texts.join('\n').split(NOT_LETTERS);
}

/** A word lower-cased (most are already: only one opening with a capital is lower-cased). */
function lower(w: string): string {
  const c0 = w.charCodeAt(0);
  return c0 >= 0x61 && c0 <= 0x7a ? w : w.toLowerCase();
}

/** How often the document writes each of the `wanted` words (lower-cased) outside runs of capitals. */
function countUses(words: readonly string[], wanted: ReadonlySet<string>): Map<string, number> {
  const uses = new Map<string, number>();
  for (const w of words) {
    const lw = lower(w);
    if (wanted.has(lw) && !isCaps(w)) uses.set(lw, (uses.get(lw) ?? 0) + 1);
  }
  return uses;
}

/** The pairs of `wanted` words the document prints side by side ("legal proceedings"). */
function countPairs(words: readonly string[], wanted: ReadonlySet<string>): Set<string> {
  const pairs = new Set<string>();
  let prev = '';
  for (const w of words) {
    const lw = lower(w);
    if (!wanted.has(lw)) {
      prev = '';
      continue;
    }
    if (prev) pairs.add(`${prev} ${lw}`);
    prev = lw;
  }
  return pairs;
}

/**
 * The lexicon for the suspects' runs and labels: the uses of every part a run could split into, in
 * one pass; the pairs only when some run the document does not write as a word ("CONSOLIDATED" it
 * does) could split into such parts at all. Null when no run needs splitting and no label is glued.
 */
function lexiconFor(pages: readonly PageLayout[], runs: ReadonlySet<string>, labels: ReadonlySet<string>): Lexicon | null {
  const words = documentWords(pages);
  const wanted = partsOf(runs);
  for (const l of labels) wanted.add(l);
  const lex: Lexicon = { uses: countUses(words, wanted), pairs: null };
  const unknown = [...runs].filter((r) => (lex.uses.get(r) ?? 0) < MIN_WORD_KEPT_USES);
  if (unknown.length === 0 && labels.size === 0) return null;
  const mayPair = labels.size > 0 || unknown.some((r) => splitRun(r, lex) !== null);
  lex.pairs = mayPair ? countPairs(words, wanted) : new Set();
  return lex;
}

/**
 * The fewest parts a lower-cased run splits into, each a word the document writes and each next to
 * the following one somewhere in the document; null when there is no such split.
 */
export function splitRun(run: string, lex: Lexicon, loose = false): string[] | null {
  const n = run.length;
  const minLetters = loose ? MIN_LOOSE_LETTERS : MIN_PART_LETTERS;
  // best[i]: the fewest parts covering run[0, i), with the part ending at i
  const best: Array<{ parts: number; from: number } | null> = new Array(n + 1).fill(null);
  best[0] = { parts: 0, from: -1 };
  // a roman numeral counts as a word however it is printed: the document sets it in capitals ("Article II")
  const known = (w: string) => (lex.uses.get(w) ?? 0) >= (loose ? MIN_LOOSE_USES : MIN_PART_USES) || (!loose && ROMAN.test(w));
  const partAt = (i: number): string => run.slice(best[i]!.from, i);
  for (let i = minLetters; i <= n; i++) {
    for (let j = 0; j <= i - minLetters; j++) {
      const before = best[j];
      if (!before || before.parts >= MAX_PARTS) continue;
      const w = run.slice(j, i);
      if (!known(w)) continue;
      if (j > 0 && !loose && lex.pairs && !lex.pairs.has(`${partAt(j)} ${w}`)) continue;
      const cand = { parts: before.parts + 1, from: j };
      if (!best[i] || cand.parts < best[i]!.parts) best[i] = cand;
    }
  }
  if (!best[n] || best[n]!.parts < 2) return null;
  const parts: string[] = [];
  for (let i = n; i > 0; i = best[i]!.from) parts.unshift(run.slice(best[i]!.from, i));
  return parts;
}

/**
 * A run the document writes as a word this many times outside capitals is that word ("CONSOLIDATED"
 * / "consolidated"); fewer are the same glue in prose ("provision for incometaxes").
 */
export const MIN_WORD_KEPT_USES = 3;

/** A run of capitals split into its words as printed, or null (a word the document writes, or no split). */
function runParts(run: string, lex: Lexicon, loose: boolean): string[] | null {
  const lw = run.toLowerCase();
  if ((lex.uses.get(lw) ?? 0) >= MIN_WORD_KEPT_USES) return null;
  const parts = splitRun(lw, lex, loose);
  if (!parts) return null;
  let at = 0;
  return parts.map((p) => run.slice(at, (at += p.length)));
}

/**
 * The cells of one line with their glued labels spaced from their numbers and their glued runs of
 * capitals split: on the document's word pairs, and in a line shown to be glued, on its words alone.
 */
export function unglueCells(cells: readonly string[], lex: Lexicon): string[] {
  let glued = false;
  const labelled = cells.map((c) => (!inCapitals(c) ? c : c.replace(LABEL_NUMBER, (w) => {
    if ((lex.uses.get(w.toLowerCase()) ?? 0) < MIN_PART_USES) return w;
    glued = true;
    return `${w} `;
  })));
  const strict = labelled.map((c) => (!inCapitals(c) ? c : c.replace(CAPS_RUN, (run) => {
    const parts = runParts(run, lex, false);
    if (!parts || !(glued || parts.length >= MIN_PARTS_ALONE || (parts.length === 2 && ROMAN.test(parts[1]!.toLowerCase())))) return run;
    glued = true;
    return parts.join(' ');
  })));
  if (!glued) return strict;
  return strict.map((c) => (!inCapitals(c) ? c : c.replace(CAPS_RUN, (run) => runParts(run, lex, true)?.join(' ') ?? run)));
}

/** Whether a cell's letters are set in capitals (MIN_CAPS_SHARE of them). */
function inCapitals(cell: string): boolean {
  let upper = 0;
  let lowerCase = 0;
  for (let i = 0; i < cell.length; i++) {
    const c = cell.charCodeAt(i);
    if (c > 0x7f) return inCapitalsAnyScript(cell);
    if (c >= 0x41 && c <= 0x5a) upper++;
    else if (c >= 0x61 && c <= 0x7a) lowerCase++;
  }
  return upper > 0 && upper >= MIN_CAPS_SHARE * (upper + lowerCase);
}

function inCapitalsAnyScript(cell: string): boolean {
  const letters = cell.match(/\p{L}/gu)?.length ?? 0;
  return letters > 0 && (cell.match(/\p{Lu}/gu)?.length ?? 0) >= MIN_CAPS_SHARE * letters;
}

/**
 * Three capitals in a row: a cell without them holds neither a glued label nor a run of capitals
 * (Latin capitals: a cheap first test of every cell of the document).
 */
const THREE_CAPS = /[A-Z]{3}/;

/** The runs (lower-cased) and glued labels of a line's cells set in capitals: what may be glued words. */
function gluedSuspects(l: Line): { runs: string[]; labels: string[] } {
  const runs: string[] = [];
  const labels: string[] = [];
  for (const c of l.cells) {
    if (!THREE_CAPS.test(c) || !inCapitals(c)) continue;
    const label = LABEL_NUMBER.exec(c)?.[1];
    if (label) labels.push(label.toLowerCase());
    for (const m of c.matchAll(CAPS_RUN)) runs.push(m[0].toLowerCase());
  }
  return { runs, labels };
}

/** Splits the glued capitals of every page in place (each line's text and cells); returns the lines changed. */
export function unglueCapitals(pages: PageLayout[]): number {
  const suspects: Array<{ line: Line; runs: string[]; labels: string[] }> = [];
  for (const p of pages) {
    for (const line of p.lines) {
      const s = gluedSuspects(line);
      if (s.labels.length > 0 || s.runs.length > 0) suspects.push({ line, ...s });
    }
  }
  if (suspects.length === 0) return 0;
  const lex = lexiconFor(pages, new Set(suspects.flatMap((s) => s.runs)), new Set(suspects.flatMap((s) => s.labels)));
  if (!lex) return 0;
  const isWord = (run: string) => (lex.uses.get(run) ?? 0) >= MIN_WORD_KEPT_USES;
  let changed = 0;
  for (const { line: l, runs, labels } of suspects) {
    if (labels.length === 0 && runs.every(isWord)) continue;
    const cells = unglueCells(l.cells, lex);
    if (cells.every((c, i) => c === l.cells[i])) continue;
    l.cells = cells;
    l.text = cells.join(' ');
    if (l.lead) l.lead = { ...l.lead, text: unglueCells([l.lead.text], lex)[0]! };
    changed++;
  }
  return changed;
}
