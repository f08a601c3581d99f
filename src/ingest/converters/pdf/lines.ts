/**
 * Lines from pdfjs text items: items are grouped by baseline, ordered left to right, and split
 * into cells where the horizontal gap is wide (table columns, TOC page numbers). Pages printed in
 * two columns are detected by a vertical white gutter and read left column first.
 */
import type { Line, PageLayout } from './layout-types.js';

/** Items whose baselines differ by less than this share of the font size sit on one line. */
export const LINE_TOLERANCE_EM = 0.45;
/** A horizontal gap wider than this many ems starts a new cell. */
export const CELL_GAP_EM = 1.2;
/** A gap wider than this many ems between two items is a word space. */
export const SPACE_GAP_EM = 0.12;
/** A one-letter lowercase item closer than this many ems to a word continues the word. */
export const KERNED_TAIL_EM = 0.3;
/** Two-column detection: the gutter is searched between these shares of the page width. */
export const GUTTER_SEARCH: [number, number] = [0.3, 0.7];
/**
 * Two-column detection, second look: a gap wider than this many ems splits a line into the
 * segments the gutter search reads. LaTeX's default column separation is 10 pt, one em of 10 pt
 * text and under CELL_GAP_EM: a left column's justified line and the right column's were one cell,
 * so no gutter showed (vegan's diversity vignette was read row by row across both columns).
 */
export const NARROW_GUTTER_EM = 0.8;
/** Two-column detection: lines of prose needed on each side of the gutter. */
export const MIN_COLUMN_LINES = 5;
/** Two-column detection: a side's segment counts as prose from this many characters. */
export const MIN_COLUMN_PROSE_CHARS = 12;
/** Two-column detection: share of letters (vs digits/symbols) for a segment to count as prose. */
export const PROSE_LETTER_RATIO = 0.6;
/** Items rotated more than this (sin of the angle) are margin labels and are skipped. */
export const MAX_ROTATION = 0.1;

export interface RawItem {
  str?: string;
  transform?: number[];
  width?: number;
  fontName?: string;
}

interface Item {
  str: string;
  x: number;
  x2: number;
  y: number;
  size: number;
  font: string;
}

interface Cell {
  text: string;
  x: number;
  x2: number;
}

/**
 * Ligatures are spelled out as their letters. TeX fonts without a Unicode map print the
 * ff/fi/fl/ffi/ffl ligatures as control codes (T1 encoding 0x1B–0x1F, OT1 0x0B–0x0F); left alone
 * they vanish and "field" reads "eld". Control codes are never text, so mapping them back loses nothing.
 */
const LIGATURES: Record<string, string> = {
  '\u001b': 'ff', '\u001c': 'fi', '\u001d': 'fl', '\u001e': 'ffi', '\u001f': 'ffl',
  '\u000b': 'ff', '\u000c': 'fi', '\u000d': 'fl', '\u000e': 'ffi', '\u000f': 'ffl',
};
// eslint-disable-next-line no-control-regex -- TeX fonts without a Unicode map emit ligatures as control codes
const T1_LIGATURE = /[\u001b-\u001f]/g;
/** OT1 codes double as white space (\v, \f, \r): only between or next to letters. */
// eslint-disable-next-line no-control-regex -- OT1 ligature codes
const OT1_LIGATURE = /(?<=\p{L})[\u000b-\u000f]|[\u000b-\u000f](?=\p{L})/gu;

/**
 * Unicode's ligature letters (U+FB00–FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ), which fonts with a Unicode map give for
 * the same glyphs: "ﬁle" is not the word "file" that a reader types or greps for.
 */
const UNICODE_LIGATURE = /[\ufb00-\ufb06]/g;

export function fixLigatures(s: string): string {
  // eslint-disable-next-line no-control-regex -- ligature codes, see above
  const codes = /[\u000b-\u000f\u001b-\u001f]/.test(s);
  const letters = /[\ufb00-\ufb06]/.test(s);
  if (!codes && !letters) return s;
  const spelled = letters ? s.replace(UNICODE_LIGATURE, (c) => c.normalize('NFKC')) : s;
  return codes ? spelled.replace(T1_LIGATURE, (c) => LIGATURES[c]!).replace(OT1_LIGATURE, (c) => LIGATURES[c]!) : spelled;
}

/** Spacing accents (as a TeX font prints them, a glyph of their own) and the combining marks they stand for. */
const SPACING_ACCENTS: Readonly<Record<string, string>> = {
  '\u00a8': '\u0308', '\u00b4': '\u0301', '\u00b8': '\u0327', '\u00af': '\u0304', '\u02d8': '\u0306', '\u02d9': '\u0307',
  '\u02da': '\u030a', '\u02db': '\u0328', '\u02dd': '\u030b', '\u02c7': '\u030c', '\u02c6': '\u0302', '\u02dc': '\u0303',
};
const HAS_SPACING_ACCENT = /[\u00a8\u00b4\u00b8\u00af\u02d8\u02d9\u02da\u02db\u02dd\u02c7\u02c6\u02dc]/u;
const ACCENT_BEFORE_LETTER = /([\u00a8\u00b4\u00b8\u00af\u02d8\u02d9\u02da\u02db\u02dd\u02c7\u02c6\u02dc])(\p{L})/gu;
const ACUTE = '\u00b4';
const VOWEL = /^[aeiouyAEIOUY]$/;

/**
 * Accents printed as a glyph of their own before the letter ("Z¨ahler", "¨Uberschriften",
 * "Fern´andez"): the spacing accent and its letter are one letter again ("Zähler"), when Unicode has
 * that letter. An acute accent joins vowels only: before a consonant it is an apostrophe typed as
 * one ("it´s"). The ASCII grave, circumflex and tilde are code ("`a`", "x^2", "~/"), never joined.
 */
export function composeAccents(s: string): string {
  if (!HAS_SPACING_ACCENT.test(s)) return s;
  return s.replace(ACCENT_BEFORE_LETTER, (m: string, accent: string, letter: string) => {
    if (accent === ACUTE && !VOWEL.test(letter)) return m;
    const one = `${letter}${SPACING_ACCENTS[accent]}`.normalize('NFC');
    return one.length === 1 ? one : m;
  });
}

/**
 * A soft hyphen (U+00AD) in a page's text was printed: some producers map their hyphen-minus glyph
 * to it (RAxML's manual: "raxmlHPC ­s alg.phy ­m GTRGAMMA", "site­specific"), and a soft hyphen
 * that only marks where a word may break is never drawn. It is the "-" a reader sees and types.
 */
