/**
 * PDF structure (issue #3) on real fixture PDFs made by pdf-lib, LibreOffice and qpdf
 * (scripts/fixtures/pdf/make-pdf-fixtures.mjs): bookmarks, a printed TOC with a printed→physical
 * offset, bold numbered headings without an outline, running headers/footers, a two-column page,
 * a table; plus the error paths (encrypted, corrupt).
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pdfConverter } from '../src/ingest/converters/pdf/index.js';
import { convertPdfBytes } from '../src/ingest/converters/pdf/convert.js';
import { ConvertError, type ConvertedNode, type ConvertResult } from '../src/ingest/converters/types.js';
import type { FileCard, Strategy } from '../src/store/schemas.js';
import { FIXTURES } from './helpers/temp-store.js';
import { scanPdf } from './helpers/scan-pdf.js';

const pdf = (name: string) => readFileSync(join(FIXTURES, 'pdf', name));
const plan: Strategy = { doc_nature: 'report', has_structure: true, recommended_approach: 'tree_index', convert_to_plaintext: false, key_sections: [], special_handling: [], summary: '', planner: 'offline' };
const card = (filename: string, bytes: Uint8Array): FileCard => ({ id: 'src_0000abcd', filename, original_path: `inbox/${filename}`, type: 'pdf', size_kb: bytes.length / 1024, sha256: '0'.repeat(64) });

async function convert(name: string, maxLeafPages = 5): Promise<ConvertResult> {
  const bytes = pdf(name);
  return pdfConverter.convert({ absPath: name, card: card(name, bytes), plan, bytes, options: { maxLeafPages } });
}
const all = (n: ConvertedNode): ConvertedNode[] => [n, ...n.children.flatMap(all)];
const leaves = (n: ConvertedNode): ConvertedNode[] => (n.children.length ? n.children.flatMap(leaves) : [n]);
const byTitle = (r: ConvertResult, title: string) => {
  const n = all(r.root).find((x) => x.title === title);
  if (!n) throw new Error(`no node "${title}" in ${all(r.root).map((x) => x.title).join(' | ')}`);
  return n;
};
/**
 * Leaves run from heading to heading: in order, each page in at least one leaf, two neighbours
 * sharing at most the page where one ends and the next begins. Returns leaves per page.
 */
function coverage(r: ConvertResult): number[] {
  const count = Array.from({ length: r.pages! + 1 }, () => 0);
  const ls = leaves(r.root);
  ls.forEach((l, i) => {
    for (let p = l.page_range![0]; p <= l.page_range![1]; p++) count[p]!++;
    const prev = ls[i - 1];
    if (prev) expect(l.page_range![0] - prev.page_range![1]).toBeGreaterThanOrEqual(0);
    if (prev) expect(l.page_range![0] - prev.page_range![1]).toBeLessThanOrEqual(1);
  });
  return count.slice(1);
}

describe('pdf: bookmarks (LibreOffice export)', () => {
  it('uses the outline, nests it, and folds sub-sections that share their parent\'s page', async () => {
    const r = await convert('manual.pdf');
    expect(r.toc_source).toBe('bookmarks');
    expect(r.pages).toBe(3);
    expect(r.root.children.map((c) => c.title)).toEqual(['Getting Started', 'Configuration', 'Troubleshooting']);
    expect(byTitle(r, 'Configuration').page_range).toEqual([2, 2]);
    expect(byTitle(r, 'Troubleshooting').page_range).toEqual([3, 3]);
    expect(byTitle(r, 'Getting Started').meta?.['subsections']).toEqual(['Installation', 'First Run']);
    expect(byTitle(r, 'Troubleshooting').content).toContain('LX-220');
    expect(r.card?.doc_type).toBe('manual');
    expect(coverage(r)).toEqual([1, 1, 1]);
  });
});

