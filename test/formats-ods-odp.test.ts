/**
 * OpenDocument spreadsheets (.ods: streamed into the workbook schema tree) and presentations (.odp:
 * one node per slide, slides as pages), built as LibreOffice writes them.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeZip } from '../scripts/make-bad-inputs.mjs';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { detectType } from '../src/ingest/detect.js';
import type { FileCard } from '../src/store/schemas.js';
import { odsConverter } from '../src/ingest/converters/spreadsheet/ods.js';
import { odpConverter } from '../src/ingest/converters/odp.js';
import { xlsxConverter } from '../src/ingest/converters/spreadsheet/xlsx.js';
import type { ConvertResult, ConvertedNode } from '../src/ingest/converters/types.js';
import { makeCitation } from '../src/retrieve/citation.js';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';

const NS = [
  'office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"', 'text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"', 'draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"', 'style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"', 'dc="http://purl.org/dc/elements/1.1/"',
].map((n) => `xmlns:${n}`).join(' ');

function odf(mimetype: string, body: string, opts: { styles?: string; title?: string } = {}): Buffer {
  return makeZip([
    { name: 'mimetype', data: mimetype, method: 0 },
    { name: 'content.xml', data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS}><office:automatic-styles>${opts.styles ?? ''}</office:automatic-styles><office:body>${body}</office:body></office:document-content>` },
    ...(opts.title !== undefined ? [{ name: 'meta.xml', data: `<?xml version="1.0"?><office:document-meta ${NS}><office:meta><dc:title>${opts.title}</dc:title></office:meta></office:document-meta>` }] : []),
  ]);
}

const card = (file: string, type: FileCard['type']): FileCard => ({ id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type, size_kb: 1, sha256: '0'.repeat(64) });
const rowsOf = (r: ConvertResult, sheet: string) => String(r.extra_files!.find((f) => f.name.endsWith(`${sheet}.rows.jsonl`))!.content).trim().split('\n').map((l) => JSON.parse(l) as unknown);

// ---------------------------------------------------------------- spreadsheets
const p = (t: string) => `<text:p>${t}</text:p>`;
const s = (t: string, extra = '') => `<table:table-cell office:value-type="string"${extra}>${p(t)}</table:table-cell>`;
const f = (v: number, extra = '') => `<table:table-cell office:value-type="float" office:value="${v}"${extra}>${p(String(v))}</table:table-cell>`;
const cur = (v: number) => `<table:table-cell office:value-type="currency" office:currency="EUR" office:value="${v}">${p(`${v} €`)}</table:table-cell>`;
const date = (d: string) => `<table:table-cell office:value-type="date" office:date-value="${d}">${p(d)}</table:table-cell>`;
const empty = (n = 1) => `<table:table-cell${n > 1 ? ` table:number-columns-repeated="${n}"` : ''}/>`;
const row = (cells: string, repeat = 1) => `<table:table-row${repeat > 1 ? ` table:number-rows-repeated="${repeat}"` : ''}>${cells}</table:table-row>`;
const sheet = (name: string, rows: string) => `<table:table table:name="${name}"><table:table-column table:number-columns-repeated="1024"/>${rows}</table:table>`;

function workbook(): Buffer {
  const orders = sheet('Orders', [
    // a title row merged across the table, then the header row, as people lay out a sheet
    row(s('Orders 2026', ' table:number-columns-spanned="4"') + '<table:covered-table-cell table:number-columns-repeated="3"/>' + empty(1020)),
    row(s('Order') + s('Date') + s('Amount') + s('Region') + empty(1020)),
    row(f(1001) + date('2026-01-15') + cur(120.5) + s('North', ' table:number-rows-spanned="2"') + empty(1020)),
    row(f(1002) + date('2026-01-16T00:00:00') + cur(80) + '<table:covered-table-cell/>' + empty(1020)),
    row(f(1003) + date('2026-02-01') + cur(42.25) + s('South<text:s text:c="2"/>East<office:annotation><text:p>checked by Ana</text:p></office:annotation>') + empty(1020)),
    // how Calc writes the rest of the sheet: one empty row repeated to the last row
    row(empty(1024), 1048571),
  ].join(''));
  const notes = sheet('Notes', row(s('Prices include VAT.')) + row(empty(), 5) + row(s('Checked monthly.'), 2));
  return odf('application/vnd.oasis.opendocument.spreadsheet', `<office:spreadsheet>${orders}${notes}</office:spreadsheet>`);
}

describe('OpenDocument spreadsheet (.ods)', () => {
  it('streams sheets into the workbook schema: header row, typed columns, merged ranges, repeated rows and columns', async () => {
    const bytes = workbook();
    expect(detectType('orders.ods', bytes).type).toBe('ods');
    const r = await odsConverter.convert({ absPath: 'orders.ods', card: card('orders.ods', 'ods'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.title).toBe('orders');
    expect(r.root.children.map((c) => c.title)).toEqual(['Orders', 'Notes']);
    const orders = r.root.children[0]!;
    expect(orders.children.map((c) => `${c.title}: ${(c.meta as { type?: string } | undefined)?.type ?? c.summary?.split(';')[0]}`)).toEqual([
      expect.stringMatching(/^Order: .*number/), expect.stringMatching(/^Date: .*date/), expect.stringMatching(/^Amount: .*currency/), expect.stringMatching(/^Region: .*text/),
    ]);
    const rows = rowsOf(r, 'orders');
    expect(rows[0]).toEqual({ columns: ['Order', 'Date', 'Amount', 'Region'] });
    expect(rows.slice(1)).toEqual([
      [1001, '2026-01-15', 120.5, 'North'],
      // the region merged down two rows is spread over both
      [1002, '2026-01-16', 80, 'North'],
      // spaces kept, the cell's comment left out
      [1003, '2026-02-01', 42.25, 'South  East'],
    ]);
    expect(orders.summary).toMatch(/3 rows × 4 columns/);
    expect(JSON.stringify(r)).not.toContain('checked by Ana');
    // repeated rows that hold text are expanded; empty ones are only counted
    expect(rowsOf(r, 'notes').slice(1).filter((x) => JSON.stringify(x) !== '[null]')).toEqual([['Checked monthly.'], ['Checked monthly.']]);
  });

  it('a workbook LibreOffice saved as .ods converts exactly as its .xlsx original does', async () => {
    const F = (n: string) => join(FIXTURES, 'formats', n);
    const ods = await odsConverter.convert({ absPath: F('sales.ods'), card: card('sales.ods', 'ods'), bytes: readFileSync(F('sales.ods')), plan: {} as never, options: { maxLeafPages: 5 } });
    const xlsx = await xlsxConverter.convert({ absPath: F('sales.xlsx'), card: card('sales.xlsx', 'xlsx'), bytes: readFileSync(F('sales.xlsx')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(ods.root).toEqual(xlsx.root);
    expect(ods.extra_files).toEqual(xlsx.extra_files);
    expect(ods.root.children.map((c) => c.title)).toEqual(['Sales', 'Targets']);
  });

  it('fails clearly on a package without content and on a text document named .ods', async () => {
    const conv = (bytes: Buffer) => odsConverter.convert({ absPath: 'x.ods', card: card('x.ods', 'ods'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
    await expect(conv(makeZip([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', method: 0 }]))).rejects.toThrow(/no content part/);
    await expect(conv(odf('application/vnd.oasis.opendocument.spreadsheet', `<office:text>${p('hello')}</office:text>`))).rejects.toThrow(/no sheets/);
    await expect(conv(Buffer.from('PK\u0003\u0004 not a zip at all'))).rejects.toThrow(/could not be opened/);
    // saved with a password: the manifest lists encrypted parts; said so, not "no sheets"
    const locked = makeZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.spreadsheet', method: 0 },
      { name: 'META-INF/manifest.xml', data: '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry></manifest:manifest>' },
      { name: 'content.xml', data: Buffer.from([0x9f, 0x12, 0x88, 0x01, 0xfe]) },
    ]);
    await expect(conv(locked)).rejects.toMatchObject({ message: expect.stringMatching(/password-protected/), hint: expect.stringMatching(/remove the password/) });
  });
});

// ---------------------------------------------------------------- presentations
const frame = (cls: string | null, inner: string) => `<draw:frame${cls ? ` presentation:class="${cls}"` : ''}><draw:text-box>${inner}</draw:text-box></draw:frame>`;
const page = (name: string, body: string, style = 'dp1') => `<draw:page draw:name="${name}" draw:style-name="${style}">${body}</draw:page>`;

function presentation(title?: string): Buffer {
  const pages = [
    page('page1', frame('title', p('Plant safety review')) + frame('subtitle', p('Denver site, Q3'))),
    page('page2', frame('title', p('Incidents')) +
      frame('outline', `<text:list><text:list-item>${p('Lost-time incidents fell 12%')}<text:list><text:list-item>${p('Two near misses')}</text:list-item></text:list></text:list-item></text:list>`) +
      `<draw:frame><table:table><table:table-row><table:table-cell>${p('Month')}</table:table-cell><table:table-cell>${p('Incidents')}</table:table-cell></table:table-row><table:table-row><table:table-cell>${p('July')}</table:table-cell><table:table-cell>${p('3')}</table:table-cell></table:table-row></table:table></draw:frame>` +
      `<presentation:notes><draw:page-thumbnail/>${frame('notes', p('Mention the audit date.'))}</presentation:notes>`),
    page('page3', `<draw:g>${frame(null, p('Forklift retraining is due by March'))}</draw:g><draw:frame><draw:image/><svg:title>Chart of incidents by month</svg:title></draw:frame>`),
    page('page4', frame('title', p('Backup slide')), 'dp2'),
  ].join('');
  const styles = '<style:style style:name="dp1" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="visible"/></style:style><style:style style:name="dp2" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden"/></style:style>';
  return odf('application/vnd.oasis.opendocument.presentation', `<office:presentation>${pages}</office:presentation>`, { styles, ...(title !== undefined ? { title } : {}) });
}

const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

describe('OpenDocument presentation (.odp)', () => {
  it('one node per slide: title frame, text in order, tables as rows, pictures by title, notes; hidden slides marked', async () => {
    const bytes = presentation();
    expect(detectType('review.odp', bytes).type).toBe('odp');
    const r = await odpConverter.convert({ absPath: 'review.odp', card: card('review.odp', 'odp'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.title).toBe('Plant safety review');
    expect(r.pages).toBe(4);
    expect(r.root.children.map((c: ConvertedNode) => `${c.title} ${JSON.stringify(c.page_range)}`)).toEqual([
      'Plant safety review [1,1]', 'Incidents [2,2]', 'Forklift retraining is due by March [3,3]', 'Backup slide [4,4]',
    ]);
    const [, incidents, third, backup] = r.root.children;
    expect(incidents!.content).toContain('- Lost-time incidents fell 12%');
    expect(incidents!.content).toContain('Two near misses');
    expect(incidents!.content).toContain('| Month | Incidents |');
    expect(incidents!.content).toContain('| July | 3 |');
    expect(incidents!.content).toMatch(/Notes:\nMention the audit date\./);
    expect(third!.content).toContain('[image: Chart of incidents by month]');
    expect(backup!.meta).toEqual({ hidden: true });
    expect(r.root.children[0]!.meta).toBeUndefined();
  });

  it('takes the title from the properties, and fails clearly on a deck without slides', async () => {
    const conv = (bytes: Buffer) => odpConverter.convert({ absPath: 'x.odp', card: card('x.odp', 'odp'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
    expect((await conv(presentation('Q3 Safety Review, Denver'))).title).toBe('Q3 Safety Review, Denver');
    await expect(conv(odf('application/vnd.oasis.opendocument.presentation', '<office:presentation/>'))).rejects.toThrow(/no slides/);
  });

  it('ingests both formats end to end; a slide is cited as a slide', async () => {
    const root = tempStore();
    roots.push(root);
    const inbox = join(root, 'inbox');
    mkdirSync(inbox, { recursive: true });
    writeFileSync(join(inbox, 'orders.ods'), workbook());
    writeFileSync(join(inbox, 'review.odp'), presentation());
    await ingest(root, { paths: [inbox] });
    const cat = readCatalog(root);
    expect(cat.sources.map((e) => `${e.filename} ${e.type} ${e.status}`).sort()).toEqual(['orders.ods ods indexed', 'review.odp odp indexed']);
    const deck = cat.sources.find((e) => e.type === 'odp')!;
    const book = cat.sources.find((e) => e.type === 'ods')!;
    expect(deck.strategy?.recommended_approach).toBe('tree_index');
    expect(book.strategy?.recommended_approach).toBe('schema_index');
    expect(makeCitation(deck, { node_id: '0002', pages: [2, 2] }).text).toBe(`${deck.original_path}, slide 2 (${deck.id}, node 0002)`);
    const tree = JSON.parse(readFileSync(join(root, 'tree_index', `${book.id}.tree.json`), 'utf8')) as { root: ConvertedNode };
    expect(tree.root.children.map((c) => c.title)).toEqual(['Orders', 'Notes']);
  });
});
