/**
 * Reading text as a reader does (issue 14): run-in numbered headings ("2.2. Advanced configuration.
 * Configure accepts…") are headings, a title row running across a two-column page is one line, a
 * one-letter symbol in another font or a raised letter is a word of its own, a heading's label line
 * ("CHAPTER 4") opens its section, and summary sentences holding decimals are whole.
 */
import { describe, it, expect } from 'vitest';
import type { Line, PageLayout } from '../src/ingest/converters/pdf/layout-types.js';
import { buildPage, findZonedGutter, MAX_ZONE_SPANNING_PROSE } from '../src/ingest/converters/pdf/lines.js';
import { findHeadings } from '../src/ingest/converters/pdf/headings.js';
import { findFurniture } from '../src/ingest/converters/pdf/furniture.js';
import { balanced, cutAtInitial, proseLike, sentenceRuns } from '../src/ingest/converters/pdf/summary.js';
import { locateEntries } from '../src/ingest/converters/pdf/locate.js';
import { mendHyphenation } from '../src/ingest/converters/pdf/hyphens.js';
import { splitRun, unglueCapitals } from '../src/ingest/converters/pdf/glued.js';

const BODY = { size: 10, font: 'body' };
let y = 700;
function line(text: string, o: Partial<Line> = {}): Line {
  y -= 12;
  return { cells: [text], text, x: 72, x2: 540, y, size: 10, font: 'body', gapAbove: 1.2, ...o };
}
const page = (n: number, lines: Line[]): PageLayout => ({ page: n, width: 612, height: 792, lines, twoColumn: false });
const item = (str: string, x: number, yy: number, font = 'body', size = 10, w = str.length * size * 0.5) => ({ str, transform: [size, 0, 0, size, x, yy], width: w, fontName: font });

describe('run-in numbered headings (pari-install, r-rcpp-modules)', () => {
  it('keeps the opening run in another font as the line\'s lead, with a period printed in the paragraph font', () => {
    const p = buildPage(1, 612, 792, [
      item('2.2. Advanced configuration', 72, 700, 'bold', 10, 130),
      item('. Configure accepts many other flags, and you may use any', 202, 700, 'body', 10, 300),
      item('of them to prepare the build; the text goes on in the body font here.', 72, 686, 'body', 10, 400),
    ]);
    expect(p.lines[0]!.lead).toEqual({ text: '2.2. Advanced configuration.', font: 'bold' });
    expect(p.lines[1]!.lead).toBeUndefined();
  });

  it('scores the lead of a numbered run-in line as a heading; a bold "1." list label, a bare "Section 3:" or an unnumbered lead is none', () => {
    const runIn = (lead: string, rest: string): Line => line(`${lead} ${rest}`, { lead: { text: lead, font: 'bold' } });
    const prose = Array.from({ length: 6 }, (_, i) => line(`Body text line ${i} of the page with enough words to read as prose here.`));
    const pages = [page(1, [runIn('2.2. Advanced configuration.', 'Configure accepts many other flags, and you may use any'), ...prose, runIn('1. Install:', 'run the script from the top folder and wait for it'), ...prose, runIn('Note.', 'The kernel can be specified via the option below'), ...prose, runIn('Section 3:', 'The following terms have the following meanings when they are used in this agreement and in every schedule to it')])];
    const hs = findHeadings(pages, findFurniture(pages), BODY, new Set());
    expect(hs.map((h) => [h.title, h.kind, h.level])).toEqual([['2.2. Advanced configuration', 'numbered', 2]]);
  });
});

describe('a title printed over two lines (JOHNSON_JOHNSON_2022_10K "Results of Operations" / "Analysis of Consolidated Sales")', () => {
  it('records both lines, so the second is not read as the opening of the summary', () => {
    const prose = Array.from({ length: 6 }, (_, i) => line(`Body text line ${i} of the page with enough words to read as prose here.`));
    const bold = (t: string) => line(t, { font: 'bold', gapAbove: 1.2, x2: 300 });
    const pages = [page(1, [...prose, bold('Results of Operations'), bold('Analysis of Consolidated Sales'), ...prose])];
    const hs = findHeadings(pages, findFurniture(pages), BODY, new Set());
    expect(hs.map((h) => [h.title, h.line, h.lines])).toEqual([['Results of Operations Analysis of Consolidated Sales', 6, 2]]);
  });
});

