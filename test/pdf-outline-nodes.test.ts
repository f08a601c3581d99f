/**
 * Node text from heading to heading (issue 14): headings in the document's heading style count alike,
 * a second heading in mid-page starts its own node, page windows are not named after the next
 * section, small capitals are one word, contents printed later (an exhibit's own) are a contents
 * node, bare labels ("Example 3") carry their caption, two tables on a page are both named, a
 * section that only points elsewhere does not leave the matter it points to under another section,
 * and a headline wrapped over two lines still tells the document's kind.
 */
import { describe, it, expect } from 'vitest';
import type { Line, PageLayout } from '../src/ingest/converters/pdf/layout-types.js';
import type { Heading } from '../src/ingest/converters/pdf/headings.js';
import { DECK_TITLE_SCORE, findHeadings, unclosedBracket } from '../src/ingest/converters/pdf/headings.js';
import { findFurniture } from '../src/ingest/converters/pdf/furniture.js';
import { buildSections, leaves, plainTitle, pos, posLine, posPage, type Section } from '../src/ingest/converters/pdf/sections.js';
import { abstractTitle, findBackMatter } from '../src/ingest/converters/pdf/matter-headings.js';
import { outlineStyles } from '../src/ingest/converters/pdf/outline-styles.js';
import { laterContentsPages } from '../src/ingest/converters/pdf/printed-toc.js';
import { buildPage } from '../src/ingest/converters/pdf/lines.js';
import { buildCard, docType } from '../src/ingest/converters/pdf/card.js';
import { stripLineNumbers, stripMarginCounters } from '../src/ingest/converters/pdf/line-numbers.js';
import { withUnlistedNumbered } from '../src/ingest/converters/pdf/unlisted.js';
import { leadOnSummary, pointerText } from '../src/ingest/converters/pdf/convert.js';
import { numbering, scoreLine } from '../src/ingest/converters/pdf/headings.js';
import { compileOutline } from '../src/model/outline-vocabulary.js';
import { readFileSync } from 'node:fs';
import { keyedRowRange } from '../src/ingest/converters/pdf/row-keys.js';
import { inBodyLetters } from '../src/ingest/converters/pdf/letters.js';

const BODY = { size: 10, font: 'body' };
let y = 700;
function line(text: string, o: Partial<Line> = {}): Line {
  y -= 12;
  const cells = o.cells ?? [text];
  return { cells, text: cells.join(' '), x: 72, x2: 72 + text.length * 5, y, size: 10, font: 'body', gapAbove: 1.2, ...o };
}
const prose = (n: number, tag = 'Body'): Line[] => Array.from({ length: n }, (_, i) => line(`${tag} text line ${i} of the page with enough words to read as prose here.`, { x2: 540 }));
const page = (n: number, lines: Line[]): PageLayout => ({ page: n, width: 612, height: 792, lines, twoColumn: false });
const heading = (page: number, bodyLine: number, title: string, o: Partial<Heading> = {}): Heading => ({ page, line: bodyLine, bodyLine, title, level: 4, kind: 'style', score: 0.5, top: bodyLine < 4, ...o });
const shape = (list: Section[]): unknown[] => list.map((s) => [s.title, s.kind, s.start, s.end, ...(s.children.length ? [shape(s.children)] : [])]);

describe('headings in the document\'s heading style', () => {
  it('a long bold line at body size counts like its short bold peers', () => {
    const bold = (t: string) => line(t, { font: 'bold', gapAbove: 2 });
    const pages = [
      page(1, [bold('Segment Results'), ...prose(6), bold('Regional Sales'), ...prose(6)]),
      page(2, [bold('Research Expense'), ...prose(6), bold('Analysis of Consolidated Earnings Before Provision for Taxes on Income'), ...prose(6)]),
      page(3, [bold('Liquidity and Cash'), ...prose(6)]),
    ];
    const hs = findHeadings(pages, findFurniture(pages), BODY, new Set());
    const long = hs.find((h) => h.title.startsWith('Analysis of'))!;
    const short = hs.find((h) => h.title === 'Regional Sales')!;
    expect(long.score).toBeGreaterThanOrEqual(0.45);
    expect(long.score).toBeLessThanOrEqual(short.score);
  });
});

describe('a title centred over its column', () => {
  it('on a page of two columns, a capitalised title centred over one column is a heading (JACoW\'s "STYLES", "TEMPLATES")', () => {
    const col = (x: number, n: number): Line[] => Array.from({ length: n }, (_, i) => line(`Column text line ${i} with enough words to read as prose.`, { x, x2: x + 235 }));
    // the left column runs 57–292, the right one 305–540: "STYLES" (151–197) is centred on the left one, not on the page (57–540)
    const two = (t: string): PageLayout => ({ page: 1, width: 595, height: 842, twoColumn: true, lines: [...col(57, 8), line(t, { x: 151, x2: 197, font: 'bold', size: 12, gapAbove: 2 }), ...col(57, 8), ...col(305, 16)] });
    const pages = [two('STYLES')];
    expect(findHeadings(pages, findFurniture(pages), BODY, new Set()).map((h) => h.title)).toContain('STYLES');
    // read as one column, the same line floats off the page's centre and edges: a label, not a title
    const one = [{ ...two('STYLES'), twoColumn: false }];
    expect(findHeadings(one, findFurniture(one), BODY, new Set()).map((h) => h.title)).not.toContain('STYLES');
  });
});

describe('titles in the document\'s letters', () => {
  it('a line of a music or symbol font is no title; a word in the body\'s letters is, in any script the body writes', () => {
    const english = new Set('abcdefghijklmnopqrstuvwxyzˇ');
    expect(inBodyLetters('ŰŰˇ', english)).toBe(false);
    expect(inBodyLetters('G ˇ ˇ ˇˇ G > ˇ ˇ ˇˇ', english)).toBe(false);
    expect(inBodyLetters('4 Accidentals', english)).toBe(true);
    expect(inBodyLetters('Ősi Űrlap', new Set('aábcdeéilnoőprsuűz'))).toBe(true);
    expect(inBodyLetters('ŰŰŰŰ', new Set())).toBe(true);
  });
});

describe('a paragraph is no heading', () => {
  it('a line filling the measure whose sentence goes on in lower case below is a paragraph, whatever print most of its words are in', () => {
    const code = (t: string, o: Partial<Line> = {}) => line(t, { font: 'code', x2: 540, gapAbove: 2, ...o });
    const wrapped = [page(1, [...prose(4), code('Loading bracketed-paste-magic also defines quote-paste, a helper'), line('function for use in paste-finish.', { x2: 250 }), ...prose(4)])];
    expect(findHeadings(wrapped, findFurniture(wrapped), BODY, new Set()).map((h) => h.title)).not.toContain('Loading bracketed-paste-magic also defines quote-paste, a helper');
    // the same line standing alone, its text below opening a new sentence, stays a heading
    const alone = [page(1, [...prose(4), code('Loading bracketed-paste-magic also defines quote-paste, a helper'), line('Function for use in paste-finish.', { x2: 250 }), ...prose(4)])];
    expect(findHeadings(alone, findFurniture(alone), BODY, new Set()).map((h) => h.title)).toContain('Loading bracketed-paste-magic also defines quote-paste, a helper');
  });
});

