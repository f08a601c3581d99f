/**
 * Extractive node summaries offline: the sentences that best cover the node (words weighted by how
 * specific they are to it, against the whole document), plus its key figures (table rows such as
 * totals), under SUMMARY_MAX_CHARS. Furniture never reaches here: callers pass body lines only.
 */
import type { Line } from './layout-types.js';
import { isNumericCell, isTableRow, tidyCells } from './tables.js';
import { tidyOutlineTitle } from './titles.js';
import { isContainerTitle, isSectionTitle, NO_OUTLINE_VOCABULARY, type OutlineVocabulary } from '../../../model/outline-vocabulary.js';

export const SUMMARY_MAX_CHARS = 360;
/** Characters reserved for key figures when a node has both prose and tables. */
export const FIGURES_BUDGET = 120;
export const MIN_SENTENCE_CHARS = 40;
export const MAX_SENTENCE_CHARS = 260;
export const MAX_FIGURES = 3;
/** Figures quoted from a table without sum or key rows: its first labelled amounts. */
export const FIRST_ROWS = 2;

const STOP = new Set(
  'the and for that with this from were which have has had are was been their other such these those than into under over also its our may will would could should can not all any each more most per upon within about between including during after before there where when what who whom whose they them year years ended million millions billion thousands company'.split(' '),
);
/** Row labels that sum or sum up a table, in any field ("Total", "Subtotal", "Overall", "Mean"); a vocabulary pack adds its field's own (`outline.key_rows`). */
const KEY_ROW = /^(?:total|subtotal|overall|all|mean|average|median)\b/i;

export function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'-]{3,}/g) ?? []).filter((w) => !STOP.has(w));
}

/** Document frequency of words over pages (for the specificity weights). */
export interface DocStats {
  pages: number;
  df: Map<string, number>;
}

export function docStats(pageTexts: string[]): DocStats {
  const df = new Map<string, number>();
  for (const t of pageTexts) for (const w of new Set(words(t))) df.set(w, (df.get(w) ?? 0) + 1);
  return { pages: pageTexts.length, df };
}

function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/** A table row's label and first amount ("Net income", "5,363"), or null when it has none. */
/** A cell holding only a year: column headers ("2023 | 2022"), not figures. */
const YEAR_CELL = /^(?:19|20)\d\d$/;

function labelledValue(l: Line): { label: string; value: string; values: number } | null {
  if (!isTableRow(l)) return null;
  const cells = tidyCells(l.cells);
  const label = cells[0]!;
  // "For the years ended June 30, | 2023 | 2022": a header row of years, not figures
  const numeric = cells.slice(1).filter((c) => isNumericCell(c) && !YEAR_CELL.test(c.trim()));
  return numeric.length && /\p{L}{3}/u.test(label) ? { label, value: numeric[0]!, values: numeric.length } : null;
}

/**
 * Key figures: rows labelled as sums ("Total …") or as the pack's key rows; a table without such
 * rows gives its first labelled amounts (what the table opens with).
 */
function figures(lines: Line[], keyRows: RegExp | null): string[] {
  const rows = lines.map(labelledValue).filter((r): r is NonNullable<ReturnType<typeof labelledValue>> => r !== null);
  const key = rows.filter((r) => KEY_ROW.test(r.label) || keyRows?.test(r.label));
  // without sum rows, a table's first rows of figures (a contents page's "Item 1 … 4" is no table of figures)
  const first = rows.filter((r) => r.values >= 2);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const r of key.length ? key : first) {
    if (seen.has(r.label.toLowerCase())) continue;
    seen.add(r.label.toLowerCase());
    out.push(`${clip(r.label.replace(/[:.]+$/, ''), 60)} ${r.value}`);
    if (out.length >= (key.length ? MAX_FIGURES : FIRST_ROWS)) break;
  }
  return out;
}

function rowLabels(lines: Line[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    if (!isTableRow(l)) continue;
    const label = tidyOutlineTitle(l.cells[0]!).replace(/[:.]+$/, '');
    // "(Millions)", "($ in thousands)": the unit over a column of labels, not a row
    if (!/\p{L}{3}/u.test(label) || /^\([^()]*\)$/.test(label) || seen.has(label.toLowerCase())) continue;
    if (l.cells.slice(1).every((c) => !isNumericCell(c) || YEAR_CELL.test(c.trim()))) continue; // a header row of years
    seen.add(label.toLowerCase());
    out.push(label);
  }
  return out;
}

/** Share of table rows above which a node titled as a principal section (a financial statement) is that table. */
export const STATEMENT_TABLE_SHARE = 0.4;

