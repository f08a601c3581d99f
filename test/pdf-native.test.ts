/**
 * The native PDF text reader (poppler's pdftohtml, src/ingest/converters/pdf/poppler.ts): its XML
 * becomes the RawItems pdfjs gives, TeX-font PDFs stay with pdfjs, the converter builds the same
 * outline from either reader, and a missing tool falls back to pdfjs with one warning.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertPdfBytes, pageLayouts } from '../src/ingest/converters/pdf/convert.js';
import type { PdfDocument } from '../src/ingest/converters/pdf/load.js';
import {
  NATIVE_ENV, NATIVE_MISSING_WARNING, nativePageCount, nativeReadOf, parseNativeOutline, parseNativeXml, pageRunTogether, readNative, readNativePages, riskyFonts, runTogether, takeNativeRead,
} from '../src/ingest/converters/pdf/poppler.js';
import { pdfPreview } from '../src/ingest/plan/pdf-preview.js';
import type { ConvertedNode, ConvertResult } from '../src/ingest/converters/types.js';
import { FIXTURES } from './helpers/temp-store.js';

const HAS_POPPLER = !spawnSync('pdftohtml', ['-v']).error;
const pdf = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, 'pdf', name)));
const titles = (n: ConvertedNode): string[] => [n.title, ...n.children.flatMap(titles)];
const text = (n: ConvertedNode): string => [n.content ?? '', ...n.children.map(text)].join('\n');

const XML = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">
<pdf2xml producer="poppler" version="22.12.0">
<page number="1" position="absolute" top="0" left="0" height="2376" width="1836">
	<fontspec id="0" size="30" family="Times New Roman" color="#000000"/>
	<fontspec id="1" size="36" family="Times New Roman" color="#000000"/>
<text top="300" left="150" width="600" height="33" font="1"><b>Item 7. R&amp;D &lt;costs&gt;</b></text>
<text top="400" left="150" width="300" height="30" font="0">Average equity </text>
<text top="400" left="600" width="300" height="30" font="0"><b>$  50,000 </b>      $  52,000 </text>
</page>
<page number="2" position="absolute" top="0" left="0" height="1836" width="2376">
<text top="90" left="30" width="90" height="30" font="0">&#8364;5 &#x2014; ok</text>
</page>
</pdf2xml>
`;

describe('pdf native reader: pdftohtml XML → pdfjs-like items', () => {
  const pages = parseNativeXml(XML);

  it('reads pages in PDF units, entities decoded, bold runs as another font', () => {
    expect(pages.map((p) => [p.width, p.height])).toEqual([[612, 792], [792, 612]]);
    const [title] = pages[0]!.items;
    expect(title!.str).toBe('Item 7. R&D <costs>');
    expect(title!.fontName).toBe('Times New Roman,b');
    expect(title!.transform![0]).toBe(12); // size 36 at zoom 3
    expect(title!.transform![4]).toBe(50); // left 150 / 3
    // baseline: page height minus (top + 80% of the box height), in points
    expect(title!.transform![5]).toBeCloseTo(792 - (300 + 33 * 0.8) / 3, 6);
    expect(pages[1]!.items[0]!.str).toBe('€5 — ok');
  });

  it('splits a run at a wide gap, trims its blanks off the box and joins a spaced currency sign', () => {
    const row = pages[0]!.items.slice(1);
    expect(row.map((i) => i.str)).toEqual(['Average equity', '$50,000', '$52,000']);
    const label = row[0]!;
    expect(label.width! + label.transform![4]!).toBeLessThan(50 + 100); // trailing blank taken off
    const [a, b] = [row[1]!, row[2]!];
    expect(b.transform![4]! - (a.transform![4]! + a.width!)).toBeGreaterThan(1.2 * 10); // a column gap
    expect(a.fontName).toBe('Times New Roman,b');
  });

  it('flags fonts poppler reads worse than pdfjs (no Unicode map, own encoding, Type 3)', () => {
    const head = 'name type encoding emb sub uni object ID\n---- ---- ----\n';
    expect(riskyFonts(head + 'ABCDEF+Times New Roman  CID TrueType  Identity-H  yes yes yes  4  0\n')).toBe(false);
    expect(riskyFonts(head + 'Helvetica  Type 1  WinAnsi  no  no  no  27  0\n')).toBe(false);
    expect(riskyFonts(head + 'AKDKNF+CMR10  Type 1  Builtin  yes yes no  10  0\n')).toBe(true);
    expect(riskyFonts(head + 'HUSCAC+CMR10  Type 1C  Custom  yes yes no  16  0\n')).toBe(true);
    expect(riskyFonts(head + '[none]  Type 3  Custom  yes no  no  4  0\n')).toBe(true);
    // not embedded: a standard font named with glyph names poppler maps as pdfjs does
    expect(riskyFonts(head + 'Times-Roman  Type 1  Custom  no  no  no  31  0\n')).toBe(false);
    expect(riskyFonts(head + 'Times-Roman  Type 1  Custom  no  no  no  31  0\nPWNLKT+CMSY10  Type 1  Builtin  yes yes no  9  0\n')).toBe(true);
    expect(riskyFonts(head + 'KPSHBO+LucidaSansUnicode  TrueType  Custom  yes yes no  826  0\n')).toBe(false);
  });
});

describe('pdf native reader: page count and bookmarks from the XML', () => {
  const withOutline = XML.replace('</pdf2xml>', `<outline>
<item page="1">Cover &amp; summary</item>
<outline>
<item page="1">Highlights</item>
<outline>
<item page="2">Deep</item>
</outline>
</outline>
<item>No destination</item>
</outline>
</pdf2xml>`);

  it('counts the pages, reads only the first ones when asked, and nests the bookmarks', () => {
    expect(nativePageCount(XML)).toBe(2);
    expect(parseNativeXml(XML, 1)).toHaveLength(1);
    expect(parseNativeXml(withOutline)).toEqual(parseNativeXml(XML));
    expect(parseNativeOutline(XML)).toEqual([]);
    expect(parseNativeOutline(withOutline)).toEqual([
      { title: 'Cover & summary', items: [{ title: 'Highlights', items: [{ title: 'Deep', items: [] }] }] },
      { title: 'No destination', items: [] },
    ]);
  });
});

describe('pdf native reader: words run together', () => {
  const page = (lines: string[]) => ({ width: 612, height: 792, items: lines.map((str) => ({ str, transform: [10, 0, 0, 10, 0, 0], width: 1, fontName: 'f' })) });
  const prose = Array.from({ length: 40 }, (_, i) => `plain words of line ${i} with blanks between them`);

  it('a page whose words come out joined sends the file to pdfjs', () => {
    const joined = ['SECURITIESANDEXCHANGECOMMISSION', 'ForthefiscalyearendedDecember31,2015', 'Forthetransitionperiodfromto', '(Stateorotherjurisdictionof'];
    expect(runTogether([page(prose), page([...joined, 'FORM 10-K', 'Washington D.C.'])])).toBe(true);
  });

  it('two long joined lines are enough: a run with no blank is one token however many words it holds', () => {
    const joined = ['MGMResortsInternationalisreferredtoasthe“Company,”“MGMResorts,”orthe“Registrant,”andtogetherwithitssubsidiaries', 'toas“we,”“us”or“our.”MGMChinaHoldingsLimitedtogetherwithitssubsidiariesisreferredtoas“MGMChina.”'];
    expect(pageRunTogether(page([...prose, ...joined]))).toBe(true);
    // one long identifier or firm name on a page of prose is not a reading fault
    expect(pageRunTogether(page([...prose, 'the auditor PricewaterhouseCoopers LLP signed']))).toBe(false);
    expect(pageRunTogether(page([...prose, 'set kMDItemCFBundleIdentifier to the id', 'and PricewaterhouseCoopers again']))).toBe(false);
  });

  it('one run of capitalised words with no blank between them, a heading or column head in an italic or bold face, is enough (MGM Resorts 2015, Corning 2015)', () => {
    expect(pageRunTogether(page([...prose, 'LiquidityandCapitalResources']))).toBe(true);
    expect(pageRunTogether(page([...prose, 'YearEndedDecember31,']))).toBe(true);
    expect(pageRunTogether(page([...prose, '(DisplayTechnologiesSegment)']))).toBe(true);
    // a firm's name with one inner capital, an identifier opening lower-case, a name in capitals: not
    expect(pageRunTogether(page([...prose, 'the auditor PricewaterhouseCoopers LLP signed', 'set kMDItemCFBundleIdentifier', 'MGMChina']))).toBe(false);
    // an identifier printed as code (a typewriter face, or a TeX command) is no reading fault
    const code = (str: string, fontName: string) => ({ ...page(prose), items: [...page(prose).items, { str, transform: [10, 0, 0, 10, 0, 0], width: 1, fontName }] });
    for (const font of ['HEFIRG+t1xtt', 'IQYOKY+t1xbtt,b', 'CSKZHY+SFTT1000', 'XUAUEQ+LMMono10', 'Courier', 'BTGKKB+CMTT12']) expect(pageRunTogether(code('ExponentiationBySquaring', font))).toBe(false);
    expect(pageRunTogether(code('\\AtBeginDocument{\\relax}', 'Times'))).toBe(false);
    expect(pageRunTogether(code('ExponentiationBySquaring', 'Times,i'))).toBe(true);
  });

  it('a page read again with pdfjs names its fonts as the native reader named them, so its prose is not taken for emphasis', async () => {
    const nativeItem = (str: string, x: number, y: number, fontName: string) => ({ str, transform: [10, 0, 0, 10, x, y], width: str.length * 5, fontName });
    const native = [{ width: 612, height: 792, items: [nativeItem('LiquidityandCapitalResources', 72, 700, 'IBDFEC+Times,b'), nativeItem('In addition to cash on hand we use company-wide cash management procedures.', 72, 680, 'XSOKYN+Times')] }];
    const doc = {
      numPages: 1,
      getPage: async () => ({
        view: [0, 0, 612, 792],
        getTextContent: async () => ({ items: [
          { str: 'Liquidity and Capital Resources', transform: [10, 0, 0, 10, 72, 700.4], width: 150, height: 10, fontName: 'g_d0_f3', hasEOL: true },
          { str: 'In addition to cash on hand we use company-wide cash management procedures.', transform: [10, 0, 0, 10, 72, 680.3], width: 370, height: 10, fontName: 'g_d0_f1', hasEOL: true },
          { str: 'A note in the margin', transform: [10, 0, 0, 10, 400, 100], width: 90, height: 10, fontName: 'g_d0_f9', hasEOL: true },
        ] }),
        cleanup: () => undefined,
      }),
    } as unknown as PdfDocument;
    const [layout] = await pageLayouts(doc, native);
    expect(layout!.lines.map((l) => [l.text, l.font])).toEqual([
      ['Liquidity and Capital Resources', 'IBDFEC+Times,b'],
      ['In addition to cash on hand we use company-wide cash management procedures.', 'XSOKYN+Times'],
      // a font no native run lies under keeps pdfjs's name
      ['A note in the margin', 'g_d0_f9'],
    ]);
  });

  it('only the pages whose words came out joined are read again with pdfjs', async () => {
    const joined = ['SECURITIESANDEXCHANGECOMMISSION', 'ForthefiscalyearendedDecember31,2015', 'Forthetransitionperiodfromto', '(Stateorotherjurisdictionof'];
    const native = [page(joined), page(prose), page(prose)];
    const asked: number[] = [];
    const doc = {
      numPages: 3,
      getPage: async (p: number) => {
        asked.push(p);
        const items = [{ str: 'For the fiscal year ended December 31, 2015', transform: [10, 0, 0, 10, 72, 700], width: 200, height: 10, fontName: 'f', hasEOL: true }];
        return { view: [0, 0, 612, 792], getTextContent: async () => ({ items }), cleanup: () => undefined };
      },
    } as unknown as PdfDocument;
    const layouts = await pageLayouts(doc, native);
    expect(asked).toEqual([1]);
    expect(layouts.map((l) => l.page)).toEqual([1, 2, 3]);
    expect(layouts[0]!.lines.map((l) => l.text)).toEqual(['For the fiscal year ended December 31, 2015']);
    expect(layouts[1]!.lines.length).toBeGreaterThan(0);
    // another page count than the document's: every page from pdfjs
    asked.length = 0;
    await pageLayouts(doc, native.slice(1));
    expect(asked).toEqual([1, 2, 3]);
  });

  it('long compounds, e-mail addresses and URLs on a normal page do not', () => {
    const odd = ['Beteiligungsverwaltungs GmbH', 'agencyabtfsupport@citi.com', 'global.loans.support@citi.com', 'https://www.example.com/investorrelationsoverview', 'Donaudampfschifffahrtsgesellschaft', ...Array(6).fill('percentage-of-completion available-for-sale Reclassification')];
    expect(runTogether([page([...prose, ...odd])])).toBe(false);
    expect(runTogether([page(prose)])).toBe(false);
  });
});

describe.skipIf(!HAS_POPPLER)('pdf native reader on real PDFs', () => {
  const saved = { path: process.env.PATH, native: process.env[NATIVE_ENV] };
  afterEach(() => {
    process.env.PATH = saved.path;
    if (saved.native === undefined) delete process.env[NATIVE_ENV];
    else process.env[NATIVE_ENV] = saved.native;
  });

  const withPdfjs = async (bytes: Uint8Array): Promise<ConvertResult> => {
    process.env[NATIVE_ENV] = '0';
    try {
      return await convertPdfBytes(bytes, { maxLeafPages: 5, fallbackTitle: 'x' });
    } finally {
      delete process.env[NATIVE_ENV];
    }
  };

  it.each(['annual-report.pdf', 'field-study.pdf', 'manual.pdf'])('%s: the same outline and text as with pdfjs', async (name) => {
    const bytes = pdf(name);
    expect((await readNativePages(bytes))?.length).toBeGreaterThan(0);
    const native = await convertPdfBytes(bytes, { maxLeafPages: 5, fallbackTitle: 'x' });
    const js = await withPdfjs(bytes);
    expect(native.toc_source).toBe(js.toc_source);
    expect(titles(native.root)).toEqual(titles(js.root));
    const words = (r: ConvertResult) => text(r.root).split(/[\s|]+/).filter(Boolean).sort();
    const a = words(native);
    const b = new Set(words(js));
    expect(a.filter((w) => b.has(w)).length / a.length).toBeGreaterThan(0.97);
  });

  it('the planner\'s preview and the converter share one poppler run; the preview matches the pdfjs one', async () => {
    const bytes = pdf('manual.pdf');
    const read = nativeReadOf(bytes);
    const preview = await pdfPreview(bytes, { maxPages: 2, maxChars: 4000, maxOutline: 60 });
    expect(nativeReadOf(bytes)).toBe(read); // the preview used the run the converter takes next
    expect(takeNativeRead(bytes)).toBe(read);
    expect(nativeReadOf(bytes)).not.toBe(read); // taken: let go
    takeNativeRead(bytes);
    expect((await read).status).toBe('ok');
    process.env[NATIVE_ENV] = '0';
    const js = await pdfPreview(new Uint8Array(bytes), { maxPages: 2, maxChars: 4000, maxOutline: 60 });
    expect(preview.numPages).toBe(js.numPages);
    expect(preview.outline).toEqual(js.outline);
    expect(preview.outline.length).toBeGreaterThan(0);
    expect(preview.pages).toHaveLength(2);
  });

  it('one child runs both tools: risky fonts stop it before pdftohtml, a failing tool is a failure', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'mhub-fakepoppler-'));
    const tool = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    tool('pdftohtml', 'echo "<pdf2xml>"');
    tool('pdffonts', 'printf "name type encoding emb sub uni object ID\\n---- ----\\nAKDKNF+CMR10  Type 1  Builtin  yes yes no  10  0\\n"');
    process.env.PATH = `${bin}:${saved.path}`;
    const bytes = pdf('manual.pdf');
    expect(await readNative(bytes)).toEqual({ status: 'risky' });
    tool('pdffonts', 'exit 1');
    expect(await readNative(bytes)).toEqual({ status: 'failed' });
    tool('pdffonts', 'echo "name type"');
    const ok = await readNative(bytes);
    expect(ok.status).toBe('ok');
    expect(ok.status === 'ok' && Buffer.from(ok.xml).toString()).toBe('<pdf2xml>\n');
  });

  it('an encrypted PDF is not read natively: pdfjs says what is wrong', async () => {
    expect(await readNativePages(pdf('encrypted.pdf'))).toBeNull();
  });

  it('without pdftohtml the text is read with pdfjs, with one warning naming the package', async () => {
    const bytes = pdf('field-study.pdf');
    const js = await withPdfjs(bytes);
    process.env.PATH = mkdtempSync(join(tmpdir(), 'mhub-nopath-'));
    const r = await convertPdfBytes(bytes, { maxLeafPages: 5, fallbackTitle: 'x' });
    expect(r.warnings).toContain(NATIVE_MISSING_WARNING);
    expect(NATIVE_MISSING_WARNING).toMatch(/apt-get install poppler-utils/);
    expect(titles(r.root)).toEqual(titles(js.root));
    expect(text(r.root)).toBe(text(js.root));
  });
});