const SOFT_HYPHEN = /\u00ad/g;

/**
 * The ff ligature of a TeX font re-encoded without a Unicode map, read as U+21B5 (↵), the glyph
 * its code has in the encoding the reader assumed: "di↵erent", "Co↵ee", "turn o↵ or on" (TeXshade's
 * manual). Right after a letter that arrow is never what was meant. (The same code in the math
 * italic font is α, "↵-helix": left as printed.)
 */
const FF_AS_RETURN_ARROW = /(?<=\p{L})\u21b5/gu;

/** An item's text as printed: ligatures spelled out, printed soft hyphens as hyphens. */
function printedText(s: string): string {
  const t = fixLigatures(s);
  return t.includes('\u00ad') ? t.replace(SOFT_HYPHEN, '-') : t;
}

/** A cell's text with the ff ligature read as an arrow spelled out (on the cell: the arrow is often an item of its own). */
function spelledFf(s: string): string {
  return s.includes('\u21b5') ? s.replace(FF_AS_RETURN_ARROW, 'ff') : s;
}

function toItems(raw: RawItem[]): Item[] {
  const out: Item[] = [];
  for (const r of raw) {
    const str = typeof r.str === 'string' ? printedText(r.str) : r.str;
    if (typeof str !== 'string' || str.trim() === '' || !r.transform) continue;
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = r.transform;
    const size = Math.hypot(c, d) || Math.abs(a) || 1;
    if (Math.abs(b) > MAX_ROTATION * size) continue;
    const it = { str, x: e, x2: e + Math.max(0, r.width ?? 0), y: f, size, font: r.fontName ?? '' };
    if (!overprinted(it, out)) out.push(it);
  }
  return out;
}

/** Items looked back at for the same text printed again in place (overprinted). */
export const OVERPRINT_LOOKBACK = 8;
/** …within this many of its size of the first print, across and up. */
export const OVERPRINT_EM = 0.3;

/**
 * The same text printed again a hair from where it was just printed: bold faked by printing a line
 * several times, slightly shifted (QDBM's benchmark sheet, its title read "Benchmark Test of DBM
 * BrothersBenchmark Test of DBM Brothers…" and its headings "ResultResultResultResult"). One print is
 * the text; the others are ink.
 */
function overprinted(it: Item, before: Item[]): boolean {
  for (let k = before.length - 1; k >= 0 && k >= before.length - OVERPRINT_LOOKBACK; k--) {
    const p = before[k]!;
    if (p.str === it.str && p.size === it.size && Math.abs(p.x - it.x) <= OVERPRINT_EM * it.size && Math.abs(p.y - it.y) <= OVERPRINT_EM * it.size) return true;
  }
  return false;
}

function letterRatio(s: string): number {
  let letters = 0;
  let other = 0;
  // dot leaders (an index or contents column) are layout, not the text's own characters
  for (const ch of s.replace(/(?:\s?\.){3,}/g, ' ')) {
    if (/\p{L}/u.test(ch)) letters++;
    else if (ch !== ' ') other++;
  }
  return letters + other === 0 ? 0 : letters / (letters + other);
}

/**
 * Groups items (any order) into baseline lines, each sorted by x. A line's baseline is that of its
 * largest print so far: a raised footnote mark read first must not set it, or the words of the line
 * fall outside the tolerance (FHS p. 14: mark "2" and the Courier "/etc" and "init" one line, the
 * Times words of their sentence another).
 */
function groupLines(items: Item[]): Item[][] {
  const sorted = [...items].sort((p, q) => q.y - p.y || p.x - q.x);
  const groups: Item[][] = [];
  let cur: Item[] = [];
  let y = 0;
  let size = 0;
  for (const it of sorted) {
    if (cur.length > 0 && Math.abs(y - it.y) <= LINE_TOLERANCE_EM * Math.max(size, it.size)) {
      cur.push(it);
      if (it.size > size) {
        size = it.size;
        y = it.y;
      }
      continue;
    }
    if (cur.length) groups.push(cur);
    cur = [it];
    y = it.y;
    size = it.size;
  }
  if (cur.length) groups.push(cur);
  for (const g of groups) g.sort((p, q) => p.x - q.x);
  return groups;
}

/**
 * Tokens a generator left in the text layer that are not text: GUIDs (or runs of their dash-joined
 * hex groups), long hex strings, and template slots such as PLACEHOLDER_156.
 */
const HEX_IDS = /\b(?:[0-9a-f]{8}(?:-[0-9a-f]{4}){1,3}(?:-[0-9a-f]{12})?|(?:[0-9a-f]{4}-){1,3}[0-9a-f]{12}|[0-9a-f]{32,})\b/gi;
const TEMPLATE_SLOTS = /\b[A-Z]{6,}_\d+\b/g;

const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Whether `s` holds what each boilerplate pattern starts with — 4 hex digits and a '-', 32 hex
 * digits, or 6 letters, '_' and a digit (/[0-9a-f]{4}-|[0-9a-f]{32}|[A-Z]{6}_\d/i) — in one pass
 * (the regex costs several times more, on every cell of every page).
 */
function mayHoldBoilerplate(s: string): boolean {
  let hex = 0;
  let letters = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 45 && hex >= 4) return true;
    if (c === 95 && letters >= 6 && i + 1 < s.length && s.charCodeAt(i + 1) >= 48 && s.charCodeAt(i + 1) <= 57) return true;
    hex = isHex(c) ? hex + 1 : 0;
    if (hex >= 32) return true;
    letters = isAsciiLetter(c) ? letters + 1 : 0;
  }
  return false;
}

export function dropBoilerplate(s: string): string {
  // each pattern needs a '-', a '_' or 32 characters: most cells have none and skip the regexes
  if (s.length < 32 && !s.includes('-') && !s.includes('_')) return s;
  if (!mayHoldBoilerplate(s)) return s;
  return s.replace(HEX_IDS, ' ').replace(TEMPLATE_SLOTS, ' ');
}

/** A footnote mark: a short number, sign or letter ("Eddelbuettel" + raised "a") printed smaller than, and raised above, the text before it. */
export const FOOTNOTE_SIZE_RATIO = 0.85;
export const FOOTNOTE_RAISE_EM = 0.15;
/**
 * Control characters a font without a Unicode map hands over for its glyphs (math symbols: NUL, ^E,
 * ^Z): no reader sees them, and they made converted pages binary to grep (374 pages of the
 * cross-domain set).
 */
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** Text a footnote reference follows: a word of three letters or more, or the punctuation after one. */
const AFTER_WORD = /\p{L}{3,}[.,;:)”’"']?\s*$/u;
function isFootnoteMark(it: Item, prev: Item | undefined): boolean {
  return !!prev && /^(?:\d{1,3}|[*∗†‡§]|[a-z])$/.test(it.str.trim()) && it.size < prev.size * FOOTNOTE_SIZE_RATIO && it.y > prev.y + FOOTNOTE_RAISE_EM * prev.size;
}