describe('a title row across the gutter of a two-column page (r-rcpp-modules)', () => {
  it('reads the row as one line in order, not its left words after the rest', () => {
    const raw = [item('Exposing C++', 52, 720, 'title', 22, 130), item('functions and classes', 194, 720.3, 'title', 22, 230)];
    for (let i = 0; i < 8; i++) {
      raw.push(item(`left column sentence number ${i} goes on here`, 52, 650 - i * 14, 'body', 10, 230));
      raw.push(item(`right column sentence number ${i} goes on too`, 320, 650 - i * 14, 'body', 10, 230));
    }
    const p = buildPage(1, 612, 792, raw);
    expect(p.twoColumn).toBe(true);
    expect(p.lines[0]!.text).toBe('Exposing C++ functions and classes');
    expect(p.lines.some((l) => l.text.includes('left') && l.text.includes('right'))).toBe(false);
  });
});

describe('two columns 10 pt apart, LaTeX\'s default column separation (vegan\'s diversity vignette)', () => {
  // each column's justified lines fill it: the left ones end at 292, the right ones open at 302 (1 em of 10 pt text)
  const rows = (n: number, leftText: (i: number) => string, rightText: (i: number) => string, leftW = 220, rightX = 302, rightW = 220) => Array.from({ length: n }, (_, i) => [
    item(leftText(i), 72, 700 - i * 12, 'body', 10, leftW), item(rightText(i), rightX, 700 - i * 12, 'body', 10, rightW),
  ]).flat();

  it('reads the left column, then the right one', () => {
    const p = buildPage(1, 595, 842, rows(12, (i) => `left column sentence number ${i} goes on here and on`, (i) => `right column sentence number ${i} goes on too and on`));
    expect(p.twoColumn).toBe(true);
    expect(p.lines.some((l) => l.text.includes('left') && l.text.includes('right'))).toBe(false);
    expect(p.lines.map((l) => l.text.split(' ')[0])).toEqual([...Array(12).fill('left'), ...Array(12).fill('right')]);
  });

  it('a table\'s names beside their descriptions, as close, stay rows (ngspice\'s "length(vector) | The length of vector.")', () => {
    const p = buildPage(1, 595, 842, rows(12, (i) => `interpolate(vector${i})`, (i) => `The result of interpolating vector number ${i} onto the scale of the plot`, 110, 194, 300));
    expect(p.twoColumn).toBe(false);
    expect(p.lines[0]!.text).toMatch(/^interpolate\(vector0\) The result/);
  });
});

describe('three columns (PARI\'s reference card, a three-column index)', () => {
  const col = (name: string, x: number, n: number, w = 200) => Array.from({ length: n }, (_, i) => item(`${name} entry number ${i} with its description`, x, 700 - i * 12, 'body', 8, w));

  it('reads each column in turn: a column with a gutter of its own as wide as the page\'s other column is split again', () => {
    const p = buildPage(1, 842, 595, [...col('first', 20, 14), ...col('second', 300, 14), ...col('third', 580, 14)]);
    expect(p.twoColumn).toBe(true);
    const order = p.lines.map((l) => l.text.split(' ')[0]);
    expect(order).toEqual([...Array(14).fill('first'), ...Array(14).fill('second'), ...Array(14).fill('third')]);
  });

  it('a column holding a table\'s narrow names beside their wide values is not split (ngspice\'s model tables)', () => {
    const names = Array.from({ length: 14 }, (_, i) => item(`Parameter_Name${i}:`, 20, 700 - i * 12, 'body', 8, 130));
    const values = Array.from({ length: 14 }, (_, i) => item(`the value of parameter ${i} and its limits`, 170, 700 - i * 12, 'body', 8, 250));
    const p = buildPage(1, 842, 595, [...names, ...values, ...col('third', 580, 14, 240)]);
    expect(p.lines.find((l) => l.text.startsWith('Parameter_Name0:'))!.text).toContain('the value of parameter 0');
  });

  it('a table\'s columns as wide as text columns but mostly empty are not split (Costco\'s subsidiaries, states and trade names)', () => {
    const head = [item('State or Other Jurisdiction of Incorporation', 300, 712, 'body', 8, 200)];
    const states = Array.from({ length: 13 }, (_, i) => item(i % 2 ? 'California' : 'Canadian Federal', 300, 700 - i * 12, 'body', 8, 60));
    const p = buildPage(1, 842, 595, [...col('subsidiary', 20, 14), ...head, ...states, ...col('trade', 580, 14)]);
    expect(p.lines.some((l) => l.text.includes('California') && l.text.includes('subsidiary'))).toBe(true);
  });
});

