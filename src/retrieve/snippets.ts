/**
 * What search shows under its first results' nodes so an agent can go straight to read_source:
 * a short passage of each node where the query's distinctive words are densest (with the page it
 * is on), and the node's parent sections when two listed nodes share a title or the node is a part
 * of a long section titled by its first sentence. Reads the tree and
 * the nodes' text of at most PASSAGE_RESULTS sources, each node's text up to PASSAGE_SCAN_CHARS.
 */
import { notesPlace, type NotesPlace } from '../model/place-labels.js';
import type { CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import type { NodeHit, SourceHit } from '../search/types.js';
import { docFreq, idf } from '../search/bm25.js';
import { nodeFields, nodeKeywords } from '../search/keyword-index.js';
import { expansionTerms, nodeQueryTerms } from '../search/nodes.js';
import { queryTerms } from '../search/query.js';
import { tokenize } from '../model/tokenize.js';
import { DENSE_WINDOW_CHARS, bestWindow, termHits, type TermHit } from '../search/term-window.js';
import { loadVocabulary } from '../search/vocabulary.js';
import { loadConfig } from '../store/config.js';
import { loadTree } from './store-read.js';
import { readNodeText, type NodeRead } from './read-text.js';
import { findNodePath } from './tree-view.js';
import { makeCitation, sheetRowsOf } from './citation.js';
import { pickSheet, readRows } from './read-rows.js';

/**
 * Results (best first) whose nodes get a passage and, when titles repeat, a path: the first two,
 * or only the first when it is `strong` (the second is then seldom the answer: 6 times in 544
 * on the dev sets, scripts/calibrate-verdicts.mjs).
 */
export const PASSAGE_RESULTS = 2;
/** Characters of a node's text searched for its passage (its own text, then its sub-sections'). */
export const PASSAGE_SCAN_CHARS = 20_000;
/** Characters of the passage shown, around the densest span of DENSE_WINDOW_CHARS (term-window.ts). */
export const PASSAGE_CHARS = 280;
/**
 * Characters of the first suggestion's passage, the one most often read: the answer to a question
 * often follows the words it shares with the text by more than PASSAGE_CHARS (agents reported
 * passages stopping just before it in every run of the agent test). Share of the answer's own
 * words (not the question's) found in the first node's passage of the expected source, skill search
 * answer (scripts/passage-recall.mjs): cross-domain 0.455 at 280 characters, 0.491 at 360,
 * 0.518 at 440; its held-out rewording 0.415 / 0.444 / 0.471; other formats 0.603 / 0.655 / 0.671.
 * At stop 31's stores: 0.552 / 0.503 / 0.689 at 440, 0.646 / 0.624 / 0.751 at 760, for a search answer
 * 5% longer (5,955 → 6,274 characters a question). Stop 39 (cross-domain, its rewording, other
 * formats, held-out audit 7): 0.643 / 0.644 / 0.761 / 0.624 at 760, 0.678 / 0.665 / 0.779 / 0.654 at
 * 1,000, 0.692 / 0.674 / 0.787 / 0.669 at 1,200, for passages of 1,447 / 1,658 / 1,803 characters a
 * cross-domain question: in its second agent run seven of 24 questions took a read, four for a
 * passage that stopped short of the answer, and a read costs more than the 210 characters.
 */
export const PASSAGE_FIRST_CHARS = 1000;
/**
 * A first suggestion's node this short is its passage whole, nothing cut at either end: agents
 * reported passages opening just past the sentence they needed or stopping before it (13 of 50
 * answers, audit 15). Answer words in the first node's passage (scripts/passage-recall.mjs),
 * cross-domain / its rewording / other formats / audits 14 and 15: 0.678 / 0.665 / 0.779 / 0.661 /
 * 0.528 → 0.678 / 0.665 / 0.787 / 0.674 / 0.536 for 0.5–3% more passage characters (at 2,600:
 * +0.005–0.025 for 6–17% more). 2,000 rather than 1,500: an agent's income statement of 1,790
 * characters was cut 300 characters before "Net earnings attributable to …", the row it needed
 * (FinanceBench agent test, stop 47); answer words in the first passage, the five sets above with
 * audit 16 and its rewording, and audit 17: +0.000–0.005 each for 2–5% more characters (2,500:
 * +0.002–0.017 for 5–12% more).
 */
export const WHOLE_NODE_PASSAGE_CHARS = 2000;
/**
 * …and a first node this short that is mostly a table's rows (TABLE_LINE_SHARE of its lines): a
 * statement's rows an agent needs for a ratio are often far from the words it asked with, and seven
 * FinanceBench answers took a read for a row the passage stopped short of (agent test, stop 48).
 * Answer words in the first passage (scripts/passage-recall.mjs): FinanceBench dev 0.188 → 0.197 and
 * reworded 0.152 → 0.161 for 7–8% more passage characters, audits 16, 20 and its rewording +0.003 to
 * +0.009, cross-domain, formats and audits 14, 15, 21 unchanged; at 4,000, reworded 0.167 for 20% more.
 */
export const WHOLE_TABLE_PASSAGE_CHARS = 3000;
export const TABLE_LINE_SHARE = 0.5;

/** Whether most of a text's lines are table rows (cells parted by " | "). */
function tableText(text: string): boolean {
  const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('<!--'));
  return lines.length > 0 && lines.filter((l) => l.includes(' | ')).length >= TABLE_LINE_SHARE * lines.length;
}
/**
 * A passage that stops inside a sentence goes on to the sentence's end when it is at most this many
 * characters further: agents reported passages cut just before the words they needed ("you could…",
 * the second half of an explanation) in three runs of the agent test.
 */
