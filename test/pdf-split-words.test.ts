/**
 * Words a PDF prints with a wide kerning gap inside them are joined again (src/ingest/converters/pdf/split-words.ts)
 * when the document itself writes them whole, far more often, and never writes either part alone.
 */
import { describe, it, expect } from 'vitest';
import { mendSplitWords } from '../src/ingest/converters/pdf/split-words.js';
import type { Line, PageLayout } from '../src/ingest/converters/pdf/layout-types.js';

const line = (text: string, cells = [text]): Line => ({ text, cells, x: 72, x2: 540, y: 700, size: 10, font: 'body', gapAbove: 1.2 }) as Line;
const page = (n: number, texts: string[]): PageLayout => ({ page: n, width: 612, height: 792, lines: texts.map((t) => line(t)), twoColumn: false });
const usual = Array.from({ length: 4 }, (_, i) => `Segment information and certain liabilities of the group, our Website and page ${i}; a rise in rates.`);

describe('words split by kerning', () => {
  it('two parts are joined where the document writes the word whole and neither part alone', () => {
    const pages = [page(1, usual), page(2, ['Operating Results – Detailed Segment Info rmation', 'and cert ain of our debt, liabi lities of the gr oup.'])];
    expect(mendSplitWords(pages)).toBe(2);
    expect(pages[1]!.lines.map((l) => l.text)).toEqual(['Operating Results – Detailed Segment Information', 'and certain of our debt, liabilities of the group.']);
    expect(pages[1]!.lines[0]!.cells).toEqual(['Operating Results – Detailed Segment Information']);
  });

  it('a part the document writes as a word, a pair it writes about as often as the whole word, or a word it rarely writes whole stay apart', () => {
    const pages = [page(1, usual), page(2, ['a rise, our Web site and our Web site again', 'Arnold Schö nberg', 'a c ompliance issue', 'c is a variable'])];
    expect(mendSplitWords(pages)).toBe(0);
    expect(pages[1]!.lines[0]!.text).toBe('a rise, our Web site and our Web site again');
  });

  it('a table\'s cells are mended each on its own, never across two cells', () => {
    const pages = [page(1, usual), { ...page(2, []), lines: [line('Info rmation | Info', ['Info rmation', 'Info']), line('Segment | rmation', ['Segment', 'rmation'])] }];
    mendSplitWords(pages);
    expect(pages[1]!.lines.map((l) => l.cells)).toEqual([['Info rmation', 'Info'], ['Segment', 'rmation']]);
  });
});
