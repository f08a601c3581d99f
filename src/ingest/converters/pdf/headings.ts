/**
 * Heading candidates from layout: font size against the body size, a font other than the body
 * font (bold/italic faces are separate fonts in a PDF), numbering (`1.2.3`, `Item 7.`, `PART II`,
 * `Article 5`, `Note 4`, Roman, `A.`), short all-caps lines, space above, and — with a vocabulary
 * pack — the titles of a field's principal sections (a filing's financial statements: kind
 * `statement`). Each candidate gets a level (from its numbering, else its size) and a score.
 */
import { styleKey, type Line, type PageLayout } from './layout-types.js';
import { bodyLetters, inBodyLetters } from './letters.js';
import type { Furniture } from './furniture.js';
import { lineKey } from './furniture.js';
import { isNumericCell, isTableRow } from './tables.js';
import { joinWrapped, tidyOutlineTitle } from './titles.js';
import { isContainerTitle, isSectionTitle, NO_OUTLINE_VOCABULARY, type OutlineVocabulary } from '../../../model/outline-vocabulary.js';

export const MAX_HEADING_CHARS = 120;
export const MAX_HEADING_WORDS = 16;
/**
 * Characters after a heading's number ("Item 7.", "3.2"): longer is a numbered sentence, unless it is
 * in capitals (a filing's item title joined from its wrapped lines, "ITEM 5. MARKET FOR … OF EQUITY SECURITIES").
 */
export const NUMBERED_REST_MAX_CHARS = 100;
/** Headings of at most this many words (without closing punctuation) score a little higher. */
export const SHORT_HEADING_WORDS = 8;
/** Minimum score for a line to be a heading candidate at all. */
export const MIN_CANDIDATE_SCORE = 0.35;
/** A heading line this close (in line heights) below another of the same style continues its title. */
export const WRAPPED_TITLE_GAP = 1.5;
/** Lines from the top of the page (after furniture) that count as "at the top". */
export const TOP_LINES = 4;
/** Score added to an emphasised or all-caps line that sits right above a table's rows, up to TABLE_TITLE_MAX_SCORE. */
export const TABLE_TITLE_BONUS = 0.2;
/** A table title scores at most this by its table (enough to split a long section on, below SUBHEADING_MIN_SCORE). */
export const TABLE_TITLE_MAX_SCORE = 0.5;
/** Penalty of a line printed smaller than the body (0.9 of its size), lifted for a table title in the table's own print. */
export const SMALL_PRINT_PENALTY = 0.3;
/**
 * A numbered line in capitals this large at least (of the body's size) is a heading set in small
 * capitals, not small print: IEEE papers' "I. INTRODUCTION" (its capitals 8 pt over 10 pt text) had
 * scored under the split threshold, and TLSH's sections I–III were one node.
 */
export const SMALL_CAPS_MIN_RATIO = 0.75;
/** Body lines below a line looked at for table rows, and how many of them must be rows. */
export const TABLE_TITLE_LOOKAHEAD = 8;
export const TABLE_TITLE_MIN_ROWS = 2;
/** A line repeated on this many pages is a running title, not a new heading (except its first time). */
export const REPEAT_PENALTY_PAGES = 3;

/**
 * A line of code or console input, never a heading: a prompt ("R> ", "> ", "$ ", "# "), an
 * assignment ("x <- 1", "Q = f(e)", ":=", "=="), or a line that ends open ("(", "{", ",", "=") or with ";".
 */
const CODE_LINE = /^(?:[A-Za-z]{0,3}>\s|\$\s|#|%|\+\s|\/\/)|^[A-Za-z_][\w.]*\s?=\s?[^=\s]|<-|:=|==|[({,=]\s*$|;\s*$/;
/** Share of a heading's non-space characters that must be letters (not code or table residue: "T T T", "(df=6)"). */
export const MIN_HEADING_LETTER_SHARE = 0.6;
/** A cross-reference ("Section 1.20 [appoggiatura], page 6", "see Section 3"): never a heading. */
const CROSS_REFERENCE = /\],?\s*page\s+\d+|,\s*page\s+\d+\b|^see\s+(?:also\s+)?(?:section|chapter|page)\b/i;

/** Share of one-character words above which a line is notation or table residue ("h h h h", "T T T T"). */
export const MAX_SINGLE_CHAR_WORD_SHARE = 0.5;

/** True when a line reads as code or a cross-reference rather than a title. */
/** A file path or URL: a drive ("C:/", "C:\\"), a path from the root or home ("/usr/share/…", "~/x/"), or three parts joined by slashes. */
const PATH_LIKE = /(?:^|\s)[A-Za-z]:[\\/]|(?:^|\s)~?\/[^\s/]+\/|[^\s/]+\/[^\s/]+\/[^\s/]+/;

/** Two relations between spaced terms ("H0: f1 = f2 = f3 vs. H1: f1 < f2"): a displayed formula, never a title. */
const FORMULA = /\s[=<>≤≥≠]\s.*\s[=<>≤≥≠]\s/;

export function notATitle(text: string): boolean {
  if (CROSS_REFERENCE.test(text)) return true;
  if (FORMULA.test(text)) return true;
  if (CODE_LINE.test(text)) return true;
  // a path line of a listing ("C:/Program Files/msXpertSuite/data/…") titles nothing
  if (PATH_LIKE.test(text)) return true;
  const words = text.replace(/^[\d.]+\s+/, '').split(/\s+/).filter(Boolean);
  if (words.length >= 3 && words.filter((w) => w.length === 1).length / words.length > MAX_SINGLE_CHAR_WORD_SHARE) return true;
  // table cells or notation ("NV N", "7 Cm D"): no word of a title's length
  if (words.length >= 2 && words.every((w) => w.replace(/\W/g, '').length <= 2)) return true;
  const chars = text.replace(/^[\d.\s]+/, '').replace(/\s+/g, '');
  return chars.length > 0 && letters(chars) / chars.length < MIN_HEADING_LETTER_SHARE;
}

/**
 * A line that ends on a word that cannot end a title ("… for ordinary single state survival the",
 * "… RESULTS OF") is running text or a title wrapped onto the next line: joined with that line when
 * it continues in the same style, else not a heading.
 */