export const PASSAGE_SENTENCE_EXTRA = 160;
/**
 * A passage that starts inside a sentence starts at the sentence's (or the line's) beginning when
 * that is at most this many characters back: agents reported passages opening after the term they
 * needed ("…distributed on the shells. periodic distributes…" without the option's name).
 */
export const PASSAGE_SENTENCE_BACK = 80;
/**
 * Share of a passage's padding placed before its densest window (the rest after it): the answer
 * mostly follows the words a question shares with it; centred passages stopped at "This tends to…".
 */
export const PASSAGE_LEAD = 0.35;
/** Weight of a vocabulary pack's expansion words in a passage, relative to words typed. */
export const PASSAGE_EXPANSION_WEIGHT = 0.5;
/** `more` is given when at least this many characters of the node follow the passage. */
export const PASSAGE_MORE_MIN = 40;
/** Rows of a row hit read for its passage (a block of rows of a large sheet is longer: its densest part is shown). */
export const PASSAGE_ROWS = 20;
/** Ancestors shown for a node whose title repeats in the list (nearest last, root left out)… */
export const NODE_PATH_DEPTH = 2;
/**
 * …or more, up to this many, when the nearest do not tell it from the other nodes of its title
 * (DICOMscope's "Presentation Context Table" under "Association Acceptance Policy" in each of Store
 * SCP, Store SCU, Print SCP and Print SCU: an agent read Print SCP's for Store SCP's).
 */
export const NODE_PATH_MAX_DEPTH = 4;

export interface NodePassage {
  /** the page the passage starts on (paged sources) */
  page?: number;
  text: string;
  /** characters of the node's text (with its sub-sections, as far as it was read) after the passage */
  more?: number;
  /** the pages the passage runs over, when more than one (`page` is where the query's words are) */
  pages?: [number, number];
  /** ready-to-paste reference for an answer taken from the passage (its pages, else its lines, the node's lines or rows) */
  cite?: string;
  /** the file lines the passage runs over, for text and Markdown sources */
  lines?: [number, number];
  /** the data rows of a row hit that hold the query's words, when fewer than the hit's (cited instead of its whole block) */
  rows?: [number, number];
}

export interface ListedNode extends NodeHit {
  /** sections the node sits in (root left out, nearest last), when another listed node has its title */
  path?: string[];
  /** where the node holds the query's words most densely */
  passage?: NodePassage;
}

const PAGE_MARK = /<!-- page (\d+) -->/g;
/** a page marker cut by the passage's ends ("1 -->" at its start, "<!-- pa" at its end) */
const PARTIAL_MARK_START = /^[^<]*?-->/;
const PARTIAL_MARK_END = /<!--(?:(?!-->)[\s\S])*$/;
/** dot leaders and rules of printed tables and contents ("Total assets......", "_____") */
const LEADERS = /([._·…-])(?:\s?\1){3,}/g;

/** Page in force at `pos` of a text carrying page markers (`first` before any marker). */
export function pageAtPos(text: string, pos: number, first?: number): number | undefined {
  let page = first;
  for (const m of text.matchAll(PAGE_MARK)) {
    if (m.index > pos) break;
    page = Number(m[1]);
  }
  return page;
}

/**
 * The span [from, to) of about `chars` characters of `text` around the densest window of query
 * terms (`lead` of the padding before it, the rest after), cut at whitespace; `at` is where its
 * first term is. Null when no term occurs.
 */
export function densestSpan(text: string, weights: Map<string, number>, chars: number, lead = 0.5, hits: TermHit[] = termHits(text, weights)): { from: number; to: number; at: number } | null {
  const win = bestWindow(hits, weights, DENSE_WINDOW_CHARS);
  if (!win) return null;
  return spanAround(text, hits[win.from]!.start, hits[win.to - 1]!.end, chars, lead);
}

/**
 * The span of about `chars` characters around the first place `phrase` occurs as written (the
 * blanks between its words aside): `--around "as.ts"` is about that spelling, which its words taken
 * one by one ("as", "ts") do not find. A phrase typed with capitals is first looked for in that
 * case (`cased`), then in any: "Net cash provided by operating activities" is the statement's row,
 * not the "… to net cash provided by operating activities" of a heading line above it (an agent's
 * --around landed there and took another call). Null when it does not occur.
 */
export function phraseSpan(text: string, phrase: string, chars: number, lead = 0.5): { from: number; to: number; at: number; whole: boolean; joined: boolean; cased: boolean } | null {
  const cases = /\p{Lu}/u.test(phrase) ? [true, false] : [false];
  // as a word of its own first ("adjust", not the "adjust" of "adjustment"), else inside a longer
  // word; then, for words apart, written as one ("web site" → "websites", "set up" → "set-up")
  for (const joined of [false, true]) {
    if (joined && !/\s/.test(phrase.trim())) break;
    for (const whole of [true, false]) {
      for (const cased of cases) {
        const m = phraseRegExp(phrase, whole, joined, cased)?.exec(text);
        if (m) return { ...spanAround(text, m.index, m.index + m[0].length, chars, lead), whole, joined, cased };
      }
    }
  }
  return null;
}

