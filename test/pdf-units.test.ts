/** Small pure pieces of the PDF layout analysis: table cells, statement titles, numbering, TOC lines. */
import { describe, it, expect } from 'vitest';
import { tidyCells } from '../src/ingest/converters/pdf/tables.js';
import { isStatementTitle, numbering } from '../src/ingest/converters/pdf/headings.js';
import { tocLine } from '../src/ingest/converters/pdf/printed-toc.js';
import type { Line } from '../src/ingest/converters/pdf/layout-types.js';

const line = (cells: string[], x = 72): Line => ({ cells, text: cells.join(' '), x, x2: 540, y: 500, size: 10, font: 'f1', gapAbove: 1.2 });

describe('table cells', () => {
  it('joins currency signs and closing parentheses to their amounts', () => {
    expect(tidyCells(['Net income', '$', '5,363', '$', '4,869'])).toEqual(['Net income', '$5,363', '$4,869']);
    expect(tidyCells(['Net earnings, including interests $', '2,210.8 $', '1,786.2'])).toEqual(['Net earnings, including interests', '$2,210.8', '$1,786.2']);
    expect(tidyCells(['Margin', '(1,577', ')', '12.5', '%'])).toEqual(['Margin', '(1,577)', '12.5%']);
  });
});

describe('headings', () => {
  it('recognises financial statement titles but not prose that starts like one', () => {
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
    expect(tocLine(line(['Total assets', '2018', '36,500']))).toBeNull();
  });
});
