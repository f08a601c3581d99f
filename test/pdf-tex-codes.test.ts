/**
 * TeX fonts pdfjs reads as raw codes (src/ingest/converters/pdf/tex-codes.ts): a font with a partial
 * ToUnicode map gives "≤" as U+0014 and its ligatures as blanks; the codes are put back through the
 * font's TeX encoding, and a page whose ligatures were lost is taken from the native reader.
 */
import { describe, it, expect } from 'vitest';
import { pageLayouts } from '../src/ingest/converters/pdf/convert.js';
import type { PdfDocument } from '../src/ingest/converters/pdf/load.js';
import type { NativePage } from '../src/ingest/converters/pdf/poppler.js';
import type { RawItem } from '../src/ingest/converters/pdf/lines.js';
import { texEncoding, withTexCodes, type RawCodeFonts } from '../src/ingest/converters/pdf/tex-codes.js';

const run = (str: string, x: number, y: number, fontName: string, width = str.length * 5): RawItem =>
  ({ str, transform: [10, 0, 0, 10, x, y], width, fontName });

/** A pdfjs document of the given pages' runs; its fonts' names are known once a page's operator list was read. */
function fakeDoc(pages: RawItem[][], names: Record<string, string>): { doc: PdfDocument; operatorLists: number[] } {
  const operatorLists: number[] = [];
  const doc = {
    numPages: pages.length,
    getPage: async (p: number) => {
      let read = false;
      return {
        view: [0, 0, 612, 792],
        getTextContent: async () => ({ items: pages[p - 1] }),
        getOperatorList: async () => {
          operatorLists.push(p);
          read = true;
        },
        commonObjs: {
          get: (id: string) => {
            if (!read) throw new Error(`font ${id} not resolved`);
            return { name: names[id] };
          },
        },
        cleanup: () => undefined,
      };
    },
  } as unknown as PdfDocument;
  return { doc, operatorLists };
}

const nativePage = (items: RawItem[]): NativePage => ({ width: 612, height: 792, items } as unknown as NativePage);

