/**
 * Excel (.xlsx/.xlsm) via exceljs's streaming WorkbookReader: rows are read one at a time, so a
 * 100k-row workbook converts in bounded memory. Formulas give their cached results; merged ranges
 * (which the streaming reader does not report) are read from the sheet XML in a cheap streaming
 * pre-pass and their top-left value is spread over the range.
 */
import { Readable } from 'node:stream';
import { basename, extname } from 'node:path';
import type { Converter } from '../types.js';
import { ConvertError } from '../types.js';
import { SheetBuilder, type RawCell, type CellValue } from './schema.js';
import { schemaResult } from './result.js';
import { readMergedRanges, type MergeRange } from './xlsx-merges.js';

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

function applyMerges(rowNo: number, cells: RawCell[], merges: MergeRange[], anchors: Map<MergeRange, RawCell>): void {
  for (const m of merges) {
    if (rowNo < m.top || rowNo > m.bottom) continue;
    if (rowNo === m.top) anchors.set(m, cells[m.left - 1] ?? { value: null });
    const anchor = anchors.get(m);
    if (!anchor || anchor.value === null) continue;
    for (let c = m.left; c <= m.right; c++) {
      if (c === m.left && rowNo === m.top) continue;
      cells[c - 1] = { value: anchor.value as CellValue, ...(anchor.hint ? { hint: anchor.hint } : {}) };
    }
    if (rowNo === m.bottom) anchors.delete(m);
  }
}

export const xlsxConverter: Converter = {
  name: 'xlsx',
  version: 1,
  async convert({ bytes, card }) {
    const merges = await readMergedRanges(bytes).catch((err: unknown) => {
      throw new ConvertError(`The workbook is not a readable .xlsx package: ${err instanceof Error ? err.message : String(err)}`, 'Open it in Excel or LibreOffice and save it again as .xlsx.');
    });
    const ExcelJS = (await import('exceljs')).default;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'cache',
      entries: 'ignore',
    });
    const sheets = [];
    const warnings: string[] = [];
    try {
      for await (const ws of reader as AsyncIterable<unknown>) {
        const sheet = ws as AsyncIterable<unknown> & { name: string; state?: string };
        if (sheets.length >= MAX_SHEETS) {
          warnings.push(`sheet "${sheet.name}" not converted: more than ${MAX_SHEETS} sheets`);
          for await (const _ of sheet) void _;
          continue;
        }
        const sheetMerges = merges.get(sheet.name) ?? [];
        const builder = new SheetBuilder(sheet.name, sheetMerges.map((m) => m.ref));
        const anchors = new Map<MergeRange, RawCell>();
        for await (const r of sheet) {
          const row = r as { number: number; eachCell: (opts: { includeEmpty: boolean }, fn: (cell: CellLike, col: number) => void) => void };
          const cells: RawCell[] = [];
          row.eachCell({ includeEmpty: false }, (cell, col) => {
            cells[col - 1] = toRawCell(cell);
          });
          for (let i = 0; i < cells.length; i++) if (!cells[i]) cells[i] = { value: null };
          if (sheetMerges.length) applyMerges(row.number, cells, sheetMerges, anchors);
          builder.addRow(row.number, cells);
        }
        sheets.push(builder.finish());
      }
    } catch (err) {
      if (err instanceof ConvertError) throw err;
      throw new ConvertError(`The workbook could not be read: ${err instanceof Error ? err.message : String(err)}`, 'Open it in Excel or LibreOffice and save it again as .xlsx (password-protected workbooks must be saved without the password).');
    }
    if (sheets.length === 0) throw new ConvertError('The workbook has no worksheets.', 'Check that the file is an Excel workbook with at least one sheet.');
    const title = basename(card.filename, extname(card.filename));
    const result = schemaResult(card.id, title, sheets, 'workbook');
    if (warnings.length) result.warnings = warnings;
    return result;
  },
};