describe('text printed again in place (bold faked by overprinting: QDBM\'s benchmark sheet)', () => {
  it('is read once; the same words printed further along the line are kept', () => {
    const raw = [0, 0.3, 0.6, 0.9].map((dx) => item('Benchmark Test of DBM Brothers', 66 + dx, 782, 'body', 14, 220));
    expect(buildPage(1, 612, 792, raw).lines.map((l) => l.text)).toEqual(['Benchmark Test of DBM Brothers']);
    const twice = [item('yes', 66, 700, 'body', 10, 15), item('yes', 90, 700, 'body', 10, 15)];
    expect(buildPage(1, 612, 792, twice).lines[0]!.text).toBe('yes yes');
  });
});

describe('two columns around a wide float (acm-sample-sigplan p4, a 10-Q auditor\'s report)', () => {
  const column = (side: 'left' | 'right', from: number, n: number, top: number) =>
    Array.from({ length: n }, (_, i) => item(`${side} column sentence number ${from + i} goes on here`, side === 'left' ? 52 : 320, top - i * 14, 'body', 10, 230));
  const wideRow = (label: string, yy: number) => [item(label, 52, yy, 'body', 10, 60), item('across the gutter', 250, yy, 'body', 10, 120), item('42', 500, yy, 'body', 10, 12)];

  it('reads the columns above a wide table in its middle left first, the table where it is printed, then the columns below', () => {
    const raw = [...column('left', 0, 6, 700), ...column('right', 0, 6, 700), ...wideRow('Row one', 600), ...wideRow('Row two', 586), ...column('left', 6, 6, 560), ...column('right', 6, 6, 560)];
    const p = buildPage(1, 612, 792, raw);
    expect(p.twoColumn).toBe(true);
    expect(p.lines.some((l) => l.text.includes('left') && l.text.includes('right'))).toBe(false);
    const order = p.lines.map((l) => /^(left|right) column sentence number (\d+)/.exec(l.text)?.slice(1).join(' ') ?? l.text.split(' ')[0]);
    expect(order).toEqual([
      'left 0', 'left 1', 'left 2', 'left 3', 'left 4', 'left 5', 'right 0', 'right 1', 'right 2', 'right 3', 'right 4', 'right 5',
      'Row', 'Row',
      'left 6', 'left 7', 'left 8', 'left 9', 'left 10', 'left 11', 'right 6', 'right 7', 'right 8', 'right 9', 'right 10', 'right 11',
    ]);
  });

  it('a table across the page under two columns of text does not keep the page from being read by columns: its rows are read where printed (ndwia p11)', () => {
    const at = (str: string, x: number, yy: number, w: number) => ({ str, x, x2: x + w, y: yy, size: 10, font: 'body' });
    const rows = [
      [at('Agency Priority Goal: Reduce Serious Violators among Small Systems in every region', 52, 740, 490)],
      [at('Goal statement: by September 30, 2015, reduce the number of serious violators by 20%.', 52, 726, 490)],
      ...Array.from({ length: 14 }, (_, i) => [at(`left column prose line number ${i} goes on here`, 52, 700 - i * 14, 230), at(`right column prose line number ${i} goes on too`, 320, 700 - i * 14, 230)]),
      ...Array.from({ length: 5 }, (_, i) => [at(`March ${i + 1}, 2015`, 52, 480 - i * 14, 80), at('1,347', 230, 480 - i * 14, 30), at('9.0%', 340, 480 - i * 14, 25), at('1,332', 450, 480 - i * 14, 30)]),
    ];
    expect(findZonedGutter(rows, 612)).not.toBeNull();
  });

  it('a title block across the page opens it even when a page number or the title\'s short last line sits in a column (ndwia p6, JPMorgan 10-Q p9)', () => {
    const across = (label: string, yy: number) => item(`${label} printed across the whole page from the left margin to the right one`, 52, yy, 'body', 10, 500);
    const raw = [
      item('Agency Annual Performance Report running head across', 100, 760, 'body', 8, 350), item('6', 52, 760, 'body', 8, 6),
      item('Strategic Goal 1: Protect Public Health through Safe Drinking', 52, 730, 'title', 14, 450), item('Water', 52, 712, 'title', 14, 40),
      across('Intro line one', 694), across('Intro line two', 680),
      ...column('left', 0, 8, 650), ...column('right', 0, 8, 650),
    ];
    const p = buildPage(1, 612, 792, raw);
    expect(p.twoColumn).toBe(true);
    const order = p.lines.map((l) => /^(left|right) column sentence number (\d+)/.exec(l.text)?.slice(1).join(' ') ?? l.text.split(' ').slice(0, 3).join(' '));
    expect(order.slice(0, 7)).toEqual(['Agency Annual Performance', '6', 'Strategic Goal 1:', 'Water', 'Intro line one', 'Intro line two', 'left 0']);
    expect(order.indexOf('right 0')).toBe(order.indexOf('left 7') + 1);
  });

  it('columns over a publication note printed across the page\'s bottom are read left first, the note after them, however much code the columns hold (TLSH p2)', () => {
    const code = (side: 'left' | 'right', n: number, top: number) => Array.from({ length: n }, (_, i) => item(`x${i} = f(${i}) {`, side === 'left' ? 60 : 330, top - i * 14, 'mono', 9, 60));
    const note = (k: number) => item(`Published as note line ${k} with https://example.org/a/long/address/paper-${k}.pdf`, 52, 120 - k * 12, 'body', 8, 300 + k * 40);
    const raw = [...column('left', 0, 8, 700), ...code('left', 10, 588), ...column('right', 0, 8, 700), ...code('right', 10, 588), note(0), note(1), note(2), note(3)];
    const p = buildPage(1, 612, 792, raw);
    expect(p.twoColumn).toBe(true);
    expect(p.lines.some((l) => l.text.includes('left column') && l.text.includes('right column'))).toBe(false);
    const texts = p.lines.map((l) => l.text);
    expect(texts.findIndex((t) => t.startsWith('right column sentence number 0'))).toBeGreaterThan(texts.findIndex((t) => t.startsWith('left column sentence number 7')));
    expect(texts.slice(-4).every((t) => t.startsWith('Published as note line'))).toBe(true);
    // a table's labels beside their values under a caption across the page are no columns
    const label = (k: number) => [item(`Description_${k}:`, 52, 700 - k * 14, 'body', 10, 70), item(`"value number ${k}"`, 330, 700 - k * 14, 'body', 10, 90)];
    const table = buildPage(1, 612, 792, [...Array.from({ length: 10 }, (_, k) => label(k)).flat(), note(0), note(1)]);
    expect(table.twoColumn).toBe(false);
  });

  it('rows of a two-text-column table between lines of prose across the page are no columns (debian-reference p110)', () => {
    const at = (str: string, x: number, yy: number, w: number) => ({ str, x, x2: x + w, y: yy, size: 10, font: 'body' });
    const groups = (prose: number) => [
      ...Array.from({ length: 10 }, (_, i) => [at(`View the log of service number ${i} from`, 52, 700 - i * 14, 230), at(`journalctl --unit service${i}`, 320, 700 - i * 14, 200)]),
      ...Array.from({ length: prose }, (_, i) => [at(`A paragraph line ${i} of prose printed across the whole width of the page as one column does.`, 52, 540 - i * 14, 480)]),
    ];
    // a caption or two across the gutter leave the table's text columns readable as columns…
    expect(findZonedGutter(groups(2), 612)).not.toBeNull();
    // …but a one-column page's paragraphs cross it line after line
    expect(findZonedGutter(groups(MAX_ZONE_SPANNING_PROSE + 1), 612)).toBeNull();
  });
});