/**
 * Small capitals set as a larger initial plus smaller capitals ("M" "ANAGEMENT’S", "MGM R" "ESORTS"):
 * the initial is its own text run, a narrow gap before the rest. Joined when the run before ends on a
 * lone capital, the next starts with capitals, and the gap is under this many ems…
 */
export const SMALL_CAPS_GAP_EM = 0.4;
/** …and the rest is printed smaller than the initial, or the initial is a run of its own and not a one-letter word ("A", "I")… */
export const SMALL_CAPS_SIZE_RATIO = 0.9;
/**
 * …with, at one size, at least this many capitals after it: a lone capital before two or three
 * capitals at its own size is a name before an acronym ("R API", "C API", "R FAQ"), two words.
 */
export const SMALL_CAPS_SAME_SIZE_MIN_TAIL = 4;

function smallCapsTail(cur: Cell, prev: Item, it: Item, gap: number): boolean {
  const initial = /(?:^|\s)(\p{Lu})$/u.exec(cur.text);
  if (!initial || !/^\p{Lu}{2}/u.test(it.str) || !/^\p{Lu}$/u.test(prev.str.slice(-1))) return false;
  const word = /^[^\s]+/.exec(it.str)![0];
  if (word !== word.toUpperCase() || gap < 0 || gap > SMALL_CAPS_GAP_EM * prev.size) return false;
  // at one size only a run holding the initial alone: "EXHIBIT B" + "AGREEMENT" are two words
  return it.size < prev.size * SMALL_CAPS_SIZE_RATIO || (prev.str.trim().length === 1 && !/^[AI]$/.test(initial[1]!) && (word.match(/\p{Lu}/gu)?.length ?? 0) >= SMALL_CAPS_SAME_SIZE_MIN_TAIL);
}

/**
 * A footnote's own number raised before its text at the line's start ("²By default, cmcalibrate
 * searches…"): kept apart from the word after it ("2 By default"), which read "2By" and hid the
 * footnote's first word from search.
 */
function opensWithMark(items: Item[]): boolean {
  const [m, next] = items;
  // raised and smaller than the text after it, as a reference is than the text before it
  return !!m && !!next && /^(?:\d{1,3}|[*∗†‡§])$/.test(m.str.trim()) && isFootnoteMark(m, next);
}