describe('a reference\'s entries', () => {
  const entry = (key: string, name: string, o: Partial<Line> = {}) => [line(`${key} ${name}`, { cells: [key, name], font: 'bold', gapAbove: 3, ...o }), ...prose(3, key)];

  it('a key and its name set apart in two cells, in a print of their own with space above, are a heading (NMEA 0183\'s "DBK Depth Below Keel")', () => {
    const pages = [page(1, [...prose(4), ...entry('DBK', 'Depth Below Keel'), ...entry('DBS', 'Depth Below Surface'), ...prose(4)])];
    expect(findHeadings(pages, findFurniture(pages), BODY, new Set()).map((h) => h.title)).toEqual(['DBK Depth Below Keel', 'DBS Depth Below Surface']);
    // no space above it, or a name holding figures: a table's row
    const tight = [page(1, [...prose(4), ...entry('DBK', 'Depth Below Keel', { gapAbove: 1.2 }), ...prose(4)])];
    expect(findHeadings(tight, findFurniture(tight), BODY, new Set())).toEqual([]);
    const figures = [page(1, [...prose(4), ...entry('Q3', 'Sales 2024 Total'), ...prose(4)])];
    expect(findHeadings(figures, findFurniture(figures), BODY, new Set())).toEqual([]);
    // a bold header over the rows of a table is the table's, not a heading
    const row = (a: string, b: string, x = 160) => line(`${a} ${b}`, { cells: [a, b], spans: [72, 90, x, x + 80] });
    const head = line('Code Description of the code', { cells: ['Code', 'Description of the code'], spans: [72, 95, 160, 260], font: 'bold', gapAbove: 3 });
    const table = [page(1, [...prose(4), head, row('AB', 'Alpha beta'), row('CD', 'Gamma delta'), row('EF', 'Epsilon phi'), ...prose(4)])];
    expect(findHeadings(table, findFurniture(table), BODY, new Set())).toEqual([]);
    // cells below in other columns (an entry's numbered fields) are no rows of it
    const fields = [page(1, [...prose(4), head, row('1 2 3 4 5 6 7 8 9 10', '12 13', 300), ...prose(4)])];
    expect(findHeadings(fields, findFurniture(fields), BODY, new Set()).map((h) => h.title)).toEqual(['Code Description of the code']);
  });

  it('a title cut after a comma is read whole from its first line, not titled by the rest below', () => {
    const bold = (t: string, gapAbove: number) => line(t, { font: 'bold', gapAbove });
    const pages = [page(1, [...prose(4), bold('BWR Bearing and Distance to Waypoint – Rhumb Line Latitude, N/S, Longitude,', 3), bold('UTC, Status', 1.2), ...prose(4)])];
    const [h] = findHeadings(pages, findFurniture(pages), BODY, new Set());
    expect(h).toMatchObject({ title: 'BWR Bearing and Distance to Waypoint – Rhumb Line Latitude, N/S, Longitude, UTC, Status', line: 4, lines: 2 });
  });

  const lineChars = (pages: number, perPage = 40, chars = 80) => Array.from({ length: pages }, () => Array.from({ length: perPage }, () => chars));
  const peers = (p: number, at: number[], print: string) => at.map((l) => heading(p, l, `Entry ${p}.${l}`, { print }));

  it('peers a few lines apart on one page each start a node; headings of other prints that close together do not', () => {
    const build = (headings: Heading[]) => buildSections([{ title: '5. Sentences', level: 1, page: 1 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings })[0]!.children.map((c) => c.title);
    const later = [3, 4, 5, 6, 7].map((p) => heading(p, 0, `Topic ${p}`, { print: 'bold/9.5' }));
    expect(build([...peers(2, [0, 4, 8], 'bold/9.5'), ...later])).toEqual(['5. Sentences (introduction)', 'Entry 2.0', 'Entry 2.4', 'Entry 2.8', 'Topic 3', 'Topic 4', 'Topic 5', 'Topic 6', 'Topic 7']);
    const mixed = [heading(2, 0, 'Entry 2.0', { print: 'bold/9.5' }), heading(2, 4, 'Entry 2.4', { print: 'italic/9.5' }), heading(2, 8, 'Entry 2.8', { print: 'bold/12' })];
    expect(build([...mixed, ...later])).toEqual(['5. Sentences (introduction)', 'Entry 2.0', 'Topic 3', 'Topic 4', 'Topic 5', 'Topic 6', 'Topic 7']);
    // titles of tables close together are one statement's, however alike their print: one node titled by both
    const tables = [heading(2, 0, 'BALANCE SHEETS', { print: 'bold/9.5', table: true }), heading(2, 6, 'Current liabilities', { print: 'bold/9.5', table: true })];
    expect(build([...tables, ...later])).toEqual(['5. Sentences (introduction)', 'BALANCE SHEETS; Current liabilities', 'Topic 3', 'Topic 4', 'Topic 5', 'Topic 6', 'Topic 7']);
  });

  it('headings below the section\'s own on its first page split it as on any other page', () => {
    const later = [3, 4, 5, 6, 7].map((p) => heading(p, 0, `Topic ${p}`, { print: 'bold/9.5' }));
    const [s] = buildSections([{ title: '5. Sentences', level: 1, page: 1, line: 0 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings: [...peers(1, [6, 12], 'bold/9.5'), ...later] });
    expect(shape(s!.children).slice(0, 3)).toEqual([['5. Sentences (introduction)', 'intro', 1, 1], ['Entry 1.6', 'style', 1, 1], ['Entry 1.12', 'style', 1, 2]]);
    // right under the section's heading, the first part opens with it: no introduction of the heading's line alone
    const [t] = buildSections([{ title: 'astFindFrame', level: 1, page: 1, line: 0 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings: [...peers(1, [1, 12], 'bold/9.5'), ...later] });
    expect(shape(t!.children).slice(0, 2)).toEqual([['Entry 1.1', 'style', 1, 1], ['Entry 1.12', 'style', 1, 2]]);
    expect(t!.children[0]!.from).toBe(t!.from);
  });
});

describe('headings in small capitals', () => {
  it('a numbered line in capitals a little smaller than the text is a heading (IEEE\'s "I. INTRODUCTION"); small print otherwise is not', () => {
    const small = (t: string, size: number) => scoreLine(line(t, { size, gapAbove: 2 }), BODY, { repeats: 0, top: false });
    expect(small('I. INTRODUCTION', 8)!.score).toBeGreaterThanOrEqual(0.45);
    expect(small('I. Introduction', 8)).toBeNull();
    expect(small('I. INTRODUCTION', 6)?.score ?? 0).toBeLessThan(0.45);
  });
});

describe('a table keyed by number is no run of headings', () => {
  it('a numbered line over rows that open with numbers, in its print and column, is a row (Elk\'s space groups); over its text, or one sub-heading, a heading', () => {
    const row = (t: string) => line(t, { x2: 300 });
    const rows = [page(1, [...prose(4), row('53 D 72h Pmna -P 2ac 2'), row('53:ba-c D 72h Pnmb -P 2bc 2bc'), row('54 D 82h Pcca -P 2a 2ac'), row('54:cab D 82h Pbaa -P 2a 2b'), ...prose(4)])];
    expect(findHeadings(rows, findFurniture(rows), BODY, new Set()).map((h) => h.title)).not.toContain('53 D 72h Pmna -P 2ac 2');
    const sections = [page(1, [...prose(4), row('3 Methods'), row('3.1 Data sources'), ...prose(4)])];
    expect(findHeadings(sections, findFurniture(sections), BODY, new Set()).map((h) => h.title)).toEqual(['3 Methods', '3.1 Data sources']);
  });
});

describe('lettering inside a figure is no heading', () => {
  it('a large line among a figure\'s tiny labels, right over its caption, titles nothing; the same line over text does', () => {
    const big = (t: string) => line(t, { size: 21, font: 'fig', gapAbove: 1.2, x: 237, x2: 339 });
    const tiny = (t: string) => line(t, { size: 3.5, font: 'fig', x: 269, x2: 290 });
    const fig = [page(1, [...prose(4), tiny('RGB Graphic'), big('RGB TEXT'), tiny('CMYK Image CMYK Graphic'), line('Figure 3: Example file with mixed content.', { x2: 540, gapAbove: 4 }), ...prose(4)])];
    expect(findHeadings(fig, findFurniture(fig), BODY, new Set()).map((h) => h.title)).not.toContain('RGB TEXT');
    const text = [page(1, [...prose(4), big('RGB TEXT'), ...prose(4)])];
    expect(findHeadings(text, findFurniture(text), BODY, new Set()).map((h) => h.title)).toContain('RGB TEXT');
  });
});

describe('node text runs from heading to heading', () => {
  const lineChars = (pages: number, perPage = 40, chars = 80) => Array.from({ length: pages }, () => Array.from({ length: perPage }, () => chars));

  it('a page splits at a heading printed above its first numbered one when that heading scores higher (a list\'s first step titles nothing)', () => {
    const more = [3, 4, 5, 6, 7].map((p) => heading(p, 0, `Topic ${p}`));
    const headings = [heading(2, 0, 'Install xfig', { score: 0.8 }), heading(2, 2, '1. Get xfig and untar it', { kind: 'numbered', number: '1', level: 1, score: 0.55 }), ...more];
    const [s] = buildSections([{ title: 'Internationalization', level: 1, page: 1 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings });
    expect(s!.children.map((c) => c.title)).toContain('Install xfig');
    expect(s!.children.map((c) => c.title).some((t) => t.startsWith('1. Get'))).toBe(false);
    // a numbered heading still wins over a weaker line above it
    const weak = [heading(2, 0, 'Install xfig', { score: 0.5 }), heading(2, 2, '1. Get xfig and untar it', { kind: 'numbered', number: '1', level: 1, score: 0.55 }), ...more];
    const [w] = buildSections([{ title: 'Internationalization', level: 1, page: 1 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings: weak });
    expect(w!.children.map((c) => c.title)).toContain('1. Get xfig and untar it');
  });

  it('numbered headings close together are joined into one title only while their numbers follow each other', () => {
    const n = (p: number, line: number, title: string, number: string) => heading(p, line, title, { kind: 'numbered', number, level: 1, score: 0.6 });
    const more = [3, 4, 5, 6, 7].map((p) => heading(p, 0, `Topic ${p}`));
    const titles = (hs: Heading[]) => buildSections([{ title: 'Agreement', level: 1, page: 1 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings: [...hs, ...more] })[0]!.children.map((c) => c.title);
    expect(titles([n(2, 0, '9. Absence due to Illness', '9'), n(2, 3, '10. Public Holidays', '10'), n(2, 6, '11. Business Expenses', '11')])).toContain('9. Absence due to Illness; 10. Public Holidays; 11. Business Expenses');
    // rows of a table opening with figures are no run of sections
    expect(titles([n(2, 0, '14 Quarter', '14'), n(2, 1, '12 Half', '12'), n(2, 2, '34 Three quarters', '34')])).toContain('14 Quarter');
  });

  it('a second strong heading in mid-page starts its own node; one right under another does not', () => {
    const headings = [heading(2, 0, 'Sales'), heading(2, 30, 'Earnings'), heading(3, 0, 'Cash'), heading(3, 3, 'Cash sources'), heading(4, 0, 'Debt'), heading(5, 0, 'Equity'), heading(6, 0, 'Risk'), heading(7, 0, 'Other')];
    const [item] = buildSections([{ title: 'Item 7. Discussion', level: 1, page: 1, kind: 'item' }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings });
    const titles = item!.children.map((c) => c.title);
    expect(titles).toEqual(['Item 7. Discussion (introduction)', 'Sales', 'Earnings', 'Cash', 'Debt', 'Equity', 'Risk', 'Other']);
    const earnings = item!.children.find((c) => c.title === 'Earnings')!;
    expect([earnings.from, earnings.to]).toEqual([pos(2, 30), pos(3, 0)]);
  });

  it('short front matter holding sections of its own (an 8-K\'s items before its exhibit\'s contents) is split on them, a cover\'s headings never count', () => {
    const headings = [
      heading(1, 2, 'UNITED STATES SECURITIES AND EXCHANGE COMMISSION', { kind: 'style', score: 0.9 }),
      heading(2, 0, 'Item 8.01. Other Events', { kind: 'item', level: 1, score: 0.9 }),
      heading(3, 20, 'Item 9.01. Financial Statements and Exhibits', { kind: 'item', level: 1, score: 0.9 }),
    ];
    const entries = [{ title: 'ARTICLE I DEFINITIONS', level: 1, page: 8 }, { title: 'ARTICLE II TERMS', level: 1, page: 9 }];
    const ctx = { pageCount: 10, maxLeafPages: 5, lineChars: lineChars(10, 40, 20), headings, contentsPages: new Set([6, 7]) };
    const titles = buildSections(entries, ctx).map((s) => s.title);
    expect(titles.slice(0, 4)).toEqual(['Cover and front matter', 'Item 8.01. Other Events', 'Item 9.01. Financial Statements and Exhibits', 'Contents']);
    // one heading after the cover is no set of sections: the front matter stays one node
    const one = buildSections(entries, { ...ctx, headings: headings.slice(0, 2) }).map((s) => s.title);
    expect(one.slice(0, 2)).toEqual(['Cover and front matter', 'Contents']);
  });

  it('two tables close together on one page name the node after both', () => {
    const headings = [heading(2, 0, 'Sales by region', { table: true }), heading(2, 6, 'Sales by product', { table: true }), heading(4, 0, 'Cash flows', { table: true }), heading(6, 0, 'Debt')];
    const [s] = buildSections([{ title: 'Results', level: 1, page: 1 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings });
    expect(s!.children.map((c) => c.title)).toContain('Sales by region; Sales by product');
  });

  it('the next numbered heading of the same rank after a short section names the node too (Best Buy 10-Q: "10. Contingencies" / "11. Segments")', () => {
    const n = (page: number, at: number, title: string, number: string) => heading(page, at, title, { kind: 'numbered', level: 1, score: 0.75, number });
    const headings = [n(2, 0, '9. Repurchase of Common Stock', '9'), n(3, 0, '10. Contingencies', '10'), n(3, 5, '11. Segments', '11'), n(3, 7, '11. Segments', '11'),
      heading(3, 9, 'Revenue by reportable segment'), n(4, 0, '12. Leases', '12'), n(4, 4, 'Section 2.21', '2.21'), n(6, 0, '13. Taxes', '13')];
    const [s] = buildSections([{ title: 'Notes', level: 1, page: 1 }], { pageCount: 7, maxLeafPages: 5, lineChars: lineChars(7), headings });
    const titles = s!.children.map((c) => c.title);
    // once each; a bare label and number, or a heading of another kind, is not joined
    expect(titles).toContain('10. Contingencies; 11. Segments');
    expect(titles).toContain('12. Leases');
  });

  it('a page window is named after the heading opening it, never after the next section printed at its end', () => {
    const headings = [heading(1, 0, '3. Types', { kind: 'numbered', level: 1, score: 1 }), heading(9, 30, '4. Functions', { kind: 'numbered', level: 1, score: 1 })];
    const top = buildSections(
      [{ title: '3. Types', level: 1, page: 1, line: 0 }, { title: '4. Functions', level: 1, page: 9, line: 30 }],
      { pageCount: 10, maxLeafPages: 5, lineChars: lineChars(10), headings },
    );
    const titles = leaves(top).map((s) => s.title);
    expect(titles.filter((t) => t.startsWith('4.'))).toEqual(['4. Functions']);
    expect(titles).toContain('3. Types (beginning)');
    expect(titles).toContain('3. Types (continued)');
    expect(titles.filter((t) => /\(pages? \d/.test(t))).toEqual([]);
  });

  it('a window is a keyed table when most of its lines open with ordered numbers; prose, section numbers and unordered figures are not', () => {
    const elk = ['3 Table of space group symbols', 'We acknowledge the following table which associates', 'Number Schoenflies Hermann-Mauguin Hall', ...Array.from({ length: 29 }, (_, i) => `${i + 1} C 11 P1 P 1`), '30:cab C 62v P2na P -2ac 2', '30:-cba C 62v P2an P -2ab 2'];
    expect(keyedRowRange(elk)).toBe('1–30');
    expect(keyedRowRange(prose(20).map((l) => l.text))).toBeNull();
    // subsections of one chapter open with one number; a few numbered steps are too few
    expect(keyedRowRange(Array.from({ length: 12 }, (_, i) => `3.${i + 1} Option number ${i}`))).toBeNull();
    expect(keyedRowRange(['1. Install', '2. Configure', '3. Run'])).toBeNull();
    // numbers that do not run in order (amounts, years) key nothing
    expect(keyedRowRange(Array.from({ length: 12 }, (_, i) => `${(i * 7919) % 97} units shipped`))).toBeNull();
    // line numbers of a few quoted lines far apart, and amounts, key nothing
    expect(keyedRowRange(Array.from({ length: 12 }, (_, i) => `${22 + i * 130} \\def\\x{}`))).toBeNull();
    expect(keyedRowRange(Array.from({ length: 12 }, (_, i) => `${i + 1},250 shares`))).toBeNull();
    // a hexadecimal code is no whole number
    expect(keyedRowRange(Array.from({ length: 12 }, (_, i) => `0x${i + 10} register`))).toBeNull();
  });

  it('the page windows of a long keyed table are named by the keys of their rows (Elk\'s space groups), prose windows stay "(continued)"', () => {
    // pages 1–12: a table keyed 1…240 (20 rows a page) under the numbered heading "3 Table of space group symbols"; 13–18: prose
    const rows = (p: number): string[] => Array.from({ length: 20 }, (_, i) => `${(p - 1) * 20 + i + 1}:cab C 62v P2na P -2ac 2`);
    const pageTexts = (p: number): string[] => (p === 1 ? ['3 Table of space group symbols', ...rows(p)] : p <= 12 ? rows(p) : prose(20).map((l) => l.text));
    const rowKeys = (from: number, to: number): string | null => {
      const out: string[] = [];
      for (let p = posPage(from); p <= posPage(to - 1); p++) {
        const t = pageTexts(p);
        out.push(...t.slice(p === posPage(from) ? posLine(from) : 0, p === posPage(to) ? posLine(to) : t.length));
      }
      return keyedRowRange(out);
    };
    const ctx = { pageCount: 18, maxLeafPages: 4, lineChars: lineChars(18), headings: [], rowKeys };
    const top = buildSections([{ title: '3 Table of space group symbols', level: 1, page: 1, line: 0 }, { title: '4 Usage', level: 1, page: 13, line: 0 }], ctx);
    expect(leaves(top).map((s) => s.title)).toEqual([
      '3 Table of space group symbols (entries 1–80)', '3 Table of space group symbols (entries 81–160)', '3 Table of space group symbols (entries 161–240)',
      '4 Usage (beginning)', '4 Usage (continued)',
    ]);
    // without the key reader the windows say only where they are
    expect(leaves(buildSections([{ title: '3 Table of space group symbols', level: 1, page: 1, line: 0 }], { ...ctx, pageCount: 12, rowKeys: undefined })).map((s) => s.title)[1]).toMatch(/\(continued\)/);
  });

  it('back matter the bookmarks leave out (References, Acknowledgments, Appendix A) is a top-level section; a section titled so already, one inside a part, and a heading mid-section are left alone', () => {
    const at = (text: string, size: number, cells = [text]): Line => ({ cells, text, x: 72, x2: 300, y: 500, size, font: 'f', gapAbove: 2 });
    const page = [at('Text of the discussion, long enough to be prose.', 10), at('Acknowledgments', 14.5), at('We thank the referees.', 10), at('References', 14.5), at('Appendix: How to Apply These Terms to Your New Pro-', 14.5), at('Appendix B: Instrument', 12, ['Appendix B: Instrument']), at('References', 10)];
    expect(findBackMatter([page], 10, null).map((h) => [h.line, h.title])).toEqual([[1, 'Acknowledgments'], [3, 'References'], [5, 'Appendix B: Instrument']]);
    // printed like the outline's own titles, a body-size line counts too
    expect(findBackMatter([page], 10, new Set(['f|10'])).map((h) => h.line)).toContain(6);
    const ctx = { pageCount: 6, maxLeafPages: 5, lineChars: lineChars(6), headings: [] };
    const entries = [{ title: '1 Introduction', level: 1, page: 1, line: 0 }, { title: '2 Discussion', level: 1, page: 3, line: 0 }, { title: '2.1 Limits', level: 2, page: 4, line: 0 }];
    const backMatter = [{ at: pos(5, 10), title: 'Acknowledgments' }, { at: pos(5, 20), title: 'References' }];
    const top = buildSections(entries, { ...ctx, backMatter });
    expect(top.map((s) => [s.title, s.from, s.to])).toEqual([['1 Introduction', pos(1), pos(3)], ['2 Discussion', pos(3), pos(5, 10)], ['Acknowledgments', pos(5, 10), pos(5, 20)], ['References', pos(5, 20), pos(7)]]);
    expect(top[1]!.children.map((c) => [c.title, c.to])).toEqual([['2 Discussion (introduction)', pos(4)], ['2.1 Limits', pos(5, 10)]]);
    // the heading of a section the outline has already, under its own title
    const own = buildSections([...entries, { title: 'References .', level: 1, page: 5, line: 18 }], { ...ctx, backMatter: [{ at: pos(5, 20), title: 'References' }] });
    expect(own.filter((s) => /References/.test(s.title))).toHaveLength(1);
    // mid-section (sub-sections follow it) and inside a filing's part: no split
    const mid = buildSections(entries, { ...ctx, backMatter: [{ at: pos(3, 20), title: 'References' }] });
    expect(mid.map((s) => s.title)).not.toContain('References');
    const part = buildSections([{ title: 'Part IV', level: 1, page: 1, line: 0, kind: 'part' }], { ...ctx, backMatter: [{ at: pos(3, 20), title: 'Appendix A' }] });
    expect(part.map((s) => s.title)).toEqual(['Part IV']);
  });

  it('an abstract printed in the cover opens its own node, titled as a reader names it; an outline that has one is left alone', () => {
    expect(['ABSTRACT', 'Abstract.', 'A B S T R A C T', 'Abstract—This paper shows', 'Abstract: We study', 'Executive Summary', 'Synopsis'].map(abstractTitle))
      .toEqual(['Abstract', 'Abstract', 'Abstract', 'Abstract', 'Abstract', 'Executive Summary', 'Synopsis']);
    expect(['Summary of Trademarks 113', 'Abstract . . . . . . 3', 'abstract environment.', 'SUMMARY OF THE INVENTION', 'Abstracts are short'].map(abstractTitle)).toEqual([null, null, null, null, null]);
    const ctx = { pageCount: 6, maxLeafPages: 5, lineChars: lineChars(6), headings: [] };
    const entries = [{ title: '1 Introduction', level: 1, page: 1, line: 20 }, { title: '2 Methods', level: 1, page: 3, line: 0 }];
    const top = buildSections(entries, { ...ctx, abstracts: [{ at: pos(1, 8), title: 'Abstract' }] });
    expect(top.map((s) => [s.title, s.from, s.to])).toEqual([
      ['Cover and front matter', pos(1), pos(1, 8)], ['Abstract', pos(1, 8), pos(1, 20)], ['1 Introduction', pos(1, 20), pos(3)], ['2 Methods', pos(3), pos(7)],
    ]);
    // a paper whose first section is its title line: the abstract under it is split off the same way
    const titled = buildSections([{ title: 'A Study of Things', level: 1, page: 1, line: 0 }, ...entries], { ...ctx, abstracts: [{ at: pos(1, 8), title: 'Abstract' }] });
    expect(titled.map((s) => s.title).slice(0, 3)).toEqual(['A Study of Things', 'Abstract', '1 Introduction']);
    // front matter after the contents opening on the abstract's heading is titled as the abstract
    const afterContents = buildSections([{ title: '1 Introduction', level: 1, page: 4, line: 0 }], { ...ctx, contentsPages: new Set([2]), abstracts: [{ at: pos(3), title: 'Abstract' }] });
    expect(afterContents.map((s) => s.title)).toEqual(['Cover and front matter', 'Contents', 'Abstract', '1 Introduction']);
    // the outline's own "Abstract" entry: no second one
    const own = buildSections([{ title: 'Abstract', level: 1, page: 1, line: 10 }, ...entries], { ...ctx, abstracts: [{ at: pos(1, 8), title: 'Abstract' }] });
    expect(own.filter((s) => s.title === 'Abstract')).toHaveLength(1);
    // a line reading "Summary" inside a long first section that has sub-sections is no cover's abstract
    const long = buildSections([{ title: 'Manual', level: 1, page: 1, line: 0 }, { title: 'Usage', level: 2, page: 2, line: 0 }], { ...ctx, abstracts: [{ at: pos(1, 8), title: 'Summary' }] });
    expect(leaves(long).map((s) => s.title)).not.toContain('Summary');
  });
});

describe('slides revealed step by step', () => {
  it('a page whose lines open the next page is an earlier step of it: its lines are dropped, the last step is read', async () => {
    const { dropBuildSteps } = await import('../src/ingest/converters/pdf/build-steps.js');
    const slide = ['Pauses and transitions', 'Slides made with mom take advantage of the pause.', 'Mom slides use PAUSE.', 'NEWSLIDE starts a new slide.'].map((t) => line(t));
    const other = ['Printing handouts', 'Set GROPDF_NOSLIDE=1.'].map((t) => line(t));
    const lines = [slide.slice(0, 2), slide.slice(0, 3), slide, other, [other[0]!], [other[0]!, line('A different second line.')]];
    expect(dropBuildSteps(lines)).toEqual([1, 2]);
    expect(lines.map((ls) => ls.length)).toEqual([0, 0, 4, 2, 1, 2]);
  });
});

describe('running headers set lower than the edge band', () => {
  it('the topmost line at one height on most pages is furniture (CTSim, 12.9% from the top); a caption atop a few pages is not', () => {
    const head = (ch: number) => line(`CTSim 3.5.0 Manual | CHAPTER ${ch}`, { y: 690 });
    const caption = line('Example 2.3', { y: 690 });
    const pages = Array.from({ length: 8 }, (_, i) => page(i + 1, [i === 7 ? caption : head(2 + Math.floor(i / 3)), ...prose(12)]));
    const f = findFurniture(pages);
    expect(pages.map((_, i) => f.lines[i]!.has(0))).toEqual([true, true, true, true, true, true, true, false]);
    // at another height on each page, the same line is text
    const drifting = Array.from({ length: 8 }, (_, i) => page(i + 1, [line('CTSim 3.5.0 Manual | CHAPTER 2', { y: 690 - i * 3 }), ...prose(12)]));
    const g = findFurniture(drifting);
    expect(drifting.filter((_, i) => g.lines[i]!.has(0)).length).toBeLessThan(3);
  });
});

describe('numbered headings the bookmarks skip', () => {
  it('are added after their bookmarked sibling, at its level; a level the bookmarks leave out is not (DICOMscope)', () => {
    const entries = [{ title: 'INTRODUCTION', level: 1, page: 4, line: 0 }, { title: 'Revision History', level: 2, page: 5, line: 0 }, { title: 'IMPLEMENTATION MODEL', level: 1, page: 8, line: 0 }];
    const hs = [heading(4, 0, '1 INTRODUCTION', { kind: 'numbered', level: 1, score: 1.45 }), heading(5, 0, '1.1 Revision History', { kind: 'numbered', level: 2, score: 1.3 }),
      heading(5, 6, '1.2 Abbreviations and Acronyms', { kind: 'numbered', level: 2, score: 1.25 }), heading(5, 12, '1.3 Scope', { kind: 'numbered', level: 2, score: 1.25 }),
      heading(6, 3, '1.3.1 Reading this document', { kind: 'numbered', level: 3, score: 1.25 }), heading(7, 2, '1.5 Warning', { kind: 'numbered', level: 2, score: 0.5 }),
      heading(8, 0, '2 IMPLEMENTATION MODEL', { kind: 'numbered', level: 1, score: 1.45 })];
    expect(withUnlistedNumbered(entries, hs).map((e) => [e.title, e.level, e.page])).toEqual([
      ['INTRODUCTION', 1, 4], ['Revision History', 2, 5], ['1.2 Abbreviations and Acronyms', 2, 5], ['1.3 Scope', 2, 5], ['IMPLEMENTATION MODEL', 1, 8],
    ]);
    // a number that follows a chapter's, with another chapter between them, is no sibling (a licence's "8. Termination" in an appendix)
    const book = [{ title: 'Plugins', level: 1, page: 100, line: 0 }, { title: 'Appendix A. GNU General Public License', level: 1, page: 124, line: 0 }];
    const gpl = [heading(100, 0, '7 Plugins', { kind: 'numbered', level: 1, score: 1.45 }), heading(131, 4, '8. Termination', { kind: 'numbered', level: 1, score: 1.25 })];
    expect(withUnlistedNumbered(book, gpl)).toEqual(book);
  });
});

describe('titles with a bracket they do not close', () => {
  it('are lines of text (a cross-reference\'s first line in a narrow column, "Chapter 21 [Annex"), not headings', () => {
    expect(unclosedBracket('Chapter 21 [Annex')).toBe(true);
    expect(unclosedBracket('Chapter 21 [Annex G]')).toBe(false);
    expect(unclosedBracket('Section [3.2] Results')).toBe(false);
    // a signature wrapped inside its parentheses still titles its entry
    expect(unclosedBracket('ComplexRowVector quotient (const RowVector &a, const')).toBe(false);
    y = 700;
    const pages = [page(1, [line('Chapter 21 [Annex', { font: 'bold', size: 14 }), ...prose(8)]), page(2, [line('Chapter 3 Types', { font: 'bold', size: 14 }), ...prose(8)])];
    const titles = findHeadings(pages, findFurniture(pages), BODY, new Set()).map((h) => h.title);
    expect(titles).toContain('Chapter 3 Types');
    expect(titles).not.toContain('Chapter 21 [Annex');
  });
});

describe('slide titles', () => {
  it('a large line opening pages in one place is a title though it starts left of the text below it; a large label further down, or atop one page, is not', () => {
    const BODY12 = { size: 12, font: 'body' };
    const slide = (n: number, title: string) => {
      y = 260;
      return page(n, [line(title, { x: 13, size: 17.5, font: 'sans' }), ...Array.from({ length: 6 }, (_, i) => line(`Bullet point number ${i} about the viewer and its features.`, { x: 28, x2: 330, size: 12 })),
        line('Figure label', { x: 200, x2: 260, size: 17.5, font: 'sans' }), line('More text under the figure about the viewer.', { x: 28, x2: 330, size: 12 })]);
    };
    const titles = ['Software Requirements', 'Hardware Requirements', 'Emphasis', 'Overview Page'];
    const pages = titles.map((t, i) => slide(i + 1, t));
    expect(findHeadings(pages, findFurniture(pages), BODY12, new Set()).map((h) => h.title)).toEqual(titles);
    // a large line atop one page only is no deck's title place
    const one = [slide(1, 'Hello World'), ...Array.from({ length: 3 }, (_, i) => { y = 260; return page(i + 2, Array.from({ length: 7 }, (_, k) => line(`Body line ${k} of a page of prose with words.`, { x: 28, x2: 330, size: 12 }))); })];
    expect(findHeadings(one, findFurniture(one), BODY12, new Set()).map((h) => h.title)).toEqual([]);
  });

  it('titles set half a point apart, in the body\'s own print, with a glyph at the line\'s end, are the slides\' titles (a Beamer deck: EBU loudness talk)', () => {
    const BODY17 = { size: 17, font: 'g3' };
    const slide = (n: number, title: string) => {
      y = 560;
      const t = line(`${title} ζ`, { x: 15, x2: 822, size: 25, font: 'g3', cells: [title, 'ζ'], y: n % 2 ? 549.4 : 549.6 });
      return page(n, [t, ...Array.from({ length: 5 }, (_, i) => line(`• Bullet ${i} on loudness meters and what they measure.`, { x: 347, x2: 789, size: 17, font: 'g3', y: 330 - i * 30 }))]);
    };
    const titles = ['What is missing ?', 'Levels meters: Pseudo peak meter', 'VU meter response', 'The loudness range algorithm - 1', 'The loudness range algorithm - 2', 'Inter-sample peaks', 'Some results'];
    const pages = titles.map((t, i) => slide(i + 1, t));
    const hs = findHeadings(pages, findFurniture(pages), BODY17, new Set());
    expect(hs.map((h) => h.title)).toEqual(titles);
    expect(hs.every((h) => h.score >= DECK_TITLE_SCORE)).toBe(true);
  });
});

describe('running heads in a print of their own, their words changing by chapter', () => {
  const pageWith = (n: number, top: string, o: Partial<Line> = {}) => {
    y = 720;
    return page(n, [line(top, { y: 692, font: 'slanted', size: 10, ...o }), ...prose(14).map((l) => ({ ...l, y: l.y - 30, size: 12 }))]);
  };
  it('the topmost line in one place and print on most pages is furniture, a chapter\'s one page too (4ti2, MUSIC)', () => {
    const heads = ['Chapter 1. Beginner’s guide | 7', 'Chapter 1. Beginner’s guide | 9', 'Chapter 1. Beginner’s guide | 11', 'CHAPTER 2. STARTING', 'Chapter 3. Reference | 15', 'Chapter 3. Reference | 17', 'Chapter 3. Reference | 19'];
    const pages = heads.map((h, i) => pageWith(i + 1, h));
    const f = findFurniture(pages);
    expect(pages.map((_, i) => f.lines[i]!.has(0))).toEqual(heads.map(() => true));
  });
  it('heads at the prose\'s size stay furniture when smaller print (commented code) holds a few more characters than the prose (reledmac)', () => {
    const heads = ['1 Introduction | 12', '1.2 History | 13', '1 Introduction | 14', '1.2 History | 15', '2 Usage | 16', '2 Usage | 17', '2 Usage | 18'];
    const pages = heads.map((h, i) => {
      y = 720;
      const code = prose(15, 'Code').map((l) => ({ ...l, y: l.y - 300, size: 9, font: 'code' }));
      return page(i + 1, [line(h, { y: 692, font: 'slanted', size: 10 }), ...prose(14).map((l) => ({ ...l, y: l.y - 30, size: 10 })), ...code]);
    });
    const f = findFurniture(pages);
    expect(pages.map((_, i) => f.lines[i]!.has(0))).toEqual(heads.map(() => true));
  });
  it('a reference manual\'s topics atop their pages, and slide titles larger than the text, are no running heads', () => {
    const topics = ['mean', 'median', 'quantile', 'range', 'scale', 'sd', 'sum', 'var'].map((t, i) => pageWith(i + 1, `${t} Compute the ${t} of a vector`));
    const f = findFurniture(topics);
    expect(topics.some((_, i) => f.lines[i]!.has(0))).toBe(false);
    const slides = Array.from({ length: 8 }, (_, i) => pageWith(i + 1, ['Overview', 'Methods', 'Results', 'Outlook'][i >> 1]!, { size: 20 }));
    const g = findFurniture(slides);
    expect(slides.some((_, i) => g.lines[i]!.has(0))).toBe(false);
  });
});

describe('running footers of pages whose text stops short of the sheet', () => {
  it('a footer at the bottom of the text is furniture however high it sits on the sheet (Nike 10-K: 205 pt up a 792 pt page)', () => {
    const pages = Array.from({ length: 8 }, (_, i) => {
      y = 760;
      return page(i + 1, [...prose(20), line(`2021 FORM 10-K ${i + 20}`, { y: 205 })]);
    });
    const f = findFurniture(pages);
    expect(pages.every((p, i) => f.lines[i]!.has(p.lines.length - 1))).toBe(true);
    expect(f.labels).toEqual(pages.map((_, i) => i + 20));
    // a line that recurs as the body's last line, at the text's edge but not set apart from the line above, stays text
    const listing = Array.from({ length: 8 }, (_, i) => {
      y = 760;
      return page(i + 1, [...prose(20), line(`${i * 40 + 15} %`, { y: 508, size: 5 })]);
    });
    const g = findFurniture(listing);
    expect(listing.some((p, i) => g.lines[i]!.has(p.lines.length - 1))).toBe(false);
  });
});

describe('line numbers in the margin (a manuscript set for review)', () => {
  const numbered = (n: number, text: string, o: Partial<Line> = {}) => line(`${n} ${text}`, { cells: [String(n), text], x: 24, spans: [24, 34, 72, 540], ...o });
  const manuscript = () => [0, 1, 2].map((k) => {
    y = 740;
    const first = 50 * k + 1;
    return page(k + 1, [
      ...Array.from({ length: 8 }, (_, i) => numbered(first + i, `Text line ${first + i} of the manuscript with words enough to be prose.`)),
      line(String(first + 8), { cells: [String(first + 8)], x: 21, x2: 29, size: 5 }),
      numbered(first + 9, '\\documentclass[twocolumn]{aastex631}.'),
      line('12 | 3.5 | 7', { cells: ['12', '3.5', '7'], x: 72, spans: [72, 84, 200, 220, 300, 310] }),
    ]);
  });
  it('are left out of every line, and lines holding nothing else are dropped; a table\'s numbers stay', () => {
    const pages = manuscript();
    expect(stripLineNumbers(pages)).toBe(30);
    expect(pages[1]!.lines.map((l) => l.text)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `Text line ${51 + i} of the manuscript with words enough to be prose.`),
      '\\documentclass[twocolumn]{aastex631}.',
      '12 3.5 7',
    ]);
    expect(pages[0]!.lines[0]).toMatchObject({ cells: ['Text line 1 of the manuscript with words enough to be prose.'], x: 72 });
    expect(pages[0]!.lines[0]!.spans).toBeUndefined();
  });
  it('counters every five lines in the right margin (a bill) are left out, alone on their line or ending one; a contents page\'s page numbers stay', () => {
    const text = (t: string) => line(t, { x: 110, x2: 486 });
    const counted = (t: string, n: number) => line(`${t} ${n}`, { cells: [t, String(n)], x: 110, x2: 547, spans: [110, 486, 537, 547] });
    const alone = (n: number) => line(String(n), { cells: [String(n)], x: 537, x2: 547, size: 9.5 });
    const bill = () => [1, 2, 3].map((k) => {
      y = 740;
      return page(k, [text('8 Disapplication'), ...[5, 10, 15, 20].flatMap((n) => [text('(1) Other than as expressly provided for in the provisions of this Act, a'), text('public authority may not disapply section 3 of this Act, save as follows.'), n % 10 === 0 ? counted('where a citizen of a designated Realm committed an offence', n) : alone(n)])]);
    });
    const pages = bill();
    expect(stripMarginCounters(pages)).toBe(12);
    expect(pages[0]!.lines.map((l) => l.text).filter((t) => /\d$/.test(t))).toEqual([]);
    expect(pages[0]!.lines.filter((l) => l.text.startsWith('where a citizen'))[0]).toMatchObject({ cells: ['where a citizen of a designated Realm committed an offence'], x2: 486 });
    // page numbers of a contents listing rise, but not by one step, and most pages have none
    y = 740;
    const toc = [page(1, [3, 7, 12, 20, 31].map((n) => counted(`Chapter ${n}`, n))), page(2, prose(8)), page(3, prose(8))];
    expect(stripMarginCounters(toc)).toBe(0);
  });

  it('a numbered list, or numbers that do not count up, are text', () => {
    y = 740;
    const list = [page(1, [numbered(3, 'Third step.'), numbered(1, 'First step.'), numbered(2, 'Second step.'), ...prose(6)]), page(2, prose(8))];
    expect(stripLineNumbers(list)).toBe(0);
    expect(list[0]!.lines[0]!.text).toBe('3 Third step.');
  });
});

describe('the headline of a first page', () => {
  it('stops where other text comes between lines of its size (a manuscript\'s authors, then its ABSTRACT)', () => {
    y = 760;
    const lines = [line('Draft version February 26, 2021', { size: 8 }), line('Template Article with Examples: v6.31', { size: 12, font: 'bold' }),
      line('Greg J. Schwarz, August Muench', { size: 9 }), line('American Astronomical Society', { size: 8 }), line('1', { size: 6 }),
      line('ABSTRACT', { size: 12 }), line('This example manuscript is intended to serve as a tutorial and template.', { size: 12 })];
    const { title } = buildCard({ layouts: [page(1, lines), page(2, prose(10))], metaTitle: '', fallbackTitle: 'x', topTitles: [] });
    expect(title).toBe('Template Article with Examples: v6.31');
  });
});

describe('contents printed later in the document', () => {
  const entry = (t: string, n: number) => line(`${t} ${n}`, { x2: 400 });
  const toc = (first: number) => [
    line('TABLE OF CONTENTS', { font: 'bold' }),
    line('Page'),
    ...Array.from({ length: 8 }, (_, i) => entry(`Section 1.0${i}. Provision on ${['loans', 'fees', 'terms', 'notice', 'default', 'waiver', 'law', 'venue'][i]}`, first + i)),
  ];

  it('finds an exhibit\'s contents pages (numbers going up), not prose or tables', () => {
    const pages = [
      page(1, prose(20)),
      page(2, [line('EXHIBIT 10.1', { font: 'bold' }), line('CREDIT AGREEMENT', { font: 'bold' }), ...toc(1)]),
      page(3, [entry('Section 2.01. More provisions', 12), entry('Section 2.02. Last provision', 14)]),
      page(4, prose(20)),
      page(5, [line('Year', { cells: ['Year', 'Count'] }), ...[9, 3, 7, 2, 8, 1].map((n) => line(`Row ${n}`, { cells: [`Row label ${n}`, String(n)] }))]),
      ...Array.from({ length: 10 }, (_, i) => page(6 + i, prose(20))),
    ];
    const found = laterContentsPages(pages, findFurniture(pages), new Set());
    expect([...found.keys()]).toEqual([2, 3]);
    // the exhibit's title lines above the list stay outside the contents
    expect(found.get(2)).toBe(2);
    // numbers past the document's last page are no page numbers: a table of codes (CFITSIO's error statuses)
    const codes = [page(1, prose(20)), page(2, Array.from({ length: 12 }, (_, i) => entry(`BAD_KEYWORD_${i} illegal keyword`, 207 + i))), page(3, prose(20))];
    expect([...laterContentsPages(codes, findFurniture(codes), new Set()).keys()]).toEqual([]);
  });

  it('a leaf holding them is cut around them: the contents are a contents node, the text after is named', () => {
    const chars = Array.from({ length: 8 }, () => Array.from({ length: 30 }, () => 80));
    const headings = [heading(5, 0, 'ARTICLE I DEFINITIONS', { kind: 'article', level: 2, score: 0.9 })];
    const top = buildSections([{ title: 'Exhibits', level: 1, page: 1 }], {
      pageCount: 8, maxLeafPages: 5, lineChars: chars, headings, laterContentsPages: new Map([[3, 2], [4, 0]]),
    });
    expect(shape(top)).toEqual([['Exhibits', 'section', 1, 8, [
      ['Exhibits (introduction)', 'intro', 1, 3],
      ['Contents', 'contents', 3, 4],
      ['ARTICLE I DEFINITIONS', 'section', 5, 8],
    ]]]);
  });
});

describe('titles that say what a node holds', () => {
  it('joins small capitals printed as a larger initial plus smaller capitals', () => {
    const item = (str: string, x: number, size: number, w: number, font = 'f1') => ({ str, transform: [size, 0, 0, size, x, 700], width: w, fontName: font });
    expect(buildPage(1, 612, 792, [item('MGM R', 178, 19, 70), item('ESORTS', 253, 13, 52), item('I', 311, 19, 7.5), item('NTERNATIONAL', 323, 13, 108)]).lines[0]!.text).toBe('MGM RESORTS INTERNATIONAL');
    expect(buildPage(1, 612, 792, [item('M', 76, 8.7, 8.2), item('ANAGEMENT’S DISCUSSION', 86.4, 8.7, 120)]).lines[0]!.text).toBe('MANAGEMENT’S DISCUSSION');
    // a one-letter word at the same size stays a word
    expect(buildPage(1, 612, 792, [item('A', 76, 10, 7), item('NEW ERA', 85.5, 10, 45)]).lines[0]!.text).toBe('A NEW ERA');
    expect(buildPage(1, 612, 792, [item('EXHIBIT B', 76, 10, 50), item('AGREEMENT', 128.5, 10, 50)]).lines[0]!.text).toBe('EXHIBIT B AGREEMENT');
  });

  it('a bare label ("Example 3") carries the caption printed under it', () => {
    const pages = [page(1, [line('Example 3', { font: 'bold', size: 14, gapAbove: 2 }), line('Input class: Text file (semicolon-separated with header).'), ...prose(6)])];
    expect(findHeadings(pages, findFurniture(pages), BODY, new Set()).map((h) => h.title)).toEqual(['Example 3: Input class: Text file (semicolon-separated with header)']);
  });

  it('a section whose text only points elsewhere is told from one with text', () => {
    expect(pointerText('See “Item 15. Exhibits and Financial Statement Schedules.”')).toBe(true);
    expect(pointerText('The information required by this item is included on pages 45 through 90.')).toBe(true);
    expect(pointerText('Not applicable.')).toBe(false);
    expect(pointerText(`See the discussion below. ${'We sell products in many markets and our results depend on them. '.repeat(6)}`)).toBe(false);
  });

  it('a leaf with nothing but its heading, or a few words leading on, says where its text is (a FAQ asking two questions at once)', () => {
    const title = 'I replaced the battery in my APC Smart-UPS and now it thinks the battery is low all the time. How do you fix this?';
    const next = 'My APC UPS keeps reporting OL LB, even after it has been charging for many hours. What can I do about this?';
    const heading = [line('46 I replaced the battery in my APC Smart-UPS and now it thinks the battery is low'), line('all the time. How do you fix this?')];
    expect(leadOnSummary([...heading, line('Or a variation like. . .')], title, true)).toBe('Only "Or a variation like. . ." under this heading; its text follows in the next section.');
    expect(leadOnSummary(heading, title, false)).toBe('No text of its own under this heading.');
    expect(leadOnSummary([...heading, line('Replace it and recalibrate.')], title, true)).toBeNull();
    expect(leadOnSummary([line('First, you need to realize that the UPS stores data about the battery.')], next, false)).toBeNull();
  });

  it('statements printed inside another item leave it when the item meant for them only points elsewhere', () => {
    const chars = Array.from({ length: 12 }, () => Array.from({ length: 30 }, () => 80));
    const st = (p: number, t: string) => heading(p, 0, t, { kind: 'statement', level: 3, score: 0.9 });
    const headings = [heading(3, 0, 'Results', { score: 0.6 }), st(7, 'Consolidated Statement of Income'), st(8, 'Consolidated Balance Sheet'), st(9, 'Notes to Consolidated Financial Statements')];
    const entries = [
      { title: 'Item 7. Discussion and Analysis of Financial Condition', level: 2, page: 1, kind: 'item' },
      { title: 'Item 8. Financial Statements and Supplementary Data', level: 2, page: 12, line: 0, kind: 'item' },
      { title: 'Item 9. Controls', level: 2, page: 12, line: 3, kind: 'item' },
    ];
    const isPointer = (from: number, to: number) => from === pos(12, 0) && to === pos(12, 3);
    const top = buildSections(entries, { pageCount: 12, maxLeafPages: 5, lineChars: chars, headings, isPointer });
    expect(top.map((s) => s.title)).toEqual([
      'Item 7. Discussion and Analysis of Financial Condition',
      'Consolidated Statement of Income',
      'Consolidated Balance Sheet',
      'Notes to Consolidated Financial Statements',
      'Item 8. Financial Statements and Supplementary Data',
      'Item 9. Controls',
    ]);
    expect(top[0]!.end).toBe(6);
  });

  it('a statement title opens its page or titles a table: over a paragraph in mid-page it is a discussion heading', () => {
    const outline = JSON.parse(readFileSync(new URL('../vocabularies/finance.json', import.meta.url), 'utf8')).outline;
    const vocab = compileOutline([{ name: 'finance', doc_types: ['10-k'], outline }], '10-K');
    const title = line('Balance Sheet', { font: 'bold' });
    expect(scoreLine(title, BODY, { repeats: 0, top: false, vocab, titlesTable: false })?.kind).toBe('style');
    expect(scoreLine(title, BODY, { repeats: 0, top: false, vocab, titlesTable: true })?.kind).toBe('statement');
    expect(scoreLine(title, BODY, { repeats: 0, top: true, vocab, titlesTable: false })?.kind).toBe('statement');
    expect(scoreLine(line('Notes to Consolidated Financial Statements', { font: 'bold' }), BODY, { repeats: 0, top: false, vocab, titlesTable: false })?.kind).toBe('statement');
  });

  it('a headline wrapped over two lines still says an earnings release', () => {
    expect(docType('Ulta Beauty Announces First Quarter Fiscal 2023\nResults\nBOLINGBROOK, Ill.')).toBe('earnings release');
  });
});

describe('a section of the outline is split only on headings that read as its titles do', () => {
  const lineChars = (pages: number) => Array.from({ length: pages }, () => Array.from({ length: 40 }, () => 80));

  it('keeps a listing, a board diagram and a protein sequence printed in a heading-like face out of the outline', () => {
    const junk = [
      heading(2, 0, '2 POPOPOPO', { kind: 'numbered', score: 0.85 }),
      heading(3, 0, '649 \\def\\horotimetext#1{%', { score: 0.5 }),
      heading(4, 0, '3 KNSQVWLGRHNLFEPEDTGQRVPVSHSFPHPLYNMSLLKHQSLRPDEDSSH%', { kind: 'numbered', score: 0.6 }),
      heading(5, 0, 'In Example 3.4, only residues 650abs to 850rel are shown in the figure below with their domain boundaries', { score: 0.45 }),
    ];
    const styled = heading(6, 0, 'Setting graphic properties', { score: 0.6 });
    const plain = heading(7, 0, 'Cash Flows from Operating Activities', { score: 0.5 });
    const inStyle = new Set([styled]);
    const entries = [{ title: 'Chess diagrams', level: 1, page: 1 }];
    const ctx = { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8), headings: [...junk, styled, plain] };
    const [without] = buildSections(entries, ctx);
    expect(without!.children.map((c) => c.title)).toContain('2 POPOPOPO');
    const [withStyles] = buildSections(entries, { ...ctx, isOutlineStyled: (h: Heading) => inStyle.has(h) });
    // printed in the outline's style: splits; in another face: only when it reads as a title
    expect(withStyles!.children.map((c) => c.title)).toEqual(['Chess diagrams (introduction)', 'Setting graphic properties', 'Cash Flows from Operating Activities']);
  });

  it('labels run into their numbers ("ITEM3.", a PDF without space characters) are still numbered headings', () => {
    expect(numbering('ITEM3. LEGALPROCEEDINGS')).toMatchObject({ kind: 'item', number: '3' });
    expect(numbering('NOTE12 Debt')).toMatchObject({ kind: 'note', number: '12' });
    expect(numbering('Item 7A. Quantitative Disclosures')).toMatchObject({ kind: 'item', number: '7A' });
    for (const t of ['Partial results', 'Notes 12', 'Itemized costs 2020', 'Sections 3 and 4']) expect(numbering(t), t).toBeNull();
  });

  it('plainTitle: words, not code, notation or sentences', () => {
    for (const t of ['Strengths and weaknesses', '2017 Debt Activity', 'Industrial Business (34.1% of consolidated sales)', '3.2 Rhythms', 'Eighths and twelfths']) expect(plainTitle(t), t).toBe(true);
    for (const t of ['1 SNAQJBMR', '2 POPOPOPO', '15 C24′ uu tt v', 'A short music excerpt in MusiX\\TeX', 'The baselines of consecutive lines are separated by', '2015 acquisitions']) expect(plainTitle(t), t).toBe(false);
  });

  it('outlineStyles: the fonts and sizes of the lines the entries were found on, or null for too few', () => {
    const body = [[line('1 Introduction', { font: 'title', size: 14 }), ...prose(3)], [line('2 Methods', { font: 'title', size: 14 }), ...prose(3), line('2.1 Sampling', { font: 'title', size: 12 })]];
    const entries = [{ title: '1 Introduction', level: 1, page: 1, line: 0 }, { title: '2 Methods', level: 1, page: 2, line: 0 }, { title: '2.1 Sampling', level: 2, page: 2, line: 4 }];
    expect([...outlineStyles(entries, body)!].sort()).toEqual(['title|12', 'title|14']);
    expect(outlineStyles(entries.slice(0, 2), body)).toBeNull();
    // an entry pointing at a line that does not hold its title teaches nothing
    expect(outlineStyles([...entries.slice(0, 2), { title: 'Results', level: 1, page: 1, line: 2 }], body)).toBeNull();
  });
});

describe('a chapter\'s running header', () => {
  it('is furniture on the pages of its chapter however short the chapter is next to the document', () => {
    const header = (t: string) => line(t, { y: 770 });
    const pages: PageLayout[] = [];
    for (let n = 1; n <= 300; n++) {
      const head = n >= 10 && n <= 15 ? header(`Chapter 2: Installation ${n - 5}`) : n >= 20 && n <= 23 ? header(`Chapter 3: Drawing ${n - 5}`) : header(`Asymptote manual ${n - 5}`);
      pages.push(page(n, [head, ...prose(8), line('Once on page 30 at the top', { y: 770 })].slice(0, n === 30 ? 10 : 9)));
    }
    const f = findFurniture(pages);
    // 6 and 4 pages of 300: under the document-wide share (4%: 12 pages)
    expect(f.lines[9]!.has(0)).toBe(true);
    expect(f.lines[14]!.has(0)).toBe(true);
    expect(f.lines[21]!.has(0)).toBe(true);
    // a line at the edge of one page only is text
    expect(f.lines[29]!.has(9)).toBe(false);
  });

  it('a rare edge line makes a run only over nearby pages: three occurrences far apart are text', async () => {
    const { findFurniture: ff, FURNITURE_MIN_SHARE } = await import('../src/ingest/converters/pdf/furniture.js');
    expect(FURNITURE_MIN_SHARE).toBeGreaterThan(0);
    const pages: PageLayout[] = [];
    for (let n = 1; n <= 200; n++) pages.push(page(n, [line(n % 50 === 0 ? 'Summary of the results' : `Body heading ${n}`, { y: 770 }), ...prose(8)]));
    const f = ff(pages);
    expect([49, 99, 149, 199].map((pi) => f.lines[pi]!.has(0))).toEqual([false, false, false, false]);
  });
});
