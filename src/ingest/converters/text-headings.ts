/**
 * Headings of plain text that Markdown does not see: reStructuredText titles (a line underlined, or
 * over- and underlined, by any adornment character: `Sorting HOW TO` over `**************`),
 * AsciiDoc section titles (`== Daily checks`), Org-mode headings in an Org file (`** Weather`,
 * `#+TITLE:`),
 * lines in capitals standing alone (`PRINTING THE MANUAL` in a GNU README), numbered titles standing
 * alone in a sequence (`  8. Termination.` in a licence, `2.1 Scope`) and the questions of a
 * FAQ (`Q: What does the prefix XIO mean?`, `1.4  Can I sell a software package…?`, one entry
 * each, when the text asks at least two). The
 * text is rewritten line for line with ATX marks (`## Title`) and blank adornment lines, so the
 * Markdown parser builds the tree and every line number stays that of the file.
 */
import { cutAtWord } from './titles.js';

/** Adornment characters of reStructuredText section titles. */
const ADORNMENT = /^([=\-~*^+#"'`:.,_!$%&(){}[\]<>/\\|;?@])\1+\s*$/;
/** An underline may be shorter than its title (Markdown's setext style) down to this length. */
const MIN_UNDERLINE = 3;
/** Longest line taken for a heading in capitals. */
export const CAPS_HEADING_MAX_CHARS = 60;
/** Letters a heading in capitals needs. */
const CAPS_MIN_LETTERS = 3;
/** Share of its non-space characters that must be letters. */
const CAPS_LETTER_SHARE = 0.6;

/** A FAQ's question line: "Q:", "Q.", "Q3:", "Question:" at the start of a paragraph. */
const QUESTION = /^(?:Q|Question)\s*\d{0,3}\s*[:.)]\s+\S/;
/**
 * A FAQ's numbered question, on a line of its own: "1.1  Can I use the fonts for a book…?" (the SIL
 * OFL FAQ's 76 questions, "1.1.1" under "1.1"); its depth is its style, so sub-questions nest.
 */
const NUMBERED_QUESTION = /^\s{0,8}(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+\p{Lu}.*\?\s*$/u;
/** Questions a text needs before they are read as its entries (one "Q:" is a remark, not a FAQ). */
export const MIN_QUESTIONS = 2;
/** Longest question title; a longer question is cut at a word. */
export const QUESTION_TITLE_MAX_CHARS = 120;

interface TextHeading { line: number; title: string; style: string; under: number[] }

/**
 * An indented line Markdown would read as a heading ("   # Command …", a comment in a shell example
 * the text indents by three): in plain text it is text, escaped in the marked copy (node text comes
 * from the file's own lines). A "# Title" at the start of a line stays a heading.
 */
const ATX_LIKE = /^ {1,3}#{1,6}(?:\s|$)/;

const blank = (l: string | undefined) => l === undefined || l.trim() === '';

/**
 * An AsciiDoc section title ("== Daily checks": its depth is its count of "="), after a blank line or
 * opening the file. AsciiDoc writes one space after the marks: a column of symbols set off by several
 * ("=    A ring." in NetHack's list of map symbols) is a table row, not a title.
 */
const ASCIIDOC_TITLE = /^(={1,6}) (\S.*)$/;
/** An Org-mode heading ("** Weather": its depth is its count of "*"), in a file marked as Org by its "#+KEYWORD:" lines. */
const ORG_HEADING = /^(\*{1,6})\s+(\S.*)$/;
/** An Org-mode file's title line ("#+TITLE: Field Notes 2024"). */
const ORG_TITLE = /^#\+title:\s*(\S.*)$/i;
/** An Org-mode keyword line ("#+TITLE:", "#+AUTHOR:", "#+STARTUP:"): "* " lines of such a file are its headings, not bullets. */
const ORG_KEYWORD = /^#\+[A-Za-z_]+:/;
/** An AsciiDoc block delimiter: listing, example, literal, sidebar, quote, passthrough. */
const ASCIIDOC_DELIMITER = /^(?:-{4,}|={4,}|\.{4,}|\*{4,}|_{4,}|\+{4,})\s*$/;
/** An AsciiDoc block attribute line ("[source,shell]", "[NOTE]"): the "----" under it opens a block, it titles nothing. */
const BLOCK_ATTRIBUTE = /^\[[^\]]*\]$/;

/** A heading of a lightweight markup Markdown does not read: AsciiDoc's "== Title", or Org's "* Title" and "#+TITLE:" (in an Org file). */
function markupHeading(lines: string[], i: number, org: boolean): TextHeading | null {
  const l = lines[i]!;
  const first = i === 0 || lines.slice(0, i).every(blank);
  const a = ASCIIDOC_TITLE.exec(l);
  if (a && (first || blank(lines[i - 1]))) return { line: i, title: a[2]!.trim(), style: `asciidoc${a[1]!.length}`, under: [] };
  if (!org) return null;
  const t = ORG_TITLE.exec(l);
  if (t) return { line: i, title: t[1]!.trim(), style: 'orgtitle', under: [] };
  const o = ORG_HEADING.exec(l);
  return o ? { line: i, title: o[2]!.trim(), style: `org${o[1]!.length}`, under: [] } : null;
}

/** A title line under (and maybe over) an adornment at least as long as the title. */
function adorned(lines: string[], i: number): TextHeading | null {
  const t = lines[i]!.trim();
  if (!t || ADORNMENT.test(t) || lines[i]!.startsWith(' ') || BLOCK_ATTRIBUTE.test(t)) return null;
  const under = ADORNMENT.exec(lines[i + 1] ?? '');
  if (!under || lines[i + 1]!.trim().length < Math.min(t.length, MIN_UNDERLINE)) return null;
  const over = ADORNMENT.exec(lines[i - 1] ?? '');
  const hasOver = !!over && over[1] === under[1] && blank(lines[i - 2]);
  if (!hasOver && !blank(lines[i - 1])) return null;
  return { line: i, title: t, style: `${hasOver ? 'over' : ''}${under[1]}`, under: hasOver ? [i - 1, i + 1] : [i + 1] };
}

/** A line in capitals with blank lines around it. */
function capitals(lines: string[], i: number): TextHeading | null {
  const t = lines[i]!.trim();
  if (!t || t.length > CAPS_HEADING_MAX_CHARS || !blank(lines[i - 1]) || !blank(lines[i + 1]) || /[.,;]$/.test(t)) return null;
  // capitals outside parentheses (a line all in parentheses, git's "(subsystems)", is a label):
  // "M-?  #? (not supported by all platforms)" is a key binding, not a title
  const bare = t.replace(/\([^)]*\)/g, '');
  const bareLetters = (bare.match(/\p{L}/gu) ?? []).length;
  const letters = t.match(/\p{L}/gu) ?? [];
  if (letters.length < CAPS_MIN_LETTERS || (bareLetters > 0 && bareLetters < CAPS_MIN_LETTERS) || /\p{Ll}/u.test(bare)) return null;
  if (letters.length / t.replace(/\s/g, '').length < CAPS_LETTER_SHARE) return null;
  return { line: i, title: t, style: 'caps', under: [] };
}