const UNIT = /\((?:dollars |amounts |\$ )?(?:in )?(millions|thousands|billions)\b/i;

/**
 * The gloss of a node titled as one of a field's principal sections (vocabulary packs,
 * `outline.glosses`) when its text is mostly table: whose section it is, what it is called and
 * holds in the words people ask with, and the unit its amounts are in. '' without a pack.
 */
export function sectionGloss(title: string, lines: Line[], vocab: OutlineVocabulary, company = ''): string {
  if (vocab.glosses.length === 0 || !isSectionTitle(title, vocab) || isContainerTitle(title, vocab) || lines.length === 0) return '';
  const rows = lines.filter(isTableRow).length;
  if (rows / lines.length < STATEMENT_TABLE_SHARE) return '';
  const gloss = vocab.glosses.find(([re]) => re.test(title))?.[1];
  if (!gloss) return '';
  const unitLine = lines.slice(0, 12).find((l) => UNIT.test(l.text));
  const unit = unitLine ? ` Amounts in ${UNIT.exec(unitLine.text)![1]!.toLowerCase()}.` : '';
  return `${company ? `${company} — ` : ''}${gloss}${unit}`;
}

/**
 * Table and figure captions: "Table 3.1D Adverse events", "Figure 2: Survival by arm". Capitalised:
 * a line opening "figure 1. The basic algorithm is to" continues a sentence that cites the figure.
 */
export const CAPTION = /^(?:TABLE|FIGURE|EXHIBIT|CHART|Table|Figure|Fig\.|Exhibit|Chart|Graph|Listing)\s+[\dA-Z][\w.-]*(?:[.:—–-]|\s+(?=[\p{Lu}(\d])|$)/u;
/** Most captions, sub-headings and row labels listed in a summary. */
export const MAX_LISTED = 6;
/** Row labels listed, and the characters they may take, for a node that is mostly table. */
export const MAX_TABULAR_ROWS = 12;
export const TABULAR_ROWS_BUDGET = 220;
/** Sentences sharing at least this share of their words are the same sentence (never said twice). */
export const SAME_SENTENCE_SHARE = 0.7;

function captions(lines: Line[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const l of lines) {
    const t = l.cells[0]!.trim();
    if (!CAPTION.test(t) || t.length > 160) continue;
    const key = t.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(clip(t.replace(/[.:]+$/, ''), 80));
    if (out.length >= MAX_LISTED) break;
  }
  return out;
}

function sameSentence(a: string, b: string): boolean {
  const wa = new Set(words(a));
  const wb = new Set(words(b));
  if (wa.size === 0 || wb.size === 0) return a.trim() === b.trim();
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / Math.min(wa.size, wb.size) >= SAME_SENTENCE_SHARE;
}

/** What a node holds besides its prose: sub-headings inside it (titles of folded sections included). */
export interface SummaryExtras {
  subheadings?: string[];
  /** the document's vocabulary packs (key rows quoted beside the generic "Total …" ones) */
  vocab?: OutlineVocabulary;
  /** titles printed over the node's tables ("SUPPLEMENTAL DATA – ADJUSTED EBITDAR"), listed with its captions */
  tables?: string[];
  /** the document's body text size: sentences come from prose at about that size (mainPrint) */
  bodySize?: number;
}

function listPart(label: string, items: string[], max: number, most = MAX_LISTED): string {
  if (items.length === 0 || max < label.length + 10) return '';
  const listed = items.slice(0, most);
  return clip(`${label}: ${listed.join('; ')}${items.length > listed.length ? '; …' : ''}.`, max);
}

const isEndMark = (c: number) => c === 46 /* . */ || c === 33 /* ! */ || c === 63; /* ? */

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 160;

/** Whether the text at `i` (after blanks) opens a sentence: not a lower-case letter ("e.g. the", "approx. one"). */
function opensSentence(text: string, i: number): boolean {
  let k = i;
  while (k < text.length && isSpace(text.charCodeAt(k))) k++;
  return k >= text.length || !/\p{Ll}/u.test(text[k]!);
}

/**
 * Whether the period at `q` closes a middle initial: a lone capital after a capitalised name or
 * another initial, or before another initial ("Michael A. Covington", "by J. R. R. Tolkien"), not
 * after a lower-case word ("below middle C. By adding").
 */
function closesMiddleInitial(text: string, q: number): boolean {
  if (q < 3 || !/\p{Lu}/u.test(text[q - 1]!) || text[q - 2] !== ' ') return false;
  // another initial follows ("by J. R. R. Tolkien")
  if (/^\s\p{Lu}\.\s/u.test(text.slice(q + 1, q + 5))) return true;
  return /(?:\p{Lu}\p{Ll}+|\p{Lu}\.)$/u.test(text.slice(Math.max(0, q - 40), q - 2));
}

/**
 * Abbreviations a period closes inside a sentence, before a name, a year or a number ("Bönsch et al.
 * (2005) found…", "see Fig. 3", "cf. Smith", "pp. 12–14"): never a sentence's end. (Before, "(2005)
 * found longer alleles…" was taken for a sentence of its own and summarised a node.)
 */
const ABBREVIATION_END = /(?:^|[\s(])(?:et al|e\.g|i\.e|cf|vs|viz|resp|approx|Figs?|Eqs?|Secs?|Chs?|Nos?|pp?|Vols?|Refs?)$/;

/**
 * Sentences: runs of text ending in `.`, `!` or `?` followed by white space (or the end) and a word
 * that does not start lower-case, in one linear pass. A mark inside a token ("$21.7", "U.S.", "10.2")
 * or before a lower-case word ("e.g. the") ends nothing and the sentence goes on (it used to restart
 * after the mark, so a sentence holding a decimal lost its opening words and was never picked). Nor
 * does a middle initial ("…a collection of Michael A. Covington's private macros") or an abbreviation (ABBREVIATION_END).
 */
export function sentenceRuns(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let p = 0;
  while (p < n && (isEndMark(text.charCodeAt(p)) || isSpace(text.charCodeAt(p)))) p++;
  let q = p;
  while (q < n) {
    while (q < n && !isEndMark(text.charCodeAt(q))) q++;
    if (q >= n) break;
    let r = q;
    while (r < n && isEndMark(text.charCodeAt(r))) r++;
    const single = r === q + 1 && text.charCodeAt(q) === 46;
    if (r === n || (isSpace(text.charCodeAt(r)) && opensSentence(text, r) && !(single && (closesMiddleInitial(text, q) || ABBREVIATION_END.test(text.slice(Math.max(0, q - 8), q)))))) {
      out.push(text.slice(p, r));
      p = r;
      while (p < n && isSpace(text.charCodeAt(p))) p++;
    }
    q = r;
  }
  return out;
}

/**
 * A run opening on an author's initial, cut after the initial before it read like a sentence end:
 * "C., “Title of article,” Title of Journal…", "A. and Bejan, A., Convection in…", the middle of a reference. (A run closing on one is
 * left alone: "below middle C." ends a sentence.)
 */
export function cutAtInitial(s: string): boolean {
  return /^\p{Lu}\.(?:,|\s(?:\p{Lu}\.|and\s|&))/u.test(s);
}

/** Share of a summary sentence's characters (not blanks or digits) that must be letters: prose, not code or console output ("(%i6) 8!!; (%o6) 384"). */
export const MIN_SENTENCE_LETTER_SHARE = 0.7;

export function proseLike(s: string): boolean {
  // digits count for neither side: a sentence of amounts ("$5,363 million in 2023") is prose
  const chars = s.replace(/[\s\p{N}]+/gu, '');
  return chars.length > 0 && (chars.match(/\p{L}/gu)?.length ?? 0) / chars.length >= MIN_SENTENCE_LETTER_SHARE;
}

/** A sentence with unmatched brackets is a fragment cut out of a parenthesis ("…total sales) (Dollars in billions."). */
export function balanced(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === '(') depth++;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * A sentence opening on a word that points back to the one before it ("They consist of 67 points…",
 * "However, …", "Thus the…") says little out of its context: it is picked only when it is much
 * more specific than the others (its score weighs this much). An audit of 1,091 summaries of
 * untuned documents found 103 opening so. "It", "This" and "These" are left out: they open a node's
 * best sentences as often ("It is a bad idea to send a password in plain text", "This section describes…").
 */
const REFERS_BACK = /^(?:They|Their|Them|He|She|His|Her|However|Thus|Hence|Therefore|Moreover|Furthermore|Also|But|And|Such|Otherwise|Similarly)\b/;
export const REFERS_BACK_WEIGHT = 0.5;

/** Print smaller than this share of the body's size is small print: footnotes, permission blocks, journal lines, table notes. */
export const SMALL_PRINT_SHARE = 0.9;
/** A node's summary sentences come from its body-size prose when that holds at least this many characters. */
export const MIN_MAIN_PRINT_CHARS = 200;

/**
 * The prose lines summary sentences are drawn from: the body-size print, when there is enough of
 * it; small print (a paper's footnotes between two halves of a sentence, the ACM permission block
 * under the abstract, "(1) Includes…" under a table) says little about what a node holds.
 */
export function mainPrint(lines: Line[], bodySize: number): Line[] {
  if (!(bodySize > 0)) return lines;
  const main = lines.filter((l) => l.size >= SMALL_PRINT_SHARE * bodySize);
  return main.length < lines.length && main.reduce((n, l) => n + l.text.length, 0) >= MIN_MAIN_PRINT_CHARS ? main : lines;
}

/**
 * An extractive summary of a node from its body lines, saying what the node holds: `lead` (e.g. a
 * statement gloss) first, then its most specific sentences (never one said twice), its sub-headings,
 * its tables and figures (captions, else row labels) and key figures — within SUMMARY_MAX_CHARS.
 */
export function summarize(lines: Line[], stats: DocStats, lead = '', extras: SummaryExtras = {}): string {
  // a listing's lines (code, program output) are no sentences, as a table's rows are not
  const proseLines = lines.filter((l) => !isTableRow(l) && !l.listing);
  const prose = proseLines.map((l) => l.text).join(' ').replace(/\s+/g, ' ');
  const main = extras.bodySize ? mainPrint(proseLines, extras.bodySize) : proseLines;
  const sentences = sentenceRuns(main === proseLines ? prose : main.map((l) => l.text).join(' ').replace(/\s+/g, ' '))
    .map((s) => s.trim())
    .filter((s) => s.length >= MIN_SENTENCE_CHARS && s.length <= MAX_SENTENCE_CHARS && /^[\p{Lu}"“(]/u.test(s) && balanced(s) && proseLike(s) && !cutAtInitial(s));
  const tf = new Map<string, number>();
  for (const w of words(prose)) tf.set(w, (tf.get(w) ?? 0) + 1);
  const weight = (w: string) => Math.log(1 + (tf.get(w) ?? 0)) * Math.log((stats.pages + 1) / (1 + (stats.df.get(w) ?? 0)));
  const scored = sentences.map((s, i) => {
    const ws = [...new Set(words(s))];
    const score = ws.reduce((a, w) => a + weight(w), 0) / Math.sqrt(Math.max(4, ws.length));
    return { s, i, score: REFERS_BACK.test(s) ? score * REFERS_BACK_WEIGHT : score };
  });
  const subs = [...new Set((extras.subheadings ?? []).map((t) => t.trim()).filter(Boolean))];
  const caps = [...new Set([...(extras.tables ?? []).map((t) => clip(t, 80)), ...captions(lines)])].slice(0, MAX_LISTED);
  const labels = rowLabels(lines);
  // a node that is mostly table (a statement, a data listing) is said by its rows, not by its header fragments
  const tabular = lines.length > 0 && lines.filter(isTableRow).length / lines.length >= STATEMENT_TABLE_SHARE;
  const figs = figures(lines, (extras.vocab ?? NO_OUTLINE_VOCABULARY).keyRows);
  const tail = [
    listPart('Sub-headings', subs, 140),
    caps.length ? listPart('Tables and figures', caps, 140) : '',
    listPart('Table rows', labels, tabular ? TABULAR_ROWS_BUDGET : caps.length ? 100 : 120, tabular ? MAX_TABULAR_ROWS : MAX_LISTED),
    figs.length ? clip(`Key figures: ${figs.join('; ')}.`, FIGURES_BUDGET) : '',
  ].filter(Boolean);
  const tailText = tail.join(' ');
  const budget = SUMMARY_MAX_CHARS - (tailText ? tailText.length + 1 : 0) - (lead ? lead.length + 1 : 0);
  const picked: typeof scored = [];
  let used = 0;
  for (const c of [...scored].sort((a, b) => b.score - a.score || a.i - b.i)) {
    if (used + c.s.length + 1 > budget || picked.some((p) => sameSentence(p.s, c.s))) continue;
    picked.push(c);
    used += c.s.length + 1;
    if (used > budget * 0.7) break;
  }
  picked.sort((a, b) => a.i - b.i);
  let text = lead ? '' : picked.map((c) => c.s).join(' ');
  // no full sentence (short notes, lists, code): the node's opening words say what it holds
  if (!lead && !text && prose.trim() && !(tabular && tailText)) text = clip(prose.trim(), Math.max(MIN_SENTENCE_CHARS * 2, budget));
  if (!lead && !text && !tailText) text = clip(lines.map((l) => l.text).join(' ').replace(/\s+/g, ' ').trim(), SUMMARY_MAX_CHARS);
  return clip([lead, text, tailText].filter(Boolean).join(' '), SUMMARY_MAX_CHARS);
}