describe('summary sentences (JOHNSON_JOHNSON_2022_10K p34)', () => {
  it('a sentence holding decimals or "e.g." is whole; a cut parenthesis is no sentence', () => {
    const text = 'Consolidated earnings were $21.7 billion and $22.8 billion in 2022 and 2021. Costs rose, e.g. freight. (Dollars in billions. Percentages are of total sales) Next one.';
    expect(sentenceRuns(text)).toEqual([
      'Consolidated earnings were $21.7 billion and $22.8 billion in 2022 and 2021.',
      'Costs rose, e.g. freight.',
      '(Dollars in billions.',
      'Percentages are of total sales) Next one.',
    ]);
    expect(balanced('Percentages are of total sales) Next one.')).toBe(false);
    expect(balanced('Sales (net) grew.')).toBe(true);
  });

  it('summary sentences come from the body-size print: a footnote between two halves of a sentence is skipped, table rows are still listed (rpsample, acm permission block)', async () => {
    const { summarize, mainPrint } = await import('../src/ingest/converters/pdf/summary.js');
    const at = (text: string, size: number, cells = [text]): Line => line(text, { size, cells });
    const lines = [
      at('Since Kant the discipline has long asked whether things in themselves can be known by us at all, and for these', 10),
      at('∗ This is the first titlenote, printed at the foot of the page in a smaller size.', 8),
      at('© 2012 Res Philosophica. Permission to copy otherwise, or republish, requires a fee.', 8),
      at('reasons the question of their knowability has shaped the reading of the critique of pure reason ever since then.', 10),
      at('Revenue 5,363 4,869', 8, ['Revenue', '5,363', '4,869']),
      at('Operating income 1,200 1,100', 8, ['Operating income', '1,200', '1,100']),
    ];
    const stats = { pages: 10, df: new Map<string, number>() };
    const text = summarize(lines, stats, '', { bodySize: 10 });
    expect(text).toContain('and for these reasons the question');
    expect(text).not.toMatch(/titlenote|Permission/);
    expect(text).toContain('Revenue');
    // a node printed all in small print keeps it (nothing else says what it holds)
    expect(mainPrint(lines.slice(1, 3), 10)).toHaveLength(2);
  });

  it('a sentence pointing back to the one before it is a summary\'s last choice; a listing\'s lines are no sentences', async () => {
    const { summarize } = await import('../src/ingest/converters/pdf/summary.js');
    const stats = { pages: 10, df: new Map<string, number>() };
    const own = 'Each data set of the package is described in this section, with its source, its format and a plot of all its points, so that a reader can choose one for an example or a test of a new method.';
    const back = 'They consist of sixty seven points representing copper ore deposits and one hundred forty six line segments representing geological lineaments, recorded in a rectangular region of Queensland, Australia.';
    // room for one of the two: the one that stands on its own is said, though the other has more words of its own
    expect(summarize([line(own), line(back)], stats, '', {})).toContain('Each data set');
    expect(summarize([line(own), line(back.replace(/^They consist/, 'The deposits consist'))], stats, '', {})).toContain('copper ore');
    const listing: Line = { ...line('R> fit <- glm(cases ~ 1 + t, family = poisson)     Coefficients: estimate 1.23 and standard error 0.45.'), listing: true };
    expect(summarize([line(own), listing], stats, '', {})).not.toContain('glm');
  });

  it('a middle initial ends no sentence; a capital letter after a lower-case word does', () => {
    expect(sentenceRuns('A collection of Michael A. Covington’s macros. Written by J. R. R. Tolkien. Pitches below middle C. By adding quotes.')).toEqual([
      'A collection of Michael A. Covington’s macros.', 'Written by J. R. R. Tolkien.', 'Pitches below middle C.', 'By adding quotes.',
    ]);
    // an abbreviation before a year, a number or a name ends nothing
    expect(sentenceRuns('Bönsch et al. (2005) found longer alleles, see Fig. 3 and pp. 12–14. Then we fit it.')).toEqual([
      'Bönsch et al. (2005) found longer alleles, see Fig. 3 and pp. 12–14.', 'Then we fit it.',
    ]);
  });

  it('a run cut at an author\'s initial is no summary sentence (audit: PRTEC19 "C., “Title of article,”…")', () => {
    expect(['C., “Title of article,” Title of Journal (2009), doi: abced/fghij/12345.', 'C. C., “Title of article,” Title of Journal.', 'A. and Bejan, A., Convection in Porous Media.'].map(cutAtInitial)).toEqual([true, true, true]);
    expect(['Consolidated earnings were $21.7 billion in 2022.', 'The letters c through b denote pitches below middle C.', 'A. The first answer.'].map(cutAtInitial)).toEqual([false, false, false]);
  });
});