/**
 * A question opening a paragraph, titled by the whole question (its wrapped lines joined, up to the
 * answer or a blank line, cut at a word past QUESTION_TITLE_MAX_CHARS: not at its first sentence,
 * which may be the context before the question); its lines stay in the text.
 */
function question(lines: string[], i: number): TextHeading | null {
  if (!blank(lines[i - 1])) return null;
  const numberedQ = NUMBERED_QUESTION.exec(lines[i]!);
  if (numberedQ) return { line: i, title: cutAtWord(lines[i]!.trim(), QUESTION_TITLE_MAX_CHARS), style: `question${numberedQ[1]!.split('.').length}`, under: [] };
  if (!QUESTION.test(lines[i]!)) return null;
  const parts = [lines[i]!.trim()];
  for (let k = i + 1; k < lines.length && !blank(lines[k]) && !/^\s*A(?:nswer)?\s*[:.)]/.test(lines[k]!); k++) parts.push(lines[k]!.trim());
  return { line: i, title: cutAtWord(parts.join(' '), QUESTION_TITLE_MAX_CHARS), style: 'question', under: [] };
}

/**
 * A numbered title standing alone: "  8. Termination.", "2.1 Scope" with blank lines around it,
 * short, its words opening in a capital. Kept only as one of a run of such titles (numberedRuns).
 */