/** Word endings TeX's logo takes in running text ("LATEXing", "LATEXed", "TEX's"): no space before them. */
const LOGO_SUFFIX = /^(?:ing|ed|er|ers|s|'s|’s|ian|ish|nician|nicians)\b/;

/**
 * The LaTeX logo set as "L", a raised small "A", then "TEX": pdf readers join the logo's last letter to
 * the word after it when TeX's interword space follows the lowered E ("LATEXwith the skak Package",
 * "LATEXmacros"); the word is parted from the logo again. `items[i]` is the run after the raised "A".
 */
function partedLogo(items: Item[], i: number): string {
  const it = items[i]!;
  const a = items[i - 1];
  const l = items[i - 2];
  const m = /^TEX(?=\p{Ll})/u.exec(it.str);
  if (!m || !a || !l || a.str.trim() !== 'A' || !l.str.endsWith('L') || a.size >= it.size || a.y <= it.y) return it.str;
  const rest = it.str.slice(3);
  return LOGO_SUFFIX.test(rest) ? it.str : `TEX ${rest}`;
}

/** A power's base: one letter standing alone or after a number (σ, χ, the m of "0.269m"); a word's end ("by", "km") is not one. */
const LETTER_BASE = /(?:^|[^\p{L}\p{M}])\p{L}\p{M}?$/u;
/** …or a power of ten, not the end of a longer number ("2010", "1.10"), whose power is a whole number ("Meg | Mega | 10 6" had hidden ngspice's 10^6)… */
const TEN_BASE = /(?:^|[^\d.,])10$/;
/** …or a single digit (2 of "2^28"), whose power is a whole number too: "1 2/3¢" is a mixed fraction. */
const DIGIT_BASE = /(?:^|[^\p{L}\p{M}\p{N}.,])\d$/u;
/** A power: a (signed) number, a decimal or a fraction ("2", "-1", "0.928", "1/2"). */
const POWER = /^[−-]?\d{1,3}(?:[./]\d{1,3})?$/;
const WHOLE_POWER = /^[−-]?\d{1,3}$/;

/**
 * A run raised above and smaller than the run before, holding a number, right after a symbol
 * (LETTER_BASE, TEN_BASE, DIGIT_BASE): its exponent. Cheap tests first: it is asked of every run. A mark after a word is a footnote reference
 * (isFootnoteMark), after a longer number or a bracket it may be one too, so those are left apart.
 * Agents read "CV = 1 / a1/2" and "2 28" for 1/a^(1/2) and 2^28 (audits 14 and 15).
 */
function raisedPower(text: string, it: Item, prev: Item, next: Item | undefined): boolean {
  const power = it.str.trim();
  if (it.size >= prev.size * FOOTNOTE_SIZE_RATIO || it.y <= prev.y + FOOTNOTE_RAISE_EM * prev.size || !POWER.test(power)) return false;
  const base = text.trimEnd();
  if (LETTER_BASE.test(base)) return true;
  if (!WHOLE_POWER.test(power)) return false;
  // (a digit's raised numerator before its slash is a fraction's: "1 2/3¢")
  return TEN_BASE.test(base) || (DIGIT_BASE.test(base) && !/^\s*[/⁄]/.test(next?.str ?? ''));
}

function cellsOf(items: Item[]): Cell[] {
  const cells: Cell[] = [];
  let cur: Cell | null = null;
  let prev: Item | undefined;
  const leadingMark = opensWithMark(items);
  if (items.some((it, i) => i >= 2 && it.str.startsWith('TEX'))) items = items.map((it, i) => (i >= 2 && it.str.startsWith('TEX') ? { ...it, str: partedLogo(items, i) } : it));
  for (const [i, it] of items.entries()) {
    if (leadingMark && prev === items[0] && cur && !cur.text.endsWith(' ') && !it.str.startsWith(' ')) cur.text += ' ';
    const mark = isFootnoteMark(it, prev);
    const before = prev;
    prev = it;
    // a mark after a word or its punctuation is a footnote reference: "environments⁴ which" reads
    // "environments[4] which", not "environments 4 which" (an agent took the 4 for part of the text);
    // after a lone letter or a number it may be an exponent ("O(n²)"), kept apart: "n 2", never "n2"
    if (mark && cur && AFTER_WORD.test(cur.text) && it.x - cur.x2 <= CELL_GAP_EM * it.size) {
      cur.text = `${cur.text.trimEnd()}[${it.str.trim()}]`;
      cur.x2 = Math.max(cur.x2, it.x2);
      continue;
    }
    // a number raised over a symbol reads as its power: "10^6", "σ^2", "χ^2", "0.269m^0.928", "2^28"
    if (cur && before && raisedPower(cur.text, it, before, items[i + 1]) && it.x - cur.x2 <= KERNED_TAIL_EM * it.size) {
      cur.text = `${cur.text.trimEnd()}^${it.str.trim().replace('−', '-')}`;
      cur.x2 = Math.max(cur.x2, it.x2);
      continue;
    }
    if (mark && cur && !cur.text.endsWith(' ')) cur.text += ' ';
    if (cur) {
      const gap = it.x - cur.x2;
      if (gap > CELL_GAP_EM * it.size) {
        cells.push(cur);
        cur = null;
      } else {
        // a lone lowercase letter (not the word "a") right after a word is the word's tail split off
        // by kerning or a stray space ("Incom" "e", "Shee t")
        // (in the word's own font: a one-letter symbol in another, "the" + italic "q", is a word of its own)
        const tail = (/^[b-z][.,:;]?$/.test(it.str) && /[A-Za-z]$/.test(cur.text) && gap < KERNED_TAIL_EM * it.size && before?.font === it.font) || (!!before && smallCapsTail(cur, before, it, gap));
        if (gap > SPACE_GAP_EM * it.size && !tail && !cur.text.endsWith(' ') && !it.str.startsWith(' ')) cur.text += ' ';
        cur.text += it.str;
        cur.x2 = Math.max(cur.x2, it.x2);
        continue;
      }
    }
    cur = { text: it.str, x: it.x, x2: it.x2 };
  }
  if (cur) cells.push(cur);
  for (const c of cells) c.text = spelledFf(composeAccents(dropBoilerplate(c.text.replace(CONTROL_CHARS, '')).replace(/\s+/g, ' ').trim()));
  return cells.filter((c) => c.text.length > 0);
}

function dominant(items: Item[]): { size: number; font: string } {
  const sizes = new Map<number, number>();
  const fonts = new Map<string, number>();
  for (const it of items) {
    const n = it.str.length;
    const s = Math.round(it.size * 2) / 2;
    sizes.set(s, (sizes.get(s) ?? 0) + n);
    fonts.set(it.font, (fonts.get(it.font) ?? 0) + n);
  }
  let size = 0;
  let best = -1;
  for (const [s, n] of sizes) {
    if (n > best || (n === best && s > size)) {
      size = s;
      best = n;
    }
  }
  let font = '';
  best = -1;
  for (const [f, n] of fonts) {
    if (n > best || (n === best && f < font)) {
      font = f;
      best = n;
    }
  }
  return { size, font };
}

/**
 * The opening run of a one-cell line printed in one font, ending in a period or colon, with text
 * in another font after it: a run-in heading ("2.2. Advanced configuration. Configure
 * accepts…"), else undefined.
 */
function leadOf(items: Item[]): Line['lead'] {
  const first = items[0]!;
  let n = 1;
  while (n < items.length && items[n]!.font === first.font) n++;
  if (n === items.length) return undefined;
  // the period after the run may be printed in the paragraph's font ("Advanced configuration" ".")
  const stop = /[.:]\s*$/.test(items[n - 1]!.str) ? '' : (/^[.:](?=\s|$)/.exec(items[n]!.str.trimStart())?.[0] ?? null);
  if (stop === null) return undefined;
  const text = cellsOf(items.slice(0, n)).map((c) => c.text).join(' ') + stop;
  return { text, font: first.font };
}

function toLine(items: Item[], cells: Cell[] = cellsOf(items)): Line | null {
  if (cells.length === 0) return null;
  const { size, font } = dominant(items);
  const y = items.reduce((s, it) => s + it.y, 0) / items.length;
  const lead = cells.length === 1 ? leadOf(items) : undefined;
  return {
    ...(lead ? { lead } : {}),
    cells: cells.map((c) => c.text),
    ...(cells.length > 1 ? { spans: cells.flatMap((c) => [c.x, c.x2]) } : {}),
    text: cells.map((c) => c.text).join(' '),
    x: cells[0]!.x,
    x2: cells[cells.length - 1]!.x2,
    y,
    size,
    font,
    gapAbove: Infinity,
  };
}

/** x of a vertical white gutter with prose on both sides, or null for a single-column page. */
export function findGutter(groups: Item[][], width: number, groupCells: Cell[][] = groups.map(cellsOf)): number | null {
  if (width <= 0) return null;
  const all = groupCells.flat();
  const found = gutterOf(all, width);
  if (found !== null) return found;
  // a title, abstract or caption printed across both columns hides the gutter: look again without
  // the full-width lines when they are few (spanning text is then read before/after the columns)
  const narrow = all.filter((c) => c.x2 - c.x <= width * SPANNING_SHARE);
  const again = all.length - narrow.length <= all.length * MAX_SPANNING_SHARE ? gutterOf(narrow, width, width * MIN_COLUMN_LINE_SHARE) : null;
  return again ?? gutterInside(groups, groupCells, width);
}

/** Rows across the columns at the page's top or bottom that gutterInside leaves out: at most this many. */
export const MAX_EDGE_ROWS = 6;

/**
 * A clean gutter between rows printed across the columns at the page's bottom or top only (TLSH's
 * publication note under both columns of every page, four lines of URLs): such rows are read below
 * or above the columns, as a spanning title is; the pages had been read row by row, the columns'
 * lines interleaved ("The TLSH digest of the byte string is evaluated as the D. Step 4. Construct…").
 */
function gutterInside(groups: Item[][], groupCells: Cell[][], width: number): number | null {
  const x = leastCovered(groupCells.flat(), width)?.x;
  if (x === undefined) return null;
  const y = (g: Item[]) => g.reduce((a, it) => a + it.y, 0) / g.length;
  // rows top first; those crossing x must all sit in an unbroken run at the top or the bottom
  const order = groups.map((g, i) => ({ i, y: y(g) })).sort((a, b) => b.y - a.y).map((r) => r.i);
  const crossing = order.map((i) => groupCells[i]!.some((c) => c.x + 1 < x && c.x2 - 1 > x));
  let top = 0;
  while (top < order.length && crossing[top]) top++;
  let bottom = order.length;
  while (bottom > top && crossing[bottom - 1]) bottom--;
  const edge = top + order.length - bottom;
  if (edge === 0 || edge > MAX_EDGE_ROWS || crossing.slice(top, bottom).some(Boolean)) return null;
  const inner = order.slice(top, bottom).map((i) => groupCells[i]!);
  const gutter = gutterOf(inner.flat(), width);
  // two columns of text, not a table's labels beside their values under a caption (ngspice's "Description: | …")
  return gutter !== null && textBesideGutter(inner, gutter) ? gutter : null;
}

/** Without a clean gutter, column lines must be this long (share of the page width): prose, not table cells. */
export const MIN_COLUMN_LINE_SHARE = 0.3;

/** A segment wider than this share of the page spans both columns. */
export const SPANNING_SHARE = 0.6;
/** At most this share of a two-column page's segments may span both columns. */
export const MAX_SPANNING_SHARE = 0.25;

function gutterOf(segs: Cell[], width: number, minLine = 0): number | null {
  const least = leastCovered(segs, width);
  if (!least || least.cover > 1) return null;
  const bestX = least.x;
  let left = 0;
  let right = 0;
  for (const s of segs) {
    if (s.text.length < MIN_COLUMN_PROSE_CHARS || letterRatio(s.text) < PROSE_LETTER_RATIO || s.x2 - s.x < minLine) continue;
    if (s.x2 <= bestX) left++;
    else if (s.x >= bestX) right++;
  }
  return left >= MIN_COLUMN_LINES && right >= MIN_COLUMN_LINES ? bestX : null;
}

/** The x in the gutter search range crossed by the fewest segments (the nearest the page's middle among equals), and how many cross it. */
function leastCovered(segs: Cell[], width: number): { x: number; cover: number } | null {
  const bins = Math.ceil(width) + 2;
  const diff = new Int32Array(bins + 1);
  for (const c of segs) {
    const a = Math.max(0, Math.floor(c.x));
    const b = Math.min(bins, Math.ceil(c.x2));
    if (b <= a) continue;
    diff[a]! += 1;
    diff[b]! -= 1;
  }
  const lo = Math.floor(width * GUTTER_SEARCH[0]);
  const hi = Math.ceil(width * GUTTER_SEARCH[1]);
  let run = 0;
  let bestX = -1;
  let bestCover = Infinity;
  let bestDist = Infinity;
  for (let x = 0; x <= hi && x < bins; x++) {
    run += diff[x]!;
    if (x < lo) continue;
    const dist = Math.abs(x - width / 2);
    if (run < bestCover || (run === bestCover && dist < bestDist)) {
      bestCover = run;
      bestX = x;
      bestDist = dist;
    }
  }
  return bestX < 0 ? null : { x: bestX, cover: bestCover };
}

/** Banded two-column detection: the columns' part of the page must hold at least this many rows. */
export const MIN_BAND_ROWS = 10;
/**
 * …of which at most this share of cells may be other than prose (numbers, short labels): a table
 * under a paragraph, its labels left and its figures right, is not two columns of text.
 */
export const MAX_BAND_OTHER_SHARE = 0.25;

/** Banded columns are about as wide as each other (narrower / wider, from the text's edges to the gutter)… */
export const MIN_BAND_BALANCE = 0.7;
/**
 * …and on each side the median line fills this share of its column (justified prose, not a table's
 * cells; a contents list beside prose, mnras p. 1, fails it and stays read by rows).
 */
export const MIN_BAND_FILL = 0.75;

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : 0;
}