describe('words of their own (r-lme4-theory "theq-dimensional", r-rcpp-modules "Eddelbuettela")', () => {
  it('a one-letter symbol in another font after a word is a word; a kerned tail in the word\'s font is not', () => {
    const p = buildPage(1, 612, 792, [item(', and the', 280, 700, 'body', 12, 45), item('q', 328.5, 700, 'italic', 12, 6), item('-dimensional', 334.5, 700, 'body', 12, 70)]);
    expect(p.lines[0]!.text).toBe(', and the q-dimensional');
    const k = buildPage(1, 612, 792, [item('Incom', 60, 700, 'body', 10, 30), item('e', 91, 700, 'body', 10, 5)]);
    expect(k.lines[0]!.text).toBe('Incom' + 'e');
  });

  it('a raised small letter after a name is a mark, not the name\'s last letter', () => {
    const p = buildPage(1, 612, 792, [item('Dirk Eddelbuettel', 52, 675, 'body', 8, 68), item('a', 120.5, 677.5, 'body', 6, 3), item(' and Romain François', 124, 675, 'body', 8, 80)]);
    expect(p.lines[0]!.text).toBe('Dirk Eddelbuettel[a] and Romain François');
  });
});

describe('words broken at a line\'s end', () => {
  it('are mended on the first line, the hyphen kept only where the document writes the compound so', () => {
    const page = [
      line('which creates the files. You may want to group these in a subdi-'),
      line('rectory, which must be created first, and read the two-'),
      line('column layout, since two-column pages are common; the pro-'),
      line('vided data are read as a two-column table.'),
      line('Total | 12', { cells: ['Total', '12'] }),
      line('a last word that breaks in a table-'),
      line('Header | 3', { cells: ['Header', '3'] }),
    ];
    expect(mendHyphenation([page])).toBe(3);
    expect(page.map((l) => l.text)).toEqual([
      'which creates the files. You may want to group these in a subdirectory,',
      'which must be created first, and read the two-column',
      'layout, since two-column pages are common; the provided',
      'data are read as a two-column table.',
      'Total | 12',
      'a last word that breaks in a table-',
      'Header | 3',
    ]);
    expect(page[0]!.cells).toEqual([page[0]!.text]);
    // a line that is only the rest of the word is not emptied
    const short = [line('see the subdi-'), line('rectory')];
    expect(mendHyphenation([short])).toBe(0);
  });

  it('a number\'s hyphen at a line\'s end keeps its compound whole ("2-" / "hour samples"); a range\'s or a figure\'s does not join', () => {
    const page = [line('dose; 2-'), line('hour samples are taken within 15 minutes; a 30-'), line('day window applies; pages 12-'), line('14 of the report, and $1,000-'), line('plus totals.')];
    mendHyphenation([page]);
    expect(page.map((l) => l.text)).toEqual(['dose; 2-hour', 'samples are taken within 15 minutes; a 30-day', 'window applies; pages 12-', '14 of the report, and $1,000-', 'plus totals.']);
  });
});

