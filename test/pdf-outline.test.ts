/**
 * Outlines an agent can choose from (issue 14) with no field's words in the core (issue 18): heading
 * detection from layout (figure and music-example labels are not headings, table rows of numbers are
 * not numbered titles, cell residue is not a title, a title cut at the line end is joined or dropped),
 * summaries that list key figures without a vocabulary, and the outline words of vocabulary packs
 * (financial statements), which apply only to the kinds of document a pack declares.
 */
import { describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Line, PageLayout } from '../src/ingest/converters/pdf/layout-types.js';
import { findFurniture } from '../src/ingest/converters/pdf/furniture.js';
import { findHeadings, notATitle, scoreLine, withPeerTitles } from '../src/ingest/converters/pdf/headings.js';
import { detectOutline } from '../src/ingest/converters/pdf/detected.js';
import { docStats, sectionGloss, summarize } from '../src/ingest/converters/pdf/summary.js';
import { compileOutline, NO_OUTLINE_VOCABULARY } from '../src/model/outline-vocabulary.js';
import { buildSections } from '../src/ingest/converters/pdf/sections.js';
import { outlinePacks } from '../src/ingest/outline-packs.js';
import type { Config } from '../src/store/schemas.js';

const BODY = { size: 10, font: 'body' };
let y = 700;
function line(text: string, o: Partial<Line> = {}): Line {
  y -= 12;
  const cells = o.cells ?? [text];
  return { cells, text: cells.join(' '), x: 72, x2: 72 + text.length * 5, y, size: 10, font: 'body', gapAbove: 1.2, ...o };
}
const prose = (n: number): Line[] => Array.from({ length: n }, (_, i) => line(`Body text line ${i} of the page with enough words to read as prose here.`, { x2: 540 }));
const page = (n: number, lines: Line[]): PageLayout => ({ page: n, width: 612, height: 792, lines, twoColumn: false });
const headingsOf = (pages: PageLayout[]) => findHeadings(pages, findFurniture(pages), BODY, new Set()).map((h) => h.title);

describe('fixed-width prints', () => {
  // a fixed-width print: every character as wide (6 points at size 10); a proportional one varies
  const tt = (text: string, gapAbove = 1.2, width = 6) => line(text, { font: 'tt', x2: 72 + text.length * width, gapAbove });
  const varied = (text: string, gapAbove = 1.2) => tt(text, gapAbove, 4 + (text.length % 5) * 0.7);
  const output = (mk: (t: string, g?: number) => Line) => [
    mk('Fluctuation tests of splitting variables:'),
    mk('statistic 3.363356e+01 6.532322e+01'),
    mk('zn indus chas nox age dis rad'),
    mk('statistic 2.778500e+01 2.133293e+01'),
    mk('p.value 1.023987e-04 1.363602e-11'),
    mk('Best splitting variable: tax', 2.4),
    mk('Perform split? yes'),
    mk('Node properties:', 2.4),
    mk('tax <= 432; criterion = 1'),
  ];
  const splitting = (titles: string[]) => titles.filter((t) => t.startsWith('Best splitting variable'));

  it('program output in a fixed-width print is a listing, not headings; the same lines in a proportional print may be', () => {
    expect(splitting(headingsOf([page(1, [...prose(3), ...output(tt), ...prose(3)])]))).toEqual([]);
    expect(splitting(headingsOf([page(1, [...prose(3), ...output(varied), ...prose(3)])]))).toHaveLength(1);
  });

  it('a document typed in a fixed-width body font keeps its headings', () => {
    const typed = (t: string, gapAbove = 1.2) => line(t, { x2: 72 + t.length * 6, gapAbove });
    const body = Array.from({ length: 10 }, (_, i) => typed(`Typed report line ${i} of the findings`));
    expect(headingsOf([page(1, [...body, typed('2. Findings of the board', 2.4), ...body])])).toContain('2. Findings of the board');
  });

  it('a fixed-width line standing between lines of other prints is still a heading', () => {
    const p = page(1, [...prose(3), ...output(tt), ...prose(3), tt('Model fitting', 2.4), line('The function fits a model to each node of the tree in turn, as follows.', { x2: 540, gapAbove: 2.4 }), ...prose(3)]);
    expect(headingsOf([p])).toContain('Model fitting');
  });
});