const escapeChar = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Characters typed one way and printed another: a typed hyphen finds a typeset hyphen, a minus
 * sign or a dash ("p-value" finds TeX's "p−value"), straight quotes find curly ones, an underscore
 * a blank where the text lost it.
 */
const LOOK_ALIKES: Array<[RegExp, string]> = [
  // an underscore a PDF's text lost ("Fine_Delta" printed, "Fine Delta" extracted: the Ada manual)
  [/_/u, '[_\\s]'],
  [/[-\u2010\u2011\u2012\u2013\u2014\u2212]/u, '[-\\u2010\\u2011\\u2012\\u2013\\u2014\\u2212]'],
  [/['\u2018\u2019]/u, "['\\u2018\\u2019]"],
  [/["\u201c\u201d]/u, '["\\u201c\\u201d]'],
];
const matchChar = (c: string): string => LOOK_ALIKES.find(([re]) => re.test(c))?.[1] ?? escapeChar(c);

/**
 * The phrase as written, case and blanks aside: its words in order with any white space between
 * them, and blanks allowed around its punctuation, so "mfinit([1,12],1)" finds "mfinit([1, 12], 1)"
 * (an agent reported a one-space difference sending --around elsewhere); dashes and quotes match
 * their typeset look-alikes (LOOK_ALIKES: "p-value" finds "p−value"). `whole`: only where it is not
 * part of a longer word. `joined`: its words also written together or hyphenated ("web site" finds
 * "websites": an agent's --around found nothing and was given the node's first characters). `cased`:
 * letters in the case typed (else in any). Null when it is empty.
 */
export function phraseRegExp(phrase: string, whole = false, joined = false, cased = false): RegExp | null {
  const words = phrase.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const punct = (c: string) => /[^\p{L}\p{N}]/u.test(c);
  const word = (w: string) => {
    const cs = [...w];
    return cs.map((c, i) => (i > 0 && (punct(c) || punct(cs[i - 1]!)) ? '\\s*' : '') + matchChar(c)).join('');
  };
  const body = words.map(word).join(joined ? '[\\s\\u00ad\\u2010-]*' : '\\s+');
  // `whole`: not inside a longer word (a letter or digit on neither side)
  return new RegExp(whole ? `(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])` : body, cased ? 'u' : 'iu');
}

/** [a, b) widened to about `chars` characters, `lead` of the padding before it (what one side lacks goes to the other), cut at whitespace. */
function spanAround(text: string, a: number, b: number, chars: number, lead: number): { from: number; to: number; at: number } {
  const pad = Math.max(0, chars - (b - a));
  // padding the text lacks on one side goes to the other
  const before = Math.min(a, Math.floor(pad * lead));
  let from = Math.max(0, a - before);
  let to = Math.min(text.length, b + pad - before);
  from = Math.max(0, from - Math.max(0, b + pad - before - text.length));
  // whole words at both ends
  while (from > 0 && /\S/.test(text[from - 1]!)) from--;
  while (to < text.length && /\S/.test(text[to]!)) to++;
  return { from, to, at: a };
}

/** A span already ending with a sentence's mark. */
const SENTENCE_CLOSED = /[.!?]["”’)]?\s*$/;
/** A sentence's end (a mark before a word that opens a sentence: not "e.g. the"), a blank line, or a page mark. */
const SENTENCE_STOP = /[.!?]["”’)]?(?=\s+[\p{Lu}\p{N}"“(•]|\s*$)|\n\s*\n|<!--/u;

/**
 * Where the sentence running at `to` ends (after its `.`, `!` or `?` and before white space, or at a
 * blank line), when that is at most `extra` characters on and before a page mark; else the end of
 * the line `to` is in (a line of code or a table row has no sentence mark: agents saw passages stop
 * at "read.zoo(text = Lines,…"), when that is as near; else `to`.
 */
export function sentenceEnd(text: string, to: number, extra: number): number {
  if (to >= text.length || SENTENCE_CLOSED.test(text.slice(Math.max(0, to - 3), to))) return to;
  const ahead = text.slice(to, to + extra);
  const m = SENTENCE_STOP.exec(ahead);
  if (m && m[0] !== '<!--') return to + m.index + (m[0].startsWith('\n') ? 0 : m[0].length);
  const mark = ahead.indexOf('<!--');
  const eol = ahead.indexOf('\n');
  return eol > 0 && (mark < 0 || eol < mark) ? to + eol : to;
}

/** A sentence's start: after a sentence's mark and blanks, before a word that opens a sentence; or a line's start. */
const SENTENCE_START = /[.!?]["”’)]?\s+(?=[\p{Lu}\p{N}"“(•\\])|\n/gu;

/**
 * Where the sentence (or line) running at `from` starts, when that is at most `back` characters
 * before it and no page mark lies between; else `from`.
 */
export function sentenceStart(text: string, from: number, back: number): number {
  if (from <= 0 || /\n\s*$/.test(text.slice(Math.max(0, from - 2), from))) return from;
  const lo = Math.max(0, from - back);
  const behind = text.slice(lo, from);
  if (behind.includes('-->') || behind.includes('<!--')) return from;
  let start = -1;
  SENTENCE_START.lastIndex = 0;
  for (let m = SENTENCE_START.exec(behind); m; m = SENTENCE_START.exec(behind)) start = m.index + m[0].length;
  if (start >= 0) return lo + start;
  // the text's own start opens its first sentence
  return lo === 0 ? 0 : from;
}

/** Longest line above a passage read as the label it belongs to. */
export const PASSAGE_LABEL_MAX_CHARS = 60;
/** A line that closes a sentence or clause: not a label. */
const CLAUSE_CLOSED = /[.!?;,]["”’)]?\s*$/;

/**
 * The start of the line above `from` when the passage opens a line and that line is a short label
 * of what follows (an option's name above its description, "hold time number" / "Time in seconds to
 * wait…"; a term, a heading): not a sentence's end, not a page mark, at most PASSAGE_LABEL_MAX_CHARS.
 * Else `from`. An agent read the value without the option it belonged to.
 */
export function labelStart(text: string, from: number): number {
  if (from <= 0 || text[from - 1] !== '\n') return from;
  const lineStart = text.lastIndexOf('\n', from - 2) + 1;
  const line = text.slice(lineStart, from - 1);
  if (!line.trim() || line.length > PASSAGE_LABEL_MAX_CHARS || CLAUSE_CLOSED.test(line) || line.includes('-->')) return from;
  return lineStart;
}

/**
 * The page marks of a passage's text: kept where a page begins inside it (`<!-- page N -->`, as
 * read_source shows them), dropped at its ends. Agents could not tell which of a passage's two pages
 * held the sentence they cited (asymptote's "-nosafe", pp. 174-175).
 */
function innerPageMarks(body: string): string {
  return body.replace(/^(?:<!-- page \d+ -->\s*)+/, '').replace(/(?:\s*<!-- page \d+ -->)+$/, '');
}

/** A span of `text` as shown: leaders and runs of blanks out, page marks only inside it; "…" where a sentence is cut. */
function shownSpan(text: string, spanFrom: number, spanTo: number, chars: number): { body: string; from: number; to: number } {
  const from = labelStart(text, sentenceStart(text, spanFrom, PASSAGE_SENTENCE_BACK));
  const to = sentenceEnd(text, spanTo, PASSAGE_SENTENCE_EXTRA);
  const raw = text.slice(from, to).replace(PARTIAL_MARK_START, '').replace(PARTIAL_MARK_END, '');
  const body = innerPageMarks(raw.replace(LEADERS, ' ').replace(/\s+/g, ' ').trim());
  const marks = [...body.matchAll(PAGE_MARK)].reduce((n, m) => n + m[0].length + 1, 0);
  const max = chars + 80 + (to - spanTo) + (spanFrom - from) + marks;
  const clipped = body.length > max ? innerPageMarks(body.slice(0, max).replace(/\s\S*$/, '').replace(PARTIAL_MARK_END, '').trimEnd()) : body;
  // "…" at the end says a sentence was cut, not that the node goes on after a whole one
  const cut = clipped !== body || (to < text.length && !SENTENCE_CLOSED.test(clipped));
  // "…" at the start says the passage opens inside a sentence, or inside a list or sentence that runs on from the line above
  const opensCut = (from > 0 && from === spanFrom && !/\n\s*$/.test(text.slice(Math.max(0, from - 2), from))) || continuesLineAbove(text, from);
  return { body: `${opensCut ? '…' : ''}${clipped}${cut ? '…' : ''}`, from, to };
}

/** A line closing a sentence or announcing what follows: what comes after it starts anew. */
const LINE_CLOSED = /[.!?:]["”’)]?\s*$/;

/**
 * The passage opens at a line whose line above belongs to the same run and does not close it: an
 * item of a list whose earlier items are above ("…6) Africa, Middle East and South Asia" under
 * "5) Europe, which includes …;"), a sentence wrapped there. A blank line, a page mark or a
 * closed sentence above is a fresh start. An agent took a passage opening at a list's sixth item
 * for the whole list.
 */
function continuesLineAbove(text: string, from: number): boolean {
  if (from <= 0 || text[from - 1] !== '\n') return false;
  const start = text.lastIndexOf('\n', from - 2) + 1;
  const above = text.slice(start, from - 1);
  return above.trim() !== '' && !/<!--/.test(above) && !LINE_CLOSED.test(above);
}

/** Lines above a table passage searched for its column header. */
export const TABLE_HEADER_SCAN_LINES = 40;
/** Longest column header shown before a table passage. */
export const TABLE_HEADER_MAX_CHARS = 120;
/** A table cell holding an amount: a number with thousands separators, decimals, a currency or percent sign, or in parentheses. */
const AMOUNT_CELL = /^[-–(]?\s*[$€£]?\s*\d[\d,]*(?:\.\d+)?\s*%?\)?$/;
const YEAR_CELL = /^(?:19|20)\d{2}$/;

/**
 * A row of column labels: at least two labelled cells besides the first, none an amount other than a
 * year; or a row of years alone ("2017 | 2016", printed without a label cell).
 */
function headerRow(line: string): boolean {
  const cells = line.split(' | ').map((c) => c.trim());
  if (cells.length >= 2 && cells.every((c) => YEAR_CELL.test(c))) return true;
  if (cells.length < 3) return false;
  const labels = cells.slice(1).filter(Boolean);
  return labels.length >= 2 && labels.every((c) => c.length <= 40 && (YEAR_CELL.test(c) || !AMOUNT_CELL.test(c)));
}

/**
 * The column header of the table a passage starts in ("(Millions) | 2018 | 2017 | 2016"): the nearest
 * row of column labels above `from`, within TABLE_HEADER_SCAN_LINES lines, when the passage does
 * not show it (agents read year columns without their headers and had to guess their order).
 */
export function columnHeaderBefore(text: string, from: number): string | null {
  let end = text.lastIndexOf('\n', from - 1);
  for (let k = 0; k < TABLE_HEADER_SCAN_LINES && end > 0; k++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line.includes(' | ') && headerRow(line)) {
      if (line.length > TABLE_HEADER_MAX_CHARS) return null;
      // the header row above it that spans its columns ("Three months ended | Twelve months ended"
      // over "2022 | 2021 | 2022 | 2021": agents could not tell the quarter's columns from the year's)
      const span = spanningRowAbove(text, start) ?? leadInAbove(text, start);
      return span && span.length + line.length + 3 <= TABLE_HEADER_MAX_CHARS ? `${span} / ${line}` : line;
    }
    end = start - 1;
  }
  return null;
}

/**
 * When the passage shows a table's column header itself ("2023 | 2022 | (Decrease) | 2023 | …") but
 * not the row above it that spans those columns ("For the Three Months Ended June 30, | For the Six
 * Months Ended June 30,"), that row; else null (an agent could not tell the quarter's columns from
 * the half-year's in such a passage).
 */
export function spanningRowOfShownHeader(text: string, from: number, to: number): string | null {
  let at = text.lastIndexOf('\n', from - 1) + 1;
  while (at < to) {
    const eol = text.indexOf('\n', at);
    const line = text.slice(at, eol < 0 ? text.length : eol).trim();
    if (line.includes(' | ') && headerRow(line)) {
      const span = spanningRowAbove(text, at);
      return span && text.lastIndexOf(span, at) < from && span.length <= TABLE_HEADER_MAX_CHARS ? span : null;
    }
    if (eol < 0) break;
    at = eol + 1;
  }
  return null;
}

/** Longest lead-in line read with the column header below it. */
export const LEAD_IN_MAX_CHARS = 40;

/**
 * The line right above a column header when it leads into it, a short phrase left open with a comma
 * ("As of December 31," over "2017 | 2016"): without it the years say neither date nor period.
 */
function leadInAbove(text: string, at: number): string | null {
  if (at < 2) return null;
  const start = text.lastIndexOf('\n', at - 2) + 1;
  const line = text.slice(start, at - 1).trim();
  return line.length <= LEAD_IN_MAX_CHARS && line.endsWith(',') && !line.includes(' | ') ? line : null;
}

/** Header lines looked at above a column header for the row spanning its columns. */
export const SPANNING_ROW_SCAN_LINES = 3;

/**
 * A row of labels within SPANNING_ROW_SCAN_LINES lines above the header row starting at `at`, with
 * fewer cells than it has and each cell different (not "December 31, | December 31, | …"), or null.
 */
function spanningRowAbove(text: string, at: number): string | null {
  const cellsOf = (l: string) => l.split(' | ').map((c) => c.trim()).filter(Boolean);
  const eol = text.indexOf('\n', at);
  const below = cellsOf(text.slice(at, eol < 0 ? text.length : eol)).length;
  let end = at - 1;
  for (let k = 0; k < SPANNING_ROW_SCAN_LINES && end > 0; k++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    const cells = cellsOf(line);
    if (cells.length < 2 || !line.includes(' | ') || cells.some((c) => c.length > 40 || (AMOUNT_CELL.test(c) && !YEAR_CELL.test(c)))) return null;
    if (cells.length < below && new Set(cells).size === cells.length) return line;
    end = start - 1;
  }
  return null;
}

/**
 * The passage of `text` around the densest window of query terms (null when no term occurs), about
 * `chars` characters; `more` counts the characters read after it (the answer may lie there).
 */
export function bestPassage(text: string, weights: Map<string, number>, firstPage?: number, chars = PASSAGE_CHARS): NodePassage | null {
  return passageIn(text, weights, firstPage, chars)?.passage ?? null;
}

/**
 * The first suggestion's passage shows a second excerpt when the query's words the first leaves
 * out, and the node holds elsewhere, weigh at least this share of the weight of all the query's
 * words the node holds: a question asking two things ("which register, and what is its default?")
 * had its passage end at the first, and agents read on for the second (audit 16: 8 of 50 answers).
 * Answer words in the first passage (scripts/passage-recall.mjs, cross-domain / rewording / formats
 * / audits 14, 15, 16, 16 reworded): 0.678 / 0.665 / 0.787 / 0.674 / 0.534 / 0.599 / 0.640 →
 * 0.692 / 0.689 / 0.787 / 0.691 / 0.545 / 0.602 / 0.647, for 0–4% more passage characters (0.15:
 * up to 0.011 more for 2–3% more characters; 0.35: less than half the gain).
 */
export const SECOND_EXCERPT_MIN_SHARE = 0.25;
/** Characters of a second excerpt. */
export const SECOND_EXCERPT_CHARS = 240;
/** Stands between two excerpts of one node, in document order. */
export const EXCERPT_GAP = ' […] ';

/** A shown span of a node's text, with where its query words are. */
interface Excerpt { body: string; from: number; to: number; at: number; spanFrom: number }

/** bestPassage, with where in `text` the passage starts and ends. */
function passageIn(text: string, weights: Map<string, number>, firstPage: number | undefined, chars: number): { passage: NodePassage; from: number; to: number } | null {
  const hits = termHits(text, weights);
  const dense = densestSpan(text, weights, chars, PASSAGE_LEAD, hits);
  if (!dense) return null;
  const whole = chars >= PASSAGE_FIRST_CHARS && text.length <= (tableText(text) ? WHOLE_TABLE_PASSAGE_CHARS : WHOLE_NODE_PASSAGE_CHARS);
  const span = whole ? { from: 0, to: text.length, at: dense.at } : dense;
  let main: Excerpt = { ...shownSpan(text, span.from, span.to, whole ? text.length : chars), at: span.at, spanFrom: span.from };
  // the first suggestion's passage only: the one agents answer from (on all three, 12-22% more characters for about the same gain)
  const second = whole || chars < PASSAGE_FIRST_CHARS ? null : secondExcerpt(text, weights, main, hits);
  // next to the first, the second widens it: one place
  if (second?.joined) {
    const [a, b] = [Math.min(span.from, second.span.from), Math.max(span.to, second.span.to)];
    main = { ...shownSpan(text, a, b, b - a), at: span.at, spanFrom: a };
  }
  const excerpts = second && !second.joined ? [main, second.excerpt].sort((a, b) => a.from - b.from) : [main];
  const inTable = text.slice(excerpts[0]!.spanFrom, excerpts[0]!.to).includes(' | ');
  const header = inTable ? (columnHeaderBefore(text, excerpts[0]!.spanFrom) ?? spanningRowOfShownHeader(text, excerpts[0]!.from, excerpts[0]!.to)) : null;
  const body = excerpts.map((x, k) => (k === 0 ? x.body : `${EXCERPT_GAP}${pageMarkBefore(text, excerpts[k - 1]!, x, firstPage)}${x.body}`)).join('');
  const out: NodePassage = { text: header ? `[${header}] ${body}` : body };
  const page = pageAtPos(text, span.at, firstPage);
  if (page !== undefined) out.page = page;
  // a passage running over a page break is cited by both pages (an agent cited p. 2 for a sentence on
  // p. 3): from the page its first words are on to the last page mark it shows
  const from = excerpts[0]!.from;
  const to = excerpts[excerpts.length - 1]!.to;
  const lead = /^(?:\s|<!-- page \d+ -->)*/.exec(text.slice(from, to))![0].length;
  const first = pageAtPos(text, from + lead, firstPage);
  const shownMarks = [...body.matchAll(PAGE_MARK)];
  const last = shownMarks.length ? Number(shownMarks[shownMarks.length - 1]![1]) : first;
  if (first !== undefined && last !== undefined && last > first) out.pages = [first, last];
  const more = text.length - to;
  if (more >= PASSAGE_MORE_MIN) out.more = more;
  return { passage: out, from, to };
}

/**
 * Where the query's words the first excerpt leaves out stand most densely, outside it (null when
 * they weigh too little, SECOND_EXCERPT_MIN_SHARE); `joined` when, shown, it would run into the first.
 */
function secondExcerpt(text: string, weights: Map<string, number>, first: Excerpt, hits: TermHit[]): { excerpt: Excerpt; span: { from: number; to: number }; joined: boolean } | null {
  const inside = (h: { start: number; end: number }) => h.start < first.to && h.end > first.from;
  const shown = new Set(hits.filter(inside).flatMap((h) => h.terms));
  const held = new Set(hits.flatMap((h) => h.terms));
  const missing = new Map([...held].filter((t) => !shown.has(t)).map((t) => [t, weights.get(t)!] as const));
  const weightOf = (ts: Iterable<string>) => [...ts].reduce((a, t) => a + (weights.get(t) ?? 0), 0);
  if (missing.size === 0 || weightOf(missing.keys()) < SECOND_EXCERPT_MIN_SHARE * weightOf(held)) return null;
  const outside = hits.filter((h) => !inside(h)).map((h) => ({ ...h, terms: h.terms.filter((t) => missing.has(t)) })).filter((h) => h.terms.length > 0);
  const win = bestWindow(outside, missing, DENSE_WINDOW_CHARS);
  if (!win) return null;
  const span = spanAround(text, outside[win.from]!.start, outside[win.to - 1]!.end, SECOND_EXCERPT_CHARS, PASSAGE_LEAD);
  const shownSecond = shownSpan(text, span.from, span.to, SECOND_EXCERPT_CHARS);
  const joined = shownSecond.from <= first.to && shownSecond.to >= first.from;
  return { excerpt: { ...shownSecond, at: span.from, spanFrom: span.from }, span, joined };
}

/** The page mark a later excerpt opens with when it is on another page than the excerpt before ends on. */
function pageMarkBefore(text: string, before: Excerpt, x: Excerpt, firstPage: number | undefined): string {
  const page = pageAtPos(text, x.from, firstPage);
  return page !== undefined && page !== pageAtPos(text, before.to, firstPage) ? `<!-- page ${page} --> ` : '';
}

/** The file lines of text[from, to) when both ends lie in the text of nodes that are their file's lines (read-text.ts line_starts). */
export function fileLines(text: string, starts: NodeRead['line_starts'], from: number, to: number): [number, number] | undefined {
  const lineAt = (pos: number) => {
    const s = starts?.find((x) => x.at <= pos && pos <= x.end);
    if (!s) return undefined;
    let line = s.line;
    for (let i = text.indexOf('\n', s.at); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) line++;
    return line;
  };
  const a = lineAt(from);
  const b = lineAt(Math.max(from, to - 1));
  return a !== undefined && b !== undefined && b >= a ? [a, b] : undefined;
}

/**
 * Idf (over the source's nodes) of the query's terms that tell its nodes apart; with a vocabulary
 * pack, also the words the field prints for what was typed (its expansions: "capital expenditures"
 * → purchases of property, plant and equipment), at PASSAGE_EXPANSION_WEIGHT, so a node ranked
 * first by them shows where they are instead of no passage at all.
 */
export function termWeights(root: string, sourceId: string, query: string, stopwords?: ReadonlySet<string>, docType?: string): Map<string, number> {
  const ix = nodeKeywords(root, sourceId);
  const terms = queryTerms(query, stopwords);
  if (!ix) return new Map(terms.map((t) => [t, 1]));
  const kept = nodeQueryTerms(ix, terms);
  const text = nodeFields(ix).text;
  const weight = (t: string) => Math.max(0.1, idf(ix.nodes.length, docFreq(text, t)));
  const out = new Map(kept.map((t) => [t, weight(t)]));
  if (docType === undefined) return out;
  for (const t of expansionTerms(ix, loadVocabulary(root, loadConfig(root), docType), query, new Set(out.keys()))) out.set(t, PASSAGE_EXPANSION_WEIGHT * weight(t));
  return out;
}

/** The passage of a node (its own text, then its sub-sections', up to PASSAGE_SCAN_CHARS). */
export function nodePassage(root: string, tree: TreeFile, node: TreeNode, weights: Map<string, number>, chars = PASSAGE_CHARS): NodePassage | null {
  const read = readNodeText(root, tree, node, { offset: 0, maxChars: PASSAGE_SCAN_CHARS, withChildren: true });
  const got = passageIn(read.text, weights, node.page_range?.[0], chars);
  if (!got) return null;
  const lines = got.passage.page === undefined ? fileLines(read.text, read.line_starts, got.from, got.to) : undefined;
  return lines ? { ...got.passage, lines } : got.passage;
}

/** A row as "row N: column: value; …" (empty cells left out), N the data row read_source --rows takes. */
function rowLine(columns: string[], row: unknown[], n: number): string {
  const cells = row.map((v, k) => (v === null || v === undefined || v === '' ? '' : `${columns[k] ?? `column ${k + 1}`}: ${String(v)}`)).filter(Boolean);
  return `row ${n}: ${cells.join('; ')}`;
}

/**
 * The passage of a row hit: the cells of its rows, named by their columns, not the sheet node's
 * own text (its schema); when the rows run longer than a passage, the part holding the query's words
 * (none when they hold none, as for a node's text).
 */
export function rowsPassage(root: string, tree: TreeFile, path: TreeNode[], range: [number, number], weights: Map<string, number>, chars = PASSAGE_CHARS): NodePassage | null {
  const [from, to] = range;
  const got = readRows(root, tree, pickSheet(tree, path, undefined), from, Math.min(to, from + PASSAGE_ROWS - 1));
  const lines = got.rows.map((r, i) => rowLine(got.columns, r, from + i));
  const text = lines.join('\n');
  if (!text) return null;
  const rows = matchingRows(lines, weights, from);
  const window = text.length <= chars + 80 ? { text } : bestPassage(text, weights, undefined, chars);
  const passage = window && lines.length === 1 ? withRowKey(window, got.rows[0]!, got.columns, from) : window;
  return passage && rows && (rows[0] > from || rows[1] < from + lines.length - 1) ? { ...passage, rows } : passage;
}

/** Cells opening a one-row passage that starts further on: what names the row (a country, a code). */
export const ROW_KEY_CELLS = 2;

/**
 * A one-row passage that opens past the row's first cells starts with them: the part of a wide row
 * holding the query's words ("1970: 5.47; … 1980: 2.71") did not say whose row it was, and rows of
 * "China" and "Macao SAR, China" read alike.
 */
function withRowKey<P extends { text: string }>(passage: P, row: unknown[], columns: string[], n: number): P {
  if (passage.text.startsWith(`row ${n}:`)) return passage;
  const key = rowLine(columns, row, n).split('; ').slice(0, ROW_KEY_CELLS).join('; ');
  return { ...passage, text: `${key}; ${passage.text}` };
}

/**
 * The first and last of a row block's rows (as rowLine prints them, the first numbered `from`) that
 * hold the query's words with the most weight, or null when none holds any. An agent cited rows
 * 26895-26901 for the one row, 26901, that held the OUI it asked about.
 */
export function matchingRows(lines: string[], weights: Map<string, number>, from: number): [number, number] | null {
  const score = lines.map((l) => [...new Set(tokenize(l.replace(/^row \d+: /, '')))].reduce((a, t) => a + (weights.get(t) ?? 0), 0));
  const best = Math.max(...score);
  if (!(best > 0)) return null;
  return [from + score.indexOf(best), from + score.lastIndexOf(best)];
}

/**
 * The passage of a suggested node: its rows' cells for a row hit, else its text's (path: root … node);
 * the first suggestion's is PASSAGE_FIRST_CHARS long, the others' PASSAGE_CHARS.
 */
export function hitPassage(root: string, tree: TreeFile, path: TreeNode[], hit: NodeHit, weights: Map<string, number>, rank = 1): NodePassage | null {
  const chars = rank === 1 ? PASSAGE_FIRST_CHARS : PASSAGE_CHARS;
  const node = path[path.length - 1]!;
  if (hit.row_range) return rowsPassage(root, tree, path, hit.row_range, weights, chars);
  const notes = isNotesHit(hit, node) ? notesPlace(hit.title) : null;
  return notes ? notesPassage(node, notes, weights, chars) : nodePassage(root, tree, node, weights, chars);
}

/** A hit on a sheet's node without rows: the entry of its notes above or below the table (indexing/source-text.ts sheetNoteTexts). */
export function isNotesHit(hit: NodeHit, node: TreeNode): boolean {
  return !hit.row_range && node.kind === 'sheet' && notesPlace(hit.title) !== null;
}

/** The passage of a sheet's notes above or below its table: their lines, the part holding the query's words when they run longer. */
function notesPassage(node: TreeNode, where: NotesPlace, weights: Map<string, number>, chars: number): NodePassage | null {
  const v = node.meta?.[where === 'above' ? 'preamble' : 'notes'];
  const text = (Array.isArray(v) ? v.map(String).filter((x) => x.trim()) : []).join('\n');
  if (!text) return null;
  return text.length <= chars + 80 ? { text } : bestPassage(text, weights, undefined, chars);
}

/** Source types holding several sheets (a CSV's one sheet is the file). */
const WORKBOOK_TYPES: ReadonlySet<string> = new Set(['xlsx', 'xls', 'ods']);

/**
 * Where a passage's words are, as a citation: its pages, else its own lines, else the node's lines or
 * rows, with the sheet a workbook's rows are on (an agent's "row 9" did not say which of two sheets).
 */
export function passageCite(entry: CatalogEntry, n: NodeHit, passage: NodePassage, node?: TreeNode): string {
  const anchor = node?.meta?.['anchor'];
  // a row hit's sheet, or the sheet whose notes a notes hit shows
  const sheet = (n.row_range || (node && isNotesHit(n, node))) && node?.kind === 'sheet' && WORKBOOK_TYPES.has(entry.type) ? node.title : undefined;
  return makeCitation(entry, {
    node_id: n.node_id,
    node_title: node?.title ?? n.title,
    sheet,
    anchor: typeof anchor === 'string' ? anchor : undefined,
    pages: passage.pages ?? (passage.page !== undefined ? [passage.page, passage.page] : undefined),
    lines: passage.page === undefined ? (passage.lines ?? n.line_range) : undefined,
    rows: passage.page === undefined ? (passage.rows ?? n.row_range) : undefined,
    sheet_rows: passage.page === undefined && node?.kind === 'sheet' ? sheetRowsOf(node.meta, passage.rows ?? n.row_range) : undefined,
  }).text;
}

/** Ancestor titles (root left out) of every node titled `title` but `node`. */
function otherPlaces(root: TreeNode, title: string, node: TreeNode): string[][] {
  const out: string[][] = [];
  const walk = (n: TreeNode, up: string[]) => {
    if (n !== node && n.title === title) out.push(up);
    for (const c of n.children) walk(c, n === root ? up : [...up, n.title]);
  };
  walk(root, []);
  return out;
}

/** Tree node kind of a part of a long section read in paragraph groups (text-chunks.ts, html-tree.ts), titled by its first sentence. */
const GROUP_KIND = 'paragraphs';

/** The ancestors that place a node whose title repeats (path: root … node): NODE_PATH_DEPTH, or as many more as tell it apart. */
export function placeOf(root: TreeNode, path: TreeNode[]): string[] {
  const ancestors = path.slice(1, -1).map((p) => p.title);
  const node = path[path.length - 1]!;
  const others = otherPlaces(root, node.title, node);
  const key = (chain: string[], k: number) => chain.slice(-k).join('\u0000');
  const most = Math.min(NODE_PATH_MAX_DEPTH, ancestors.length);
  for (let k = Math.min(NODE_PATH_DEPTH, most); k < most; k++) {
    if (!others.some((o) => key(o, k) === key(ancestors, k))) return ancestors.slice(-k);
  }
  return ancestors.slice(-most);
}

/** Titles that more than one node of a tree carries. */
function repeatedTitles(root: TreeNode): Set<string> {
  const seen = new Set<string>();
  const out = new Set<string>();
  const walk = (n: TreeNode) => {
    if (seen.has(n.title)) out.add(n.title);
    seen.add(n.title);
    n.children.forEach(walk);
  };
  walk(root);
  return out;
}

function annotate(root: string, tree: TreeFile, hit: SourceHit, entry: CatalogEntry, query: string, stopwords?: ReadonlySet<string>): ListedNode[] {
  const weights = termWeights(root, hit.id, query, stopwords, entry.doc_type ?? '');
  const titles = new Map<string, number>();
  for (const n of hit.nodes) titles.set(n.title, (titles.get(n.title) ?? 0) + 1);
  const repeated = repeatedTitles(tree.root);
  return hit.nodes.map((n, r) => {
    const path = findNodePath(tree.root, n.node_id);
    const node = path?.[path.length - 1];
    if (!node) return n;
    const out: ListedNode = { ...n };
    // a title the list or the source repeats ("Fixes" under each release, "Description" under each
    // function) needs its place; so does a part of a long section titled by its first sentence (an
    // agent read GRASS's "Output spi raster map contains stream power index…" as a section of its own)
    if ((titles.get(n.title) ?? 0) > 1 || repeated.has(n.title) || node.kind === GROUP_KIND) out.path = placeOf(tree.root, path!);
    const passage = hitPassage(root, tree, path!, n, weights, r + 1);
    if (passage) out.passage = { ...passage, cite: passageCite(entry, n, passage, node) };
    return out;
  });
}

/**
 * The first PASSAGE_RESULTS hits (the first alone when strong) with their nodes annotated (passage, and path when titles
 * repeat in the list or in the source); the rest unchanged. A source whose tree or text cannot be read keeps its plain nodes.
 */
export function annotateHits<T extends SourceHit>(root: string, hits: T[], query: string, entry: (id: string) => CatalogEntry | null, stopwords?: ReadonlySet<string>): T[] {
  const upTo = hits[0]?.verdict === 'strong' ? 1 : PASSAGE_RESULTS;
  return hits.map((h, i) => {
    if (i >= upTo || h.nodes.length === 0) return h;
    const e = entry(h.id);
    if (!e) return h;
    try {
      return { ...h, nodes: annotate(root, loadTree(root, e), h, e, query, stopwords) };
    } catch {
      // a damaged tree or content file: the plain node list still points the way (read_source says what is wrong)
      return h;
    }
  });
}