describe('pdf: TeX fonts read as raw codes', () => {
  it('knows the Computer Modern encodings by font name, subset tag ignored', () => {
    expect(texEncoding('MWREIA+CMSY10')?.[0x14]).toBe('≤');
    expect(texEncoding('CMMI10')?.[0x0b]).toBe('α');
    expect(texEncoding('RFASNB+CMEX10')).toBeNull(); // big delimiters: left out, as before
    expect(texEncoding('UJRCAG+CMR10')?.[0x0c]).toBe('fi');
    expect(texEncoding('FXQEWU+CMTT10')?.[0x0c]).toBe('↓'); // no ligatures in typewriter type
    for (const name of ['CMR10', 'CMTT10', 'CMMI10', 'CMSY10']) expect(texEncoding(name)).toHaveLength(32);
    expect(texEncoding('XSOKYN+Times New Roman')).toBeNull();
  });

  it('puts back only the codes of fonts that showed raw codes', () => {
    const fonts: RawCodeFonts = new Map([['sy', texEncoding('CMSY10')], ['other', null]]);
    const out = withTexCodes([run('\u0014', 0, 0, 'sy'), run('a\u0002b / ,', 0, 0, 'sy'), run('\u0014', 0, 0, 'other'), run('\u0014', 0, 0, 'r')], fonts);
    // codes from 32 up may be characters pdfjs mapped ("/", ","): as read
    expect(out.map((i) => i.str)).toEqual(['≤', 'a×b / ,', '\u0014', '\u0014']);
  });

  it('reads a relation pdfjs gave as a control code (GLPK: "L1 ≤ a11 x1")', async () => {
    const { doc, operatorLists } = fakeDoc(
      [
        [run('L1', 72, 700, 'f3'), run('\u0014', 90, 700, 'f8', 8), run('a11 x1', 102, 700, 'f3')],
        [run('L2', 72, 700, 'f3'), run('\u0015', 90, 700, 'f8', 8), run('U2', 102, 700, 'f3')],
      ],
      { f3: 'UJRCAG+CMR10', f8: 'MWREIA+CMSY10' },
    );
    const layouts = await pageLayouts(doc, null);
    expect(layouts.map((l) => l.lines.map((x) => x.text))).toEqual([['L1 ≤ a11 x1'], ['L2 ≥ U2']]);
    // the font was named once, on the page where it first showed a raw code
    expect(operatorLists).toEqual([1]);
  });

  it('takes a page from the native reader when a TeX text font lost its ligatures there', async () => {
    // page 1: "fi" became a blank pdfjs does not report; page 2 shows the font reads raw ("ffi" as U+000E)
    const { doc } = fakeDoc(
      [
        [run('the', 72, 700, 'f3'), run('rst form is a set', 100, 700, 'f3')],
        [run('e\u000ecient', 72, 700, 'f3')],
      ],
      { f3: 'UJRCAG+CMR10' },
    );
    let nativeReads = 0;
    const later = async () => {
      nativeReads++;
      return [nativePage([run('the first form is a set', 72, 700, 'UJRCAG+CMR10')]), nativePage([run('efficient', 72, 700, 'UJRCAG+CMR10')])];
    };
    const layouts = await pageLayouts(doc, null, later);
    expect(layouts.map((l) => l.lines.map((x) => x.text))).toEqual([['the first form is a set'], ['efficient']]);
    expect(nativeReads).toBe(1);
    // a native reading that dropped a ligature ("eects") stays unused, whatever else it read (a figure's axis labels)
    const worse = async () => [nativePage([run('the first form is a set', 72, 700, 'UJRCAG+CMR10')]), nativePage([run('eects Eff ect 3.5 2.0', 72, 700, 'UJRCAG+CMR10')])];
    const two = fakeDoc([[run('the', 72, 700, 'f3'), run('rst form is a set', 100, 700, 'f3')], [run('e\u000ecient effects', 72, 700, 'f3')]], { f3: 'UJRCAG+CMR10' });
    expect((await pageLayouts(two.doc, null, worse)).map((l) => l.lines.map((x) => x.text))).toEqual([['the first form is a set'], ['efficient effects']]);
    // without a native reading the page stays pdfjs's, its raw codes put back
    const alone = await pageLayouts(fakeDoc([[run('e\u000ecient', 72, 700, 'f3')]], { f3: 'CMR10' }).doc, null);
    expect(alone[0]!.lines.map((x) => x.text)).toEqual(['efficient']);
  });

  it('a page whose operator list pdfjs cannot read keeps its runs as read', async () => {
    const { doc } = fakeDoc([[run('L1', 72, 700, 'f3'), run('\u0014', 90, 700, 'f8', 8), run('U1', 102, 700, 'f3')]], { f3: 'CMR10', f8: 'CMSY10' });
    const broken = {
      numPages: 1,
      getPage: async (p: number) => ({ ...(await doc.getPage(p)), getOperatorList: async () => Promise.reject(new Error('bad operator')) }),
    } as unknown as PdfDocument;
    const [layout] = await pageLayouts(broken, null);
    expect(layout!.lines.map((l) => l.text)).toEqual(['L1 U1']);
  });

  it('leaves fonts it does not know as read, and asks for their names once', async () => {
    const { doc, operatorLists } = fakeDoc(
      [[run('a\u0001b', 72, 700, 'g1')], [run('c\u0001d', 72, 700, 'g1')]],
      { g1: 'ABCDEF+SomeSymbolFont' },
    );
    let nativeReads = 0;
    const layouts = await pageLayouts(doc, null, async () => (nativeReads++, null));
    expect(operatorLists).toEqual([1]);
    expect(nativeReads).toBe(0);
    expect(layouts).toHaveLength(2);
  });
});