export const OPEN_ENDING = /(?:\s(?:the|a|an|of|and|or|nor|for|to|in|on|at|by|with|from|as|that|which|whereas|whose|is|are|was|were|be|its|their|our)|[,;(–—-])$/i;

/** "5.14. Severability. If any provision…": a numbered paragraph, not a heading. */
const SENTENCE_AFTER_TITLE = /[.;:]\s+\S+(?:\s+\S+){3,}/;

export type HeadingKind = 'part' | 'item' | 'article' | 'section' | 'note' | 'numbered' | 'roman' | 'letter' | 'statement' | 'style';

export interface Heading {
  page: number;
  /** index of the line on its page */
  line: number;
  /** index among the page's body lines (furniture left out): where the heading's section starts */
  bodyLine?: number;
  title: string;
  level: number;
  kind: HeadingKind;
  score: number;
  /** among the first lines of its page */
  top: boolean;
  /** for part/item/note/article: the normalised number (e.g. `7A`, `II`) */
  number?: string;
  /** the line titles the table printed right below it */
  table?: boolean;
  /** lines the title is printed over (from `line` on), when more than one */
  lines?: number;
  /** the print of its line (layout-types.ts styleKey): headings in one print are peers */
  print?: string;
}

export interface BodyStyle {
  size: number;
  font: string;
}

interface Pattern {
  re: RegExp;
  kind: HeadingKind;
  level: (m: RegExpExecArray) => number;
}

const REST = String.raw`(?:\s*[.:—–-]+\s*|\s+|$)(.*)$`;
/**
 * Between a label and its number: blanks, or none before a digit ("ITEM3.", "NOTE12": a PDF that
 * places words by position without space characters reads them run together).
 */
const LABEL_GAP = String.raw`(?:\s+|(?=\d))`;
/** A decimal-numbered title whose text may start lower-case (emphasised lines only). */
const LOWER_NUMBERED = /^(\d{1,2}(?:\.\d{1,3}){1,4})\.?\s+(\p{L}.*)$/u;
const PATTERNS: Pattern[] = [
  { re: new RegExp(String.raw`^part${LABEL_GAP}([ivx]{1,4}|\d{1,2})\b` + REST, 'i'), kind: 'part', level: () => 1 },
  { re: new RegExp(String.raw`^item${LABEL_GAP}(\d{1,2}[a-d]?)\b` + REST, 'i'), kind: 'item', level: () => 2 },
  { re: new RegExp(String.raw`^(?:article|chapter)${LABEL_GAP}(\d{1,3}|[ivxlc]{1,6})\b` + REST, 'i'), kind: 'article', level: () => 1 },
  { re: new RegExp(String.raw`^section${LABEL_GAP}(\d{1,3}(?:\.\d{1,3})*)\b` + REST, 'i'), kind: 'section', level: (m) => 1 + m[1]!.split('.').length },
  { re: new RegExp(String.raw`^note${LABEL_GAP}(\d{1,2})\b` + REST, 'i'), kind: 'note', level: () => 3 },
  { re: /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(\p{Lu}.*)$/u, kind: 'numbered', level: (m) => m[1]!.split('.').filter(Boolean).length },
  { re: /^([IVX]{1,5})\.\s+(\p{Lu}.*)$/u, kind: 'roman', level: () => 1 },
  { re: /^([A-H])\.\s+(\p{Lu}.*)$/u, kind: 'letter', level: () => 2 },
];

export interface Numbering {
  kind: HeadingKind;
  level: number;
  /** normalised number: `7A`, `II`, `1.2` */
  number: string;
  /** the title after the number */
  rest: string;
}

/**
 * The numbering a title starts with (`Item 7.`, `PART II`, `1.2`, `Note 4`, `A.`), or null. The
 * title after the number starts with a capital, unless `lowerTitle` (an emphasised line: glossary
 * entries such as "1.20 appoggiatura" are lower-case terms).
 */
export function numbering(text: string, lowerTitle = false): Numbering | null {
  for (const p of PATTERNS) {
    const m = (lowerTitle && p.kind === 'numbered' ? LOWER_NUMBERED : p.re).exec(text);
    if (!m) continue;
    const rest = (m[2] ?? '').trim();
    if (rest && !(lowerTitle ? /^[\p{L}"“'‘([\d]/u : /^[\p{Lu}"“'‘([\d]/u).test(rest)) continue;
    return { kind: p.kind, level: p.level(m), number: m[1]!.toUpperCase(), rest };
  }
  return null;
}

function letters(s: string): number {
  let n = 0;
  for (const ch of s) if (/\p{L}/u.test(ch)) n++;
  return n;
}

function isAllCaps(s: string): boolean {
  return letters(s) >= 4 && s === s.toUpperCase() && s !== s.toLowerCase();
}

/** Body size and font: the most common by characters over non-furniture lines. */
export function bodyStyle(pages: PageLayout[], furniture: Furniture): BodyStyle {
  const sizes = new Map<number, number>();
  const fonts = new Map<string, number>();
  pages.forEach((p, pi) => {
    p.lines.forEach((l, i) => {
      if (furniture.lines[pi]?.has(i)) return;
      const n = l.text.length;
      sizes.set(l.size, (sizes.get(l.size) ?? 0) + n);
      fonts.set(l.font, (fonts.get(l.font) ?? 0) + n);
    });
  });
  let size = 10;
  let best = -1;
  for (const [s, n] of [...sizes].sort((a, b) => a[0] - b[0])) {
    if (n > best) {
      size = s;
      best = n;
    }
  }
  let font = '';
  best = -1;
  for (const [f, n] of [...fonts].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (n > best) {
      font = f;
      best = n;
    }
  }
  return { size, font };
}

/**
 * Column captions and row labels of tables look like bold headings ("Total", "June 30, 2023 June 30,
 * 2022", "($ in millions) Amortization"): several cells, dates/amounts, a leading bracket or currency,
 * a unit ("(in thousands)"), or a single word at body size. A vocabulary pack may add the captions
 * its field prints over table columns (`outline.table_captions`: "years ended", "three months").
 */
const UNIT_CAPTION = /\((?:[^()]*\s)?in (?:units|hundreds|thousands|millions|billions|percent)\b[^()]*\)/i;

function tableLike(line: Line, text: string, words: number, sizeRatio: number, vocab: OutlineVocabulary, setApart: boolean, headingPrints?: ReadonlySet<string>, keyed = false): boolean {
  if (line.cells.length >= 2 && !keyed) return true;
  if (/^[($€£%]/.test(text)) return true;
  if ((text.match(/\b(19|20)\d\d\b/g) ?? []).length >= 2) return true;
  // "Total 1,234" is a row; a large short "Example 2" / "Goal 3" is a title, and so is a large one
  // numbered after a dash ("The loudness range algorithm - 1", a slide's title over two slides)
  if (/\d[\d,.]*\s*%?$/.test(text) && !/^\d/.test(text) && !(sizeRatio >= 1.15 && (words <= 4 || /\s[-–—]\s\d{1,2}$/.test(text)) && /\s\d{1,3}$/.test(text))) return true;
  if (words === 1 && sizeRatio < 1.15 && !(setApart && (oneWordHeading(line, text) || inHeadingPrint(line, text, headingPrints)))) return true;
  if ((UNIT_CAPTION.test(text) || vocab.tableCaptions?.test(text)) && sizeRatio < 1.15) return true;
  return false;
}

/** Characters of the key opening a keyed title (keyedTitle): a code, mnemonic or command name. */
export const TITLE_KEY_MAX_CHARS = 12;
const TITLE_KEY = /^[\p{L}\d$_.:-]+$/u;

/**
 * A heading made of a key and its name set apart in two cells ("DBK      Depth Below Keel", an
 * NMEA sentence's code and name; a command and what it does), in a print of its own with space above
 * it and no row of cells right below (scoreLine): a reference entry's title, not a table's row. Two cells
 * had made every such line a table row: NMEA 0183's 60 sentences sat in six nodes titled by the few
 * whose key and name were printed close enough to be one cell.
 */
function keyedTitle(line: Line): boolean {
  const [key, name] = line.cells.map((c) => c.trim());
  return line.cells.length === 2 && key!.length <= TITLE_KEY_MAX_CHARS && TITLE_KEY.test(key!) && /\p{L}/u.test(key!)
    && /^\p{Lu}/u.test(name!) && name!.split(/\s+/).length >= 2 && !/\d/.test(name!) && line.gapAbove >= ONE_WORD_HEADING_GAP;
}

/** Cells of two lines start within this many of the upper line's font sizes of each other when they are one table's columns. */
export const COLUMN_ALIGN_EMS = 1;

/** Whether `below` has `line`'s cells, each starting where `line`'s does: rows of one table. */
function sameColumns(line: Line, below: Line): boolean {
  const [a, b] = [line.spans, below.spans];
  if (!a || !b || a.length !== b.length) return false;
  for (let k = 0; k < a.length; k += 2) if (Math.abs(a[k]! - b[k]!) > COLUMN_ALIGN_EMS * line.size) return false;
  return true;
}

/** Letters a one-word heading at body size has at least, and the space above it, in line heights. */
export const ONE_WORD_HEADING_MIN_LETTERS = 4;
export const ONE_WORD_HEADING_GAP = 1.6;

/**
 * A one-word line at body size is a table's row label ("Revenue", "Total") or column head ("EXHIBIT"
 * over an exhibit index's rows) unless it is set apart as a heading is: in capitals, in a print of
 * its own (`setApart`: not right above a table's rows), with space above it (a 10-K's "EMPLOYEES",
 * "COMPETITION" and "SEASONALITY" under Item 1, which had stayed inside its text while "ABOUT US" and
 * "INTELLECTUAL PROPERTY" split it; its "SIGNATURES" and "CERTIFICATIONS").
 */
function oneWordHeading(line: Line, text: string): boolean {
  return isAllCaps(text) && letters(text) >= ONE_WORD_HEADING_MIN_LETTERS && line.gapAbove >= ONE_WORD_HEADING_GAP;
}

/**
 * A one-word line in a print (font and size, larger than the body's) that at least
 * HEADING_PRINT_MIN headings of several words use, with space above: a heading of the same kind as
 * theirs. RasMol's command reference titles each command in bold 13.5 pt over 12 pt text: "Map zap"
 * and "Set BoundBox" were headings, "Molecule", "Pause" and "Ribbons" were read as table row labels,
 * and 14 pages of commands sat under "Map zap".
 */
function inHeadingPrint(line: Line, text: string, headingPrints: ReadonlySet<string> | undefined): boolean {
  return !!headingPrints?.has(styleKey(line)) && letters(text) >= ONE_WORD_HEADING_MIN_LETTERS && line.gapAbove >= ONE_WORD_HEADING_GAP;
}

/** Headings of two words or more a print must title to be a heading print (inHeadingPrint). */
export const HEADING_PRINT_MIN = 3;

/** Prints larger than the body's that at least HEADING_PRINT_MIN style headings of two words or more use. */
function headingPrintsOf(headings: Heading[], pages: PageLayout[], body: BodyStyle): Set<string> {
  const count = new Map<string, number>();
  for (const h of headings) {
    const l = pages[h.page - 1]!.lines[h.line]!;
    if (h.kind !== 'style' || h.table || (h.lines ?? 1) > 1 || h.title.split(' ').length < 2 || l.size < body.size * LARGER_PRINT_RATIO) continue;
    count.set(styleKey(l), (count.get(styleKey(l)) ?? 0) + 1);
  }
  return new Set([...count].filter(([, n]) => n >= HEADING_PRINT_MIN).map(([k]) => k));
}

/** A print this much larger than the body's counts as larger (scoreLine's smallest size step). */
const LARGER_PRINT_RATIO = 1.05;

/** A line ending in a word cut by a hyphen ("expres-"), not in a dash after a blank. */
const HYPHEN_END = /\p{L}-$/u;
/** Characters of a tidied title compared with its line's end to tell the line's title from a run-in heading's. */
const HYPHEN_CHECK_CHARS = 5;

function tidyTitle(text: string): string {
  return tidyOutlineTitle(text.replace(/\s+/g, ' ').replace(/\s*\(continued\)\s*$/i, '').replace(/[\s.:·…_-]+$/, '').trim());
}

/** A font is a code font when at least this share of its lines (and MIN_CODE_FONT_LINES of them) read as code. */
export const CODE_FONT_SHARE = 0.3;
export const MIN_CODE_FONT_LINES = 3;

/** Fonts the document prints code in (console input, listings): their lines are never headings. */
export function codeFonts(pages: PageLayout[], body: BodyStyle): Set<string> {
  const total = new Map<string, number>();
  const code = new Map<string, number>();
  for (const p of pages) {
    for (const l of p.lines) {
      if (l.font === body.font) continue;
      total.set(l.font, (total.get(l.font) ?? 0) + 1);
      if (CODE_LINE.test(l.text.trim())) code.set(l.font, (code.get(l.font) ?? 0) + 1);
    }
  }
  const out = new Set<string>();
  for (const [f, n] of code) if (n >= MIN_CODE_FONT_LINES && n / total.get(f)! >= CODE_FONT_SHARE) out.add(f);
  return out;
}

/**
 * A print (font and size) is fixed-width when most of its distinct lines have the same width per
 * character: at least this share within MONOSPACE_TOLERANCE of the median (a line mixing in another
 * font's words, or spaces the reader collapsed, is off it)…
 */
export const MONOSPACE_MIN_SHARE = 0.7;
export const MONOSPACE_TOLERANCE = 0.01;
/** …measured on at least this many distinct single-cell lines of MONOSPACE_SAMPLE_CHARS characters. */
export const MONOSPACE_MIN_LINES = 8;
export const MONOSPACE_SAMPLE_CHARS: readonly [number, number] = [8, 60];

/**
 * Prints other than the body's that the document sets in a fixed-width font (listings, program
 * output, inline code): every character as wide as the others. Measured, not read from font names (a PDF's fonts are often
 * renamed): over the dev documents, 6–67% of a proportional print's lines lie within 1% of its median
 * width per character, 75–100% of a fixed-width one's.
 */
export function monospacePrints(pages: PageLayout[], body: BodyStyle): Set<string> {
  const ratios = new Map<string, number[]>();
  // distinct texts only: a running head repeated on every page ("Exhibit 24", "Form 10-K") measures one width many times
  const seen = new Set<string>();
  for (const p of pages) {
    for (const l of p.lines) {
      // the body's own font is the text, whatever its widths (a report typed in Courier has headings too)
      if (l.font === body.font || l.cells.length !== 1) continue;
      const t = l.text.trim();
      if (t.length < MONOSPACE_SAMPLE_CHARS[0] || t.length > MONOSPACE_SAMPLE_CHARS[1] || !(l.size > 0)) continue;
      const key = styleKey(l);
      if (seen.has(`${key}\n${t}`)) continue;
      seen.add(`${key}\n${t}`);
      const list = ratios.get(key) ?? [];
      list.push((l.x2 - l.x) / t.length / l.size);
      ratios.set(key, list);
    }
  }
  const out = new Set<string>();
  for (const [key, list] of ratios) {
    if (list.length < MONOSPACE_MIN_LINES) continue;
    list.sort((a, b) => a - b);
    const median = list[list.length >> 1]!;
    const near = list.filter((r) => Math.abs(r / median - 1) <= MONOSPACE_TOLERANCE).length;
    if (median > 0 && near >= MONOSPACE_MIN_SHARE * list.length) out.add(key);
  }
  return out;
}

/** Lines of one fixed-width block are at most this far apart (line heights): output keeps its blank lines. */
export const MONOSPACE_BLOCK_GAP = 2.6;

/**
 * A line of a fixed-width block: in a fixed-width print with the line above or below in the same
 * print, at most a blank line away. Program output reads like titles ("Best splitting variable: tax",
 * "No admissable split found in 'chas'") but is one line of a listing; a fixed-width line between
 * lines of other prints (a command named as a heading over its description) is not in a block.
 */
function inFixedWidthBlock(lines: Line[], i: number, mono: ReadonlySet<string>): boolean {
  const l = lines[i]!;
  if (!mono.has(styleKey(l))) return false;
  const above = lines[i - 1];
  const below = lines[i + 1];
  const sameBlock = (a: Line, gap: number) => styleKey(a) === styleKey(l) && gap <= MONOSPACE_BLOCK_GAP;
  return (!!above && sameBlock(above, l.gapAbove)) || (!!below && sameBlock(below, below.gapAbove));
}

/** Scores one line as a heading; null when it is not a candidate. */
export function scoreLine(printed: Line, body: BodyStyle, opts: { repeats: number; top: boolean; vocab?: OutlineVocabulary; titlesTable?: boolean; rowSize?: number; headingPrints?: ReadonlySet<string>; cellsBelow?: boolean }): Omit<Heading, 'page' | 'line' | 'top'> | null {
  const line = withoutLoneMark(printed);
  const vocab = opts.vocab ?? NO_OUTLINE_VOCABULARY;
  // a principal section's title printed beside the company name ("Consolidated Balance Sheets | Corning Inc.") is the title
  const captioned = line.cells.length >= 2 && !line.cells.some(isNumericCell) && isSectionTitle(line.cells[0]!, vocab);
  const text = (captioned ? line.cells[0]! : line.text).trim();
  if (text.length < 2 || text.length > MAX_HEADING_CHARS || letters(text) < 2) return null;
  if (notATitle(text)) return null;
  const words = text.split(' ').length;
  const numericCells = line.cells.filter(isNumericCell).length;
  const sizeRatio = body.size > 0 ? line.size / body.size : 1;
  const emph = line.font !== body.font;
  const pattern = numbering(text) ?? (emph || sizeRatio >= 1.15 ? numbering(text, true) : null);
  if (numericCells > (pattern ? 1 : 0)) return null;
  // "2.22 syntax | 2.24 syntax": a row of a table whose cells start with numbers, not a numbered title
  if (pattern && line.cells.length >= 2 && line.cells.slice(1).some((c) => /^\s*\d/.test(c))) return null;
  if (!pattern && (words > MAX_HEADING_WORDS || /[,;]$/.test(text) || !/^[\p{Lu}\d"“'‘(]/u.test(text))) return null;
  if (pattern && (pattern.rest.length > (isAllCaps(pattern.rest) ? MAX_HEADING_CHARS : NUMBERED_REST_MAX_CHARS) || SENTENCE_AFTER_TITLE.test(pattern.rest))) return null;
  const caps = isAllCaps(text) && text.length <= 70;
  // a principal section opens its page or titles the table below it: "Balance Sheet" over a paragraph in
  // mid-page is a discussion of it (an MD&A or press-release heading), not the statement
  const statement = isSectionTitle(text, vocab) && (opts.top || opts.titlesTable !== false || isContainerTitle(text, vocab));
  const endsSentence = /[a-z]\.$/.test(text) && !pattern;
  let score = 0;
  if (pattern) score += pattern.kind === 'numbered' || pattern.kind === 'letter' || pattern.kind === 'roman' ? 0.3 : 0.5;
  if (sizeRatio >= 1.4) score += 0.5;
  else if (sizeRatio >= 1.15) score += 0.35;
  else if (sizeRatio >= 1.05) score += 0.1;
  else if (sizeRatio < 0.9 && !(caps && pattern && sizeRatio >= SMALL_CAPS_MIN_RATIO)) score -= SMALL_PRINT_PENALTY;
  if (emph) score += 0.25;
  if (caps) score += 0.15;
  if (line.gapAbove >= 1.6) score += 0.1;
  if (words <= SHORT_HEADING_WORDS && !/[.,;]$/.test(text)) score += 0.1; // "Net Debt:" run-in headings count
  if (statement) score += 0.4;
  if (opts.top) score += 0.05;
  if (endsSentence) score -= 0.3;
  if (opts.repeats >= REPEAT_PENALTY_PAGES && !statement) score -= 0.3;
  if (!pattern && !statement && !emph && !caps && sizeRatio < 1.05) return null;
  if (!pattern && (statement ? line.cells.length >= 2 && !captioned : tableLike(line, text, words, sizeRatio, vocab, emph && !opts.titlesTable, opts.headingPrints, emph && !opts.titlesTable && !opts.cellsBelow && keyedTitle(line)))) return null;
  // an emphasised or capitalised line right above the rows of a table titles it ("CONSOLIDATED BALANCE SHEETS"),
  // even at body size or in the table's small print: enough to split a long section on, never more
  if (opts.titlesTable && (caps || emph)) {
    const lifted = sizeRatio < 0.9 && line.size >= (opts.rowSize ?? Infinity) ? SMALL_PRINT_PENALTY : 0;
    score = Math.max(score, Math.min(score + lifted + TABLE_TITLE_BONUS, TABLE_TITLE_MAX_SCORE));
  }
  if (score < MIN_CANDIDATE_SCORE) return null;
  // the container section ("Notes to the financial statements") holds its parts (level 3); other principal sections sit beside it
  const level = pattern ? pattern.level : statement ? (isContainerTitle(text, vocab) ? 2 : 3) : sizeRatio >= 1.4 ? 1 : sizeRatio >= 1.15 ? 2 : sizeRatio >= 1.05 ? 3 : 4;
  const kind: HeadingKind = pattern ? pattern.kind : statement ? 'statement' : 'style';
  return { title: tidyTitle(text), level, kind, score: Math.round(score * 100) / 100, ...(pattern ? { number: pattern.number } : {}) };
}

/**
 * A numbered run-in heading: the line opens with its number and title in another font than the
 * paragraph that follows on the same line ("2.2. Advanced configuration. Configure accepts many
 * other flags…"); the opening run is scored as the heading's line. Null when the line has no such run.
 */
export function runInHeading(line: Line, body: BodyStyle, opts: Parameters<typeof scoreLine>[2]): ReturnType<typeof scoreLine> {
  const lead = line.lead;
  const n = lead && lead.font !== body.font ? numbering(lead.text) : null;
  // a bold "1." opens list items as often as sections: only decimal sub-numbers ("2.2.") and labelled ones ("Section 4.")
  // a bare label ("Section 3:", "Item 4.") opening a paragraph names nothing: its title must follow the number
  if (!n || (n.kind === 'numbered' && !n.number.includes('.')) || !/\p{L}{3}/u.test(n.rest)) return null;
  return scoreLine({ ...line, text: lead!.text, cells: [lead!.text], font: lead!.font }, body, opts);
}

/** Lines a heading sentence may run over (a risk factor in a 10-K: two or three). */
export const MAX_SENTENCE_HEADING_LINES = 4;

/**
 * The sentence a heading line opens, over the lines below it in the same font and size with no gap
 * (up to MAX_SENTENCE_HEADING_LINES, ending at the line that closes it), and the index of its last
 * line; null when it does not close within them (running text in a font of its own).
 */
function headingSentence(lines: Line[], i: number, furn: Set<number>): { text: string; last: number } | null {
  const first = lines[i]!;
  const parts = [first.text.trim()];
  for (let k = i + 1; k < lines.length && k < i + MAX_SENTENCE_HEADING_LINES; k++) {
    const l = lines[k]!;
    if (furn.has(k) || l.font !== first.font || l.size !== first.size || l.gapAbove >= WRAPPED_TITLE_GAP) return null;
    parts.push(l.text.trim());
    if (/[.!?:]["”’)]?$/.test(l.text.trim())) return { text: parts.reduce(joinWrapped), last: k };
  }
  return null;
}

/**
 * The whole title when line i carries on the line above it, cut after a comma in the same print
 * ("BWR Bearing and Distance to Waypoint – Rhumb Line Latitude, N/S, Longitude, E/W," over "UTC,
 * Status"): a line ending in a comma is no heading (CODE_LINE), so the tail alone had titled the
 * section. Null when it does not, or the whole is too long for a title.
 */
function commaWrappedHead(lines: Line[], i: number, furn: Set<number>, title: string): string | null {
  const line = lines[i]!;
  const above = i > 0 && !furn.has(i - 1) ? lines[i - 1]! : null;
  if (!above || above.font !== line.font || above.size !== line.size || line.gapAbove >= WRAPPED_TITLE_GAP || !/\p{L},$/u.test(above.text.trim())) return null;
  const whole = tidyTitle(joinWrapped(above.text.trim(), title));
  return whole.length <= MAX_HEADING_CHARS ? whole : null;
}

/** `next` carries on a title cut at `line`'s end: same size and font, right below, and the whole still title-length and closed. */
function continuesTitle(line: Line, next: Line, title: string): boolean {
  if (next.size !== line.size || next.font !== line.font || next.gapAbove >= WRAPPED_TITLE_GAP) return false;
  const whole = `${title} ${next.text.trim()}`;
  return whole.length <= MAX_HEADING_CHARS && whole.split(/\s+/).length <= MAX_HEADING_WORDS + 4 && !OPEN_ENDING.test(whole) && !/[.;:]\s+\S/.test(next.text.trim());
}

/** A heading without numbering starts where the page's text starts, or is centred on it, within this many body sizes. */
export const ALIGN_TOLERANCE_EMS = 0.6;
/** Lines in the body font starting at one x that make it a left edge of the page's text. */
export const MIN_EDGE_LINES = 2;
/** Share of a page's body-font lines that must start at its edges for the page to have edges at all. */
export const MIN_EDGE_SHARE = 0.5;

interface PageFrame {
  /** x where lines in the body font start (left margins, column starts, paragraph indents) */
  edges: number[];
  left: number;
  right: number;
  /** on a page read as two columns, each column's left and right edge (body-font lines starting in it) */
  columns?: Array<[number, number]>;
}

/** Where the page's text (body-font lines) starts and ends; null when it has too few such lines to tell. */
function pageFrame(page: PageLayout, body: BodyStyle): PageFrame | null {
  const bodyLines = page.lines.filter((l) => l.font === body.font && l.size === body.size);
  if (bodyLines.length < MIN_EDGE_LINES * 2) return null;
  const counts = new Map<number, number>();
  for (const l of bodyLines) counts.set(Math.round(l.x), (counts.get(Math.round(l.x)) ?? 0) + 1);
  const edgeCounts = [...counts].filter(([, n]) => n >= MIN_EDGE_LINES);
  // a page of centred lines (a cover, a title page) has no edges to tell
  if (edgeCounts.reduce((a, [, n]) => a + n, 0) < bodyLines.length * MIN_EDGE_SHARE) return null;
  const edges = edgeCounts.map(([x]) => x);
  const frame: PageFrame = { edges, left: Math.min(...bodyLines.map((l) => l.x)), right: Math.max(...bodyLines.map((l) => l.x2)) };
  if (page.twoColumn) frame.columns = columnEdges(bodyLines, page.width / 2);
  return frame;
}

/** The left and right edges of the body lines starting left of `middle` and of those starting right of it (a column with none is left out). */
function columnEdges(bodyLines: Line[], middle: number): Array<[number, number]> {
  const sides = [bodyLines.filter((l) => l.x < middle), bodyLines.filter((l) => l.x >= middle)];
  return sides.filter((ls) => ls.length > 0).map((ls) => [Math.min(...ls.map((l) => l.x)), Math.max(...ls.map((l) => l.x2))]);
}

/**
 * A line this much larger than the body's, the first of its page, printed in the same place and
 * print as the first line of PAGE_TITLE_PLACE_SHARE of the pages (a deck's title place), is a title
 * without lining up with the page's text: Impressive's slides had 6 of their 14 titles ("What is
 * Impressive?", "Software Requirements") dropped for starting left of the bullets below them. A
 * large line atop one page only (a 10-K's "UNITED STATES", a figure's "Hello World") is not.
 */
export const PAGE_TITLE_SIZE_RATIO = 1.4;
export const PAGE_TITLE_PLACE_SHARE = 0.5;
export const PAGE_TITLE_MIN_PAGES = 3;

/** Where and in what print a line that may be a deck's title is set ("font|size|y"), or null when it is not large enough. */
function titlePlace(l: Line, body: BodyStyle): string | null {
  return l.size >= body.size * PAGE_TITLE_SIZE_RATIO ? `${styleKey(l)}|${Math.round(l.y)}` : null;
}

/**
 * A cell of one letter outside the Latin alphabet or one symbol glyph: a mark set on a title's line
 * (a slide's logo glyph), not a table's value (a dash for nil, "$", "%").
 */
const LONE_MARK = /^(?![A-Za-z])[\p{L}\p{So}]$/u;

/**
 * A line without a last cell that is a lone mark set apart from its words: a Beamer deck prints a
 * glyph ("ζ") at the right end of every frame title's line, which made each title a two-cell table
 * row ("Levels meters: Pseudo peak meter | ζ") and no title at all.
 */
function withoutLoneMark(line: Line): Line {
  const last = line.cells[line.cells.length - 1]?.trim() ?? '';
  if (line.cells.length < 2 || !LONE_MARK.test(last)) return line;
  const cells = line.cells.slice(0, -1);
  return { ...line, cells, text: cells.join(' ') };
}

/** First lines this close in height (PDF units) are set in one place: a rounding of 549.4 and 549.6 apart. */
export const PAGE_TITLE_Y_TOLERANCE = 2;

/**
 * The places where the first lines of at least PAGE_TITLE_PLACE_SHARE of the pages (PAGE_TITLE_MIN_PAGES
 * at least) are set large, counting places of one print within PAGE_TITLE_Y_TOLERANCE together (a
 * Beamer deck's frame titles sit at y 549 and 550 alike: counted apart, neither place had half the
 * 32 slides, and the EBU loudness talk was read in windows of "Opening pages").
 */
function deckTitlePlaces(pages: PageLayout[], furniture: Furniture, body: BodyStyle): Set<string> {
  const count = new Map<string, number>();
  pages.forEach((p, pi) => {
    const first = p.lines.find((_, i) => !furniture.lines[pi]!.has(i));
    const place = first ? titlePlace(first, body) : null;
    if (place) count.set(place, (count.get(place) ?? 0) + 1);
  });
  const need = Math.max(PAGE_TITLE_MIN_PAGES, PAGE_TITLE_PLACE_SHARE * pages.length);
  // a place's count with those of its print set up to PAGE_TITLE_Y_TOLERANCE above or below it (heights are whole points)
  const nearby = (k: string): number => {
    const at = k.lastIndexOf('|');
    const print = k.slice(0, at);
    const y = Number(k.slice(at + 1));
    let n = 0;
    for (let d = -PAGE_TITLE_Y_TOLERANCE; d <= PAGE_TITLE_Y_TOLERANCE; d++) n += count.get(`${print}|${y + d}`) ?? 0;
    return n;
  };
  return new Set([...count.keys()].filter((k) => nearby(k) >= need));
}

/** A deck's slide title (opening its page in the deck's title place) scores at least this: the structural score of a detected outline (detected.ts STYLE_OUTLINE_SCORE). */
export const DECK_TITLE_SCORE = 0.75;

/**
 * A title set by style alone sits where titles sit: at a left edge of the page's text, centred on it
 * (or on its column, on a page of two), or ending at its right edge. Labels inside figures and music examples ("Illness", "Trio") float
 * elsewhere.
 */
function alignedLikeTitle(line: Line, frame: PageFrame | null, body: BodyStyle): boolean {
  if (!frame) return true;
  const tol = ALIGN_TOLERANCE_EMS * body.size * 2;
  if (frame.edges.some((x) => Math.abs(line.x - x) <= tol)) return true;
  const centre = (line.x + line.x2) / 2;
  if (Math.abs(centre - (frame.left + frame.right) / 2) <= tol * 2) return true;
  // a paper's section title centred over its column
  if (frame.columns?.some(([a, b]) => Math.abs(centre - (a + b) / 2) <= tol * 2)) return true;
  return Math.abs(line.x2 - frame.right) <= tol;
}

/**
 * A line filling the page's measure whose sentence goes on, in lower case, on the next line at the
 * same indent: a paragraph's first line whose words are mostly in another print (zsh's "Loading
 * bracketed-paste-magic also defines quote-paste, a helper" / "function for use in paste-finish.",
 * its code words set in the typewriter font), not a title.
 */
function wrapsIntoNext(line: Line, next: Line, frame: PageFrame | null, body: BodyStyle): boolean {
  if (!frame || next.size !== line.size || next.gapAbove >= WRAPPED_TITLE_GAP || !/^\p{Ll}/u.test(next.text.trim())) return false;
  const tol = ALIGN_TOLERANCE_EMS * body.size;
  return Math.abs(next.x - line.x) <= tol && line.x2 >= frame.right - tol;
}

/**
 * A title with a square bracket it does not close ("Chapter 21 [Annex", a cross-reference's first line
 * in a narrow column of the Ada manual, which had become a section of pages 585–1279): a line of text,
 * not a heading (a title wrapped over two lines is joined before this is asked). An open parenthesis
 * is left alone: a function's signature wraps inside its parentheses ("ComplexRowVector quotient
 * (const RowVector &a, const" titles an entry of liboctave's reference).
 */
export function unclosedBracket(title: string): boolean {
  let depth = 0;
  for (const c of title) {
    if (c === '[') depth++;
    else if (c === ']' && depth > 0) depth--;
  }
  return depth > 0;
}

/** A title that is only a label and its number ("Example 3", "Table 2", "ARTICLE IV", "Figure 1.2"). */
const BARE_LABEL = /^\p{L}[\p{L}-]*\.?\s+(?:\d{1,3}[A-Z]?(?:[.-]\d{1,3})*|[IVXLC]{1,6}|[A-Z])[.:]?$/u;
/** A caption added to a bare label is a line of at most this many characters. */
export const CAPTION_MAX_CHARS = 80;

/**
 * "Example 3" says nothing of what the example is: the line printed under it in another style (its
 * caption, or the first sentence) is added, "Example 3: Input class: data.frame". A line in the same
 * style continues the title itself and is joined elsewhere; code, table rows, numbers and numbered
 * headings are no caption.
 */
function withCaption(title: string, line: Line, next: Line | undefined): string {
  if (!next || (next.font === line.font && next.size === line.size) || next.cells.length > 1 || isTableRow(next)) return title;
  const text = next.text.trim();
  // a caption is a line of its own, not the first line of a paragraph ("Part I" / "Corning Incorporated and its … are")
  if (text.length > CAPTION_MAX_CHARS || OPEN_ENDING.test(text)) return title;
  // a numbered line ("PART II" over "Item 5. Market for …") is a heading of its own
  if (letters(text) < 3 || notATitle(text) || numbering(text) || !/^[\p{Lu}"“'‘(]/u.test(text)) return title;
  const caption = text.replace(/[\s.:;,–—-]+$/, '');
  return caption ? `${title.replace(/[.:]$/, '')}: ${caption}` : title;
}

/**
 * A page's nearest body lines (furniture left out) of line i: the one above it and up to `ahead`
 * below it. Asked for lines in increasing order (one pass over the page, not a scan per line).
 */
function bodyNeighbours(p: PageLayout, furn: Set<number>, ahead: number): (i: number) => { above: Line | undefined; below: Line[] } {
  const idx: number[] = [];
  p.lines.forEach((_, k) => {
    if (!furn.has(k)) idx.push(k);
  });
  let next = 0;
  return (i) => {
    while (next < idx.length && idx[next]! <= i) next++;
    const a = next > 0 && idx[next - 1] === i ? next - 2 : next - 1;
    return { above: a >= 0 ? p.lines[idx[a]!] : undefined, below: idx.slice(next, next + ahead).map((k) => p.lines[k]!) };
  };
}

/** Tick labels: a row of at least this many cells, each a number of at most TICK_MAX_CHARS characters. */
export const MIN_TICK_CELLS = 3;
export const TICK_MAX_CHARS = 8;

/**
 * A line in a style of its own right under a row of tick labels in the same print ("0 2 4 6 8" over
 * "Years since enrollment") names a plot's axis, not a section.
 */
function axisLabel(line: Line, above: Line | undefined): boolean {
  if (!above || above.font !== line.font || above.size !== line.size || above.cells.length < MIN_TICK_CELLS) return false;
  return above.cells.every((c) => c.length <= TICK_MAX_CHARS && isNumericCell(c));
}

/** A figure's caption line ("Figure 3: Example file…", "Fig. 2.1"). */
const FIGURE_CAPTION = /^(?:figure|fig\.)\s*\d/i;
/** Lines under a label searched for its figure's caption. */
export const FIGURE_CAPTION_LOOKAHEAD = 4;
/** Print smaller than this share of the body's size is a figure's inner lettering. */
export const FIGURE_LETTERING_SHARE = 0.6;

/**
 * A line in a style of its own drawn inside a figure: tiny lettering beside it (above it or in the
 * lines below) and the figure's caption right under them. Ghostscript's colour-management manual
 * prints "RGB TEXT" and "CMYK TEXT" in 21 pt between 3.5 pt labels over "Figure 3: Example file
 * with mixed content", and "RGB TEXT" had titled four pages.
 */
function figureLabel(line: Line, above: Line | undefined, below: Line[], body: BodyStyle): boolean {
  const near = below.slice(0, FIGURE_CAPTION_LOOKAHEAD);
  const caption = near.findIndex((b) => FIGURE_CAPTION.test(b.text.trim()));
  if (caption < 0) return false;
  const tiny = (x: Line | undefined) => !!x && body.size > 0 && x.size < FIGURE_LETTERING_SHARE * body.size;
  return tiny(above) || near.slice(0, caption).some(tiny);
}

/** All heading candidates of the document, in reading order. `skipPages` (e.g. TOC pages) yield none. */
export function findHeadings(pages: PageLayout[], furniture: Furniture, body: BodyStyle, skipPages: Set<number>, vocab: OutlineVocabulary = NO_OUTLINE_VOCABULARY, letters: ReadonlySet<string> = bodyLetters(pages, furniture, body)): Heading[] {
  const ctx: HeadingContext = { furniture, body, vocab, letters, code: codeFonts(pages, body), mono: monospacePrints(pages, body), titlePlaces: deckTitlePlaces(pages, furniture, body) };
  const byPage = pages.map((p, pi) => (skipPages.has(p.page) ? [] : pageHeadings(p, pi, ctx)));
  // one-word titles in the print of the document's headings (inHeadingPrint): the pages holding such lines are read again
  const prints = headingPrintsOf(byPage.flat(), pages, body);
  if (prints.size > 0) {
    pages.forEach((p, pi) => {
      if (!skipPages.has(p.page) && p.lines.some((l) => prints.has(styleKey(l)) && !l.text.trim().includes(' '))) byPage[pi] = pageHeadings(p, pi, { ...ctx, headingPrints: prints });
    });
  }
  const out = byPage.flat();
  liftPeers(out, pages);
  return out;
}

/** What heading detection reads off the whole document, once. */
interface HeadingContext {
  furniture: Furniture;
  body: BodyStyle;
  vocab: OutlineVocabulary;
  letters: ReadonlySet<string>;
  /** fonts of code (codeFonts), fixed-width prints (monospacePrints), a deck's title places (deckTitlePlaces) */
  code: Set<string>;
  mono: Set<string>;
  titlePlaces: Set<string>;
  /** prints of the document's headings, for one-word titles (inHeadingPrint) */
  headingPrints?: ReadonlySet<string>;
}

/** The heading candidates of one page (index `pi`), before peers are lifted (liftPeers). */
function pageHeadings(p: PageLayout, pi: number, ctx: HeadingContext): Heading[] {
  const { furniture, body, vocab, letters, code, mono, titlePlaces, headingPrints } = ctx;
  const out: Heading[] = [];
  const furn = furniture.lines[pi]!;
  const starts = furniture.runStart[pi]!;
  let seen = 0;
  let joined = -1;
  const frame = pageFrame(p, body);
  const neighbours = bodyNeighbours(p, furn, TABLE_TITLE_LOOKAHEAD);
  p.lines.forEach((l, i) => {
    const isFurniture = furn.has(i);
    if (isFurniture && !starts.has(i)) return;
    const top = seen < TOP_LINES;
    const bodyLine = seen;
    if (!isFurniture) seen++;
    const repeats = isFurniture ? 0 : (furniture.repeats.get(lineKey(l.text)) ?? 0);
    const { above, below } = neighbours(i);
    const inTable = !!above && isTableRow(above) && !!below[0] && isTableRow(below[0]);
    const titlesTable = !inTable && !(above && isTableRow(above)) && below.filter(isTableRow).length >= TABLE_TITLE_MIN_ROWS;
    // a label between the rows of a table ("Adjusted EBIT" over its rows) groups rows: not a heading
    const rowSize = below.find(isTableRow)?.size;
    // a line of cells over a row of cells in the same columns is a table's (its header or a row), however its cells read
    const cellsBelow = !!below[0] && sameColumns(l, below[0]);
    const opts = { repeats, top, vocab, titlesTable, cellsBelow, ...(rowSize ? { rowSize } : {}), ...(headingPrints ? { headingPrints } : {}) };
    const listing = code.has(l.font) || i <= joined || inFixedWidthBlock(p.lines, i, mono);
    const runIn = listing ? null : runInHeading(l, body, opts);
    const h = listing ? null : (runIn ?? scoreLine(l, body, opts));
    if (h && h.kind === 'style' && (inTable || axisLabel(l, above) || figureLabel(l, above, below, body) || !inBodyLetters(h.title, letters))) return;
    // a large line opening the page in the deck's title place is a title wherever it starts (a slide's title left of its bullets)
    const opensPage = bodyLine === 0 && titlePlaces.has(titlePlace(l, body) ?? '');
    if (!h || (h.kind === 'style' && !opensPage && !alignedLikeTitle(l, frame, body))) return;
    // a slide's title: each slide is a section of the deck, in whatever print its body shares
    if (opensPage && h.score < DECK_TITLE_SCORE) h.score = DECK_TITLE_SCORE;
    if (h.number && !runIn && keyedTableRow(p.lines, i, furn)) return;
    if (titlesTable) h.table = true;
    // a title hyphenated at its line's end ("… deviance expres-" / "sion") lost the hyphen in tidying
    const hyphenated = HYPHEN_END.test(l.text.trim()) && l.text.trim().slice(0, -1).endsWith(h.title.slice(-HYPHEN_CHECK_CHARS));
    const following = furn.has(i + 1) ? undefined : p.lines[i + 1];
    // a sentence that goes on below in its own font ("2. The layout and par commands … on the left" /
    // "and state space diagrams …"): a numbered paragraph, unless the whole is still a title
    const runsOn = !runIn && !!following && /^\p{Ll}/u.test(following.text.trim()) && following.size === l.size && following.font === l.font && following.gapAbove < WRAPPED_TITLE_GAP;
    if (!runIn && following && following.font !== l.font && wrapsIntoNext(l, following, frame, body)) return;
    if (OPEN_ENDING.test(h.title) || hyphenated || runsOn) {
      if (following && continuesTitle(l, following, h.title)) {
        h.title = tidyTitle(joinWrapped(hyphenated ? `${h.title}-` : h.title, following.text.trim()));
        joined = i + 1;
        h.lines = 2;
      } else {
        // too long for a title: a heading sentence in a font of its own (a 10-K's bold risk factor)
        // is titled by that sentence; in the body's font it is a paragraph
        const sentence = l.font !== body.font && h.kind === 'style' ? headingSentence(p.lines, i, furn) : null;
        if (!sentence) return;
        h.title = tidyTitle(sentence.text);
        joined = sentence.last;
        h.lines = sentence.last - i + 1;
      }
    }
    // a title printed over two lines: same style, right below, the first not ending a sentence
    const prev = out[out.length - 1];
    const prevLine = prev?.page === p.page ? p.lines[prev.line] : undefined;
    if (prev && prevLine && prev.line === i - 1 && h.kind === 'style' && prevLine.size === l.size && prevLine.font === l.font && l.gapAbove < WRAPPED_TITLE_GAP && !/[.:;]$/.test(prev.title) && prev.title.length + h.title.length <= MAX_HEADING_CHARS) {
      prev.title = `${prev.title} ${h.title}`;
      prev.lines = (prev.lines ?? 1) + 1;
      return;
    }
    if (BARE_LABEL.test(h.title)) h.title = withCaption(h.title, l, below[0]);
    if (unclosedBracket(h.title)) return;
    const head = h.kind === 'style' ? commaWrappedHead(p.lines, i, furn, h.title) : null;
    if (head) {
      out.push({ page: p.page, line: i - 1, bodyLine: bodyLine - 1, top, ...h, title: head, lines: (h.lines ?? 1) + 1, print: styleKey(l) });
      return;
    }
    out.push({ page: p.page, line: i, bodyLine, top, ...h, print: styleKey(l) });
  });
  return out;
}

/**
 * A numbered line over this many lines in its print, at its left edge, each opening with a number and
 * set at the text's pitch, is a row of a table keyed by number (Elk's space groups: "53 D 72h Pmna
 * -P 2ac 2" over "53:ba-c D 72h Pnmb …", "54 D 82h Pcca …"), not a numbered heading: a heading has
 * its text below it, or one sub-heading.
 */
export const KEYED_ROWS_BELOW = 2;
/** Left edges within this many PDF units are one column. */
const KEYED_ROW_X_TOLERANCE = 2;
const OPENS_WITH_NUMBER = /^\(?\d/;

function keyedTableRow(lines: Line[], i: number, furn: Set<number>): boolean {
  const l = lines[i]!;
  for (let k = 1; k <= KEYED_ROWS_BELOW; k++) {
    const n = lines[i + k];
    if (!n || furn.has(i + k) || n.font !== l.font || n.size !== l.size || Math.abs(n.x - l.x) > KEYED_ROW_X_TOLERANCE) return false;
    if (n.gapAbove >= WRAPPED_TITLE_GAP || !OPENS_WITH_NUMBER.test(n.text.trim())) return false;
  }
  return true;
}

/** Score from which a style-only heading counts as a document heading (sections split on it: SPLIT_MIN_SCORE). */
export const PEER_STRONG_SCORE = 0.45;
/** A print style (font and size) is a heading style when this many of its lines are strong headings… */
export const PEER_MIN_STRONG = 3;
/** …and at least this share of its heading candidates. */
export const PEER_MIN_SHARE = 0.5;
/** A weaker line in a heading style is lifted by at most this much, up to its peers' median score… */
export const PEER_LIFT = 0.15;
/** …and never above this: enough to split a long section on, not to make it an outline heading of its own. */
export const PEER_MAX_SCORE = 0.5;

/**
 * Headings printed in the style the document uses for its headings count alike: a bold line at body
 * size scores lower only for being long ("Analysis of Consolidated Earnings Before Provision for Taxes
 * on Income") or lower on its page, yet it is the same kind of heading as its short peers ("MedTech
 * Segment"). Lines of a style most of whose candidates are strong are lifted towards their score.
 */
function liftPeers(out: Heading[], pages: PageLayout[]): void {
  const byStyle = new Map<string, Heading[]>();
  for (const h of out) {
    if (h.kind !== 'style' || h.table) continue;
    const l = pages[h.page - 1]!.lines[h.line]!;
    const key = styleKey(l);
    const list = byStyle.get(key);
    if (list) list.push(h);
    else byStyle.set(key, [h]);
  }
  for (const list of byStyle.values()) {
    const strong = list.filter((h) => h.score >= PEER_STRONG_SCORE).map((h) => h.score).sort((a, b) => a - b);
    if (strong.length < PEER_MIN_STRONG || strong.length < list.length * PEER_MIN_SHARE) continue;
    const median = strong[Math.floor(strong.length / 2)]!;
    const to = Math.min(median, PEER_MAX_SCORE);
    for (const h of list) if (h.score < to) h.score = Math.round(Math.min(to, h.score + PEER_LIFT) * 100) / 100;
  }
}

/** A print is the document's section-title print when this many top-level numbered titles use it. */
export const PEER_TITLE_MIN_NUMBERED = 2;
/** An unnumbered line in that print is a title of the same rank when it has at most this many characters… */
export const PEER_TITLE_MAX_CHARS = 80;
/** At most this many unnumbered titles per numbered one in the print (a paper's 4 sections, its abstract, 2 appendices, acknowledgments and references). */
export const PEER_TITLE_MAX_RATIO = 2;
/** …the score it is given: a structural title of a detected outline (detected.ts STYLE_OUTLINE_SCORE). */
export const PEER_TITLE_SCORE = 0.75;

/**
 * Top-level numbered titles' prints (not the body's), each with whether most of its titles are set
 * in capitals, and how many numbered titles they print.
 */
function sectionTitlePrints(pages: PageLayout[], headings: Heading[], body: BodyStyle): { prints: Map<string, boolean>; numbered: number } {
  const byPrint = new Map<string, Heading[]>();
  for (const h of headings) {
    if ((h.kind !== 'numbered' && h.kind !== 'roman') || h.level !== 1) continue;
    const l = pages[h.page - 1]?.lines[h.line];
    if (!l || (l.font === body.font && l.size === body.size)) continue;
    const list = byPrint.get(styleKey(l)) ?? [];
    list.push(h);
    byPrint.set(styleKey(l), list);
  }
  const prints = new Map<string, boolean>();
  let numbered = 0;
  for (const [print, list] of byPrint) {
    if (list.length < PEER_TITLE_MIN_NUMBERED) continue;
    prints.set(print, list.filter((h) => isAllCaps(h.title.replace(/^[\dIVXLC.\s]+/, ''))).length * 2 > list.length);
    numbered += list.length;
  }
  return { prints, numbered };
}

/**
 * Whether a line reads as an unnumbered title beside numbered ones: short, opening with a capital,
 * no sentence or list punctuation, no bare label; in capitals when the numbered titles are.
 */
function peerTitleLine(text: string, caps: boolean): boolean {
  if (text.length > PEER_TITLE_MAX_CHARS || letters(text) < 4 || !/^\p{Lu}/u.test(text) || /[.,;:]$/.test(text)) return false;
  if (caps && !isAllCaps(text)) return false;
  return !BARE_LABEL.test(text) && !notATitle(text) && !numbering(text);
}

/**
 * Unnumbered titles printed like the document's numbered section titles ("ACKNOWLEDGMENTS",
 * "REFERENCES" and "APPENDIX A. …" beside "1. INTRODUCTION" in the same bold capitals) are sections
 * of the same rank: for an outline detected from the headings (no bookmarks, no printed contents),
 * where they were too short or too plain to score as titles on their own and a paper's references
 * and appendices hid in its last numbered section. Lines of other prints, and lines in lower case
 * in a print whose numbered titles are in capitals (a subsection "B.3 Uppercase letters"), are left out.
 */
export function withPeerTitles(pages: PageLayout[], furniture: Furniture, body: BodyStyle, headings: Heading[]): Heading[] {
  // parts and items are the top level of their own scheme (a filing, a contract): left as they are
  if (headings.some((h) => h.kind === 'part' || h.kind === 'item')) return headings;
  const { prints, numbered } = sectionTitlePrints(pages, headings, body);
  if (prints.size === 0) return headings;
  const at = new Map(headings.map((h, k) => [`${h.page}:${h.line}`, k]));
  // the later lines of a title printed over several lines are part of it
  const within = new Set(headings.flatMap((h) => Array.from({ length: Math.max(0, (h.lines ?? 1) - 1) }, (_, d) => `${h.page}:${h.line + 1 + d}`)));
  const result = [...headings];
  const out: Heading[] = [];
  let peers = 0;
  pages.forEach((p, pi) => {
    let bodyLine = 0;
    p.lines.forEach((l, i) => {
      if (furniture.lines[pi]?.has(i)) return;
      const here = bodyLine++;
      const k = at.get(`${p.page}:${i}`);
      const existing = k === undefined ? undefined : headings[k]!;
      const caps = prints.get(styleKey(l));
      const text = l.text.trim();
      if (caps === undefined || l.cells.length !== 1 || within.has(`${p.page}:${i}`) || !peerTitleLine(text, caps) || (existing && existing.kind !== 'style')) return;
      // a copy: the headings that split long sections keep their own rank
      if (existing) result[k!] = { ...existing, level: 1, score: Math.max(existing.score, PEER_TITLE_SCORE) };
      else out.push({ page: p.page, line: i, bodyLine: here, title: text, level: 1, kind: 'style', score: PEER_TITLE_SCORE, top: here < TOP_LINES });
      peers++;
    });
  });
  // unnumbered titles are the exceptions beside numbered ones (abstract, acknowledgments, appendices,
  // references); many more of them than numbered titles means the print is also a sub-heading's or a label's
  if (peers === 0 || peers > PEER_TITLE_MAX_RATIO * numbered) return headings;
  return out.length === 0 ? result : [...result, ...out].sort((a, b) => a.page - b.page || a.line - b.line);
}
