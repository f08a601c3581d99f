import { describe, it, expect } from 'vitest';
import { makeZip } from '../scripts/make-bad-inputs.mjs';
import { detectType } from '../src/ingest/detect.js';
import { converterFor } from '../src/ingest/converters/index.js';
import type { FileCard } from '../src/store/schemas.js';
import { odtConverter } from '../src/ingest/converters/odt.js';
import type { ConvertResult, ConvertedNode } from '../src/ingest/converters/types.js';

const NS = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"';
const h = (level: number, t: string) => `<text:h text:outline-level="${level}">${t}</text:h>`;
const p = (t: string) => `<text:p>${t}</text:p>`;

/** An .odt as LibreOffice writes one: mimetype first and stored, content.xml, meta.xml. */
function odt(body: string, title?: string): Buffer {
  return makeZip([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', method: 0 },
    { name: 'content.xml', data: `<?xml version="1.0"?><office:document-content ${NS}><office:body><office:text><text:sequence-decls/>${body}</office:text></office:body></office:document-content>` },
    ...(title !== undefined ? [{ name: 'meta.xml', data: `<?xml version="1.0"?><office:document-meta ${NS}><office:meta><dc:title>${title}</dc:title></office:meta></office:document-meta>` }] : []),
  ]);
}

const card = (file: string): FileCard => ({ id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type: 'odt', size_kb: 1, sha256: '0'.repeat(64) });
const convert = (bytes: Uint8Array): Promise<ConvertResult> => odtConverter.convert({ absPath: 'policy.odt', card: card('policy.odt'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title}`, ...n.children.flatMap((c) => outline(c, d + 1))];

describe('OpenDocument text (.odt)', () => {
  it('headings at their outline levels; paragraphs, lists and tables as text; notes left out', async () => {
    const body = [
      h(1, 'Travel policy'), p('Applies to all staff.'),
      h(2, 'Booking'), p('Book<text:s text:c="2"/>through the portal.<text:note><text:note-body>' + p('Footnote text') + '</text:note-body></text:note>'),
      '<text:list><text:list-item>' + p('Economy class') + '</text:list-item><text:list-item>' + p('Rail under 4 hours') + '</text:list-item></text:list>',
      h(2, 'Allowances'),
      '<table:table><table:table-column/><table:table-header-rows><table:table-row><table:table-cell>' + p('City') + '</table:table-cell><table:table-cell>' + p('Per day') + '</table:table-cell></table:table-row></table:table-header-rows><table:table-row><table:table-cell>' + p('Paris') + '</table:table-cell><table:table-cell>' + p('95') + '</table:table-cell></table:table-row></table:table>',
      '<text:section>' + h(3, 'Receipts') + p('Keep them for <text:span>seven</text:span> years.') + '</text:section>',
    ].join('');
    const r = await convert(odt(body, 'Staff Travel Policy 2026'));
    expect(r.title).toBe('Staff Travel Policy 2026');
    expect(r.toc_source).toBe('headings');
    expect(outline(r.root)).toEqual(['Staff Travel Policy 2026', '  Travel policy', '    Booking', '    Allowances', '      Receipts']);
    const all = (n: ConvertedNode): ConvertedNode[] => [n, ...n.children.flatMap(all)];
    const node = (t: string) => all(r.root).find((n) => n.title === t)!;
    expect(node('Booking').content).toBe('## Booking\n\nBook through the portal.\n\n- Economy class\n- Rail under 4 hours');
    expect(node('Allowances').content).toBe('## Allowances\n\n| City | Per day |\n| --- | --- |\n| Paris | 95 |');
    expect(node('Receipts').content).toBe('### Receipts\n\nKeep them for seven years.');
    expect(JSON.stringify(r.root)).not.toContain('Footnote text');
  });

  it('a title property that names no document (a tool\'s file name, a placeholder) gives way to the first heading', async () => {
    for (const junk of ['Microsoft Word - policy.doc', 'Click here to enter text', 'Contents']) expect((await convert(odt(h(1, 'Travel policy') + p('Applies to all staff.'), junk))).title).toBe('Travel policy');
  });

  it('without a title property, a paragraph in the Title style (or one derived from it) titles the document before its first heading', async () => {
    const styles = '<office:automatic-styles><style:style style:name="P80" style:family="paragraph" style:parent-style-name="Title"/></office:automatic-styles>';
    const content = `<?xml version="1.0"?><office:document-content ${NS} xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0">${styles}<office:body><office:text>${h(1, 'Features')}${p('When the font is used in applications…')}<text:p text:style-name="P80">Abyssinica SIL Features</text:p>${p('The script needs little rendering.')}</office:text></office:body></office:document-content>`;
    const bytes = makeZip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', method: 0 }, { name: 'content.xml', data: content }]);
    expect((await convert(bytes)).title).toBe('Abyssinica SIL Features');
  });

  it('is recognised by its mimetype part, titles itself by its first heading without properties, and fails clearly', async () => {
    expect(detectType('policy.odt', odt(p('x'))).type).toBe('odt');
    expect((await convert(odt(h(1, 'Minutes of the board') + p('Opened at 9.')))).title).toBe('Minutes of the board');
    await expect(convert(odt(''))).rejects.toThrow(/no text/);
    await expect(convert(makeZip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', method: 0 }]))).rejects.toThrow(/no content part/);
    // ODF spreadsheets and presentations are recognised by their mimetype part and have their own converters
    const ods = makeZip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', method: 0 }, { name: 'content.xml', data: '<x/>' }]);
    expect(detectType('budget.ods', ods).type).toBe('ods');
    expect(converterFor('ods')?.name).toBe('ods');
  });
});