describe('pdf: printed TOC with an offset, furniture, two columns, a table (pdf-lib)', () => {
  it('places TOC entries on the physical pages where their titles are printed (printed 1 = page 3)', async () => {
    const r = await convert('annual-report.pdf');
    expect(r.root.children[1]!.kind).toBe('contents');
    expect(r.root.children[1]!.summary).toBe('Printed table of contents (page 2).');
    expect(r.toc_source).toBe('printed_toc');
    expect(r.pages).toBe(14);
    const top = r.root.children.map((c) => [c.title, c.page_range]);
    // the printed contents page is its own node (kind contents), apart from the cover
    expect(top).toEqual([
      ['Cover and front matter', [1, 1]],
      ['Contents', [2, 2]],
      ['1. Letter to Shareholders', [3, 3]],
      ['2. Market Overview', [4, 4]],
      ['3. Regional Review', [5, 5]],
      ['4. Financial Statements', [6, 7]],
      ['5. Outlook', [8, 14]],
    ]);
    const fs = byTitle(r, '4. Financial Statements');
    expect(fs.children.map((c) => [c.title, c.page_range])).toEqual([
      ['4.1 Consolidated Statement of Cash Flows', [6, 6]],
      ['4.2 Consolidated Balance Sheet', [7, 7]],
    ]);
    expect(fs.content ?? '').toBe(''); // parents hold no text of their own
    expect(r.card?.period).toBe('fiscal year ended December 31, 2023');
    expect(r.card?.date).toBe('2023-12-31');
    expect(coverage(r).every((c) => c === 1)).toBe(true);
  });

  it('splits a 7-page section into page windows of at most maxLeafPages pages', async () => {
    const r = await convert('annual-report.pdf');
    const outlook = byTitle(r, '5. Outlook');
    expect(outlook.children.map((c) => c.page_range)).toEqual([[8, 11], [12, 14]]);
    const r2 = await convert('annual-report.pdf', 2);
    const sizes = leaves(r2.root).map((l) => l.page_range![1] - l.page_range![0] + 1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2);
    expect(coverage(r2).every((c) => c === 1)).toBe(true);
  });

  it('removes running headers and page-number footers from text and summaries', async () => {
    const r = await convert('annual-report.pdf');
    for (const l of leaves(r.root)) {
      expect(l.content).not.toContain('Northwind Traders — Annual Report 2023');
      expect(l.content).not.toMatch(/^Page \d+$/m);
      expect(l.summary ?? '').not.toContain('Northwind Traders — Annual Report 2023');
      if (l.kind !== 'preface') expect(l.summary ?? '').not.toContain('Annual Report 2023'); // the cover itself says it
    }
    const letter = byTitle(r, '1. Letter to Shareholders');
    expect(letter.content).toMatch(/^<!-- page 3 -->\n/);
    expect(letter.summary).toMatch(/one billion dollars/);
    expect(letter.summary!.length).toBeLessThan(300);
  });

  it('reads a two-column page column by column', async () => {
    const r = await convert('annual-report.pdf');
    const text = byTitle(r, '3. Regional Review').content!;
    const lastLeft = text.indexOf('new training programme');
    const firstRight = text.indexOf('Southern region sales were flat');
    expect(lastLeft).toBeGreaterThan(0);
    expect(firstRight).toBeGreaterThan(lastLeft);
    for (const line of text.split('\n')) expect(line.includes('north') && line.includes('south')).toBe(false);
  });

  it('rebuilds table rows with aligned cells and puts key figures in the summary', async () => {
    const r = await convert('annual-report.pdf');
    const cf = byTitle(r, '4.1 Consolidated Statement of Cash Flows');
    expect(cf.content).toContain('Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373)');
    expect(cf.content).toContain('Net income | 5,363 | 4,869');
    expect(cf.content).toContain('(Millions) | 2023 | 2022');
    expect(cf.summary).toContain('Net income 5,363');
    expect(byTitle(r, '4.2 Consolidated Balance Sheet').content).toContain('Total assets | 36,500 | 37,987');
  });
});

