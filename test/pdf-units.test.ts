/** Small pure pieces of the PDF layout analysis: table cells, statement titles, numbering, TOC lines. */
import { describe, it, expect } from 'vitest';
import { tidyCells } from '../src/ingest/converters/pdf/tables.js';
import { readFileSync } from 'node:fs';
import { numbering } from '../src/ingest/converters/pdf/headings.js';
import { compileOutline, isSectionTitle, NO_OUTLINE_VOCABULARY } from '../src/model/outline-vocabulary.js';
import { findTocPages, tocLine } from '../src/ingest/converters/pdf/printed-toc.js';
import { joinWrapped } from '../src/ingest/converters/pdf/titles.js';
import { joinWrappedCells } from '../src/ingest/converters/pdf/cells.js';
import type { Line } from '../src/ingest/converters/pdf/layout-types.js';

const line = (cells: string[], x = 72): Line => ({ cells, text: cells.join(' '), x, x2: 540, y: 500, size: 10, font: 'f1', gapAbove: 1.2 });

describe('table cells', () => {
  it('joins currency signs and closing parentheses to their amounts', () => {
    expect(tidyCells(['Net income', '$', '5,363', '$', '4,869'])).toEqual(['Net income', '$5,363', '$4,869']);
    expect(tidyCells(['Net earnings, including interests $', '2,210.8 $', '1,786.2'])).toEqual(['Net earnings, including interests', '$2,210.8', '$1,786.2']);
    expect(tidyCells(['Margin', '(1,577', ')', '12.5', '%'])).toEqual(['Margin', '(1,577)', '12.5%']);
  });
});

const financeOutline = JSON.parse(readFileSync(new URL('../vocabularies/finance.json', import.meta.url), 'utf8')).outline;
const finance = compileOutline([{ name: 'finance', doc_types: ['10-k'], outline: financeOutline }], '10-K');
const isStatementTitle = (t: string) => isSectionTitle(t, finance);

describe('headings', () => {
  it('knows no field: without a pack no title is a principal section; a pack for other doc types does not apply', () => {
    expect(isSectionTitle('Consolidated Statements of Cash Flows', NO_OUTLINE_VOCABULARY)).toBe(false);
    expect(compileOutline([{ name: 'finance', doc_types: ['10-k'], outline: financeOutline }], 'manual')).toBe(NO_OUTLINE_VOCABULARY);
  });

  it('recognises financial statement titles (finance pack) but not prose that starts like one', () => {
    expect(isStatementTitle('Consolidated Statements of Cash Flows')).toBe(true);
    expect(isStatementTitle('CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)')).toBe(true);
    expect(isStatementTitle('Consolidated Statement of Financial Position')).toBe(true);
    expect(isStatementTitle("Consolidated Statements of Shareholders' Equity")).toBe(true);
    expect(isStatementTitle('Notes to Consolidated Financial Statements')).toBe(true);
    expect(isStatementTitle('Consolidated balance sheets were $73.1 billion and $79.6 billion')).toBe(false);
    expect(isStatementTitle('Results of Operations')).toBe(false);
  });

  it('reads numbering and its level', () => {
    expect(numbering('Item 7A. Quantitative and Qualitative Disclosures')).toMatchObject({ kind: 'item', number: '7A', level: 2 });
    expect(numbering('PART II — OTHER INFORMATION')).toMatchObject({ kind: 'part', number: 'II', level: 1 });
    expect(numbering('2.1 Sampling')).toMatchObject({ kind: 'numbered', level: 2 });
    expect(numbering('Note 4 – Receivables, net')).toMatchObject({ kind: 'note', number: '4' });
    expect(numbering('Article 5 Termination')).toMatchObject({ kind: 'article', level: 1 });
    expect(numbering('Item 7 of this report discusses')).toBeNull();
  });
});