describe('unnumbered titles printed like the numbered ones (spie-article, revtex samples)', () => {
  const title = (t: string) => line(t, { font: 'bold', size: 11, gapAbove: 2.4 });
  const paper = (extra: Line[]) => [
    page(1, [title('1. INTRODUCTION'), ...prose(8), title('2. METHODS'), ...prose(8)]),
    page(2, [title('3. RESULTS'), ...prose(8), line('B.3 Uppercase letters in titles', { font: 'bold', size: 11, gapAbove: 2.4 }), ...prose(6)]),
    page(3, [...prose(4), ...extra, ...prose(4), title('REFERENCES'), ...prose(6)]),
  ];
  const outline = (pages: PageLayout[]) => {
    const furniture = findFurniture(pages);
    return detectOutline(withPeerTitles(pages, furniture, BODY, findHeadings(pages, furniture, BODY, new Set())), pages.length).map((e) => [e.title, e.level, e.page]);
  };

  it('are sections of the same rank; a subsection in lower case in the same print is not', () => {
    expect(outline(paper([title('ACKNOWLEDGMENTS')]))).toEqual([
      ['1. INTRODUCTION', 1, 1], ['2. METHODS', 1, 1], ['3. RESULTS', 1, 2], ['ACKNOWLEDGMENTS', 1, 3], ['REFERENCES', 1, 3],
    ]);
  });

  it('are left alone when they outnumber the numbered titles, or beside parts and items', () => {
    const many = Array.from({ length: 6 }, (_, i) => title(`LABEL NUMBER ${'ABCDEF'[i]}`));
    expect(outline(paper(many)).map((e) => e[0])).toEqual(['1. INTRODUCTION', '2. METHODS', '3. RESULTS']);
    const filing = paper([title('ACKNOWLEDGMENTS')]);
    filing[0]!.lines.unshift(line('PART I', { font: 'bold', size: 11, gapAbove: 2.4 }));
    expect(outline(filing).map((e) => e[0])).not.toContain('ACKNOWLEDGMENTS');
  });
});