describe('bookmark titles the document cut short (elsarticle)', () => {
  const prose = (t: string) => line(`${t} text of the page, long enough to be read as prose and nothing else.`);
  it('take the rest of their printed heading; a title printed as it is, or a sentence it opens, stays as it is', () => {
    const heading = (t: string) => line(t, { size: 14.5, x2: 72 + t.length * 7 });
    const body = [
      [heading('10. Mathematical symbols and formulae'), prose('Maths'), prose('More')],
      [heading('Installation'), prose('Install'), prose('More')],
      [line('Usage of the class is simple: load it first.'), prose('Use'), prose('More')],
      // a paragraph's first line opening with the title fills the measure; a label after it is no part of it
      [line('Species accumulation models are similar to rarefaction', { size: 14.5 }), prose('Models'), prose('More')],
      [heading('Symbols B'), prose('Symbols'), prose('More')],
    ];
    const out = locateEntries([{ title: 'Mathematical', level: 1, page: 1 }, { title: 'Installation', level: 1, page: 2 }, { title: 'Usage', level: 1, page: 3 },
      { title: 'Species accumulation models', level: 1, page: 4 }, { title: 'Symbols', level: 1, page: 5 }], body);
    expect(out.map((e) => e.title)).toEqual(['Mathematical symbols and formulae', 'Installation', 'Usage', 'Species accumulation models', 'Symbols']);
  });
  it('a label\'s bookmark ("Chapter 1") takes the title printed after its colon or dash (Brewtarget)', () => {
    const heading = (t: string) => line(t, { size: 14.5, x2: 72 + t.length * 7 });
    const body = [[heading('Chapter 1: A Walkthrough'), prose('Walk'), prose('More')], [heading('Part II — General Concepts'), prose('Concepts'), prose('More')]];
    const out = locateEntries([{ title: 'Chapter 1', level: 1, page: 1 }, { title: 'Part II', level: 1, page: 2 }], body);
    expect(out.map((e) => e.title)).toEqual(['Chapter 1: A Walkthrough', 'Part II — General Concepts']);
  });
});

