/**
 * Excel (.xlsx/.xlsm) via exceljs's streaming parsers: rows are read one at a time, so a 100k-row
 * workbook converts in bounded memory. Formulas give their cached results; merged ranges (which the
 * streaming reader does not report) are read from the sheet XML in a cheap streaming pre-pass and
 * their top-left value is spread over the range.
 */
import { Readable } from 'node:stream';
import { basename, extname } from 'node:path';
import type { Converter } from '../types.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from '../types.js';
import { ooxmlPartNames } from '../zip-sniff.js';
import { ConvertError } from '../types.js';
import { SheetBuilder, type RawCell, type SheetSchema } from './schema.js';
import { schemaResult } from './result.js';
import { applyMerges, readSheetParts, type MergeRange, type SheetPart } from './xlsx-merges.js';
import { openZip, type OpenZip } from '../zip-reader.js';
import { followPlan, type Capabilities } from '../plan-shape.js';

/** Sheets beyond this many are listed but not converted (the warning names them). */
export const MAX_SHEETS = 200;

const CURRENCY_FMT = /[$€£¥₹]|\[\$[^\]]*\]|"(USD|EUR|GBP)"/;

/** True when an Excel number format shows a date/time (quoted text and [colour] blocks ignored). */
export function isDateFormat(fmt: string | undefined): boolean {
  if (!fmt || /general/i.test(fmt)) return false;
  const bare = fmt.replace(/"[^"]*"/g, '').replace(/\[[^\]]*\]/g, '').replace(/\\./g, '');
  return /[dmyhs]/i.test(bare) && !/[0#?]/.test(bare.replace(/\.0+/g, ''));
}

function isoDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}

/** Excel serial day number (1900 system) → Date. */
function excelSerialToDate(n: number): Date {
  return new Date(Math.round((n - 25569) * 86400 * 1000));
}

interface CellLike {
  value: unknown;
  numFmt?: string;
}

/** exceljs cell value → the value kept in the rows file plus a type hint. */
export function toRawCell(cell: CellLike): RawCell {
  let v = cell.value as unknown;
  let formula = false;
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const o = v as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) {
      formula = true;
      v = o.result ?? null;
      if (v && typeof v === 'object' && !(v instanceof Date) && 'error' in (v as object)) v = String((v as { error: unknown }).error);
    } else if ('richText' in o && Array.isArray(o.richText)) v = (o.richText as { text: string }[]).map((r) => r.text).join('');
    else if ('text' in o) v = typeof o.text === 'string' ? o.text : String(o.text ?? '');
    else if ('error' in o) v = String(o.error);
    else if ('sharedString' in o) v = null;
  }
  const out: RawCell = { value: null };
  if (formula) out.formula = true;
  if (v instanceof Date) {
    out.value = isoDate(v) || null;
    out.hint = 'date';
  } else if (typeof v === 'number') {
    if (formula && isDateFormat(cell.numFmt)) {
      out.value = isoDate(excelSerialToDate(v)) || null;
      out.hint = 'date';
    } else {
      out.value = v;
      if (cell.numFmt && CURRENCY_FMT.test(cell.numFmt)) out.hint = 'currency';
    }
  } else if (typeof v === 'string') out.value = v === '' ? null : v;
  else if (typeof v === 'boolean') out.value = v;
  return out;
}

/** Options for exceljs's streaming parsers: cached shared strings and styles (for date/currency formats). */
const READER_OPTIONS = { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', entries: 'ignore' } as const;

/** The parts of exceljs's WorkbookReader used here (its per-part parsers, driven over yauzl streams). */
interface ExcelPartsReader {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ eventType: string; value: AsyncIterable<unknown> & { name: string } }>;
}

type RowLike = { number: number; eachCell: (opts: { includeEmpty: boolean }, fn: (cell: CellLike, col: number) => void) => void };

/**
 * Read the workbook part by part. exceljs's own WorkbookReader walks the zip with unzipper, which
 * buffers sheets that precede the shared strings (LibreOffice writes them in that order) to temp
 * files and under load can end the entry walk early, losing sheets; yauzl reads the central
 * directory, so the parts are taken in the order they are needed and each sheet is streamed.
 */