const NUMBERED_TITLE = /^\s{0,8}((?:\d{1,2}|[A-Z](?=\.))(?:\.\d{1,2}){0,3})\.?\s+(\p{Lu}.*)$/u;
/** An appendix's letter numbers after every section number ("A." after "9.", "A.1." under it). */
const APPENDIX_BASE = 1000;
const APPENDIX_LETTER = /^[A-Z]$/;
/** Longest numbered title line, and most words in it. */
export const NUMBERED_TITLE_MAX_CHARS = 70;
export const NUMBERED_TITLE_MAX_WORDS = 8;
/** Numbered titles of one depth a text needs before they are its sections… */
export const MIN_NUMBERED_TITLES = 3;
/** …this share of them one more than the one before (a list's "1." "2." "3." counts too, if its items are far apart)… */
export const NUMBERED_SEQUENCE_SHARE = 0.7;
/** …and this many lines apart on average: an enumeration's items follow each other closely. */
export const NUMBERED_MIN_MEAN_LINES = 8;

/**
 * Longest numbered title taken when its number continues a run between two of the run's titles
 * (numberedRuns): "4. The Developers by way of General Resolution or election" between Debian's
 * constitution's "3. Individual Developers" and "5. Project Leader", ten words.
 */
export const NUMBERED_TITLE_LONG_MAX_CHARS = 100;

function numbered(lines: string[], i: number, long = false): TextHeading | null {
  const m = NUMBERED_TITLE.exec(lines[i]!);
  if (!m || !blank(lines[i - 1]) || !blank(lines[i + 1])) return null;
  const t = lines[i]!.trim();
  // a question may be longer ("3.  What do all those things on the screen mean?" among the NetHack Guidebook's sections)
  const asks = t.endsWith('?');
  const short = t.length <= (asks ? QUESTION_TITLE_MAX_CHARS : NUMBERED_TITLE_MAX_CHARS) && (asks || t.split(/\s+/).length <= NUMBERED_TITLE_MAX_WORDS + 1);
  if (long ? short || t.length > NUMBERED_TITLE_LONG_MAX_CHARS || /[.!?]$/.test(t) : !short) return null;
  // a contents line ("7.2.1 Plotting one column ........ 12") is no heading
  if (/[,;:]$/.test(t) || /\.{3,}|(?:\.\s){3,}/.test(t)) return null;
  return { line: i, title: t.replace(/\.$/, ''), style: `numbered${m[1]!.split('.').length}`, under: [] };
}

/**
 * A numbered title run into its paragraph: "2. Grant of Copyright License. Subject to the terms…", a
 * licence's or contract's sections (Apache 2.0: only "1. Definitions." stands alone). The title is
 * the words up to the first full stop, in title case, at most NUMBERED_TITLE_MAX_WORDS; text goes on
 * after it on the same line, and a blank line stands before it. Kept only in a run, as numbered
 * titles are (numberedRuns), of the same style: a list's "2. Remove the cover. Then…" is no title.
 */
const RUN_IN_TITLE = /^\s{0,8}(\d{1,2}(?:\.\d{1,2}){0,2})\.\s+(\p{Lu}[^.!?:;]{0,80}?)\.\s+\S/u;
/** Words a title-case title may keep in lower case. */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'into', 'of', 'on', 'or', 'the', 'to', 'under', 'with']);