/** Whether prose cells left and right of `x` look like two columns of text rather than a table's columns of cells. */
function columnsOfText(left: Cell[], right: Cell[], x: number): boolean {
  const eL = x - Math.min(...left.map((c) => c.x));
  const eR = Math.max(...right.map((c) => c.x2)) - x;
  if (Math.min(eL, eR) < MIN_BAND_BALANCE * Math.max(eL, eR)) return false;
  const fill = (cells: Cell[], extent: number) => median(cells.map((c) => c.x2 - c.x)) >= MIN_BAND_FILL * extent;
  return fill(left, eL) && fill(right, eR);
}

/** Whether the prose cells left and right of a clean gutter at `x` look like two columns of text (columnsOfText). */
function textBesideGutter(cells: Cell[][], x: number): boolean {
  const prose = cells.flat().filter(isProseCell);
  const left = prose.filter((c) => c.x2 <= x);
  const right = prose.filter((c) => c.x >= x);
  return left.length > 0 && right.length > 0 && columnsOfText(left, right, x);
}

/** A cell and whether it reads as prose (long enough, mostly letters): the column searches' unit. */
interface ProseCell { c: Cell; prose: boolean }

/** A cell that reads as a line of prose (long enough, mostly letters), not a table's label or figure. */
const isProseCell = (c: Cell): boolean => c.text.length >= MIN_COLUMN_PROSE_CHARS && letterRatio(c.text) >= PROSE_LETTER_RATIO;

/** Each row's cells with whether each reads as prose, computed once a page for the column searches. */
function proseCells(groupCells: Cell[][]): ProseCell[][] {
  return groupCells.map((cells) => cells.map((c) => ({ c, prose: isProseCell(c) })));
}

/**
 * A single-column page has no prose line ending before the search range's end on one side or
 * starting after its start on the other: most pages stop here.
 */
function columnsPossible(rows: ProseCell[][], lo: number, hi: number): boolean {
  let left = 0;
  let right = 0;
  for (const r of rows) {
    for (const k of r) {
      if (!k.prose) continue;
      if (k.c.x2 <= hi) left++;
      if (k.c.x >= lo) right++;
    }
  }
  return left >= MIN_COLUMN_LINES && right >= MIN_COLUMN_LINES;
}

/**
 * Two columns under a block printed across them: a paper's title, authors and abstract above its
 * columns, a wide table at the top of a 10-Q page. findGutter needs a gutter clear from top to
 * bottom (or spanning lines few and long prose lines either side), so such pages were read row by
 * row, the two columns' lines interleaved ("1 Introduction: Numerous ACM and for profit or
 * commercial advantage…"). Here every row crossing a candidate gutter must lie above all the rows of
 * the columns, which need MIN_BAND_ROWS rows, MIN_COLUMN_LINES lines of prose a side, few other
 * cells, and the look of text (columnsOfText). Columns over a block (two columns of a table's text
 * cells above its caption) were as often a table as text, and are left alone. Returns the gutter
 * and the y of the block's lowest row (rows at or above it are the block), or null.
 */