describe('bookmarks pointing pages before their headings (4ti2 manual)', () => {
  const prose = (t: string) => line(`${t} text of the page, long enough to be read as prose and nothing else.`);
  it('moves an entry to the later page, up to the next entry\'s, where its title is printed; a misread title stays', () => {
    const body = [
      [line('NEWS: Changes since version 1.2'), prose('News')], [prose('More news')], [prose('Even more news')],
      [line('AUTHORS: The 4ti2 team'), prose('Names')], [line('THANKS'), prose('Thanks')], [prose('Nothing')], [line('Bibliography'), prose('Refs')],
    ];
    const out = locateEntries([
      { title: 'NEWS: Changes since version 1.2', level: 1, page: 1, top: 700 },
      { title: 'AUTHORS: The 4ti2 team', level: 1, page: 1, top: 700 },
      { title: 'THANKS', level: 1, page: 4 },
      { title: 'Bibliography', level: 1, page: 5 },
    ], body);
    expect(out.map((e) => [e.title, e.page, e.line])).toEqual([
      ['NEWS: Changes since version 1.2', 1, 0], ['AUTHORS: The 4ti2 team', 4, 0], ['THANKS', 5, 0], ['Bibliography', 7, 0],
    ]);
    // printed on its page with a letter misread ("tt" read as "fl"): the entry stays there
    const misread = locateEntries([{ title: '7 Formatting Labels', level: 1, page: 1, top: 500 }], [[prose('Before'), line('7 Formafling Labels', { y: 495 })], [line('7 Formatting Labels')]]);
    expect(misread[0]!.page).toBe(1);
    // a short title printed only deep in a later page is a mention, not the heading
    const mention = locateEntries([{ title: 'Thanks', level: 1, page: 1 }], [[prose('A')], [prose('B'), prose('C'), prose('D'), line('Thanks')]]);
    expect(mention[0]!.page).toBe(1);
  });
});

describe('a heading\'s label line (maxima-book "CHAPTER 4", filings "ITEM 1B." / "NOTE 4")', () => {
  it('starts the section at the label printed right above the title', () => {
    const body = [[line('Text of the section before, ending here.'), line('ITEM 1B.'), line('Unresolved Staff Comments'), line('None.')], [line('CHAPTER 4'), line('Assignment Operators'), line('Text.')]];
    const out = locateEntries([{ title: 'Unresolved Staff Comments', level: 2, page: 1 }, { title: 'Assignment Operators', level: 1, page: 2 }], body);
    expect(out.map((e) => e.line)).toEqual([1, 0]);
    // a label that is not one ("Table 3") or a title without one stays where it is
    const plain = locateEntries([{ title: 'Results', level: 1, page: 1 }], [[line('Table 3'), line('Results'), line('Text.')]]);
    expect(plain[0]!.line).toBe(1);
  });

  it('a long bookmark title printed on its page wins over a destination set on the next heading (ADOBE_2019_10K "Item 1B")', () => {
    const at = (text: string, yy: number): Line => line(text, { y: yy });
    const page1 = [at('Risk text of the section before, long enough to be prose here.', 700), at('ITEM 1B. UNRESOLVED STAFF COMMENTS', 500), at('None.', 488), at('ITEM 2. PROPERTIES', 460), at('The following table sets forth our properties.', 448)];
    const out = locateEntries([{ title: 'Item 1B. Unresolved Staff Comments', level: 2, page: 1, top: 470 }, { title: 'Item 2. Properties', level: 2, page: 1, top: 470 }], [page1]);
    expect(out.map((e) => e.line)).toEqual([1, 3]);
  });

  it('a destination a line below a heading that reads exactly as the title (\\addcontentsline under \\section*) starts at the heading; a short title read inside another line does not (PRTEC19 "NOMENCLATURE", Circuit_macros "se_")', () => {
    const at = (text: string, yy: number): Line => line(text, { y: yy });
    const page = [at('Text of the acknowledgements, long enough to be read as prose and nothing else.', 700), at('NOMENCLATURE', 657), at('Roman letters', 626), at('Be dimensionless variable', 612)];
    expect(locateEntries([{ title: 'Nomenclature', level: 1, page: 1, top: 640 }], [page])[0]!.line).toBe(1);
    const macros = [at('block label given by the third argument', 700), at('(Section 6.1)', 657), at('se_ gen .se with respect to current direction', 626)];
    expect(locateEntries([{ title: 'se_', level: 1, page: 1, top: 640 }], [macros])[0]!.line).toBe(2);
  });
});