describe('printed TOC lines', () => {
  it('reads a page-number cell or dot leaders, not table rows', () => {
    expect(tocLine(line(['ITEM 1', 'Business', '4']))).toMatchObject({ title: 'ITEM 1 Business', printed: 4 });
    expect(tocLine(line(['Risk Factors .......... 12']))).toMatchObject({ title: 'Risk Factors', printed: 12 });
    expect(tocLine(line(['Net income', '5,363', '4,869']))).toBeNull();
    // rows of console output are not contents entries (r-survival-timedep: a data summary read as a TOC)
    expect(tocLine(line(['infect', '0']))).toBeNull();
    expect(tocLine(line(['infect 0 0 0 44 0 0 0', '1']))).toBeNull();
    expect(tocLine(line(['1 NA NA NA', '2']))).toBeNull();
    expect(tocLine(line(['3.4 PBC data', '12']))).toMatchObject({ title: '3.4 PBC data', printed: 12 });
    // the page number at the end of the leader's own cell, and leader dots left in the title's cell (expex's contents)
    expect(tocLine(line(['1 Introduction', '. . . . . . . . . . . . . . . 1']))).toMatchObject({ title: '1 Introduction', printed: 1 });
    expect(tocLine(line(['4 Examples without parts', '. . . . . . . . . . . .', '10']))).toMatchObject({ title: '4 Examples without parts', printed: 10 });
    expect(tocLine(line(['Glosses', '……47']))).toMatchObject({ title: 'Glosses', printed: 47 });
    expect(tocLine(line(['Net income', '. . 5,363']))).toBeNull();
    expect(tocLine(line(['Consolidated Statement of Income for the years ended December 31, 2018, 2017 and 2016', '56']))).toMatchObject({ printed: 56 });
    expect(tocLine(line(['Total assets', '2018', '36,500']))).toBeNull();
  });

  it('joins entries wrapped in either column of a two-column contents page, and reads short leaders', () => {
    // the Rcpp FAQ's contents: two columns, titles wrapped at a column's right edge, some without leaders
    const at = (cells: string[], x: number, x2: number): Line => ({ ...line(cells, x), x2 });
    const left = [
      at(['2.9 Can I use Rcpp with Visual Studio . . . . . . . . . . .', '4'], 65, 297),
      at(['2.10 I am having problems building Rcpp on macOS, any'], 65, 275),
      at(['help . . . . . . . . . . . . . . . . . . . . . . . . . . . . .', '4'], 84, 297),
      at(['2.10.2 Differing macOS R Versions Leading to Bi-'], 84, 276),
      at(['nary Failures . . . . . . . . . . . . . . . . . . .', '4'], 112, 297),
      at(['2.14 How do I quickly prototype my code using Attributes 5'], 65, 297),
      at(['3 Examples'], 65, 120),
      at(['Overview . . . . . . . . . . . . . . . . . . . . . . . .', '5'], 84, 297),
    ];
    const right = [
      at(['5.1 Rcpp changed the (const) object I passed by value . 10'], 323, 556),
      at(['5.2 Issues with implicit conversion from an Rcpp object'], 323, 534),
      at(['to a scalar or other Rcpp object . . . . . . . . . . . . 11'], 343, 556),
      at(['5.7 Package building fails with ‘symbols not found’ . . . 13'], 323, 556),
    ];
    const page = { page: 1, width: 612, height: 792, lines: [...left, ...right], twoColumn: true };
    const furniture = { lines: [new Set<number>()], runStart: [new Set<number>()], labels: [null], repeats: new Map() };
    // leaders left in a page cell's title are dropped later, with the other title tidying
    const titles = [...findTocPages([page], furniture).values()].flat().map((e) => e.title.replace(/(?:\s*\.)+$/, ''));
    expect(titles).toEqual([
      '2.9 Can I use Rcpp with Visual Studio',
      '2.10 I am having problems building Rcpp on macOS, any help',
      '2.10.2 Differing macOS R Versions Leading to Binary Failures',
      '2.14 How do I quickly prototype my code using Attributes',
      // a short numbered heading is a group, not the first line of a wrapped title
      'Overview',
      '5.1 Rcpp changed the (const) object I passed by value',
      '5.2 Issues with implicit conversion from an Rcpp object to a scalar or other Rcpp object',
      '5.7 Package building fails with ‘symbols not found’',
    ]);
    expect(joinWrapped('Cross-', 'Platform builds')).toBe('Cross-Platform builds');
    expect(joinWrapped('Placebo-', 'Controlled Study')).toBe('Placebo-Controlled Study');
    expect(joinWrapped('Net income -', 'Total')).toBe('Net income - Total');
    // a title running on below its page number (General Mills' 10-K)
    const item = { page: 2, width: 612, height: 792, twoColumn: false, lines: [
      at(['Item 4', 'Mine Safety Disclosures', '16'], 38, 552),
      at(['Item 5', 'Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of', '16'], 38, 552),
      at(['Equity Securities'], 97, 166),
      at(['Item 6', 'Selected Financial Data', '17'], 38, 552),
      at(['Item 7', 'Management’s Discussion and Analysis', '18'], 38, 552),
      at(['Item 8', 'Financial Statements and Supplementary Data', '35'], 38, 552),
    ] };
    const items = [...findTocPages([item], { ...furniture, lines: [new Set<number>()] }).values()].flat().map((e) => e.title);
    expect(items[1]).toBe('Item 5 Market for Registrant’s Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities');
    expect(items).toHaveLength(5);
  });

  it('a list of figures then a list of tables, each going up, continues the contents pages; a page of figures going up and down does not', () => {
    const at = (cells: string[]): Line => ({ ...line(cells, 72), x2: 540 });
    const pg = (n: number, lines: Line[]) => ({ page: n, width: 612, height: 792, twoColumn: false, lines });
    const contents = pg(1, ['Preface', '1 Introduction', '2 Methods', '3 Results', '4 Discussion', 'Appendix A'].map((t, i) => at([`${t} ${'. '.repeat(20)}`, String(3 + 2 * i)])));
    const lists = pg(2, [['Figure 1. Castle', 4], ['Figure 2. A Picture', 6], ['Figure A1. Another Castle', 10], ['Table 2. Yearly Dividends', 3], ['Table A1. Dam on Table Rock Lake', 11]].map(([t, n]) => at([`${t} ${'. '.repeat(20)}`, String(n)])));
    const data = pg(2, [['Bergen', 40], ['Oslo', 12], ['Tromsø', 33], ['Bodø', 5], ['Molde', 27]].map(([t, n]) => at([`${t} ${'. '.repeat(20)}`, String(n)])));
    const empty = { lines: [new Set<number>(), new Set<number>(), new Set<number>()], runStart: [new Set<number>(), new Set<number>(), new Set<number>()], labels: [null, null, null], repeats: new Map() };
    expect([...findTocPages([contents, lists, pg(3, [at(['Body text of the report, long enough to be prose.'])])], empty).keys()]).toEqual([1, 2]);
    expect([...findTocPages([contents, data, pg(3, [at(['Body text of the report, long enough to be prose.'])])], empty).keys()]).toEqual([1]);
  });

  it('reads a report\'s contents (ERDC, SMAA): the chapter number in a cell of its own, unnumbered titles wrapped under a hanging indent or at their own indent after running to the right edge, front-matter entries with roman page numbers', async () => {
    const { printedToc } = await import('../src/ingest/converters/pdf/printed-toc.js');
    const at = (cells: string[], x: number, x2 = 504): Line => ({ ...line(cells, x), x2 });
    const body = (title: string) => ({ page: 0, width: 612, height: 792, twoColumn: false, lines: [at([title], 73, 300), at(['Text of the section, long enough to be prose and nothing else at all.'], 73, 539)] });
    const toc = { page: 2, width: 612, height: 792, twoColumn: false, lines: [
      at(['Table of Contents'], 73, 237),
      at(['Figures and Tables .............................................. iv'], 108),
      at(['Preface ......................................................... v'], 108),
      at(['1', 'Duis ante felis, dignissim id, blandit in, suscipit vel, dolor ........ 1'], 108),
      at(['1.1 Duis sagittis massa ........................................ 1'], 128),
      at(['1.2 Suscipit vel ............................................... 2'], 128),
      at(['Performance Goal 1.2.1: Increase the number of small manufacturers that make'], 148, 500),
      at(['a first export sale with assistance ........................... 2'], 148),
      at(['2', 'Duis sagittis massa in tellus ......................................... 3'], 108),
      at(['References ...................................................... 4'], 108),
      at(['Appendix B: Pellentesque habitant morbi tristique senectus et netus et malesuada fames'], 108, 497),
      at(['ac turpis egestas ............................................... 5'], 127),
    ] };
    const titles = ['Cover', null, 'Figures and Tables', 'Preface', '1 Duis ante felis, dignissim id, blandit in, suscipit vel, dolor', '1.2 Suscipit vel', '2 Duis sagittis massa in tellus', 'References', 'Appendix B: Pellentesque habitant morbi tristique senectus et netus et malesuada fames ac turpis egestas'];
    const pages = titles.map((t, i) => (i === 1 ? toc : { ...body(t!), page: i + 1 }));
    const none = () => pages.map(() => new Set<number>());
    const furniture = { lines: none(), runStart: none(), labels: pages.map(() => null), repeats: new Map() };
    const out = printedToc(pages, furniture)!;
    expect(out.entries.map((e) => [e.title, e.page])).toEqual([
      ['Figures and Tables', 3], ['Preface', 4],
      ['1 Duis ante felis, dignissim id, blandit in, suscipit vel, dolor', 5], ['1.1 Duis sagittis massa', 5], ['1.2 Suscipit vel', 6],
      ['Performance Goal 1.2.1: Increase the number of small manufacturers that make a first export sale with assistance', 6],
      ['2 Duis sagittis massa in tellus', 7], ['References', 8], ['Appendix B: Pellentesque habitant morbi tristique senectus et netus et malesuada fames ac turpis egestas', 9],
    ]);
    // a line ending in a page-number cell that was not read as an entry is never half of a wrapped title (r-survival "A Changes from version 2.44 to 3.1")
    const version = { ...toc, page: 1, lines: [...toc.lines, at(['A Changes from version 2.44 to 3.1', '94'], 98, 513), at(['A.1 Changes in version 3 . . . . . . . . . . . . . . . .', '94'], 113, 513)] };
    const read = [...findTocPages([version], { ...furniture, lines: [new Set<number>()] }).values()].flat().map((e) => e.title);
    expect(read).toContain('A.1 Changes in version 3');
    expect(read.filter((t) => t.includes('Changes from version'))).toEqual([]);
  });

  it('a running head is the same line with a roman page number in the front matter (ERDC "… | iv")', async () => {
    const { lineKey } = await import('../src/ingest/converters/pdf/furniture.js');
    expect(lineKey('ERDC/CRREL SR-05-78 iv')).toBe(lineKey('ERDC/CRREL SR-05-78 12'));
    expect(lineKey('xii Preface')).toBe(lineKey('3 Preface'));
    expect(lineKey('The civic')).toBe('the civic');
  });

  it('a table whose last column is figures (acres, units) is not a contents page: its numbers do not go up', () => {
    const at = (cells: string[], x: number, x2: number): Line => ({ ...line(cells, x), x2 });
    const furniture = { lines: [new Set<number>()], runStart: [new Set<number>()], labels: [null], repeats: new Map() };
    const rows = [['Bellagio', '77'], ['MGM Grand Las Vegas', '102'], ['Mandalay Bay', '124'], ['The Mirage', '77'], ['Luxor', '73'], ['Excalibur', '51'], ['Monte Carlo', '21'], ['Circus Circus Las Vegas', '102']];
    const table = { page: 25, width: 612, height: 792, twoColumn: false, lines: rows.map((r) => at(r, 38, 552)) };
    expect(findTocPages([table], furniture).size).toBe(0);
    const contents = { ...table, lines: rows.map((r, i) => at([r[0]!, String(3 + i * 2)], 38, 552)) };
    expect(findTocPages([contents], furniture).size).toBe(1);
  });
});

