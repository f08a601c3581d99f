/**
 * Definition lists in print: a short term line with the lines that describe it indented under it
 * (texinfo's @table, a manual's option list: "-B bitclock" at the margin, its paragraph 58 pt in).
 * No font or size sets such a term apart from the text, so heading detection does not see it; a
 * long section of them had been cut into page windows ("2.1 Option Descriptions (continued)",
 * pages 14–18), and the option asked about was somewhere inside. Found from the layout alone:
 * the same term column and description column over several entries.
 */
import type { Line } from './layout-types.js';
import type { BodyStyle } from './headings.js';
import { pos } from './sections.js';

/** A term line, at its position (sections.ts `pos`: page and body line). */
export interface TermLine {
  at: number;
  title: string;
}

/** Longest term line: an option with its argument, a glossary word, not a sentence. */
export const TERM_MAX_CHARS = 60;
/** The description is indented at least this many of the term's font size past the term. */
export const TERM_INDENT_EMS = 2;
/** Entries of one term column (the terms' x and their descriptions' x) a document needs before its terms count. */
export const TERM_MIN_ENTRIES = 5;
/** A term opens a block: the gap above it exceeds the body's usual line gap by this many of its size (or it opens the page). */
export const TERM_GAP_EMS = 0.3;
/** Sizes within this many points are the body's. */
const BODY_SIZE_SLACK = 0.5;
/** Positions within this many points are one column. */
const COLUMN_SLACK = 1.5;
/** Ends of a sentence or of a clause: a paragraph's last line, not a term. */
const CLAUSE_END = /[.,;]$/;
/** An index entry's page numbers ("besj0, 38"): a pointer, not a term. */
const PAGE_REFS = /,\s*\d+\b/;
const LETTER = /\p{L}/u;

interface Candidate extends TermLine {
  x: number;
  indent: number;
  font: string;
}

/**
 * Line i of a page is a term when it opens a block, the next line is indented under it and is
 * prose in the body's print (a display of code or output under a paragraph's last line is not a
 * description), and the term is short, has letters and points nowhere (an index entry's pages).
 */
function termAt(page: Line[], i: number, body: BodyPrint): { indent: number } | null {
  const l = page[i]!;
  const next = page[i + 1];
  if (!next || l.listing || next.listing || l.cells.length !== 1) return null;
  const text = l.text.trim();
  if (!text || text.length > TERM_MAX_CHARS || CLAUSE_END.test(text) || PAGE_REFS.test(text) || !LETTER.test(text)) return null;
  if (next.x - l.x < TERM_INDENT_EMS * l.size) return null;
  // the description's first line may open with code ("apply <term> …"); one of its first two lines is prose
  const prose = (m: Line | undefined) => !!m && m.font === body.font && Math.abs(m.size - body.size) <= BODY_SIZE_SLACK;
  const second = page[i + 2];
  if (!prose(next) && !(second && Math.abs(second.x - next.x) <= COLUMN_SLACK && prose(second))) return null;
  if (i > 0 && l.gapAbove < body.lineGap + TERM_GAP_EMS) return null;
  return { indent: next.x };
}

/** The body's print and the usual gap between two lines of one of its paragraphs (the commonest, in tenths of the size). */
interface BodyPrint extends BodyStyle {
  lineGap: number;
}

function bodyPrint(pages: Line[][], body: BodyStyle): BodyPrint {
  const counts = new Map<number, number>();
  for (const page of pages) for (const l of page) {
    if (l.font !== body.font || !Number.isFinite(l.gapAbove)) continue;
    const g = Math.round(l.gapAbove * 10);
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  let best = 12;
  let n = 0;
  for (const [g, c] of counts) if (c > n || (c === n && g < best)) [best, n] = [g, c];
  return { ...body, lineGap: best / 10 };
}

/** The block under a term stays indented: the line after its first is at the description's x, or is the next term, or the page ends. */
function blockGoesOn(page: Line[], i: number, indent: number, body: BodyPrint): boolean {
  const after = page[i + 2];
  if (!after) return true;
  return Math.abs(after.x - indent) <= COLUMN_SLACK || (Math.abs(after.x - page[i]!.x) <= COLUMN_SLACK && termAt(page, i + 2, body) !== null);
}

/**
 * The document's term lines (pages are body lines, page 1 first): candidates grouped by their
 * column (term x, description x) and print; a column with at least TERM_MIN_ENTRIES entries is a
 * definition list.
 */
export function definitionTerms(pages: Line[][], bodyStyle: BodyStyle): TermLine[] {
  const body = bodyPrint(pages, bodyStyle);
  const found: Candidate[] = [];
  pages.forEach((page, pi) => {
    for (let i = 0; i < page.length - 1; i++) {
      const t = termAt(page, i, body);
      if (!t || !blockGoesOn(page, i, t.indent, body)) continue;
      const l = page[i]!;
      found.push({ at: pos(pi + 1, i), title: l.text.trim(), x: l.x, indent: t.indent, font: l.font });
    }
  });
  const columns = new Map<string, Candidate[]>();
  for (const c of found) {
    const key = `${Math.round(c.x / COLUMN_SLACK)}|${Math.round(c.indent / COLUMN_SLACK)}|${c.font}`;
    const column = columns.get(key);
    if (column) column.push(c);
    else columns.set(key, [c]);
  }
  return [...columns.values()].filter((cs) => cs.length >= TERM_MIN_ENTRIES).flat().sort((a, b) => a.at - b.at).map(({ at, title }) => ({ at, title }));
}