async function readSheets(bytes: Uint8Array, warnings: string[]): Promise<SheetSchema[]> {
  let zip: OpenZip;
  let parts: SheetPart[];
  try {
    zip = await openZip(bytes);
    parts = await readSheetParts(zip);
  } catch (err) {
    throw new ConvertError(`The workbook is not a readable .xlsx package: ${err instanceof Error ? err.message : String(err)}`, 'Open it in Excel or LibreOffice and save it again as .xlsx.');
  }
  try {
    const ExcelJS = (await import('exceljs')).default;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), READER_OPTIONS as never) as unknown as ExcelPartsReader;
    const has = new Set(zip.entries.map((e) => e.name));
    if (has.has('xl/_rels/workbook.xml.rels')) await reader._parseRels(await zip.stream('xl/_rels/workbook.xml.rels'));
    await reader._parseWorkbook(await zip.stream('xl/workbook.xml'));
    if (has.has('xl/sharedStrings.xml')) for await (const _ of reader._parseSharedStrings(await zip.stream('xl/sharedStrings.xml'))) void _;
    if (has.has('xl/styles.xml')) await reader._parseStyles(await zip.stream('xl/styles.xml'));
    const sheets: SheetSchema[] = [];
    for (const part of parts) {
      if (sheets.length >= MAX_SHEETS) {
        warnings.push(`sheet "${part.name}" not converted: more than ${MAX_SHEETS} sheets`);
        continue;
      }
      const sheetNo = /sheet(\d+)\.xml$/.exec(part.part)?.[1] ?? String(sheets.length + 1);
      const builder = new SheetBuilder(part.name, part.merges.map((m) => m.ref));
      const anchors = new Map<MergeRange, RawCell>();
      for (const ev of reader._parseWorksheet((await zip.stream(part.part)) as AsyncIterable<unknown>, sheetNo)) {
        if (ev.eventType !== 'worksheet') continue;
        for await (const r of ev.value) {
          const row = r as RowLike;
          const cells: RawCell[] = [];
          row.eachCell({ includeEmpty: false }, (cell, col) => {
            cells[col - 1] = toRawCell(cell);
          });
          for (let i = 0; i < cells.length; i++) if (!cells[i]) cells[i] = { value: null };
          if (part.merges.length) applyMerges(row.number, cells, part.merges, anchors);
          builder.addRow(row.number, cells);
        }
      }
      sheets.push(builder.finish());
    }
    return sheets;
  } catch (err) {
    if (err instanceof ConvertError) throw err;
    throw new ConvertError(`The workbook could not be read: ${err instanceof Error ? err.message : String(err)}`, 'Open it in Excel or LibreOffice and save it again as .xlsx (password-protected workbooks must be saved without the password).');
  } finally {
    zip.close();
  }
}

/** What this converter does with each plan field (see plan-shape.ts). */
export const XLSX_CAPS: Capabilities = {
  approaches: ['schema_index'],
  keySections: 'a workbook is indexed by its sheets, schema and rows, not by section titles',
  tablesAsRows: null,
  twoColumns: 'a workbook has no page layout to read in columns',
  plaintext: { native: null, reason: '' },
  estimatedNodes: 'a workbook is one node per sheet and column; rows are read with read_source --rows',
};

export const xlsxConverter: Converter = {
  name: 'xlsx',
  version: 11,
  async convert({ bytes, card, options }) {
    const warnings: string[] = [];
    const sheets = await readSheets(bytes, warnings);
    if (sheets.length === 0) throw new ConvertError('The workbook has no worksheets.', 'Check that the file is an Excel workbook with at least one sheet.');
    const title = basename(card.filename, extname(card.filename));
    const result = schemaResult(card.id, title, sheets, 'workbook');
    if (warnings.length) result.warnings = warnings;
    return followPlan(result, options.plan, XLSX_CAPS, 'a workbook');
  },
};

/** A ZIP package whose main part is an Excel workbook. */
export const xlsxRegistration: ConverterRegistration = {
  converter: xlsxConverter,
  formats: [
    {
      type: 'xlsx', mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensions: ['.xlsx', '.xlsm'],
      magic: [[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06]], contains: (b) => ooxmlPartNames(b).includes('xl/workbook.xml'), priority: PRIORITY_SPECIFIC,
    },
  ],
};