export function findBandGutter(groups: Item[][], width: number, groupCells: Cell[][] = groups.map(cellsOf), cellRows: ProseCell[][] = proseCells(groupCells)): { gutter: number; cut: number } | null {
  if (width <= 0 || groups.length < MIN_BAND_ROWS) return null;
  const lo = Math.floor(width * GUTTER_SEARCH[0]);
  const hi = Math.ceil(width * GUTTER_SEARCH[1]);
  if (!columnsPossible(cellRows, lo, hi)) return null;
  const rows = groups.map((g, i) => ({ y: g.reduce((a, it) => a + it.y, 0) / g.length, cells: cellRows[i]! }));
  // the lowest row crossing each candidate gutter x
  const lowest = new Float64Array(hi - lo + 1).fill(Infinity);
  for (const r of rows) {
    for (const { c } of r.cells) {
      for (let x = Math.max(lo, Math.floor(c.x + 1) + 1); x <= Math.min(hi, Math.ceil(c.x2 - 1) - 1); x++) if (r.y < lowest[x - lo]!) lowest[x - lo] = r.y;
    }
  }
  let best: { gutter: number; cut: number; score: number; dist: number } | null = null;
  for (let x = lo; x <= hi; x++) {
    const cut = lowest[x - lo]!;
    if (cut === Infinity) continue; // a clear gutter: findGutter's case
    let count = 0;
    let other = 0;
    let left = 0;
    let right = 0;
    for (const r of rows) {
      if (r.y >= cut) continue;
      count++;
      for (const { c, prose: isProse } of r.cells) {
        if (!isProse) other++;
        else if (c.x2 <= x) left++;
        else if (c.x >= x) right++;
      }
    }
    const score = Math.min(left, right);
    if (count < MIN_BAND_ROWS || score < MIN_COLUMN_LINES || other > MAX_BAND_OTHER_SHARE * (left + right + other)) continue;
    const dist = Math.abs(x - width / 2);
    if (best && (score < best.score || (score === best.score && dist >= best.dist))) continue;
    const below = rows.filter((r) => r.y < cut).flatMap((r) => r.cells.filter((k) => k.prose).map((k) => k.c));
    if (columnsOfText(below.filter((c) => c.x2 <= x), below.filter((c) => c.x >= x), x)) best = { gutter: x, cut, score, dist };
  }
  return best ? { gutter: best.gutter, cut: best.cut } : null;
}

/**
 * Zoned two columns: rows printed across the gutter anywhere on the page (a wide table or figure at
 * the top, in the middle or at the bottom, a display equation), with the columns' rows between them.
 * findGutter needs a gutter clear from top to bottom and findBandGutter one under a block at the top;
 * a paper's page with a wide float in its middle was read row by row, the columns' lines
 * interleaved ("playmath environment. Now, we'll enter an unnumbered / by search engine crawlers").
 * At most this share of the rows may cross the gutter…
 */
export const MAX_ZONE_CROSSING_SHARE = 0.35;
/**
 * …and at most this many of them may be prose printed across most of the page (a caption or an
 * abstract line): a one-column page has many such lines, and a table of two text columns on it
 * (an operation beside its command) is not two columns to read one after the other.
 */
export const MAX_ZONE_SPANNING_PROSE = 3;

/** Whether a cell runs across `x` (a point of slack each side). */
const cellCrosses = (c: Cell, x: number): boolean => c.x + 1 < x && c.x2 - 1 > x;

/** The rows (indexes) whose cells run across `x`. */
function rowsCrossing(rows: ProseCell[][], cells: Cell[][], x: number): Set<number> {
  const out = new Set<number>();
  rows.forEach((r, i) => {
    if (rowAcross(cells[i]!, x, () => r.some((k) => k.prose))) out.add(i);
  });
  return out;
}

/** Cells a row needs to be a table's row rather than two columns' lines side by side. */
export const TABLE_ROW_MIN_CELLS = 3;

/**
 * A row read where it is printed on a zoned page: a cell runs across the gutter, or it is a table's
 * row with cells on both sides of it and none of prose (a table across the page under two columns of
 * text: ndwia's "September 30, 2014 | 1,347 | 9.0% | 1,332" is one row, not a left and a right column's lines).
 */
function rowAcross(cells: Cell[], x: number, hasProse = (): boolean => cells.some(isProseCell)): boolean {
  if (cells.some((c) => cellCrosses(c, x))) return true;
  // no cell of prose: a column's line beside the other column's (an equation and its number, then a sentence) is not one
  return cells.length >= TABLE_ROW_MIN_CELLS && cells.some((c) => c.x2 <= x) && cells.some((c) => c.x >= x) && !hasProse();
}

/**
 * Candidate gutters: the middle of each run of x in [lo, hi] crossed by the same rows, when some and
 * at most `limit` rows cross it. A row's cells never overlap, so a diff array counts rows, not cells,
 * and every cell's edge ends a run: inside one, the rows crossing and the cells left and right of x
 * are the same, so one x a run is measured instead of every x.
 */
function gutterRuns(rows: ProseCell[][], lo: number, hi: number, limit: number): number[] {
  const diff = new Int32Array(hi - lo + 2);
  const edge = new Uint8Array(hi - lo + 2);
  for (const r of rows) {
    for (const { c } of r) {
      for (const e of [Math.floor(c.x + 1) + 1, Math.ceil(c.x2 - 1)]) if (e >= lo && e <= hi + 1) edge[e - lo] = 1;
      const a = Math.max(lo, Math.floor(c.x + 1) + 1);
      const b = Math.min(hi, Math.ceil(c.x2 - 1) - 1);
      if (b < a) continue;
      diff[a - lo]! += 1;
      diff[b - lo + 1]! -= 1;
    }
  }
  const out: number[] = [];
  let run = 0;
  let start = lo;
  let count = 0;
  const close = (end: number) => {
    if (count > 0 && count <= limit) out.push(Math.round((start + end) / 2));
  };
  for (let x = lo; x <= hi; x++) {
    run += diff[x - lo]!;
    if (x === lo || edge[x - lo] || run !== count) {
      if (x > lo) close(x - 1);
      start = x;
      count = run;
    }
  }
  close(hi);
  return out;
}

