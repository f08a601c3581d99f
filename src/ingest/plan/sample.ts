/** A cheap look at a document before conversion: what the planner (offline or LLM) decides from. */
import { decodeChunks } from '../encoding.js';
import type { FileCard } from '../../store/schemas.js';
import type { PdfPreview, Sample } from '../../model/sample.js';

import { pdfPreview } from './pdf-preview.js';

export type { Sample };

/** Characters of leading text the planner sees. */
export const SAMPLE_CHARS = 2000;

/** Types read by the plain-text converter, which finds headings Markdown does not. */
const PLAIN_TEXT_TYPES = new Set(['text', 'log']);
const TEXT_TYPES = new Set(['markdown', 'text', 'html', 'code', 'json', 'yaml', 'xml', 'log', 'csv', 'tsv']);

/** A PDF preview opened once per set of limits (the offline and the LLM planner may both ask). */
function memoPreview(bytes: Uint8Array): NonNullable<Sample['pdfPreview']> {
  const seen = new Map<string, Promise<PdfPreview>>();
  return (limits) => {
    const key = JSON.stringify(limits);
    let p = seen.get(key);
    if (!p) seen.set(key, (p = pdfPreview(bytes, limits)));
    return p;
  };
}

/** Markdown ATX headings, and setext headings (a line underlined with = or -). */
const ATX_HEADING = /^#{1,6}\s+\S/gm;
const SETEXT_HEADING = /\n[^\n]+\n(=+|-+)[ \t]*\n/g;
/** Plain-text headings as the text converter reads them (converters/text-headings.ts): titles underlined
 * with another reStructuredText adornment, and lines in capitals between blank lines. */
const RST_HEADING = /\n[^\s][^\n]*\n([~*^+"'`:._])\1{2,}[ \t]*\n/g;
const CAPS_HEADING = /\n[ \t]*\n[ \t]*[A-Z][A-Z0-9 ,:&()/'*_-]{2,59}[A-Z0-9):](?=[ \t]*\n[ \t]*\n)/g;
/** A FAQ's question opening a paragraph ("Q: …", "Question 3: …"), an entry as the text converter reads it (text-headings.ts). */
const QUESTION_HEADING = /(?:^[ \t]*\n?|\n[ \t]*\n)(?:Q|Question)[ \t]*\d{0,3}[ \t]*[:.)][ \t]+\S/g;
/** A FAQ's numbered question on a line of its own after a blank line ("1.4  Can I sell…?"). */
const NUMBERED_QUESTION_HEADING = /\n[ \t]*\n[ \t]{0,8}\d{1,2}(?:\.\d{1,2}){0,3}\.?[ \t]+\p{Lu}[^\n]*\?[ \t]*(?=\n|$)/gu;
/**
 * A numbered title on a line of its own between blank lines ("2.1 Scope", "          5.4.  Shops and
 * shopping" in groff's plain-text output, indented by its margin); the converter keeps only those
 * running in sequence.
 */
const NUMBERED_TITLE_HEADING = /\n[ \t]*\n[ \t]{0,16}\d{1,2}(?:\.\d{1,2}){0,3}\.?[ \t]+\p{Lu}[^\n]{1,68}(?=\n[ \t]*\n)/gu;
/** An AsciiDoc section title ("== Daily checks") opening the file or after a blank line (text-headings.ts). */
const ASCIIDOC_HEADING = /(?:^|\n[ \t]*\n)={1,6}[ \t]+\S/g;
/** An Org-mode heading ("** Weather"), counted once the text has shown an Org keyword line ("#+TITLE:"). */
const ORG_HEADING = /(?:^|\n)\*{1,6}[ \t]+\S/g;
const ORG_KEYWORD = /(?:^|\n)#\+[A-Za-z_]+:/;
/** Lines of the text before a chunk kept with it, so a setext heading cut by a chunk boundary is still seen. */
const CONTEXT_LINES = 2;

interface TextStats {
  text: string;
  heading_count: number;
  line_count: number;
  char_count: number;
}

/** Matches of `re` in `text` that end after `from` (those ending before were counted with the previous chunk). */
function countFrom(re: RegExp, text: string, from: number): number {
  let n = 0;
  for (const m of text.matchAll(re)) if (m.index + m[0].length > from) n++;
  return n;
}

/** Index just after the n-th last newline of `text` (0 when there are fewer). */
function lastLines(text: string, n: number): number {
  let at = text.length;
  for (let i = 0; i <= n; i++) {
    const nl = text.lastIndexOf('\n', at - 1);
    if (nl < 0) return 0;
    at = nl;
  }
  return at + 1;
}

/**
 * The leading text and the counts a planner needs, decoded chunk by chunk: a large file is never
 * held as one string here (the converter decodes it once, later).
 */
function textStats(bytes: Uint8Array, plainHeadings: boolean): TextStats {
  let text = '';
  let lines = 1;
  let chars = 0;
  let headings = 0;
  let carry = ''; // the last lines before the current chunk (context), then the current chunk's unfinished line
  let context = 0;
  let org = false;
  const take = (piece: string, final: boolean) => {
    chars += piece.length;
    if (text.length < SAMPLE_CHARS) text += piece.slice(0, SAMPLE_CHARS - text.length);
    for (let i = 0; i < piece.length; i++) if (piece.charCodeAt(i) === 10) lines++;
    const all = carry + piece;
    const end = final ? all.length : all.lastIndexOf('\n') + 1;
    if (end <= context) {
      carry = all;
      return;
    }
    const done = all.slice(0, end);
    org ||= plainHeadings && ORG_KEYWORD.test(done);
    headings += countFrom(ATX_HEADING, done, context) + countFrom(SETEXT_HEADING, done, context)
      + (plainHeadings ? countFrom(RST_HEADING, done, context) + countFrom(CAPS_HEADING, done, context) + countFrom(QUESTION_HEADING, done, context) + countFrom(NUMBERED_QUESTION_HEADING, done, context) + countFrom(NUMBERED_TITLE_HEADING, done, context) + countFrom(ASCIIDOC_HEADING, done, context) : 0)
      + (org ? countFrom(ORG_HEADING, done, context) : 0);
    const keep = lastLines(done, CONTEXT_LINES);
    carry = all.slice(keep);
    context = end - keep;
  };
  decodeChunks(bytes, (piece) => take(piece, false));
  take('', true);
  return { text, heading_count: headings, line_count: lines, char_count: chars };
}

export function takeSample(card: FileCard, bytes: Uint8Array, maxLeafPages?: number): Sample {
  const leaf = maxLeafPages ? { maxLeafPages } : {};
  if (card.type === 'pdf') return { card, text: '', heading_count: 0, line_count: 0, ...leaf, pdfPreview: memoPreview(bytes) };
  if (!TEXT_TYPES.has(card.type)) return { card, text: '', heading_count: 0, line_count: 0, ...leaf };
  return { card, ...textStats(bytes, PLAIN_TEXT_TYPES.has(card.type)), ...leaf };
}