describe('headings from layout, no field vocabulary', () => {
  it('keeps a bold title at the text margin but not a larger label floating inside a figure or music example', () => {
    const p = page(1, [
      line('Rhythm improvements', { font: 'bold', size: 12, gapAbove: 2 }),
      ...prose(4),
      line('Trio', { font: 'fig', size: 13, x: 131, x2: 157, gapAbove: 5 }),
      line('Illness', { font: 'fig', size: 11.5, x: 445, x2: 477 }),
      ...prose(4),
    ]);
    expect(headingsOf([p])).toEqual(['Rhythm improvements']);
  });

  it('keeps a centred title', () => {
    const p = page(1, [...prose(3), line('Results and Discussion', { font: 'bold', size: 12, x: 250, x2: 362, gapAbove: 2 }), ...prose(3)]);
    expect(headingsOf([p])).toEqual(['Results and Discussion']);
  });

  it('never takes cell residue or notation for a title', () => {
    expect(notATitle('NV N')).toBe(true);
    expect(notATitle('N NN N NN N NN')).toBe(true);
    expect(notATitle('7 Cm D')).toBe(true);
    expect(notATitle('5 F tests')).toBe(false);
    expect(notATitle('A. R code')).toBe(false);
  });

  it('a row of version numbers is not a numbered title', () => {
    const row = line('2.22 syntax 2.24 syntax', { cells: ['2.22 syntax', '2.24 syntax'], font: 'bold' });
    expect(scoreLine(row, BODY, { repeats: 0, top: false })).toBeNull();
    expect(scoreLine(line('2.2 Syntax changes', { font: 'bold', size: 12 }), BODY, { repeats: 0, top: false })?.title).toBe('2.2 Syntax changes');
  });

  it('a one-word line at body size is a heading only when set apart as one: capitals, its own print, space above, no table rows right under it', () => {
    const opts = { repeats: 0, top: false };
    expect(scoreLine(line('EMPLOYEES', { font: 'bold', gapAbove: 2.6 }), BODY, opts)?.title).toBe('EMPLOYEES');
    // a row label, in the body's print, in lower case, or with no space above
    expect(scoreLine(line('EMPLOYEES', { gapAbove: 2.6 }), BODY, opts)).toBeNull();
    expect(scoreLine(line('Employees', { font: 'bold', gapAbove: 2.6 }), BODY, opts)).toBeNull();
    expect(scoreLine(line('EMPLOYEES', { font: 'bold', gapAbove: 1.2 }), BODY, opts)).toBeNull();
    // a column's head right over the rows of a table ("EXHIBIT" over an exhibit index)
    expect(scoreLine(line('EXHIBIT', { font: 'bold', gapAbove: 2.6 }), BODY, { ...opts, titlesTable: true })).toBeNull();
  });

  it('a one-word line in the print of the document\'s headings, with space above, is a heading like them (RasMol\'s commands)', () => {
    const cmd = (t: string) => line(t, { font: 'bold', size: 11, gapAbove: 2.6 });
    const pages = [page(1, [cmd('Map colour'), ...prose(3), cmd('Map level'), ...prose(3)]), page(2, [cmd('Map zap'), ...prose(3), cmd('Molecule'), ...prose(3), cmd('Pause'), ...prose(3)])];
    expect(headingsOf(pages)).toEqual(['Map colour', 'Map level', 'Map zap', 'Molecule', 'Pause']);
    // fewer headings of several words in that print: one word is still a row label
    expect(headingsOf([page(1, [cmd('Map colour'), ...prose(3), cmd('Map level'), ...prose(3), cmd('Molecule'), ...prose(3)])])).toEqual(['Map colour', 'Map level']);
    // in the print but with no space above, or in the body's size: not a heading
    const tight = page(3, [...prose(2), line('Ribbons', { font: 'bold', size: 11, gapAbove: 1.2 }), ...prose(2), line('Rotate', { font: 'bold', gapAbove: 2.6 }), ...prose(2)]);
    expect(headingsOf([...pages, tight])).not.toContain('Ribbons');
    expect(headingsOf([...pages, tight])).not.toContain('Rotate');
  });

  it('joins a title wrapped after an open word, and drops a paragraph line that merely starts with a number', () => {
    const p = page(1, [
      line('Item 7. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF', { font: 'bold', gapAbove: 2, x2: 540 }),
      line('OPERATIONS', { font: 'bold' }),
      ...prose(3),
      line('1. The event variable was created as a factor, whereas for ordinary single state survival the', { font: 'bold', gapAbove: 2, x2: 540 }),
      line('status variable is numeric and the model is fit in the usual way by the same code.', { x2: 540 }),
      ...prose(3),
    ]);
    expect(headingsOf([p])).toEqual(['Item 7. MANAGEMENT’S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS']);
  });

  it('joins a title hyphenated at its line\'s end into one word, never keeping the cut half', () => {
    const p = page(1, [
      ...prose(3),
      line('B Integrating a quadratic deviance expres-', { font: 'bold', size: 12, gapAbove: 2, x2: 400 }),
      line('sion', { font: 'bold', size: 12 }),
      ...prose(3),
    ]);
    expect(headingsOf([p])).toEqual(['B Integrating a quadratic deviance expression']);
  });

  it('drops a numbered sentence that goes on below in its own font, and completes a title that does', () => {
    const p = page(1, [
      ...prose(3),
      line('2. The layout and par commands are used to create a multi-part plot with curves on the left', { font: 'bold', gapAbove: 2, x2: 540 }),
      line('and state space diagrams on the right, and to reduce the amount of white space between them.', { font: 'bold', x2: 540 }),
      ...prose(3),
      line('4. I have data frame with both numeric and factor columns. How do I', { font: 'bold', gapAbove: 2, x2: 540 }),
      line('convert that to a "zoo" object?', { font: 'bold' }),
      ...prose(3),
    ]);
    expect(headingsOf([p])).toEqual(['4. I have data frame with both numeric and factor columns. How do I convert that to a "zoo" object?']);
  });

  it('titles a heading sentence in a font of its own (a risk factor) by the whole sentence, clipped at a word', () => {
    const p = page(1, [
      ...prose(3),
      line('The industry in which we operate is dependent upon fashion trends, customer preferences, product', { font: 'bold', gapAbove: 2, x2: 540 }),
      line('innovations, and other fashion-related factors.', { font: 'bold', x2: 300 }),
      ...prose(3),
    ]);
    expect(headingsOf([p])).toEqual(['The industry in which we operate is dependent upon fashion trends, customer preferences, product innovations, and…']);
    // the same sentence in the body's font is a paragraph
    const plain = page(1, [
      ...prose(3),
      line('The industry in which we operate is dependent upon fashion trends, customer preferences, product', { gapAbove: 2, x2: 540 }),
      line('innovations, and other fashion-related factors.', { x2: 300 }),
      ...prose(3),
    ]);
    expect(headingsOf([plain])).toEqual([]);
  });
});

const financeOutline = () => outlinePacks(mkdtempSync(join(tmpdir(), 'mhub-outline-')), { vocabularies: [] } as unknown as Config).packs;