function runIn(lines: string[], i: number): TextHeading | null {
  if (!blank(lines[i - 1])) return null;
  const m = RUN_IN_TITLE.exec(lines[i]!);
  if (!m) return null;
  const words = m[2]!.trim().split(/\s+/);
  if (words.length > NUMBERED_TITLE_MAX_WORDS || !words.every((w) => /^[\p{Lu}\d("'“]/u.test(w) || MINOR_WORDS.has(w))) return null;
  return { line: i, title: `${m[1]}. ${words.join(' ')}`, style: `numbered${m[1]!.split('.').length}`, under: [] };
}

/**
 * The title of a heading standing alone at line `i` (blank lines around it): numbered ("8.3 Generating
 * new columns") or in capitals ("TERMS AND CONDITIONS"); null otherwise. For text without a layout
 * (OCR output), where no run of such titles is needed to trust one.
 */
export function standaloneHeading(lines: string[], i: number): string | null {
  // a letter's number ("A. Yes") is an appendix only among numbered sections (inSequence)
  const n = numbered(lines, i);
  return (n && !appendixNumbered(n) ? n : capitals(lines, i))?.title ?? null;
}

/** The last number of a numbered title ("2.3 Scope" → 3) and the numbers before it ("2"). */
function numberOf(h: TextHeading): { parent: string; n: number } {
  const parts = /^((?:\d+|[A-Z](?=\.))(?:\.\d+)*)/.exec(h.title)![1]!.split('.');
  const last = parts[parts.length - 1]!;
  return { parent: parts.slice(0, -1).join('.'), n: APPENDIX_LETTER.test(last) ? APPENDIX_BASE + last.charCodeAt(0) - 64 : Number(last) };
}

/** A title numbered by an appendix's letter ("A. Standard Resolution Procedure", "A.1. Discussion"). */
const appendixNumbered = (h: TextHeading) => /^[A-Z]\./.test(h.title);

/** `b` continues the numbering after `a`: the next number under the same parent, or a first one under another ("5.4.1" → "7.2.1"). */
function follows(a: { parent: string; n: number }, b: { parent: string; n: number }): boolean {
  // an appendix's "A." follows the last section's number
  if (b.parent === a.parent && b.n === APPENDIX_BASE + 1 && a.n < APPENDIX_BASE) return true;
  return b.parent === a.parent ? b.n === a.n + 1 : b.n <= 1;
}

/** The numbered titles of each depth that read as a document's sections: a numbered sequence, far apart. */
function numberedRuns(hs: TextHeading[]): Set<TextHeading> {
  const keep = new Set<TextHeading>();
  for (const style of new Set(hs.map((h) => h.style))) {
    const all = hs.filter((h) => h.style === style);
    const run = inSequence(all);
    if (run.length < MIN_NUMBERED_TITLES || run.length < NUMBERED_SEQUENCE_SHARE * all.length) continue;
    let next = 0;
    for (let k = 1; k < run.length; k++) {
      const a = numberOf(run[k - 1]!);
      const b = numberOf(run[k]!);
      if (follows(a, b)) next++;
    }
    const meanLines = (run[run.length - 1]!.line - run[0]!.line) / (run.length - 1);
    if (next >= NUMBERED_SEQUENCE_SHARE * (run.length - 1) && meanLines >= NUMBERED_MIN_MEAN_LINES) for (const h of run) keep.add(h);
  }
  return keep;
}

/**
 * The titles of a run that keep its numbering going: each past the last kept under the same parent
 * (titles the run missed leave gaps: a licence's "2." then "8."); a list item numbered back among
 * the sections is left out ("0    An iron ball." between the NetHack Guidebook's "3" and "4").
 */
function inSequence(run: TextHeading[]): TextHeading[] {
  const kept: TextHeading[] = [];
  // an appendix's letters come after the sections: one followed by a section number is a list's "A."
  const lastNumber = run.reduce((at, h, k) => (appendixNumbered(h) ? at : k), -1);
  for (const [k, h] of run.entries()) {
    if (appendixNumbered(h) && k < lastNumber) continue;
    const last = kept[kept.length - 1];
    const b = numberOf(h);
    if (!last) {
      kept.push(h);
      continue;
    }
    const a = numberOf(last);
    if (b.parent !== a.parent || b.n > a.n) kept.push(h);
  }
  return kept;
}

/**
 * Numbered titles too long for numbered() whose number sits between two titles of a run: the next
 * after the run's title above it and followed by the run's title below (3 → 4 → 5), so not a long
 * list item numbered by chance.
 */
function longTitlesInRun(lines: string[], run: ReadonlySet<TextHeading>): TextHeading[] {
  const out: TextHeading[] = [];
  if (run.size === 0) return out;
  const byStyle = new Map<string, TextHeading[]>();
  for (const h of [...run].sort((a, b) => a.line - b.line)) byStyle.set(h.style, [...(byStyle.get(h.style) ?? []), h]);
  lines.forEach((_, i) => {
    const h = numbered(lines, i, true);
    const same = h ? byStyle.get(h.style) : undefined;
    if (!h || !same) return;
    // the run's first title below this line, and the one above it
    let lo = 0;
    let hi = same.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (same[mid]!.line < i) lo = mid + 1;
      else hi = mid;
    }
    const before = same[lo - 1];
    const after = same[lo];
    const n = numberOf(h);
    if (before && after && follows(numberOf(before), n) && follows(n, numberOf(after))) out.push(h);
  });
  return out;
}

/** The text's own headings, in order (a FAQ's questions only when it asks MIN_QUESTIONS or more; numbered titles only in runs). */
export function textHeadings(lines: string[]): TextHeading[] {
  const out: TextHeading[] = [];
  const numberedTitles: TextHeading[] = [];
  lines.forEach((_, i) => {
    const n = numbered(lines, i) ?? runIn(lines, i);
    if (n) numberedTitles.push(n);
  });
  // a numbered title in a run is a section, whatever else it looks like (a question, a line in capitals)
  const run = numberedRuns(numberedTitles);
  const inRun = new Map([...run, ...longTitlesInRun(lines, run)].map((h) => [h.line, h]));
  const runStyles = new Set([...inRun.values()].map((h) => h.style));
  const org = lines.some((l) => ORG_KEYWORD.test(l));
  for (let i = 0; i < lines.length; i++) {
    const h = inRun.get(i) ?? markupHeading(lines, i, org) ?? adorned(lines, i) ?? capitals(lines, i) ?? question(lines, i);
    if (!h) continue;
    // numbered as the run's titles are, though too long for one ("2  USING OFL FONTS FOR WEBPAGES AND
    // ONLINE WEB FONT SERVICES" between "1  USING…" and "3  MODIFYING…"): a section of the same depth
    const depth = NUMBERED_TITLE.exec(h.title)?.[1]!.split('.').length;
    if (depth && !h.style.startsWith('question') && runStyles.has(`numbered${depth}`)) h.style = `numbered${depth}`;
    out.push(h);
    i = Math.max(i, ...h.under);
  }
  const isQuestion = (h: TextHeading) => h.style.startsWith('question');
  const questions = out.filter(isQuestion).length;
  return questions === 0 || questions >= MIN_QUESTIONS ? out : out.filter((h) => !isQuestion(h));
}

/** A section number opening a title: "1. ", "2.3 ", "A. ", "IV. ". */
const SECTION_NUMBER = /^(?:\d+(?:\.\d+)*|[A-Z]|[IVX]{1,4})[.)]?\s+\S/;
/** Share of the other headings of the first one's style that must be numbered for it to title the document. */
export const NUMBERED_SECTIONS_SHARE = 0.5;

/**
 * The first heading titles the document although its style also marks sections: it is the file's
 * first line, unnumbered, and most other headings of its style are numbered ("Debian Policy Manual"
 * over "****", then "1. About this manual" over "****"); a README whose first line is its "about"
 * section, among unnumbered sections of the same style, is not titled by it.
 */
function titlesDocument(lines: string[], hs: TextHeading[]): boolean {
  const first = hs[0]!;
  if (first.line !== lines.findIndex((l) => l.trim() !== '') || first.style === 'caps' || first.style.startsWith('question')) return false;
  if (SECTION_NUMBER.test(first.title)) return false;
  const rest = hs.slice(1).filter((h) => h.style === first.style);
  return rest.length > 0 && rest.filter((h) => SECTION_NUMBER.test(h.title)).length >= NUMBERED_SECTIONS_SHARE * rest.length;
}

/** Leading blanks of a line set in the middle of a plain-text page (a masthead: "        GNU GENERAL PUBLIC LICENSE"). */
export const MASTHEAD_INDENT = 8;
/** Lines a masthead block may hold (its title, a version or date line, an author). */
export const MASTHEAD_MAX_LINES = 3;

/**
 * The file's first line when it is a masthead: short, centred or in capitals, opening a block of at
 * most MASTHEAD_MAX_LINES lines ("GNU GENERAL PUBLIC LICENSE" / "Version 3, 29 June 2007"), and no heading
 * found already; -1 otherwise. It titles the document (the file name did: "GPL-3").
 */
function masthead(lines: string[], hs: TextHeading[]): number {
  const i = lines.findIndex((l) => l.trim() !== '');
  if (i < 0 || hs.some((h) => h.line === i)) return -1;
  const t = lines[i]!.trim();
  const letters = t.match(/\p{L}/gu)?.length ?? 0;
  if (t.length > CAPS_HEADING_MAX_CHARS || letters < CAPS_MIN_LETTERS || /[.,;:]$/.test(t)) return -1;
  const centred = /^ */.exec(lines[i]!)![0].length >= MASTHEAD_INDENT;
  const caps = !/\p{Ll}/u.test(t) && letters / t.replace(/\s/g, '').length >= CAPS_LETTER_SHARE;
  if (!centred && !caps) return -1;
  let end = i;
  while (end + 1 < lines.length && !blank(lines[end + 1])) end++;
  return end - i + 1 <= MASTHEAD_MAX_LINES ? i : -1;
}

/**
 * Share of a text's non-blank lines that may stand left of its margin (a stray line at column 0
 * among lines all indented alike).
 */
export const MARGIN_OUTLIER_SHARE = 0.02;

/**
 * The text's left margin: the indent, in spaces, of all but MARGIN_OUTLIER_SHARE of its non-blank
 * lines. groff's plain-text output indents every line by 10, where the patterns above allow 8 before
 * a numbered title: the NetHack Guidebook's "5.4.  Shops and shopping" was not one of its 128 nodes.
 */
function leftMargin(lines: string[]): number {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length).sort((a, b) => a - b);
  return indents.length ? indents[Math.floor(indents.length * MARGIN_OUTLIER_SHARE)]! : 0;
}

/** The lines with the text's margin taken off (a line set left of it loses only its own indent). */
function dedent(lines: string[]): string[] {
  const m = leftMargin(lines);
  return m > 0 ? lines.map((l) => l.slice(Math.min(m, /^ */.exec(l)![0].length))) : lines;
}

/**
 * The text with its headings marked for the Markdown parser (levels by order of first appearance of
 * each style, as reStructuredText assigns them; capitals after the adorned styles; a first style used
 * once, or a masthead, is the title), or null when it has fewer than `min` headings. Read without
 * the text's common margin (leftMargin).
 */
export function markTextHeadings(source: string[], min: number): string | null {
  const lines = dedent(source);
  const hs = textHeadings(lines);
  if (hs.length < min) return null;
  // adorned styles first, then capitals, then numbered titles by depth, then a FAQ's questions (the finest level)
  const late = (st: string) => st === 'caps' || st.startsWith('question') || st.startsWith('numbered');
  const styles = [...new Set(hs.filter((h) => !late(h.style)).map((h) => h.style))];
  if (hs.some((h) => h.style === 'caps')) styles.push('caps');
  styles.push(...[...new Set(hs.map((h) => h.style).filter((st) => st.startsWith('numbered')))].sort());
  styles.push(...[...new Set(hs.map((h) => h.style).filter((st) => st.startsWith('question')))].sort());
  // the first style is the document's title only when used once, by the first heading (an appendix in
  // capitals closing a text of numbered sections is not); else every heading is a section (level 2 on)
  const base = hs[0]!.style === styles[0] && hs.filter((h) => h.style === styles[0]).length === 1 ? 1 : 2;
  const titleLine = base === 2 && titlesDocument(lines, hs) ? hs[0]!.line : -1;
  // the other lines as the file has them: dedented, an indented "#    A corridor" would be a heading
  const out = source.map((l) => (ATX_LIKE.test(l) ? `\\${l.trimStart()}` : l));
  // an AsciiDoc block's delimiters ("----" around a listing) are no setext underlines of the line above
  if (hs.some((h) => h.style.startsWith('asciidoc'))) source.forEach((l, i) => { if (ASCIIDOC_DELIMITER.test(l)) out[i] = ''; });
  const mast = base === 2 && titleLine < 0 ? masthead(lines, hs) : -1;
  if (mast >= 0) out[mast] = `# ${lines[mast]!.trim()}`;
  for (const h of hs) {
    const level = h.line === titleLine ? 1 : Math.min(6, styles.indexOf(h.style) + base);
    out[h.line] = `${'#'.repeat(level)} ${h.title.replace(/^#+\s*/, '')}`;
    for (const u of h.under) out[u] = '';
  }
  return out.join('\n');
}