describe('outline titles, ligatures, heading positions (issue 14)', async () => {
  const { tidyOutlineTitle, MAX_TITLE_CHARS } = await import('../src/ingest/converters/pdf/titles.js');
  const { fixLigatures } = await import('../src/ingest/converters/pdf/lines.js');
  const { locateEntries } = await import('../src/ingest/converters/pdf/locate.js');
  const { detectOutline } = await import('../src/ingest/converters/pdf/detected.js');
  const { findFurniture } = await import('../src/ingest/converters/pdf/furniture.js');

  it('drops dot leaders with their page number, footnote marks, and never cuts mid-word', () => {
    expect(tidyOutlineTitle('3.5 Withdrawal from the Study ........12')).toBe('3.5 Withdrawal from the Study');
    expect(tidyOutlineTitle('1.1 History . . . . . . . . . . . . 3')).toBe('1.1 History');
    expect(tidyOutlineTitle('Simultaneous Inference in General Parametric Models ∗')).toBe('Simultaneous Inference in General Parametric Models');
    // a title over two lines keeps no \thanks mark between them, glued to either word
    expect(tidyOutlineTitle('The dramatist package∗ User Guide')).toBe('The dramatist package User Guide');
    expect(tidyOutlineTitle('Preliminary documentation for gb4e.sty ∗and cgloss4e.sty')).toBe('Preliminary documentation for gb4e.sty and cgloss4e.sty');
    expect(tidyOutlineTitle('A* search, a * b')).toBe('A* search, a * b');
    const long = tidyOutlineTitle(`${'word '.repeat(40)}ending`);
    expect(long.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
    expect(long).toMatch(/ word…$/);
  });

  it('drops TeX font switches and math delimiters left in bookmark titles, not dollar amounts', () => {
    expect(tidyOutlineTitle('2.3 Using { am tfam entt parfor} and { am tfam entt parforprime}')).toBe('2.3 Using parfor and parforprime');
    expect(tidyOutlineTitle('1.4 ${ am \bffam enbf F}_{l^2}$ field for small primes $l$')).toBe('1.4 F_{l^2} field for small primes l');
    expect(tidyOutlineTitle('Revenue of $5 and $6 million')).toBe('Revenue of $5 and $6 million');
  });

  it('never takes code, console input, notation or cross-references for headings', async () => {
    const { notATitle, scoreLine, numbering } = await import('../src/ingest/converters/pdf/headings.js');
    for (const t of ['R> DF <- structure(list(', 'R> statistic(it, type = "linear")', 'PianoRH = {', 'T T T T T T T', '2 h h h h',
      'Section 1.20 [appoggiatura], page 6, Section 1.146 [grace notes], page 36']) expect(notATitle(t)).toBe(true);
    for (const t of ['4.16.4.1 E', 'Item 7A. Quantitative and Qualitative Disclosures', 'Splitting criteria', 'A class structure for permutation tests']) expect(notATitle(t)).toBe(false);
    const body = { size: 10, font: 'body' };
    const bold = (text: string): Line => ({ ...line([text]), font: 'bold' });
    // a glossary's emphasised entries are lower-case terms; plain or undotted numbers stay prose
    expect(scoreLine(bold('1.20 appoggiatura'), body, { repeats: 0, top: false })).toMatchObject({ kind: 'numbered', level: 2, title: '1.20 appoggiatura' });
    expect(scoreLine(bold('99 percent confidence interval'), body, { repeats: 0, top: false })?.kind).not.toBe('numbered');
    expect(numbering('1.20 appoggiatura')).toBeNull();
    // a large short title ending in a number is a title; a row label with an amount is not
    const big = (text: string): Line => ({ ...line([text]), size: 14.5, font: 'bold' });
    expect(scoreLine(big('Example 2'), body, { repeats: 0, top: false })?.title).toBe('Example 2');
    expect(scoreLine(bold('Total assets 1,234'), body, { repeats: 0, top: false })).toBeNull();
  });

  it('a font the document prints console input in is a code font', async () => {
    const { codeFonts } = await import('../src/ingest/converters/pdf/headings.js');
    const l = (text: string, font: string): Line => ({ ...line([text]), font });
    const page = { page: 1, width: 600, height: 800, twoColumn: false, lines: [
      l('Body text that is the most common.', 'body'), l('R> z <- read.zoo(DF)', 'tt'), l('R> z', 'tt'), l('Bid Offer', 'tt'), l('R> plot(z)', 'tt'), l('Results', 'bold'), l('Methods', 'bold')] };
    expect([...codeFonts([page], { size: 10, font: 'body' })]).toEqual(['tt']);
  });

  it('maps TeX ligature control codes back to letters', () => {
    expect(fixLigatures('the \u001celd was \u001cnished')).toBe('the field was finished');
    expect(fixLigatures('e\u000bect')).toBe('effect');
    expect(fixLigatures('plain text')).toBe('plain text');
    // Unicode's ligature letters, as fonts with a Unicode map give them
    expect(fixLigatures('the ﬁle is diﬀerent, ﬂat and eﬃcient')).toBe('the file is different, flat and efficient');
  });

  it('reads a soft hyphen printed on the page as the hyphen a reader sees (RAxML\'s "raxmlHPC \u00ads alg.phy")', async () => {
    const { buildPage } = await import('../src/ingest/converters/pdf/lines.js');
    const item = (str: string, x: number, w: number) => ({ str, transform: [10, 0, 0, 10, x, 700], width: w, fontName: 'f1' });
    const line = buildPage(1, 612, 792, [item('raxmlHPC \u00ads alg.phy \u00adm GTRGAMMA, site\u00adspecific rates', 72, 300)]).lines[0]!;
    expect(line.text).toBe('raxmlHPC -s alg.phy -m GTRGAMMA, site-specific rates');
    // a TeX font's ff ligature read as a return arrow between letters (TeXshade's "di\u21b5erent"); a lone arrow stays
    const ff = buildPage(1, 612, 792, [item('di\u21b5erent o\u21b5sets, turn o\u21b5 \u21b5 Enter', 72, 300)]).lines[0]!;
    expect(ff.text).toBe('different offsets, turn off \u21b5 Enter');
    // the ligature drawn as an item of its own
    expect(buildPage(1, 612, 792, [item('di', 72, 9), item('\u21b5', 81, 6), item('erent', 87, 25)]).lines[0]!.text).toBe('different');
  });

  it('places a bookmark/TOC entry at the line where its heading is printed', () => {
    const page = [line(['end of the previous section.']), line(['3.5 Withdrawal from the']), line(['Study']), line(['Body text.'])];
    const out = locateEntries([{ title: '3.4 Dosing', level: 2, page: 1 }, { title: '3.5 Withdrawal from the Study', level: 2, page: 2 }, { title: 'Missing title', level: 2, page: 2 }], [[line(['3.4 Dosing'])], page]);
    expect(out.map((e) => e.line)).toEqual([0, 1, 1]);
  });

  it('finds a bookmark whose printed heading carries a number the bookmark leaves out', () => {
    const page = [line(['the previous section ends here and runs on.']), line(['4.2. Splitting criteria']), line(['Body text.'])];
    expect(locateEntries([{ title: 'Splitting criteria', level: 2, page: 1 }], [page])[0]!.line).toBe(1);
    const r = [line(['text above']), line(['8.1 R as a set of statistical tables']), line(['Body'])];
    expect(locateEntries([{ title: 'R as a set of statistical tables', level: 2, page: 1 }], [r])[0]!.line).toBe(1);
    // a run-in heading: the title closed by a period, its paragraph on the same line
    const q = [line(['text above']), line(['1.1. How do I get started. If you have Rcpp installed, please execute the following']), line(['Body'])];
    expect(locateEntries([{ title: '1.1 How do I get started', level: 2, page: 1 }], [q])[0]!.line).toBe(1);
    const prose = [line(['text above']), line(['How do I get started with this is a question many people ask when they first see it'])];
    expect(locateEntries([{ title: '1.1 How do I get started', level: 2, page: 1 }], [prose])[0]!.line).toBe(0);
  });

  it("uses a bookmark destination's position: the title-like line there, else the (run-in) heading line at it", () => {
    const at = (text: string, y: number): Line => ({ ...line([text]), y });
    // a cross-reference higher up reads like the title; the heading is where the destination points
    const page = [at('Column', 700), at('Body text of the previous entry that is long.', 680), at('Column', 410), at('Text.', 396)];
    expect(locateEntries([{ title: 'Column', level: 2, page: 1, top: 420 }], [page])[0]!.line).toBe(2);
    const runIn = [at('Body of the previous entry, long enough to be prose here.', 700), at('Column The column(x) function may be used only in the using specifier of a plot.', 410)];
    expect(locateEntries([{ title: 'Column', level: 2, page: 1, top: 420 }], [runIn])[0]!.line).toBe(1);
    // no destination position: as before, the top of the page when no line matches
    expect(locateEntries([{ title: 'Column', level: 2, page: 1 }], [runIn])[0]!.line).toBe(0);
  });

  it('reads the position of XYZ, FitH, FitBH and FitR destinations', async () => {
    const { destinationTop } = await import('../src/ingest/converters/pdf/bookmarks.js');
    expect(destinationTop([{ num: 1 }, { name: 'XYZ' }, 72, 510.5, null])).toBe(510.5);
    expect(destinationTop([{ num: 1 }, { name: 'FitBH' }, 645.7])).toBe(645.7);
    expect(destinationTop([{ num: 1 }, { name: 'FitR' }, 10, 20, 300, 400])).toBe(400);
    expect(destinationTop([{ num: 1 }, { name: 'Fit' }])).toBeUndefined();
    expect(destinationTop([{ num: 1 }, { name: 'XYZ' }, 72, null, null])).toBeUndefined();
  });

  it('keeps decimal numbering that reads as a sequence, not street numbers', () => {
    const h = (title: string, number: string, page: number) => ({ page, line: 0, bodyLine: 0, title, level: number.split('.').length, kind: 'numbered' as const, score: 0.9, top: true, number });
    const out = detectOutline([h('83 Tower Road North', '83', 1), h('1 Scope', '1', 1), h('2 Method', '2', 2), h('2.1 Sampling', '2.1', 3), h('7.4 Stray', '7.4', 3), h('3 Results', '3', 4)], 4);
    expect(out.map((e) => e.title)).toEqual(['1 Scope', '2 Method', '2.1 Sampling', '3 Results']);
  });

  it('alternating running headers (odd/even pages) never start a heading run', () => {
    const pg = (p: number, header: string) => ({ page: p, width: 600, height: 800, twoColumn: false, lines: [{ ...line([header]), y: 780 }, { ...line([`Body text of page ${p} that is long enough.`]), y: 400 }] });
    const pages = Array.from({ length: 10 }, (_, i) => pg(i + 1, i % 2 ? `${i + 1} Various Versatile Variances` : `Author Name ${i + 1}`));
    const f = findFurniture(pages);
    expect(f.lines.every((s) => s.has(0))).toBe(true);
    expect(f.runStart.slice(2).every((s) => s.size === 0)).toBe(true);
  });
  it('a running head whose page number was read apart from it on one page is furniture there too', () => {
    const head = 'CHAPTER 2. AVAILABLE INTERFACES TO MAXIMA';
    const pg = (p: number, header: string) => ({ page: p, width: 600, height: 800, twoColumn: false, lines: [{ ...line([header]), y: 780 }, { ...line([`Body text of page ${p} that is long enough.`]), y: 400 }] });
    const pages = Array.from({ length: 10 }, (_, i) => pg(i + 1, i === 5 ? head : `${head} ${i + 1}`));
    const f = findFurniture(pages);
    expect(f.lines[5]!.has(0)).toBe(true);
    expect(f.runStart[5]!.size).toBe(0);
    // alone, the same words are a heading (nothing with a number runs near it)
    const once = Array.from({ length: 10 }, (_, i) => pg(i + 1, i === 5 ? head : `Other running head ${i + 1}`));
    expect(findFurniture(once).lines[5]!.has(0)).toBe(false);
  });
});

describe('document titles that tell a series apart (issue 14)', async () => {
  const { titleQualifier, coverFields } = await import('../src/ingest/converters/pdf/card.js');
  const page = (rows: string[][]) => ({ page: 1, width: 612, height: 792, twoColumn: false, lines: rows.map((cells) => line(cells)) });

  it('reads place, date and case number from cover form fields', () => {
    const cover = page([['Aviation Accident Final Report'], ['Location:', 'Elko, NV', 'Accident Number:', 'WPR15FA123'], ['Date & Time:', '01/02/2015, 1200 PST', 'Registration:', 'N123AB']]);
    expect(coverFields(cover)).toEqual({ place: 'Elko, NV', id: 'WPR15FA123', date: '01/02/2015, 1200 PST' });
    expect(titleQualifier('Aviation Accident Final Report', cover)).toBe('Elko, NV, 01/02/2015, 1200 PST, WPR15FA123');
  });

  it('falls back to the fiscal year printed on the cover, and adds nothing the title already says', () => {
    expect(titleQualifier('Annual Performance Report', page([['Annual Performance Report'], ['Fiscal Year 2015']]))).toBe('Fiscal Year 2015');
    expect(titleQualifier('Annual Performance Report 2015', page([['Fiscal Year 2015']]))).toBe('');
    expect(titleQualifier('A Tutorial for PARI / GP', page([['A Tutorial for PARI / GP'], ['The PARI Group']]))).toBe('');
  });
});

describe('filing identity read from the content, not the file name (issues 14, 18)', async () => {
  const { fiscalLabel } = await import('../src/ingest/converters/pdf/fiscal.js');
  const { frequentCompany, mendSmallCaps, buildCard } = await import('../src/ingest/converters/pdf/card.js');
  const page = (rows: string[][], n = 1) => ({ page: n, width: 612, height: 792, twoColumn: false, lines: rows.map((cells) => line(cells)) });
  const times = (s: string, n: number) => Array(n).fill(s).join(' ');

  it('names a quarter or a fiscal year as the report does, when it clearly does', () => {
    const bby = `${times('sales in the second quarter of fiscal 2024 rose;', 6)} ${times('the second quarter of fiscal 2023', 2)}`;
    expect(fiscalLabel(bby, '2023-07-29', true)).toBe('Q2 fiscal 2024');
    expect(fiscalLabel(times('net revenue for the first quarter of 2021', 4), '2021-03-31', true)).toBe('Q1 2021');
    // no clear label: a calendar quarter's last day names that quarter; another day names nothing
    expect(fiscalLabel('the first quarter of 2021 and the second quarter of 2021', '2021-06-30', true)).toBe('Q2 2021');
    expect(fiscalLabel('', '2023-07-29', true)).toBe('');
    // a 52/53-week year ending in early January belongs to the year before, unless the text says otherwise
    expect(fiscalLabel(times('fiscal 2022 sales', 5), '2023-01-01', false)).toBe('fiscal 2022');
    expect(fiscalLabel('', '2016-01-03', false)).toBe('fiscal 2015');
    expect(fiscalLabel(`${times('fiscal 2017', 9)} ${times('fiscal 2016', 4)}`, '2017-01-28', false)).toBe('');
    expect(fiscalLabel('in fiscal 2019 and fiscal 2019', '2020-12-31', false)).toBe('');
  });

  it('finds the registrant when the cover prints its name as a logo, and mends small capitals', () => {
    expect(frequentCompany('PART I\nGeneral\nFoot Locker, Inc., a retailer. Foot Locker, Inc. leads. Net income attributable to Foot Locker, Inc. The Company')).toBe('Foot Locker, Inc.');
    expect(frequentCompany('Acme Corporation once')).toBe('');
    expect(mendSmallCaps('MGM R ESORTS I NTERNATIONAL', 'MGM Resorts International operates resorts')).toBe('MGM RESORTS INTERNATIONAL');
    expect(mendSmallCaps('A B OOK', 'nothing here')).toBe('A B OOK');
    const cover = page([['FORM 10-K'], ['ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)'], ['For the fiscal year ended January 29, 2022'], ['For the transition period from', 'to'], ['Commission File No. 1-10299'], ['(Exact name of registrant as specified in its charter)']]);
    const body = page([[times('Foot Locker, Inc. operates stores.', 4)]], 2);
    const { title, card } = buildCard({ layouts: [cover, body], metaTitle: undefined, fallbackTitle: 'doc01', topTitles: [] });
    expect(title).toBe('Foot Locker, Inc. — Form 10-K (fiscal year ended January 29, 2022)');
    expect(card.period).toBe('fiscal year ended January 29, 2022');
    // a 10-Q: the period carries the report's own label, the title the cover's words
    const q = page([['FORM 10-Q'], ['QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d)'], ['For the quarterly period ended July 29, 2023'], ['Commission File Number: 1-9595'], ['BEST BUY CO., INC.'], ['(Exact name of registrant as specified in its charter)']]);
    const qb = page([[times('Revenue in the second quarter of fiscal 2024 grew.', 5)]], 2);
    const ten = buildCard({ layouts: [q, qb], metaTitle: undefined, fallbackTitle: 'doc02', topTitles: [] });
    expect(ten.card.period).toBe('quarter ended July 29, 2023; Q2 fiscal 2024');
    expect(ten.title).toBe('Best Buy Co., Inc. — Form 10-Q (quarter ended July 29, 2023)');
  });

  it('a logo set as repeated text above the title is not the title', () => {
    const sized = (text: string, size: number) => ({ ...line([text]), size });
    const cover = { page: 1, width: 612, height: 792, twoColumn: false, lines: [
      sized('Asymptote: the Vector Graphics', 20.5), sized('Language', 20.5), sized('For version 2.85', 12),
      ...Array.from({ length: 4 }, () => sized('symptotesymptotesymptotesymptote', 24)), sized(times('Body text of the manual.', 6), 10),
    ] };
    const body = page([[times('Asymptote is a powerful descriptive vector graphics language.', 5)]], 2);
    expect(buildCard({ layouts: [cover, body], metaTitle: undefined, fallbackTitle: 'asymptote', topTitles: [] }).title).toBe('Asymptote: the Vector Graphics Language');
  });
});

describe('reading order and text cleanup (issue 14)', async () => {
  const { buildPage, dropBoilerplate } = await import('../src/ingest/converters/pdf/lines.js');
  const item = (str: string, x: number, y: number, size = 10, w = str.length * size * 0.5) => ({ str, transform: [size, 0, 0, size, x, y], width: w, fontName: 'f1' });

  it('reads two columns column by column even under a title printed across both', () => {
    const raw = [item('A Title Printed Across Both Columns Of This Page For Readers', 60, 740, 16, 490)];
    for (let i = 0; i < 8; i++) {
      raw.push(item(`left column sentence number ${i} goes on here`, 60, 700 - i * 14, 10, 230));
      raw.push(item(`right column sentence number ${i} goes on too`, 320, 700 - i * 14, 10, 230));
    }
    raw.push(item('A caption that also spans the whole width of the page at the end', 60, 560, 10, 490));
    const p = buildPage(1, 612, 792, raw);
    expect(p.twoColumn).toBe(true);
    const text = p.lines.map((l) => l.text);
    expect(text.findIndex((t) => t.startsWith('right column sentence number 0'))).toBeGreaterThan(text.findIndex((t) => t.startsWith('left column sentence number 7')));
    expect(text.some((t) => t.includes('left') && t.includes('right'))).toBe(false);
  });

  it('reads two columns under a block printed across them (a paper\'s title, authors and abstract) column by column', () => {
    const raw = [item('A Paper Title Printed Across Both Columns', 60, 760, 16, 490), item('First Author, Second Author', 200, 740, 10, 200)];
    for (let i = 0; i < 4; i++) raw.push(item(`abstract line ${i} runs across the whole width of the page as abstracts do in papers`, 60, 720 - i * 12, 10, 490));
    for (let i = 0; i < 12; i++) {
      raw.push(item(`left column sentence number ${i} goes on here`, 60, 660 - i * 14, 10, 230));
      raw.push(item(`right column sentence number ${i} goes on too`, 320, 660 - i * 14, 10, 230));
    }
    const p = buildPage(1, 612, 792, raw);
    expect(p.twoColumn).toBe(true);
    const text = p.lines.map((l) => l.text);
    expect(text.slice(0, 6).every((t) => !/column/.test(t))).toBe(true);
    expect(text.findIndex((t) => t.startsWith('right column sentence number 0'))).toBeGreaterThan(text.findIndex((t) => t.startsWith('left column sentence number 11')));
    expect(text.some((t) => t.includes('left') && t.includes('right'))).toBe(false);
  });

  it('keeps a table under a paragraph in rows: labels and their figures, or two columns of short text cells, are not two columns of text', () => {
    const para = Array.from({ length: 4 }, (_, i) => item(`a paragraph line ${i} printed across the whole width of the page before the table`, 60, 740 - i * 12, 10, 490));
    const figures = [...para];
    for (let i = 0; i < 12; i++) figures.push(item(`Segment label number ${i}`, 60, 680 - i * 14, 10, 120), item(`${1000 + i},${100 + i} $ ${200 + i}`, 420, 680 - i * 14, 10, 120));
    expect(buildPage(1, 612, 792, figures).twoColumn).toBe(false);
    const cells = [...para];
    for (let i = 0; i < 12; i++) cells.push(item(`Menu item number ${i}`, 60, 680 - i * 14, 10, 110), item(`Opens the dialog for item ${i}`, 330, 680 - i * 14, 10, 150));
    const p = buildPage(1, 612, 792, cells);
    expect(p.twoColumn).toBe(false);
    expect(p.lines.some((l) => l.text.includes('Menu item number 3') && l.text.includes('dialog for item 3'))).toBe(true);
  });

  it('a raised mark opening a line does not set its baseline: the words of another print beside it stay in the line (FHS p. 14)', () => {
    const mark = { ...item('2', 72, 98.5, 5.5, 3), fontName: 'Times' };
    const times = (s: string, x: number, w: number) => ({ ...item(s, x, 94, 8, w), fontName: 'Times' });
    const courier = (s: string, x: number, w: number) => ({ ...item(s, x, 95, 8, w), fontName: 'Courier' });
    const p = buildPage(1, 612, 792, [mark, times('To be clear,', 78, 44), courier('/etc', 124, 19), times('may contain scripts called by', 146, 110), courier('init', 258, 19), times('to start the system', 280, 70)]);
    expect(p.lines.map((l) => l.text)).toEqual(['2 To be clear, /etc may contain scripts called by init to start the system']);
  });

  it('brackets footnote marks after words, reads a raised number after a letter as its power, and drops IDs that are not text', () => {
    const p = buildPage(1, 612, 792, [item('Total revenue', 60, 700, 10, 65), item('2', 125, 704, 6, 3), item(' grew.', 128, 700, 10, 30)]);
    expect(p.lines[0]!.text).toBe('Total revenue[2] grew.');
    const after = buildPage(1, 612, 792, [item('as it was reported.', 60, 700, 10, 90), item('14', 150, 704, 6, 6), item(' Later', 157, 700, 10, 30)]);
    expect(after.lines[0]!.text).toBe('as it was reported.[14] Later');
    // an exponent after a variable: "O(n²)" reads "O(n^2)" (PDF 91), never "O(n2)" or "O(n[2])"
    const power = buildPage(1, 612, 792, [item('This O(n', 60, 700, 10, 40), item('2', 100.5, 704, 6, 3), item(') step', 104, 700, 10, 30)]);
    expect(power.lines[0]!.text).toBe('This O(n^2) step');
    // a footnote's own number raised before its text keeps apart from its first word
    const note = buildPage(1, 612, 792, [item('2', 60, 102.5, 6, 3), item('By default, cmcalibrate searches 160 sequences.', 63.5, 100, 8, 200)]);
    expect(note.lines[0]!.text).toBe('2 By default, cmcalibrate searches 160 sequences.');
    // control characters a symbol font hands over for its glyphs are no text
    const ctl = buildPage(1, 612, 792, [item('product of the \u0000 n functions\u0005 M\u001a', 60, 700, 10, 120)]);
    expect(ctl.lines[0]!.text).toBe('product of the n functions M');
    expect(dropBoilerplate('Goal PLACEHOLDER_156 met 3f2504e0-4f89-11d3-9a0c-0305e82c3301').replace(/\s+/g, ' ').trim()).toBe('Goal met');
    expect(dropBoilerplate('Z_SYNC_FLUSH and 2015-2016')).toBe('Z_SYNC_FLUSH and 2015-2016');
  });
});

describe('document kind from the opening pages', async () => {
  const { docType } = await import('../src/ingest/converters/pdf/card.js');

  it('a contract needs contract drafting, not one common word such as "whereas" or "the parties"', () => {
    expect(docType('Zoo FAQ. Whereas ts objects must be regular, zoo series need not be. The vignette answers questions.')).toBe('document');
    expect(docType('Permutation tests are conditional on the observed data; the parties to a comparison are two groups.')).toBe('document');
    expect(docType('LICENSE AGREEMENT. This Agreement is made between Acme Inc. (hereinafter "Licensor") and the licensee. WHEREAS the parties wish to …')).toBe('contract');
  });

  it('filings and guides keep their kinds', () => {
    expect(docType('UNITED STATES SECURITIES AND EXCHANGE COMMISSION FORM 10-K ANNUAL REPORT PURSUANT TO SECTION 13')).toBe('10-K');
    expect(docType("GNU gnuplot User's Guide")).toBe('manual');
  });
});

describe('wrapped table cells', () => {
  // a row at baseline y with its cells at the given x ranges (size 8, rows 1.8 apart, wraps 1.2)
  const row = (y: number, gapAbove: number, cells: Array<[string, number, number]>): Line => ({
    cells: cells.map((c) => c[0]), text: cells.map((c) => c[0]).join(' '), x: cells[0]![1], x2: cells[cells.length - 1]![2], y, size: 8, font: 'f1', gapAbove,
    ...(cells.length > 1 ? { spans: cells.flatMap((c) => [c[1], c[2]]) } : {}),
  });
  const page = (lines: Line[]) => [{ page: 1, width: 612, height: 792, lines, twoColumn: false }];
  const texts = (lines: Line[]) => lines.map((l) => l.cells.join(' | '));

  it('joins a wrapped label and wrapped value cells to their row; the next row stays a row', () => {
    const p = page([
      row(500, 1.84, [['PK samples', 74, 120], ['pre-dose', 253, 285], ['pre-', 300, 315], ['pre-dose', 330, 362]]),
      row(490, 1.22, [['and 2 h', 253, 282], ['dose', 300, 317], ['and 2 h', 330, 359]]),
      row(475, 1.84, [['Tablet count and', 74, 140], ['×', 253, 258]]),
      row(465, 1.21, [['compliance', 74, 120]]),
      row(450, 1.84, [['Adverse events,', 74, 134], ['×', 253, 258]]),
      row(440, 1.21, [['concomitant medications', 74, 176]]),
      row(425, 1.84, [['IBDQ', 74, 95], ['×', 253, 258]]),
    ]);
    expect(joinWrappedCells(p)).toBe(3);
    expect(texts(p[0]!.lines)).toEqual([
      'PK samples | pre-dose and 2 h | pre-dose | pre-dose and 2 h',
      'Tablet count and compliance | ×',
      'Adverse events, concomitant medications | ×',
      'IBDQ | ×',
    ]);
  });

  it('leaves rows at one pitch, new labels, amounts, list items and paragraphs under a run-in heading alone', () => {
    const lines = [
      // a statement's single-spaced rows: the next line is no closer than the row to the one above
      row(500, 1.2, [['Net cash provided by operating', 74, 200], ['1,234', 400, 430]]),
      row(490, 1.2, [['activities', 74, 110]]),
      // a new label under a label that can end there
      row(470, 1.84, [['Urinalysis', 74, 110], ['×', 253, 258]]),
      row(460, 1.21, [['Pregnancy test', 74, 130]]),
      // a subtotal under an amount
      row(440, 1.84, [['Total', 74, 95], ['5,000', 400, 430]]),
      row(430, 1.21, [['6,000', 400, 430]]),
      // a list item's wrapped prose
      row(410, 1.84, [['•', 74, 78], ['the amount, number, growth or increase, in or over certain periods, of', 90, 540]]),
      row(400, 1.21, [['earnings per share, including as adjusted for certain items, net sales', 90, 530]]),
      // a paragraph under a run-in heading runs on far beyond the heading's cell
      row(380, 1.84, [['7.04', 74, 92], ['Limitations on Actions.', 110, 200]]),
      row(370, 1.21, [['Any claim filed under Article VII and any action filed in any court or other', 110, 540]]),
      // a paragraph split at a wide gap: its next line continues the last cell, not the first
      row(350, 1.84, [['(1) Includes 2,246,070', 74, 180], ['shares issuable in respect of PBRSUs subject to criteria and assumes payout at', 200, 540]]),
      row(340, 1.21, [['maximum levels.', 74, 140]]),
    ];
    const p = page(lines.map((l) => ({ ...l, cells: [...l.cells], ...(l.spans ? { spans: [...l.spans] } : {}) })));
    expect(joinWrappedCells(p)).toBe(0);
    expect(texts(p[0]!.lines)).toEqual(texts(lines));
  });

  it('keeps a hyphen the document writes and mends a syllable break', () => {
    const p = page([
      row(500, 1.84, [['Import CSV', 74, 150], ['Starts the CSV file im-', 253, 380]]),
      row(490, 1.21, [['port process.', 253, 310]]),
      row(470, 1.84, [['PK samples', 74, 120], ['pre-', 253, 270]]),
      row(460, 1.21, [['dose', 253, 272]]),
      row(440, 1.84, [['Note', 74, 100], ['an import, a pre-dose sample', 253, 380]]),
    ]);
    joinWrappedCells(p);
    expect(texts(p[0]!.lines).slice(0, 2)).toEqual(['Import CSV | Starts the CSV file import process.', 'PK samples | pre-dose']);
  });
});

describe('a paper whose first section opens on its contents page', () => {
  it('places the section at its heading below the contents, not on the next page', async () => {
    const { printedToc } = await import('../src/ingest/converters/pdf/printed-toc.js');
    const at = (cells: string[], x: number, x2 = 504): Line => ({ ...line(cells, x), x2 });
    const prose = at(['Text of the section, long enough to be prose and nothing else at all.'], 73, 539);
    const first = { page: 1, width: 612, height: 792, twoColumn: false, lines: [
      at(['Moran\'s Autocorrelation Coefficient'], 150, 460),
      at(['Contents'], 73, 140),
      at(['1 Theoretical Background ............................ 1'], 73),
      at(['2 Implementation in ape ............................. 2'], 73),
      at(['3 Implementation in ade4 ............................ 3'], 73),
      at(['4 Other Implementations ............................. 4'], 73),
      at(['5 Conclusions ....................................... 5'], 73),
      prose,
      at(['1 Theoretical Background'], 73, 260),
      prose,
    ] };
    const body = (page: number, title: string) => ({ page, width: 612, height: 792, twoColumn: false, lines: [at([title], 73, 260), prose] });
    const pages = [first, body(2, '2 Implementation in ape'), body(3, '3 Implementation in ade4'), body(4, '4 Other Implementations'), body(5, '5 Conclusions')];
    const none = () => pages.map(() => new Set<number>());
    const out = printedToc(pages, { lines: none(), runStart: none(), labels: pages.map(() => null), repeats: new Map() })!;
    expect(out.entries.map((e) => [e.title, e.page, e.line])).toEqual([
      ['1 Theoretical Background', 1, 8], ['2 Implementation in ape', 2, undefined], ['3 Implementation in ade4', 3, undefined], ['4 Other Implementations', 4, undefined], ['5 Conclusions', 5, undefined],
    ]);
  });
});

describe('a manual whose contents number only the chapters', () => {
  it('puts the unnumbered sections indented under a chapter one level down (infernal)', async () => {
    const { printedToc } = await import('../src/ingest/converters/pdf/printed-toc.js');
    const at = (cells: string[], x: number, x2 = 504): Line => ({ ...line(cells, x), x2 });
    const prose = at(['Text of the section, long enough to be prose and nothing else at all.'], 73, 539);
    const titles = ['1 Introduction', 'How to avoid reading this manual', 'What covariance models are', '2 Installation', 'Quick installation instructions', 'System requirements'];
    const toc = { page: 1, width: 612, height: 792, twoColumn: false, lines: [
      at(['Contents'], 72, 140),
      ...titles.map((t, i) => at([`${t} ................................ ${i + 2}`], /^\d/.test(t) ? 72 : 87)),
    ] };
    const pages = [toc, ...titles.map((t, i) => ({ page: i + 2, width: 612, height: 792, twoColumn: false, lines: [at([t], 72, 300), prose] }))];
    const none = () => pages.map(() => new Set<number>());
    const out = printedToc(pages, { lines: none(), runStart: none(), labels: pages.map(() => null), repeats: new Map() })!;
    expect(out.entries.map((e) => e.level)).toEqual([1, 2, 2, 1, 2, 2]);
  });
});

describe('contents entries numbered 6.3.1 whose titles do not start with a capital', () => {
  it('nest by their number (skak\'s "6.3.1 \\styleA", FHS\'s "3.4. /bin : …"), not at the top level by their indent', async () => {
    const { printedToc } = await import('../src/ingest/converters/pdf/printed-toc.js');
    const at = (cells: string[], x: number, x2 = 504): Line => ({ ...line(cells, x), x2 });
    const prose = at(['Text of the section, long enough to be prose and nothing else at all.'], 73, 539);
    const titles = ['6 Advanced Usage', '6.3 Typesetting Style', '6.3.1 \\styleA', '6.3.2 /bin : essential binaries', '6.4 Input Language', '7 Index of commands'];
    const indent = (t: string) => 72 + 15 * (t.split(' ')[0]!.split('.').length - 1);
    const toc = { page: 1, width: 612, height: 792, twoColumn: false, lines: [
      at(['Contents'], 72, 140),
      ...titles.map((t, i) => at([`${t} ................................ ${i + 2}`], indent(t))),
    ] };
    const pages = [toc, ...titles.map((t, i) => ({ page: i + 2, width: 612, height: 792, twoColumn: false, lines: [at([t], 72, 300), prose] }))];
    const none = () => pages.map(() => new Set<number>());
    const out = printedToc(pages, { lines: none(), runStart: none(), labels: pages.map(() => null), repeats: new Map() })!;
    expect(out.entries.map((e) => [e.title, e.level])).toEqual([
      ['6 Advanced Usage', 1], ['6.3 Typesetting Style', 2], ['6.3.1 \\styleA', 3], ['6.3.2 /bin : essential binaries', 3], ['6.4 Input Language', 2], ['7 Index of commands', 1],
    ]);
  });
});

describe('listings, accents and unreadable text layers', () => {
  it('writes a fixed-width line\'s gaps as blanks, not cells; other prints and contents pages keep their cells', async () => {
    const { keepListingSpacing } = await import('../src/ingest/converters/pdf/listings.js');
    const { styleKey } = await import('../src/ingest/converters/pdf/layout-types.js');
    // 5 units a character: "+" at 100, "+ sin(x)" 20 characters' width further on
    const code: Line = { cells: ['+', '+ sin(x)'], text: '+ + sin(x)', x: 100, x2: 245, y: 500, size: 10, font: 'mono', gapAbove: 1.2, spans: [100, 105, 205, 245] };
    const table: Line = { ...code, font: 'serif', cells: ['Total', '1,234'], text: 'Total 1,234', spans: [100, 125, 205, 235] };
    const page = (n: number) => ({ page: n, width: 612, height: 792, twoColumn: false, lines: [{ ...code, cells: [...code.cells], spans: [...code.spans!] }, { ...table }] });
    const pages = [page(1), page(2)];
    expect(keepListingSpacing(pages, new Set([styleKey(code)]), new Set([2]))).toBe(1);
    expect(pages[0]!.lines[0]!.cells).toEqual([`+${' '.repeat(20)}+ sin(x)`]);
    expect(pages[0]!.lines[1]!.cells).toEqual(['Total', '1,234']);
    expect(pages[1]!.lines[0]!.cells).toEqual(['+', '+ sin(x)']);
  });

  it('joins a TeX font\'s spacing accents to their letters; an acute before a consonant stays an apostrophe', async () => {
    const { composeAccents } = await import('../src/ingest/converters/pdf/lines.js');
    expect(composeAccents('3.4.4 Z¨ahler und ¨Uberschriften')).toBe('3.4.4 Zähler und Überschriften');
    expect(composeAccents('Fern´andez, Radon-Nikod´ym')).toBe('Fernández, Radon-Nikodým');
    expect(composeAccents('it´s')).toBe('it´s');
    expect(composeAccents('u˜ and β˜')).toBe('u˜ and β˜');
  });

  it('reads tesseract hOCR into lines of words: entities decoded, paragraphs numbered, text set at an angle left out', async () => {
    const { parseHocr } = await import('../src/ingest/converters/ocr.js');
    const hocr = `<div class='ocr_page' id='page_1' title='image "p.png"; bbox 0 0 2550 3300; ppageno 0'>
 <div class='ocr_carea' id='block_1_1' title="bbox 300 300 2200 420">
  <p class='ocr_par' id='par_1_1' lang='eng' title="bbox 300 300 2200 420">
   <span class='ocr_header' id='line_1_1' title="bbox 300 300 900 360; baseline 0 -12; x_size 60; x_descenders 12; x_ascenders 14">
    <span class='ocrx_word' id='word_1_1' title='bbox 300 300 340 348; x_wconf 96'>2.1</span>
    <span class='ocrx_word' id='word_1_2' title='bbox 380 300 900 360; x_wconf 93'>R&amp;D &lt;costs&gt;</span>
   </span>
  </p>
  <p class='ocr_par' id='par_1_2' lang='eng' title="bbox 300 400 2200 480">
   <span class='ocr_line' id='line_1_2' title="bbox 300 400 2200 440; baseline 0.001 -9; x_size 40; x_descenders 9; x_ascenders 11">
    <span class='ocrx_word' id='word_1_3' title='bbox 300 400 400 440; x_wconf 91'>It&#39;s</span>
   </span>
   <span class='ocr_line' id='line_1_3' title="bbox 2000 400 2040 900; textangle 90; x_size 30">
    <span class='ocrx_word' id='word_1_4' title='bbox 2000 400 2040 900; x_wconf 80'>Axis</span>
   </span>
  </p>
 </div>
</div>`;
    const page = parseHocr(hocr);
    expect([page.width, page.height]).toEqual([2550, 3300]);
    expect(page.lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['2.1 R&D <costs>', "It's"]);
    expect(page.lines.map((l) => [l.par, l.baseline, l.size])).toEqual([[1, 348, 60], [2, 431, 40]]);
    expect(page.lines[0]!.words[1]).toEqual({ text: 'R&D <costs>', x0: 380, x1: 900, conf: 93 });
  });

  it('groups the print sizes OCR measures: body lines measured a few pixels apart are one size, a heading stays apart', async () => {
    const { groupSizes } = await import('../src/ingest/converters/pdf/ocr-fallback.js');
    const size = groupSizes([{ size: 10, chars: 5000 }, { size: 10.6, chars: 900 }, { size: 9.4, chars: 700 }, { size: 13.9, chars: 40 }, { size: 14.4, chars: 30 }]);
    expect([9.4, 10, 10.6].map(size)).toEqual([10, 10, 10]);
    expect([13.9, 14.4].map(size)).toEqual([14, 14]);
  });

  it('lays out OCR pages as text-layer pages: paragraphs read with little confidence (a plot) are left out, and every word box is a word', async () => {
    const { ocrPageLayouts, OCR_MIN_PARAGRAPH_CONF } = await import('../src/ingest/converters/pdf/ocr-fallback.js');
    const word = (text: string, x0: number, conf = 95) => ({ text, x0, x1: x0 + text.length * 20, conf });
    const page = {
      width: 2550, height: 3300, lines: [
        { par: 1, baseline: 400, size: 60, words: [word('2', 300), word('Methods', 400)] },
        { par: 2, baseline: 500, size: 40, words: [word('part', 300), word('of', 382), word('the', 424), word('survey.', 486)] },
        { par: 3, baseline: 700, size: 44, words: [word('ae', 300, 18), word('Illness', 400, OCR_MIN_PARAGRAPH_CONF), word('D3', 600, 13)] },
      ],
    };
    const [layout] = ocrPageLayouts([page], [{ width: 612, height: 792 }]);
    expect(layout!.lines.map((l) => l.text)).toEqual(['2 Methods', 'part of the survey.']);
    // baselines from the page bottom in PDF units; the heading's print is larger than the body's
    expect(layout!.lines[0]!.y).toBeCloseTo(792 - 400 * (612 / 2550), 5);
    expect(layout!.lines[0]!.size / layout!.lines[1]!.size).toBeCloseTo(1.5, 1);
  });

  it('a displayed formula with two relations is not a title', async () => {
    const { notATitle } = await import('../src/ingest/converters/pdf/headings.js');
    expect(notATitle('H0: faa = faA = fAA vs. H1: faa < faA < fAA')).toBe(true);
    expect(notATitle('Choosing the bandwidth when h = 0.5')).toBe(false);
  });

  it('a text layer of symbols is unreadable: the planner asks for OCR and says why', async () => {
    const { symbolShare, UNREADABLE_SYMBOL_SHARE } = await import('../src/model/unreadable.js');
    const dingbats = '❆♥❛❧②s✐♥❣ r❡♣❧✐❝❛t❡❞ ♣♦✐♥t ♣❛tt❡r♥s ✐♥ s♣❛tst❛t';
    expect(symbolShare([dingbats])).toBeGreaterThan(UNREADABLE_SYMBOL_SHARE);
    expect(symbolShare(['Analysing replicated point patterns ✓ × → ∑'])).toBeLessThan(0.1);
    const { planOffline } = await import('../src/ingest/plan/offline-planner.js');
    const preview = { numPages: 2, pages: [dingbats, dingbats], outline: [] };
    const sample = { card: { id: 'src_00000001', filename: 'x.pdf', original_path: 'x.pdf', type: 'pdf', size_kb: 1, sha256: '0'.repeat(64) }, text: '', heading_count: 0, pdfPreview: async () => preview };
    const plan = await planOffline(sample as never);
    expect(plan.recommended_approach).toBe('ocr');
    expect(JSON.stringify(plan)).toMatch(/unreadable \(\d+% of its characters are symbols/);
  });
});