describe('vocabulary packs: outline words', () => {
  it('the shipped finance pack declares its doc types; "!finance" turns it off; a named pack applies to every document', () => {
    const packs = financeOutline();
    const finance = packs.find((p) => p.name === 'finance')!;
    expect(finance.doc_types).toContain('10-k');
    expect(compileOutline(packs, '10-K').sectionTitles.length).toBeGreaterThan(0);
    expect(compileOutline(packs, 'manual')).toBe(NO_OUTLINE_VOCABULARY);
    const root = mkdtempSync(join(tmpdir(), 'mhub-outline-'));
    expect(outlinePacks(root, { vocabularies: ['!finance'] } as unknown as Config).packs.map((p) => p.name)).not.toContain('finance');
    const named = outlinePacks(root, { vocabularies: ['finance'] } as unknown as Config).packs.find((p) => p.name === 'finance')!;
    expect(named.doc_types).toBeNull();
    expect(compileOutline([named], 'manual').sectionTitles.length).toBeGreaterThan(0);
  });

  it('a store pack with a broken regular expression is left out and said once', () => {
    const root = mkdtempSync(join(tmpdir(), 'mhub-outline-'));
    mkdirSync(join(root, 'vocabularies'));
    writeFileSync(join(root, 'vocabularies', 'broken.json'), JSON.stringify({ name: 'broken', format: 1, outline: { key_rows: '([' } }));
    const r = outlinePacks(root, { vocabularies: ['broken'] } as unknown as Config);
    expect(r.packs.map((p) => p.name)).not.toContain('broken');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/broken\.json is unusable for outlines/);
  });

  it('statement titles are headings and get a gloss only with the pack', () => {
    const title = line('Consolidated Statements of Cash Flows', { gapAbove: 2 });
    expect(scoreLine(title, BODY, { repeats: 0, top: true })).toBeNull();
    const vocab = compileOutline(financeOutline(), '10-K');
    expect(scoreLine(title, BODY, { repeats: 0, top: true, vocab })).toMatchObject({ kind: 'statement' });
    const rows = [line('(In millions)'), ...['Net income', 'Depreciation', 'Capital expenditures'].map((l, i) => line(`${l} ${100 + i}`, { cells: [l, String(100 + i), String(90 + i)] }))];
    expect(sectionGloss('Consolidated Statements of Cash Flows', rows, NO_OUTLINE_VOCABULARY)).toBe('');
    expect(sectionGloss('Consolidated Statements of Cash Flows', rows, vocab, 'Acme Inc.')).toMatch(/^Acme Inc\. — Cash flow statement: .* Amounts in millions\.$/);
  });
});

describe('summaries without a vocabulary', () => {
  it('quote the sum rows of a table, else its first labelled amounts', () => {
    const stats = docStats(['x']);
    const survey = ['Very satisfied', 'Satisfied', 'Dissatisfied', 'Total'].map((l, i) => line(`${l} ${10 + i}`, { cells: [l, String(10 + i), `${20 + i}%`] }));
    expect(summarize(survey, stats)).toContain('Key figures: Total 13.');
    const noSum = ['Mercury', 'Venus', 'Earth'].map((l, i) => line(`${l} ${0.4 + i}`, { cells: [l, String(0.4 + i), String(88 * (i + 1))] }));
    expect(summarize(noSum, stats)).toContain('Key figures: Mercury 0.4; Venus 1.4.');
  });
});

describe('headings on a page of centred lines', () => {
  it('a page without text edges (a cover) keeps its titles wherever they sit', () => {
    const centred = ['U.S. $4,200,000,000', '364-DAY', 'CREDIT AGREEMENT', 'Dated as of May 26, 2023', 'among', 'PEPSICO, INC.,', 'as Borrower,'].map((t, i) => line(t, { x: 280 - t.length * 2 - i, x2: 300 + t.length * 2 }));
    const p = page(1, [line('EXECUTION COPY', { font: 'bold', x: 500, x2: 578, gapAbove: 2 }), ...centred]);
    expect(headingsOf([p])).toContain('EXECUTION COPY');
  });
});

