import { describe, it, expect, afterEach } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeZip } from '../scripts/make-bad-inputs.mjs';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { detectType } from '../src/ingest/detect.js';
import type { FileCard } from '../src/store/schemas.js';
import { pptxConverter } from '../src/ingest/converters/pptx.js';
import type { ConvertResult } from '../src/ingest/converters/types.js';
import { makeCitation } from '../src/retrieve/citation.js';
import { tempStore, cleanup } from './helpers/temp-store.js';

const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const para = (t: string, lvl = 0) => `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ''}<a:r><a:t>${t}</a:t></a:r></a:p>`;
const shape = (ph: string | null, paras: string) => `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${ph ? `<p:ph type="${ph}"/>` : ''}</p:nvPr></p:nvSpPr><p:txBody>${paras}</p:txBody></p:sp>`;
const table = (rows: string[][]) => `<p:graphicFrame><a:graphic><a:graphicData><a:tbl>${rows.map((r) => `<a:tr>${r.map((c) => `<a:tc><a:txBody>${para(c)}</a:txBody></a:tc>`).join('')}</a:tr>`).join('')}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
const picture = (descr: string) => `<p:pic><p:nvPicPr><p:cNvPr id="9" name="Picture 8" descr="${descr}"/></p:nvPicPr></p:pic>`;
const slide = (body: string, show = '') => `<?xml version="1.0" encoding="UTF-8"?><p:sld ${NS}${show}><p:cSld><p:spTree>${body}</p:spTree></p:cSld></p:sld>`;

/** A deck made the way PowerPoint lays one out: slides listed in presentation.xml (not in file-name order). */
function deck(opts: { coreTitle?: string } = {}): Buffer {
  const slides = [
    slide(shape('ctrTitle', para('Plant safety review')) + shape('subTitle', para('Denver site, Q3'))),
    slide(shape('title', para('Incidents')) + shape(null, para('Lost-time incidents fell 12%') + para('Two near misses', 1)) + table([['Month', 'Incidents'], ['July', '3'], ['August', '1']])),
    slide(shape(null, para('Forklift retraining is due by March')) + picture('Chart of incidents by month')),
    slide(shape('title', para('Backup slide')), ' show="0"'),
  ];
  // slide files are named out of order on purpose: the deck's order is presentation.xml's list
  const files = ['slide3.xml', 'slide1.xml', 'slide4.xml', 'slide2.xml'];
  const notes = `<?xml version="1.0"?><p:notes ${NS}><p:cSld><p:spTree>${shape('sldImg', '')}${shape('body', para('Mention the audit date.'))}</p:spTree></p:cSld></p:notes>`;
  const rel = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  return makeZip([
    { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: 'ppt/presentation.xml', data: `<?xml version="1.0"?><p:presentation ${NS}><p:sldIdLst>${files.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>` },
    { name: 'ppt/_rels/presentation.xml.rels', data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${files.map((f, i) => rel(`rId${i + 1}`, 'slide', `slides/${f}`)).join('')}</Relationships>` },
    ...files.map((f, i) => ({ name: `ppt/slides/${f}`, data: slides[i]! })),
    { name: 'ppt/slides/_rels/slide1.xml.rels', data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId9', 'notesSlide', '../notesSlides/notesSlide1.xml')}</Relationships>` },
    { name: 'ppt/notesSlides/notesSlide1.xml', data: notes },
    ...(opts.coreTitle !== undefined ? [{ name: 'docProps/core.xml', data: `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${opts.coreTitle}</dc:title></cp:coreProperties>` }] : []),
  ]);
}

const card = (file: string): FileCard => ({ id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type: 'pptx', size_kb: 1, sha256: '0'.repeat(64) });
const convert = (bytes: Uint8Array): Promise<ConvertResult> => pptxConverter.convert({ absPath: 'deck.pptx', card: card('deck.pptx'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });

const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

describe('PowerPoint (.pptx)', () => {
  it('one node per slide in the deck\'s order: titles, text boxes, list levels, tables, pictures, notes', async () => {
    const r = await convert(deck());
    expect(r.pages).toBe(4);
    expect(r.title).toBe('Plant safety review');
    // presentation.xml's order (slide3.xml, slide1.xml, slide4.xml, slide2.xml), not the part names'
    expect(r.root.children.map((c) => `${c.title} ${JSON.stringify(c.page_range)}`)).toEqual([
      'Plant safety review [1,1]', 'Incidents [2,2]', 'Forklift retraining is due by March [3,3]', 'Backup slide [4,4]',
    ]);
    const [cover, incidents, untitled, backup] = r.root.children;
    expect(cover!.content).toBe('<!-- page 1 -->\n\n## Plant safety review\n\nDenver site, Q3');
    expect(incidents!.content).toBe([
      '<!-- page 2 -->', '## Incidents', 'Lost-time incidents fell 12%\n  Two near misses\n\n| Month | Incidents |\n| --- | --- |\n| July | 3 |\n| August | 1 |', 'Notes:\nMention the audit date.',
    ].join('\n\n'));
    expect(untitled!.content).toContain('[image: Chart of incidents by month]');
    expect(backup!.meta).toEqual({ hidden: true });
    expect(cover!.meta).toBeUndefined();
    expect(r.root.summary).toBe('4 slides: Plant safety review; Incidents; Forklift retraining is due by March; Backup slide');
  });

  it('takes the title set in the document properties unless it is PowerPoint\'s placeholder', async () => {
    expect((await convert(deck({ coreTitle: 'Q3 Safety Review — Denver' }))).title).toBe('Q3 Safety Review — Denver');
    expect((await convert(deck({ coreTitle: 'PowerPoint Presentation' }))).title).toBe('Plant safety review');
  });

  it('is read as a deck, not as a ZIP of XML parts; a legacy .ppt is skipped with the command that converts it', async () => {
    const root = tempStore();
    roots.push(root);
    const inbox = join(root, 'inbox');
    mkdirSync(inbox, { recursive: true });
    writeFileSync(join(inbox, 'deck.pptx'), deck());
    writeFileSync(join(inbox, 'old.ppt'), Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]));
    expect(detectType('deck.pptx', deck()).type).toBe('pptx');
    await ingest(root, { paths: [inbox] });
    const entries = readCatalog(root).sources;
    expect(entries.map((e) => `${e.filename} ${e.type} ${e.status}`).sort()).toEqual(['deck.pptx pptx indexed', 'old.ppt ppt skipped']);
    const old = entries.find((e) => e.type === 'ppt')!;
    expect(old.error).toMatch(/soffice --headless --convert-to pptx/);
    const deckEntry = entries.find((e) => e.type === 'pptx')!;
    expect(makeCitation(deckEntry, { node_id: '0002', pages: [2, 2] }).text).toBe(`${deckEntry.original_path}, slide 2 (${deckEntry.id}, node 0002)`);
  });

  it('fails a broken package clearly', async () => {
    await expect(convert(makeZip([{ name: 'ppt/slides/slide1.xml', data: slide('') }]))).rejects.toThrow(/no presentation part/);
    await expect(convert(Buffer.from('PK\u0003\u0004 not really a zip'))).rejects.toThrow(/could not be opened/);
  });
});