describe('pdf: no outline, bold numbered headings (pdf-lib)', () => {
  it('detects the numbered headings, nests 2.1 under 2, and drops the confidential footer', async () => {
    const r = await convert('field-study.pdf');
    expect(r.toc_source).toBe('detected');
    expect(r.root.children.map((c) => [c.title, c.page_range])).toEqual([
      ['1 Scope', [1, 1]],
      ['2 Method', [2, 3]],
      ['3 Results', [4, 6]],
    ]);
    const method = byTitle(r, '2 Method');
    expect(method.children.map((c) => [c.title, c.kind, c.page_range])).toEqual([
      ['2 Method (introduction)', 'intro', [2, 3]],
      ['2.1 Sampling', 'numbered', [3, 3]],
    ]);
    // node text runs from its heading to the next heading: page 3's text above 2.1 stays with 2 Method
    expect(method.children[0]!.content).toContain('how transects are laid out');
    expect(method.children[1]!.content).not.toContain('how transects are laid out');
    expect(method.children[1]!.content).toMatch(/^<!-- page 3 -->\n2\.1 Sampling/);
    expect(coverage(r).every((c) => c >= 1)).toBe(true);
    for (const l of leaves(r.root)) {
      expect(l.content).not.toContain('Acme Corp — Confidential');
      expect(l.summary).not.toContain('Confidential');
    }
    expect(r.title).toBe('Field Study Protocol');
  });
});

describe('pdf: errors', () => {
  it('an encrypted PDF is a ConvertError with the qpdf hint', async () => {
    const err = await convert('encrypted.pdf').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvertError);
    expect((err as ConvertError).message).toMatch(/encrypted/i);
    expect((err as ConvertError).hint).toMatch(/qpdf --decrypt/);
  });

  it('a truncated PDF is a ConvertError saying it is corrupt', async () => {
    const bytes = pdf('manual.pdf').subarray(0, 1200);
    const err = await convertPdfBytes(bytes, { maxLeafPages: 5, fallbackTitle: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvertError);
    expect((err as ConvertError).message).toMatch(/could not be parsed/i);
    expect((err as ConvertError).hint).toMatch(/corrupt/i);
  });
});

describe('pdf: scanned (no text layer)', () => {
  it('OCRs the pages when tesseract + pdftoppm are installed, else skips with the install command', async () => {
    const bytes = readFileSync(join(FIXTURES, 'formats', 'scanned-letter.pdf'));
    const r = await pdfConverter.convert({ absPath: 'scanned-letter.pdf', card: card('scanned-letter.pdf', bytes), plan, bytes, options: { maxLeafPages: 5 } });
    expect(r.approach).toBe('ocr');
    expect(r.pages).toBe(1);
    const { ocrAvailable } = await import('../src/ingest/converters/ocr.js');
    if ((await ocrAvailable()).ok) {
      expect(r.skip_reason).toBeUndefined();
      expect(leaves(r.root)[0]!.content).toContain('Invoice Dispute Notice');
      expect(leaves(r.root)[0]!.page_range).toEqual([1, 1]);
    } else {
      expect(r.skip_reason).toContain('apt-get install tesseract-ocr poppler-utils');
    }
  }, 120_000);

  it('a scan of a PDF gets the outline its text layer gives: headings by size and numbering, running footers left out', async () => {
    const { ocrAvailable } = await import('../src/ingest/converters/ocr.js');
    if (!(await ocrAvailable()).ok) return;
    const scan = scanPdf(join(FIXTURES, 'pdf', 'field-study.pdf'));
    const outline = (r: ConvertResult) => all(r.root).slice(1).map((n) => `${n.title} ${n.page_range!.join('-')}`);
    const text = await convertPdfBytes(pdf('field-study.pdf'), { maxLeafPages: 5, fallbackTitle: 'x' });
    const ocr = await convertPdfBytes(scan, { maxLeafPages: 5, fallbackTitle: 'x' });
    expect(ocr.approach).toBe('ocr');
    expect(ocr.warnings).toContain('text recognised by OCR');
    expect(ocr.toc_source).toBe('detected');
    expect(outline(ocr)).toEqual(outline(text));
    expect(outline(ocr)).toContain('2.1 Sampling 3-3');
    const sampling = byTitle(ocr, '2.1 Sampling');
    expect(sampling.content).toContain('The same part of the protocol describes how water samples are taken');
    expect(all(ocr.root).map((n) => n.content ?? '').join('\n')).not.toMatch(/Confidential/);
  }, 120_000);
});