describe('front matter', () => {
  const lineChars = (pages: number) => Array.from({ length: pages }, () => Array.from({ length: 20 }, () => 80));
  const heading = (page: number, title: string) => ({ page, line: 0, bodyLine: 0, title, level: 2, kind: 'style' as const, score: 0.8, top: true });

  it('sections found inside the text before the first outline entry stand beside the others, not under a cover', () => {
    const headings = [heading(3, 'Query dates'), heading(5, 'Select observations'), heading(7, 'Prices and returns')];
    const top = buildSections([{ title: 'References', level: 1, page: 11 }], { pageCount: 11, maxLeafPages: 5, lineChars: lineChars(11), headings });
    expect(top.map((s) => [s.title, s.kind, s.start, s.end])).toEqual([
      ['Cover and front matter', 'preface', 1, 2],
      ['Query dates', 'style', 3, 4],
      ['Select observations', 'style', 5, 6],
      ['Prices and returns', 'style', 7, 10],
      ['References', 'section', 11, 11],
    ]);
  });

  it('printed contents pages inside the front matter are their own node', () => {
    const top = buildSections([{ title: '1 Introduction', level: 1, page: 5 }], { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8), headings: [], contentsPages: new Set([2, 3]) });
    expect(top.map((s) => [s.title, s.kind, s.start, s.end])).toEqual([
      ['Cover and front matter', 'preface', 1, 1],
      ['Contents', 'contents', 2, 3],
      ['Front matter', 'preface', 4, 4],
      ['1 Introduction', 'section', 5, 8],
    ]);
  });

  it('contents running on into the page where the first section opens end at its heading, with no front matter of entries', () => {
    const entries = [{ title: '1 Introduction', level: 1, page: 4, line: 6 }];
    const top = buildSections(entries, { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8), headings: [], contentsPages: new Set([2, 3, 4]) });
    expect(top.map((s) => [s.title, s.kind, s.start, s.end])).toEqual([
      ['Cover and front matter', 'preface', 1, 1],
      ['Contents', 'contents', 2, 4],
      ['1 Introduction', 'section', 4, 8],
    ]);
    // the page is not a contents page: what precedes the heading stays front matter
    const other = buildSections(entries, { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8), headings: [], contentsPages: new Set([2, 3]) });
    expect(other.map((s) => [s.title, s.start, s.end])).toEqual([['Cover and front matter', 1, 1], ['Contents', 2, 3], ['Front matter', 4, 4], ['1 Introduction', 4, 8]]);
  });
});

describe('sibling titles', () => {
  it('siblings with the same title are told apart by their pages', () => {
    const lineChars = Array.from({ length: 6 }, () => [80]);
    const top = buildSections(
      [{ title: 'ARTICLE I', level: 1, page: 1 }, { title: 'ARTICLE II', level: 1, page: 2 }, { title: 'ARTICLE I', level: 1, page: 4 }, { title: 'ARTICLE II', level: 1, page: 6 }],
      { pageCount: 6, maxLeafPages: 5, lineChars, headings: [] },
    );
    expect(top.map((s) => s.title)).toEqual(['ARTICLE I (page 1)', 'ARTICLE II (pages 2–3)', 'ARTICLE I (pages 4–5)', 'ARTICLE II (page 6)']);
  });
});

describe('table titles from the layout', () => {
  const row = (label: string, a: string, b: string, o: Partial<Line> = {}) => line(`${label} ${a} ${b}`, { cells: [label, a, b], x2: 540, ...o });
  it('a capitalised line over table rows titles the table, even in the table\'s small print; a label between rows does not', () => {
    const p = page(1, [
      ...prose(4),
      line('SUPPLEMENTAL DATA – NET REVENUES', { size: 8, x: 72, gapAbove: 2 }),
      line('(In thousands)', { size: 8 }),
      row('Las Vegas Strip Resorts', '2,297,282', '1,980,432', { size: 8 }),
      row('Regional Operations', '991,452', '901,511', { size: 8 }),
      line('Adjusted EBIT', { font: 'bold', size: 8 }),
      row('Flexibles', '1,429', '1,517', { size: 8 }),
      row('Rigid Packaging', '265', '289', { size: 8 }),
      ...prose(4),
    ]);
    const hs = findHeadings([p], findFurniture([p]), BODY, new Set());
    expect(hs.map((h) => [h.title, h.table, h.score])).toEqual([['SUPPLEMENTAL DATA – NET REVENUES', true, 0.5]]);
  });

  it('a node\'s summary lists the titles of its tables', () => {
    const s = summarize(prose(2), docStats(['x']), '', { tables: ['SUPPLEMENTAL DATA – ADJUSTED EBITDAR'] });
    expect(s).toContain('Tables and figures: SUPPLEMENTAL DATA – ADJUSTED EBITDAR.');
  });
});