/**
 * …and the rows between them hold two columns of text as findBandGutter's do (MIN_COLUMN_LINES
 * prose lines a side, few other cells, columnsOfText). Returns the gutter, or null.
 */
export function findZonedGutter(groups: Item[][], width: number, groupCells: Cell[][] = groups.map(cellsOf), cellRows: ProseCell[][] = proseCells(groupCells)): number | null {
  if (width <= 0 || groups.length < MIN_BAND_ROWS) return null;
  const lo = Math.floor(width * GUTTER_SEARCH[0]);
  const hi = Math.ceil(width * GUTTER_SEARCH[1]);
  if (!columnsPossible(cellRows, lo, hi)) return null;
  // rows holding prose across most of the page (they cross every candidate gutter)
  const wide = cellRows.map((r) => r.some((k) => k.prose && k.c.x2 - k.c.x > SPANNING_SHARE * width));
  const spanningProse = wide.filter(Boolean).length;
  let best: { x: number; score: number; dist: number } | null = null;
  for (const x of gutterRuns(cellRows, lo, hi, MAX_ZONE_CROSSING_SHARE * cellRows.length)) {
    const crossing = rowsCrossing(cellRows, groupCells, x);
    if (crossing.size > MAX_ZONE_CROSSING_SHARE * cellRows.length) continue;
    if (spanningProse > MAX_ZONE_SPANNING_PROSE && [...crossing].filter((i) => wide[i]).length > MAX_ZONE_SPANNING_PROSE) continue;
    const left: Cell[] = [];
    const right: Cell[] = [];
    let other = 0;
    cellRows.forEach((r, i) => {
      if (crossing.has(i)) return;
      for (const { c, prose: isProse } of r) {
        if (!isProse) other++;
        else if (c.x2 <= x) left.push(c);
        else if (c.x >= x) right.push(c);
      }
    });
    const score = Math.min(left.length, right.length);
    if (score < MIN_COLUMN_LINES || other > MAX_BAND_OTHER_SHARE * (left.length + right.length + other)) continue;
    const dist = Math.abs(x - width / 2);
    if (best && (score < best.score || (score === best.score && dist >= best.dist))) continue;
    if (columnsOfText(left, right, x)) best = { x, score, dist };
  }
  return best ? best.x : null;
}

/** A zoned page's lines: each row across the gutter where it is printed, the columns' rows between such rows read left column first. */
function zonedPage(page: number, width: number, height: number, groups: Item[][], groupCells: Cell[][], gutter: number): PageLayout {
  const lines: Line[] = [];
  let zone: Item[] = [];
  const build = (its: Item[]) => groupLines(its).map((g) => toLine(g)).filter((l): l is Line => l !== null);
  const flush = () => {
    if (zone.length === 0) return;
    lines.push(...build(zone.filter((it) => it.x2 <= gutter + 1)), ...build(zone.filter((it) => it.x2 > gutter + 1)));
    zone = [];
  };
  groups.forEach((g, i) => {
    if (rowAcross(groupCells[i]!, gutter)) {
      flush();
      const l = toLine(g, groupCells[i]);
      if (l) lines.push(l);
    } else zone.push(...g);
  });
  flush();
  return { page, width, height, lines: withGaps(lines), twoColumn: true };
}

function withGaps(lines: Line[]): Line[] {
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const cur = lines[i]!;
    const d = prev.y - cur.y;
    cur.gapAbove = d > 0 ? d / Math.max(1, cur.size) : Infinity;
  }
  return lines;
}

/** Whether an item crosses the gutter. */
const crosses = (it: Item, gutter: number): boolean => it.x < gutter - 1 && it.x2 > gutter + 1;

/**
 * Items of rows that run across the gutter as one line (a title whose words before the gutter are
 * another font's run, "Exposing C++" + "functions and classes"): read as one spanning line, not
 * split between the columns. A row with a column-wide gap keeps its parts apart.
 */
function spanningRows(groups: Item[][], gutter: number): Set<Item> {
  const out = new Set<Item>();
  for (const g of groups) {
    if (g.length < 2 || !g.some((it) => crosses(it, gutter))) continue;
    if (g.some((it, i) => i > 0 && it.x - g[i - 1]!.x2 > CELL_GAP_EM * it.size)) continue;
    for (const it of g) out.add(it);
  }
  return out;
}

/**
 * A line's segments for the second gutter search: its items joined where they are closer than
 * NARROW_GUTTER_EM (text joined by spaces: the search reads only lengths and letters), or null
 * when no gap of the line is that wide but under CELL_GAP_EM (its cells already are its segments).
 */
function narrowSegments(items: Item[]): Cell[] | null {
  const narrow = (it: Item, prev: Item) => it.x - prev.x2 > NARROW_GUTTER_EM * it.size;
  if (!items.some((it, i) => i > 0 && narrow(it, items[i - 1]!) && it.x - items[i - 1]!.x2 <= CELL_GAP_EM * it.size)) return null;
  const out: Cell[] = [];
  items.forEach((it, i) => {
    const cur = out[out.length - 1];
    if (cur && !narrow(it, items[i - 1]!)) {
      cur.text += ` ${it.str}`;
      cur.x2 = Math.max(cur.x2, it.x2);
    } else out.push({ text: it.str, x: it.x, x2: it.x2 });
  });
  return out;
}

/**
 * A two-column page found by a gutter search over `cells` (each line's), or null. `asText`: a clean
 * gutter must also part two columns of text (columnsOfText), as a banded or zoned one must: between
 * segments split at narrow gaps, a table's name column beside its description column (ngspice's
 * "length(vector) | The length of vector.", 1.17 em apart) shows one too.
 */
function columnsBy(page: number, width: number, height: number, items: Item[], groups: Item[][], cells: Cell[][], asText = false): PageLayout | null {
  const gutter = findGutter(groups, width, cells);
  if (gutter !== null && (!asText || textBesideGutter(cells, gutter))) return columnsPage(page, width, height, items, groups, gutter);
  const cellRows = proseCells(cells);
  const band = findBandGutter(groups, width, cells, cellRows);
  if (band) return bandedPage(page, width, height, groups, band);
  const zoned = findZonedGutter(groups, width, cells, cellRows);
  return zoned !== null ? zonedPage(page, width, height, groups, cells, zoned) : null;
}

/**
 * Reads one page's text items into ordered lines: two columns where a gutter shows between the
 * lines' cells, or, failing that, between segments split at narrower gaps (NARROW_GUTTER_EM).
 */