describe('summary sentences are prose', () => {
  it('console input is no sentence; a sentence of amounts is', () => {
    expect(proseLike('(%i6) 8!!; (%o6) 384 (%i7) 2*4*6*8; (%o7) 384 sqrt(x) This is your basic operator.')).toBe(false);
    expect(proseLike('Revenue was $5,363 million in 2023, $4,869 million in 2022 and $4,505 in 2021.')).toBe(true);
  });
});

describe('capitals set without word spaces (MGM 2015 10-K: "ITEM3. LEGALPROCEEDINGS")', () => {
  const prose = [
    'Information about legal proceedings and other proceedings is in Note 11; see Item 3 and Item 7 for the risk factors that apply.',
    'Our provision for income taxes and the income taxes paid are in Note 10; legal counsel reviewed the accounts receivable.',
    'The accounts receivable, net of the allowance, and selected financial data: see selected financial data and the Item 6 table.',
    'Set the paper size with PAPERSIZE; the paper size is A4. Article II covers the terms; the Article II text is short.',
    'Use EPSILON_SPLITMERGE with split merge steps; HTML5 pages; a split merge again.',
  ];
  const pageOf = (heads: string[][]): PageLayout => ({ page: 1, width: 600, height: 800, twoColumn: false, lines: [...heads.map((c) => line(c.join(' '), { cells: c })), ...prose.map((t) => line(t))] });

  it('splits a heading\'s glued words where the document writes them side by side, and its label from its number', () => {
    const p = pageOf([['ITEM3.', 'LEGALPROCEEDINGS'], ['NOTE10—INCOMETAXES'], ['ITEM6.', 'SELECTEDFINANCIALDATA'], ['ARTICLEII']]);
    expect(unglueCapitals([p])).toBe(4);
    expect(p.lines.slice(0, 4).map((l) => l.cells)).toEqual([['ITEM 3.', 'LEGAL PROCEEDINGS'], ['NOTE 10—INCOME TAXES'], ['ITEM 6.', 'SELECTED FINANCIAL DATA'], ['ARTICLE II']]);
    expect(p.lines[0]!.text).toBe('ITEM 3. LEGAL PROCEEDINGS');
  });

  it('leaves names, identifiers, words the document writes, and mixed-case text as printed', () => {
    // two words alone could be one name in capitals; an identifier is never split; "PEP24" is a ticker, not a label
    const heads = [['PAPERSIZE . . . . 57'], ['#define EPSILON_SPLITMERGE 1e-12'], ['CONSOLIDATED'], ['PEP24'], ['the HTML5 canvas'], ['MISCELLANEOUS']];
    const p = pageOf(heads);
    expect(unglueCapitals([p])).toBe(0);
    expect(p.lines.slice(0, heads.length).map((l) => l.cells)).toEqual(heads);
  });

  it('splits only into words the document writes, fewest parts first', () => {
    const p = pageOf([]);
    const lex = { uses: new Map([['legal', 3], ['proceedings', 2], ['leg', 5], ['al', 5]]), pairs: new Set(['legal proceedings', 'leg al']) };
    expect(splitRun('legalproceedings', lex)).toEqual(['legal', 'proceedings']);
    expect(splitRun('legalese', lex)).toBeNull();
    expect(p.lines.length).toBe(prose.length);
  });
});
