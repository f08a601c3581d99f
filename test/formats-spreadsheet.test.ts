import { describe, it, expect, afterEach } from 'vitest';
import { cpSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { readSource } from '../src/retrieve/read.js';
import { renderReadText } from '../src/retrieve/render.js';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { TreeFile, type TreeNode, type FileCard } from '../src/store/schemas.js';
import { xlsxConverter } from '../src/ingest/converters/spreadsheet/xlsx.js';
import { csvConverter, sniffDelimiter } from '../src/ingest/converters/spreadsheet/csv.js';
import { classifyCell, detectHeaderRow, groupedHeader, SheetBuilder, sheetMarkdown, type RawCell } from '../src/ingest/converters/spreadsheet/schema.js';
import type { ConvertResult, ConvertedNode } from '../src/ingest/converters/types.js';
import { schemaResult } from '../src/ingest/converters/spreadsheet/result.js';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';

const F = (n: string) => join(FIXTURES, 'formats', n);
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

function card(file: string, type: FileCard['type']): FileCard {
  return { id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type, size_kb: 1, sha256: '0'.repeat(64) };
}
async function convert(file: string, type: FileCard['type']): Promise<ConvertResult> {
  const conv = type === 'xlsx' ? xlsxConverter : csvConverter;
  return conv.convert({ absPath: F(file), card: card(file, type), bytes: readFileSync(F(file)), plan: {} as never, options: { maxLeafPages: 5 } });
}
type Col = { name: string; type: string; min?: number; max?: number; mean?: number; date_min?: string; date_max?: string; distinct: number; non_empty: number; top_values?: { value: string; count: number }[] };
const cols = (n: ConvertedNode) => n.meta!.columns as Col[];
const col = (n: ConvertedNode, name: string) => cols(n).find((c) => c.name === name)!;
function rowsOf(r: ConvertResult, n: ConvertedNode): { columns: string[]; rows: unknown[][] } {
  const ref = n.meta!.rows_ref as string;
  const f = r.extra_files!.find((x) => ref.endsWith(`/${x.name}`))!;
  const lines = String(f.content).trimEnd().split('\n');
  return { columns: JSON.parse(lines[0]!).columns, rows: lines.slice(1).map((l) => JSON.parse(l)) };
}

describe('xlsx (LibreOffice-made workbook, streaming reader)', () => {
  it('finds the header below a merged title, types and stats every column, keeps formulas\' cached values', async () => {
    const r = await convert('sales.xlsx', 'xlsx');
    expect(r.toc_source).toBe('schema');
    expect(r.root.kind).toBe('workbook');
    expect(r.root.children.map((c) => c.title)).toEqual(['Sales', 'Targets']);
    const sales = r.root.children[0]!;
    expect(sales.kind).toBe('sheet');
    expect(sales.meta!.header_row).toBe(4);
    expect(sales.meta!.preamble).toEqual(['Northwind Regional Sales 2024', 'Source: ERP export; revenue in USD']);
    expect(sales.meta!.merged_ranges).toEqual(['A1:F1']);
    expect(sales.meta!.formula_cells).toBe(36);
    expect(sales.row_range).toEqual([1, 36]);
    expect(cols(sales).map((c) => `${c.name}:${c.type}`)).toEqual(['Order Date:date', 'Region:text', 'Product:text', 'Units:number', 'Revenue:currency', 'Unit Price:currency']);
    expect(col(sales, 'Order Date')).toMatchObject({ date_min: '2024-01-03', date_max: '2024-05-25', distinct: 36 });
    expect(col(sales, 'Units')).toMatchObject({ min: 5, max: 57, mean: 26.666667, non_empty: 36 });
    expect(col(sales, 'Revenue')).toMatchObject({ min: 48.75, max: 7353 });
    expect(col(sales, 'Region').top_values!.map((t) => t.value)).toEqual(['East', 'North', 'South', 'West']);
    expect(col(sales, 'Product').distinct).toBe(4);
    // column child nodes
    expect(sales.children.map((c) => c.kind)).toEqual(Array(6).fill('column'));
    // converted rows: header line, then data row N on line N+1; formula cells hold their cached results
    const { columns, rows } = rowsOf(r, sales);
    expect(columns).toEqual(['Order Date', 'Region', 'Product', 'Units', 'Revenue', 'Unit Price']);
    expect(rows).toHaveLength(36);
    expect(rows[0]).toEqual(['2024-01-03', 'North', 'Widget Pro', 23, 1138.5, 49.5]);
    expect(rows[1]).toEqual(['2024-01-06', 'South', 'Cable Pack, boxed', 28, 273, 9.75]);
    expect(sales.meta!.sample_data).toEqual(rows.slice(0, 5));
    // preview + stats in the node's markdown
    expect(sales.content).toContain('| Order Date | Region | Product | Units | Revenue | Unit Price |');
    expect(sales.content).toContain('| Units (D) | number | min 5, max 57, mean 26.666667');
  });

  it('spreads vertically merged cells over their range', async () => {
    const r = await convert('sales.xlsx', 'xlsx');
    const targets = r.root.children[1]!;
    expect(targets.meta!.header_row).toBe(1);
    expect(targets.meta!.merged_ranges).toEqual(['A2:A3', 'A4:A5', 'A6:A7', 'A8:A9']);
    const { rows } = rowsOf(r, targets);
    expect(rows.map((x) => x[0])).toEqual(['North', 'North', 'South', 'South', 'East', 'East', 'West', 'West']);
    expect(col(targets, 'Region').top_values).toEqual([
      { value: 'East', count: 2 }, { value: 'North', count: 2 }, { value: 'South', count: 2 }, { value: 'West', count: 2 },
    ]);
    expect(col(targets, 'Target')).toMatchObject({ type: 'currency', min: 9000, max: 16000, mean: 12250 });
  });

  it('fails a corrupt workbook with a clear message', async () => {
    const bytes = readFileSync(F('sales.xlsx')).subarray(0, 3000);
    await expect(xlsxConverter.convert({ absPath: 'x.xlsx', card: card('x.xlsx', 'xlsx'), bytes, plan: {} as never, options: { maxLeafPages: 5 } })).rejects.toThrow(/workbook/i);
  });
});

describe('csv / tsv (csv-parse)', () => {
  it('ignores empty trailing rows and columns, parses quoted commas and currency text', async () => {
    const r = await convert('sales.csv', 'csv');
    const sheet = r.root;
    expect(sheet.kind).toBe('sheet');
    expect(sheet.meta!.header_row).toBe(1);
    expect(sheet.meta!.column_count).toBe(6);
    expect(sheet.row_range).toEqual([1, 36]);
    expect(col(sheet, 'Revenue')).toMatchObject({ type: 'currency', min: 48.75, max: 7353 });
    expect(col(sheet, 'Order Date').type).toBe('date');
    expect(col(sheet, 'Priority')).toMatchObject({ type: 'text', non_empty: 6, top_values: [{ value: 'yes', count: 6 }] });
    const { rows } = rowsOf(r, sheet);
    expect(rows).toHaveLength(36);
    expect(rows[1]).toEqual(['2024-01-06', 'South', 'Cable Pack, boxed', '28', '$273.00', null]);
    expect(r.meta!.delimiter).toBe(',');
  });

  it('sniffs ; and tab delimiters', () => {
    expect(sniffDelimiter('a;b;c\n1;2;3\n')).toBe(';');
    expect(sniffDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(sniffDelimiter('name,"x;y"\nA,"1;2"\n')).toBe(',');
  });

  it('read_source --rows and --stats give the notes above and below the table with its rows', async () => {
    const root = tempStore({});
    roots.push(root);
    writeFileSync(join(root, 'inbox', 'lat-lon.csv'), 'COORDINATES: Geodetic\nDATUM: WGE\n# i.e. WGS 84 ellipsoid\n\n85,-60\n85,-50\n-10,60\n\nSource: NGA test points\n');
    await ingest(root, { paths: [join(root, 'inbox')] });
    const rows = readSource(root, 'lat-lon.csv', { rows: '1-2' });
    expect(rows).toMatchObject({ notes_above: ['COORDINATES: Geodetic', 'DATUM: WGE', '# i.e. WGS 84 ellipsoid'], notes_below: ['Source: NGA test points'], rows: [['85', '-60'], ['85', '-50']] });
    expect(renderReadText(rows)).toContain('> DATUM: WGE');
    expect(readSource(root, 'lat-lon.csv', { stats: true }).notes_above).toHaveLength(3);
  });

  it('ingests a TSV with rows readable by range from converted/<id>/', async () => {
    const root = tempStore({ 'teams.tsv': F('teams.tsv') });
    roots.push(root);
    const rep = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(rep.counts.failed).toBe(0);
    const e = readCatalog(root).sources[0]!;
    expect(e.strategy?.recommended_approach).toBe('schema_index');
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')));
    const sheet = tree.root as TreeNode;
    expect(sheet.row_range).toEqual([1, 3]);
    const ref = sheet.meta!.rows_ref as string;
    expect(ref).toBe(`converted/${e.id}/teams.rows.jsonl`);
    expect(existsSync(join(root, ref))).toBe(true);
    const lines = readFileSync(join(root, ref), 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ columns: ['Team', 'Owner', 'On-call', 'Slack'] });
    expect(JSON.parse(lines[2]!)).toEqual(['Payments', 'A. Osei', 'no', '#payments']);
    expect(readFileSync(join(root, sheet.content_ref!), 'utf8')).toContain('| Team | Owner | On-call | Slack |');
  });
});

describe('schema inference', () => {
  const raw = (...v: (string | number | null)[]): RawCell[] => v.map((value) => ({ value }));
  it('classifies numbers, currency, percentages and dates written as text', () => {
    expect(classifyCell({ value: '1,234.5' })).toMatchObject({ type: 'number', num: 1234.5 });
    expect(classifyCell({ value: '12%' })).toMatchObject({ type: 'number', num: 0.12 });
    expect(classifyCell({ value: '(1,234.50) USD' }).type).toBe('currency');
    expect(classifyCell({ value: '-$5.00' })).toMatchObject({ type: 'currency', num: -5 });
    expect(classifyCell({ value: '€12' })).toMatchObject({ type: 'currency', num: 12 });
    expect(classifyCell({ value: '03/15/2024' })).toMatchObject({ type: 'date', date: '2024-03-15' });
    expect(classifyCell({ value: '2024-02-30' }).type).toBe('text');
    expect(classifyCell({ value: 'Q1' }).type).toBe('text');
    expect(classifyCell({ value: null }).type).toBeNull();
  });
  it('detects a header row that is not row 1, and none when the table has no header', () => {
    expect(detectHeaderRow([raw('Quarterly report'), raw(null), raw('Name', 'Qty', 'Price'), raw('Bolt', 3, 0.5)])).toBe(2);
    expect(detectHeaderRow([raw(1, 2, 3), raw(4, 5, 6)])).toBe(-1);
  });
  it('notes above a table are not its header: the fuller header-shaped row right above the data is (readxl deaths.xlsx)', () => {
    const notes = [raw('Lots of people'), raw('simply cannot resist writing', null, null, null, null, 'some notes'), raw('at', 'the', 'top', null, 'of', 'their spreadsheets'), raw('or', 'merging', 'merging', 'merging', 'merging', 'cells')];
    const header = raw('Name', 'Profession', 'Age', 'Has kids', 'Date of birth', 'Date of death');
    expect(detectHeaderRow([...notes, header, raw('David Bowie', 'musician', 69, true, '1947-01-08', '2016-01-10')])).toBe(4);
    // a table of text alone keeps its first header-shaped row, however full the rows below it
    expect(detectHeaderRow([raw('Name', 'City'), raw('Ada', 'London'), raw('Grace', 'New York')])).toBe(0);
    expect(detectHeaderRow([raw('Name', 'City', null), raw('Ada', 'London', 'UK'), raw('Grace', 'New York', 'US'), raw('Alan', 'Wilmslow', 7)])).toBe(0);
  });
  it('a header over two rows, groups spanning the names that repeat under them, names each column by both (Omni-Path\'s topology sheet)', () => {
    const title = raw('Standard-Format Topology Spread Sheet');
    const groups = raw('Source', 'Source', 'Source', 'Destination', 'Destination', 'Destination', 'Cable');
    const names = raw('Rack', 'Name', 'Port', 'Rack', 'Name', 'Port', 'Length');
    const data = [raw('rack1', 'host01', 19, 'rack3', 'core1', 1, '5m'), raw('rack2', 'host02', 20, 'rack6', 'core2', 2, '1m')];
    expect(detectHeaderRow([title, groups, names, ...data])).toBe(-1);
    const want = ['Source Rack', 'Source Name', 'Source Port', 'Destination Rack', 'Destination Name', 'Destination Port', 'Cable Length'];
    expect(groupedHeader([title, groups, names, ...data])).toEqual({ index: 2, names: want });
    // merged groups written in their first column only
    expect(groupedHeader([title, raw('Source', null, null, 'Destination', null, null, 'Cable'), names, ...data])?.names).toEqual(want);
    // a group seen again after another, or a row of one group, spans nothing; names that repeat under the same group stay unnamed
    expect(groupedHeader([title, raw('Source', 'Source', 'Destination', 'Source', 'Destination', 'Destination', 'Cable'), names, ...data])).toBeNull();
    expect(groupedHeader([title, raw('All', 'All', 'All', 'All', 'All', 'All', 'All'), names, ...data])).toBeNull();
    expect(groupedHeader([title, raw('Source', 'Source', 'Source', 'Source', 'Source', 'Destination', 'Cable'), names, ...data])).toBeNull();
    // the sheet: columns named by both rows, the title above them a note, the first data row right under the names
    const b = new SheetBuilder('Fabric Links');
    [title, groups, names, ...data].forEach((r, i) => b.addRow(i + 1, r));
    const s = b.finish();
    expect(s.columns.map((c) => c.name)).toEqual(want);
    expect([s.header_row, s.row_count, s.preamble]).toEqual([3, 2, ['Standard-Format Topology Spread Sheet']]);
  });
  it('names then a run of years is a header (a column per year, as the World Bank publishes); other numbers are not', () => {
    const rows = [raw('Country Name', 'Country Code', 1960, 1961, 1962), raw('Aruba', 'ABW', 4.82, 4.655, 4.471), raw('China', 'CHN', 5.76, 5.89, 6.03)];
    expect(detectHeaderRow(rows)).toBe(0);
    // years out of order, or amounts: a data row
    expect(detectHeaderRow([raw('Country Name', 'Code', 1962, 1961, 1960), ...rows.slice(1)])).toBe(-1);
    // two years over values that are no years: a header too
    expect(detectHeaderRow([raw('Country Name', 'Code', 1960, 1961), raw('Aruba', 'ABW', 4.82, 4.655), raw('China', 'CHN', 5.76, 5.89)])).toBe(0);
    expect(detectHeaderRow([raw('Total', 'all', 10, 20, 35), ...rows.slice(1)])).toBe(-1);
    expect(detectHeaderRow([raw(1960, 1961, 1962), raw(4.82, 4.655, 4.471)])).toBe(-1);
    // one year over values that are no years ("HDI Rank | Country | 2005" over ranks and thousandths): a header
    expect(detectHeaderRow([raw('HDI Rank', 'Country', 2005), raw(1, 'Iceland', 968), raw(2, 'Norway', 968)])).toBe(0);
    // one year over more years: a data row of a table without a header
    expect(detectHeaderRow([raw('Widget', 'blue', 2005), raw('Gadget', 'red', 2007), raw('Gizmo', 'green', 2011)])).toBe(-1);
  });
  it('notes below a table are not data rows: text in a column of numbers or dates, or after an empty row (readxl deaths.xlsx)', () => {
    const b = new SheetBuilder('arts');
    b.addRow(1, raw('Name', 'Profession', 'Age', 'Born'));
    b.addRow(2, raw('David Bowie', 'musician', 69, '1947-01-08'));
    b.addRow(3, raw('Carrie Fisher', 'actor', 60, '1956-10-21'));
    b.addRow(4, raw('Some'));
    b.addRow(5, raw(null, 'also like to write stuff'));
    b.addRow(6, raw(null, null, 'at the', 'bottom,'));
    const s = b.finish();
    expect(s.row_count).toBe(2);
    expect(s.notes).toEqual(['Some', 'also like to write stuff', 'at the bottom,']);
    expect(s.columns[2]).toMatchObject({ type: 'number', non_empty: 2, empty: 0 });
    expect(s.rows_jsonl.trimEnd().split('\n')).toHaveLength(3);
    expect(sheetMarkdown(s)).toContain('### Notes below the table\n\n> Some\n> also like to write stuff\n> at the bottom,');
    const gap = new SheetBuilder('teams');
    for (const [i, r] of [raw('Team', 'Owner', 'Slack'), raw('Payments', 'A. Osei', '#payments'), raw('Search', 'B. Lin', '#search'), raw(null), raw('Source: HR export')].entries()) gap.addRow(i + 1, r);
    expect(gap.finish()).toMatchObject({ row_count: 2, notes: ['Source: HR export'] });
  });
  it('sparse text rows ending a table are its data when nothing sets them apart, or when a row of data follows', () => {
    const text = new SheetBuilder('t');
    for (const [i, r] of [raw('Name', 'City', 'Country'), raw('Ada', 'London', 'UK'), raw('Grace', null, null)].entries()) text.addRow(i + 1, r);
    expect(text.finish()).toMatchObject({ row_count: 2, notes: [] });
    const later = new SheetBuilder('t');
    for (const [i, r] of [raw('Name', 'Age', 'Born'), raw('Ada', 36, '1815-12-10'), raw(null), raw('unknown'), raw('Grace', 85, '1906-12-09')].entries()) later.addRow(i + 1, r);
    const s = later.finish();
    expect(s).toMatchObject({ row_count: 4, notes: [] });
    expect(s.rows_jsonl.trimEnd().split('\n').slice(1).map((l) => JSON.parse(l)[0])).toEqual(['Ada', null, 'unknown', 'Grace']);
    // error values and formula results are data, however sparse (LibreOffice's opencl test sheet)
    const errors = new SheetBuilder('t');
    for (const [i, r] of [raw('Data', 'Sum', 'Errors'), raw(0.9, 1.3, 6), raw(null, null, '#NUM!'), raw(null, null, '#DIV/0!')].entries()) errors.addRow(i + 1, r);
    expect(errors.finish()).toMatchObject({ row_count: 3, notes: [] });
  });
  it('comment rows and notes above a table without a header are its preamble, not data or a header (GEOTRANS coordinate files)', () => {
    const b = new SheetBuilder('lat-lon');
    const rows = [raw('COORDINATES: Geodetic'), raw('# Order is Latitude', ' Longitude'), raw('DATUM: WGE'), raw('END OF HEADER'), raw('# Oct. 30', ' 2006'), raw(null), raw(85, -60), raw(85, -50), raw(-10, 60)];
    rows.forEach((r, i) => b.addRow(i + 1, r));
    const s = b.finish();
    expect(s.header_row).toBeNull();
    expect(s.preamble).toEqual(['COORDINATES: Geodetic', '# Order is Latitude Longitude', 'DATUM: WGE', 'END OF HEADER', '# Oct. 30 2006']);
    expect(s.row_count).toBe(3);
    expect(s.columns.map((c) => [c.name, c.type, c.min, c.max])).toEqual([['Column A', 'number', -10, 85], ['Column B', 'number', -60, 60]]);
    expect(schemaResult('src_x', 'lat-lon', [s], 'table').root.summary).toBe('Sheet "lat-lon": 3 rows × 2 columns. Notes above the table: COORDINATES: Geodetic; # Order is Latitude Longitude; DATUM: WGE; END OF HEADER; # Oct. 30 2006. Columns: Column A (number), Column B (number).');
    // a comment row is never the header: the row below it is
    const c = new SheetBuilder('parts');
    [raw('# exported 2024', ' v2'), raw('Name', 'Qty'), raw('Bolt', 3)].forEach((r, i) => c.addRow(i + 1, r));
    expect(c.finish()).toMatchObject({ header_row: 2, preamble: ['# exported 2024 v2'], row_count: 1 });
  });
  it('a header written as a comment right above the data is the header, "#" taken off (GDL\'s projections, a VCF\'s "#CHROM")', () => {
    const b = new SheetBuilder('projections');
    [raw('#proj4name', 'fullname', 'othername', 'hints'), raw('aea', 'Albers Equal Area', null, 'Conic'), raw('omerc', 'Oblique Mercator', 'Hotine', 'Cyl')].forEach((r, i) => b.addRow(i + 1, r));
    const s = b.finish();
    expect(s).toMatchObject({ header_row: 1, row_count: 2, preamble: [] });
    expect(s.columns.map((c) => c.name)).toEqual(['proj4name', 'fullname', 'othername', 'hints']);
    // comment lines above it stay notes
    const v = new SheetBuilder('calls');
    [raw('##fileformat=VCFv4.2'), raw('#CHROM', 'POS', 'ID'), raw('chr1', 10177, 'rs367896724'), raw('chr1', 10352, 'rs555500075')].forEach((r, i) => v.addRow(i + 1, r));
    expect(v.finish()).toMatchObject({ header_row: 2, preamble: ['##fileformat=VCFv4.2'], row_count: 2 });
    expect(v.finish().columns.map((c) => c.name)).toEqual(['CHROM', 'POS', 'ID']);
  });
  it('a missing value written "NA" is an empty cell in a column of numbers, and a value in a text column', () => {
    const b = new SheetBuilder('penguins');
    b.addRow(1, raw('species', 'body_mass_g', 'sex', 'country'));
    b.addRow(2, raw('Adelie', '3750', 'male', 'NA'));
    b.addRow(3, raw('Adelie', 'NA', 'NA', 'NA'));
    b.addRow(4, raw('Gentoo', '6300', 'female', 'NZ'));
    const sheet = b.finish();
    const [, mass, sex, country] = sheet.columns;
    expect(mass).toMatchObject({ type: 'number', non_empty: 2, empty: 1, max: 6300, missing_marks: ['NA'] });
    expect(sex).toMatchObject({ type: 'text', non_empty: 3, empty: 0 });
    expect(sex!.missing_marks).toBeUndefined();
    expect(country!.top_values?.[0]).toEqual({ value: 'NA', count: 2 });
    const r = schemaResult('src_p', 'penguins', [sheet], 'table');
    expect(r.root.children.find((c) => c.title === 'body_mass_g')?.summary).toBe('body_mass_g: number column; from 3750 to 6300 (mean 5025); 2 distinct, 2 filled, 1 empty ("NA")');
  });

  it('names header-less columns by letter and keeps empty interior rows', () => {
    const b = new SheetBuilder('t');
    b.addRow(1, raw(1, 2));
    b.addRow(3, raw(5, 6));
    const s = b.finish();
    expect(s.header_row).toBeNull();
    expect(s.columns.map((c) => c.name)).toEqual(['Column A', 'Column B']);
    expect(s.rows_jsonl).toBe('{"columns":["Column A","Column B"]}\n[1,2]\n[null,null]\n[5,6]\n');
    expect(s.row_count).toBe(3);
  });
});

describe('sheet file names', () => {
  it('slugs sheet names to stable, unique file names', async () => {
    const { sheetSlug } = await import('../src/ingest/converters/spreadsheet/schema.js');
    const taken = new Set<string>();
    expect(['Umsätze 2024', 'Q1/Q2', 'Q1 Q2', '売上'].map((n) => sheetSlug(n, taken))).toEqual(['umsatze-2024', 'q1-q2', 'q1-q2-2', 'sheet']);
  });
});

describe('csv encodings', () => {
  const conv = (bytes: Uint8Array, type: FileCard['type'] = 'csv') => csvConverter.convert({ absPath: 'x', card: card('x.csv', type), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
  it('reads Windows-1252 (Excel "CSV") and UTF-16 with BOM (Excel "Unicode Text")', async () => {
    const cp1252 = Buffer.from([...Buffer.from('City;Caf'), 0xe9, ...Buffer.from('s\nK'), 0xf6, ...Buffer.from('ln;3\n')]);
    const r1 = await conv(cp1252);
    expect(r1.meta).toMatchObject({ encoding: 'windows-1252', delimiter: ';' });
    expect((r1.root.meta!.columns as { name: string }[]).map((c) => c.name)).toEqual(['City', 'Cafés']);
    expect(r1.root.meta!.sample_data).toEqual([['Köln', '3']]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Team\tSize\nSearch\t4\n', 'utf16le')]);
    const r2 = await conv(utf16, 'tsv');
    expect(r2.meta).toMatchObject({ encoding: 'utf-16le' });
    expect(r2.root.meta!.sample_data).toEqual([['Search', '4']]);
  });
});

describe('column summaries', () => {
  it('calls values "top" only when some repeat; a column of distinct values lists some of them', async () => {
    const csv = 'codename,suite\nbuster,oldstable\nbullseye,stable\nbookworm,stable\ntrixie,testing\n';
    const r = await csvConverter.convert({ absPath: '/nonexistent/releases.csv', card: card('releases.csv', 'csv'), bytes: Buffer.from(csv), plan: {} as never, options: { maxLeafPages: 5 } });
    const summary = (name: string) => r.root.children.find((c) => c.title === name)!.summary;
    expect(summary('codename')).toContain('values include bookworm, bullseye, buster, trixie');
    expect(summary('codename')).not.toContain('top values');
    expect(summary('suite')).toContain('top values stable, oldstable, testing');
  });

  it('leave the sample of a column of distinct values out of the keyword index: a value finds its row first', async () => {
    const { rankNodes } = await import('../src/search/nodes.js');
    const { summaryWithoutSample } = await import('../src/model/column-summary.js');
    expect(summaryWithoutSample('codename: text column; values include bookworm, bullseye; 4 distinct, 4 filled')).toBe('codename: text column; 4 distinct, 4 filled');
    expect(summaryWithoutSample('suite: text column; top values stable, oldstable; 3 distinct, 4 filled')).toContain('top values stable');
    const root = tempStore({});
    roots.push(root);
    const csv = 'version,codename,released\n10,buster,2019-07-06\n11,bullseye,2021-08-14\n12,bookworm,2023-06-10\n13,trixie,2025-08-09\n';
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(root, 'inbox', 'releases.csv'), csv);
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = readCatalog(root).sources[0]!;
    const hits = await rankNodes(root, e.id, 'bookworm', { vectors: false });
    expect(hits[0]!.row_range).toEqual([3, 3]);
    expect(hits.map((h) => h.title)).not.toContain('codename');
  });

  it('a row named by its cells comes before the columns the query names: the cells where they cross (World Bank rates by year)', async () => {
    const { rankNodes } = await import('../src/search/nodes.js');
    const root = tempStore({});
    roots.push(root);
    const csv = ['Country Name,Country Code,1960,1970,1980', 'Aruba,ABW,4.82,2.91,2.36', 'China,CHN,5.76,5.47,2.71', 'Chile,CHL,5.48,4.06,2.67', 'Cuba,CUB,4.19,3.69,1.85', 'Peru,PER,6.94,6.28,4.67'].join('\n');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(root, 'inbox', 'rates.csv'), csv);
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = readCatalog(root).sources[0]!;
    const hits = await rankNodes(root, e.id, 'How far did the rate in China fall between 1970 and 1980?', { vectors: false });
    expect(hits[0]!.row_range).toEqual([2, 2]);
    expect(hits[0]!.relevance).toBeGreaterThan(hits.find((h) => h.title === '1970')?.relevance ?? 0);
    // a column alone, no row named: the column
    expect((await rankNodes(root, e.id, 'rates in 1970', { vectors: false }))[0]!.title).toBe('1970');
  });

  it('a workbook\'s row hit is cited with its sheet; a CSV\'s rows with none (its sheet is the file)', async () => {
    const { deepRetrieve } = await import('../src/retrieve/deep.js');
    const root = tempStore({});
    roots.push(root);
    cpSync(join(FIXTURES, 'formats', 'sales.xlsx'), join(root, 'inbox', 'sales.xlsx'));
    cpSync(join(FIXTURES, 'formats', 'sales.csv'), join(root, 'inbox', 'sales.csv'));
    await ingest(root, { paths: [join(root, 'inbox')] });
    const byName = (f: string) => readCatalog(root).sources.find((e) => e.filename === f)!;
    const xl = await deepRetrieve(root, byName('sales.xlsx').id, { query: 'Widget Pro units in the East' });
    const row = xl.suggestions.find((s) => s.row_range)!;
    expect(row.passage?.cite).toMatch(/sales\.xlsx, sheet "Sales", rows? \d/);
    // and where the workbook numbers that row: its header is on row 4, under a title and notes
    const [, data, sheet] = /rows? (\d+)(?:-\d+)? \(sheet rows? (\d+)/.exec(row.passage!.cite)!;
    expect(Number(sheet) - Number(data)).toBe(4);
    const csv = await deepRetrieve(root, byName('sales.csv').id, { query: 'Widget Pro units in the East' });
    const csvCite = csv.suggestions.find((s) => s.row_range)!.passage?.cite;
    expect(csvCite).not.toContain('sheet');
    // a CSV's rows are its lines, the header the first
    expect(csvCite).toMatch(/rows? (\d+)(?:-\d+)? \(lines? \d/);
  });

  it('a sheet\'s notes are searched as an entry of their own, shown and cited as the sheet\'s notes, with no rows (Omni-Path\'s core sizes)', async () => {
    const { deepRetrieve } = await import('../src/retrieve/deep.js');
    const root = tempStore({});
    roots.push(root);
    cpSync(join(FIXTURES, 'formats', 'sales.xlsx'), join(root, 'inbox', 'sales.xlsx'));
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = readCatalog(root).sources.find((x) => x.filename === 'sales.xlsx')!;
    // the notes above the Sales table: its title, and where the figures come from
    const got = await deepRetrieve(root, e.id, { query: 'Where do the figures come from? ERP export source', vectors: false });
    const notes = got.suggestions[0]!;
    expect(notes.title).toBe('Sales: notes above the table');
    expect(notes.row_range).toBeUndefined();
    expect(notes.passage?.text).toContain('Source: ERP export; revenue in USD');
    expect(notes.passage?.cite).toMatch(/sales\.xlsx, sheet "Sales" \(src_/);
  });

  it('a wide row\'s passage opening past its first cells starts with them: whose row it is', async () => {
    const { deepRetrieve } = await import('../src/retrieve/deep.js');
    const root = tempStore({});
    roots.push(root);
    const years = Array.from({ length: 120 }, (_, i) => 1900 + i);
    const row = (name: string, code: string, k: number) => [name, code, ...years.map((y) => ((y * k) % 997) / 100 + 1)].join(',');
    const csv = [['Country Name', 'Country Code', ...years].join(','), row('Aruba', 'ABW', 3), row('Chile', 'CHL', 5), row('Cuba', 'CUB', 7)].join('\n');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(root, 'inbox', 'rates.csv'), csv);
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = readCatalog(root).sources[0]!;
    const d = await deepRetrieve(root, e.id, { query: 'Chile in 2015 and 2016' });
    const text = d.suggestions[0]!.passage!.text;
    expect(text).toMatch(/^row 2: Country Name: Chile; Country C/);
    expect(text).toContain('2016: ');
  });
});