export function buildPage(page: number, width: number, height: number, raw: RawItem[]): PageLayout {
  const items = toItems(raw);
  const groups = groupLines(items);
  // each line's cells, read once for the gutter search and the lines
  const cells = groups.map(cellsOf);
  const columns = columnsBy(page, width, height, items, groups, cells);
  if (columns) return columns;
  const narrow = groups.map(narrowSegments);
  const again = narrow.some((n) => n !== null) ? columnsBy(page, width, height, items, groups, narrow.map((n, i) => n ?? cells[i]!), true) : null;
  if (again) return again;
  const lines = groups.map((g, i) => toLine(g, cells[i])).filter((l): l is Line => l !== null);
  return { page, width, height, lines: withGaps(lines), twoColumn: false };
}

/** A page whose columns lie under a block across them: the block's rows as printed, then the columns, left first. */
function bandedPage(page: number, width: number, height: number, groups: Item[][], band: { gutter: number; cut: number }): PageLayout {
  const inBlock = (g: Item[]) => g.reduce((a, it) => a + it.y, 0) / g.length >= band.cut;
  const block = groups.filter(inBlock).map((g) => toLine(g)).filter((l): l is Line => l !== null);
  const rest = groups.filter((g) => !inBlock(g));
  const cols = columnsPage(page, width, height, rest.flat(), rest, band.gutter);
  return { page, width, height, lines: [...withGaps(block), ...cols.lines], twoColumn: true };
}

/** Times a column may be split again by a gutter of its own: a page of three or four columns at most. */
export const MAX_COLUMN_SPLITS = 1;

/**
 * A column's lines, between x0 and x1; a column with a clean gutter of its own (findGutter within
 * it) parting it into two columns about as wide as the page's other column (`unit`: MIN_BAND_BALANCE
 * either way) is read left part first: PARI's reference card prints three columns, and its first
 * two were read row by row across both ("To exit gp, type quit | t INFINITY. ±∞"). A column of
 * prose has no such gutter (its lines run across any candidate); a table's narrow names beside its
 * wide values are no columns of the page's width (ngspice's "Vector_Bounds:" beside their values),
 * nor are a table's columns whose cells leave most of their width empty (MIN_BAND_FILL).
 */
function columnLines(its: Item[], x0: number, x1: number, unit: number, splits = 0): Line[] {
  const groups = groupLines(its);
  if (splits < MAX_COLUMN_SPLITS && unit > 0 && groups.length >= 2 * MIN_COLUMN_LINES) {
    const shifted = groups.map((g) => cellsOf(g).map((c) => ({ ...c, x: c.x - x0, x2: c.x2 - x0 })));
    const g = findGutter(groups, x1 - x0, shifted);
    const at = g === null ? 0 : g + x0;
    const leftOf = (it: Item) => (it.x + it.x2) / 2 < at;
    const a = its.filter(leftOf);
    const b = its.filter((it) => !leftOf(it));
    // as wide as the page's other column, its lines filling it as a column's lines do (not a table's cells: Costco's subsidiaries, their states, their trade names)
    const fits = (part: Item[]) => {
      const w = Math.max(...part.map((it) => it.x2)) - Math.min(...part.map((it) => it.x));
      const rows = groupLines(part).map((r) => Math.max(...r.map((it) => it.x2)) - Math.min(...r.map((it) => it.x)));
      return Math.min(w, unit) >= MIN_BAND_BALANCE * Math.max(w, unit) && median(rows) >= MIN_BAND_FILL * w;
    };
    if (g !== null && a.length > 0 && b.length > 0 && fits(a) && fits(b)) return [...columnLines(a, x0, at, unit, splits + 1), ...columnLines(b, at, x1, unit, splits + 1)];
  }
  return groups.map((g) => toLine(g)).filter((l): l is Line => l !== null);
}

/** A two-column page's lines: text across the gutter above the columns, the left column, the right one, text across it below. */
function columnsPage(page: number, width: number, height: number, items: Item[], groups: Item[][], gutter: number): PageLayout {
  const left: Item[] = [];
  const right: Item[] = [];
  const span: Item[] = [];
  const spanning = spanningRows(groups, gutter);
  for (const it of items) {
    if (spanning.has(it)) span.push(it);
    else if (it.x2 <= gutter + 1) left.push(it);
    else if (it.x >= gutter - 1) right.push(it);
    else span.push(it);
  }
  const build = (its: Item[]) => groupLines(its).map((g) => toLine(g)).filter((l): l is Line => l !== null);
  const extent = (its: Item[]) => (its.length ? Math.max(...its.map((it) => it.x2)) - Math.min(...its.map((it) => it.x)) : 0);
  const l = columnLines(left, 0, gutter, extent(right));
  const r = columnLines(right, gutter, width, extent(left));
  const s = build(span);
  const lead = leadingSpans(l, r, s);
  const top = Math.max(l[lead.left]?.y ?? -Infinity, r[lead.right]?.y ?? -Infinity);
  const rest = s.slice(lead.spans);
  const above = rest.filter((x) => x.y >= top);
  const below = rest.filter((x) => x.y < top);
  return { page, width, height, lines: withGaps([...lead.lines, ...above, ...l.slice(lead.left), ...r.slice(lead.right), ...below]), twoColumn: true };
}

/** Column lines above a spanning line that still leave it leading the page: a page number beside a running head, a heading's wrapped last words. */
export const MAX_LINES_ABOVE_LEADING_SPAN = 2;

/**
 * The rows across the gutter that open the page, each read after the few column lines printed above
 * it: a running head whose page number sits in the left column, then a title block whose short last
 * line ("Drinking Water") falls in one column, then its introduction across the page. Taking the top
 * of the columns from their first line put the whole block after both columns.
 */
function leadingSpans(l: Line[], r: Line[], s: Line[]): { lines: Line[]; left: number; right: number; spans: number } {
  const lines: Line[] = [];
  let li = 0;
  let ri = 0;
  let si = 0;
  for (; si < s.length; si++) {
    const y = s[si]!.y;
    let nl = li;
    while (nl < l.length && l[nl]!.y > y) nl++;
    let nr = ri;
    while (nr < r.length && r[nr]!.y > y) nr++;
    if (nl - li > MAX_LINES_ABOVE_LEADING_SPAN || nr - ri > MAX_LINES_ABOVE_LEADING_SPAN) break;
    lines.push(...l.slice(li, nl), ...r.slice(ri, nr), s[si]!);
    li = nl;
    ri = nr;
  }
  return { lines, left: li, right: ri, spans: si };
}
