/**
 * OpenDocument spreadsheets (.ods, LibreOffice Calc) into the same schema tree as Excel workbooks:
 * content.xml is streamed through a SAX parser (htmlparser2 in XML mode), so rows are fed to the
 * sheet builder one at a time and a large sheet converts in bounded memory. Values come from the
 * cells' typed attributes (`office:value`, `office:date-value`…), text cells from their paragraphs;
 * repeated rows and columns (`number-*-repeated`, how Calc writes empty space) are expanded only
 * where they hold something; merged ranges spread their top-left value as in .xlsx.
 */
import { basename, extname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Parser } from 'htmlparser2';
import type { Converter } from '../types.js';
import { ConvertError, type ConverterRegistration } from '../types.js';
import { SheetBuilder, columnLetter, type RawCell, type SheetSchema } from './schema.js';
import { schemaResult } from './result.js';
import { applyMerges, type MergeRange } from './xlsx-merges.js';
import { assertOdfNotEncrypted, packageFormat, withPackage } from '../zip-package.js';
import type { OpenZip } from '../zip-reader.js';
import { followPlan } from '../plan-shape.js';
import { compareStrings } from '../../../store/json.js';
import { MAX_SHEETS, XLSX_CAPS } from './xlsx.js';

export const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';
/** A sheet's rows beyond this are not read (the row limit of Calc and Excel: a repeat count past it is not data). */
export const MAX_SHEET_ROWS = 1_048_576;
/** Columns beyond this are not read (Calc's column limit). */
export const MAX_SHEET_COLUMNS = 16_384;
/** content.xml inflated at most (it is streamed, so this bounds time, not memory: a zip bomb stops here). */
export const MAX_CONTENT_BYTES = 1 << 30;
/** A cell's text kept at most (a pasted document in one cell is cut here). */
export const MAX_CELL_CHARS = 32_767;

const REPAIR_HINT = 'Open it in LibreOffice Calc and save it again as .ods (or export it as .xlsx), then ingest again.';

const count = (v: string | undefined, limit: number): number => Math.min(limit, Math.max(1, Number.parseInt(v ?? '1', 10) || 1));

/** The typed value of a cell from its attributes; undefined when its text is the value (strings, times). */
function typedValue(a: Record<string, string>): RawCell | undefined {
  const type = a['office:value-type'] ?? a['calcext:value-type'];
  const formula = a['table:formula'] ? { formula: true } : {};
  switch (type) {
    case 'float':
    case 'percentage': {
      const n = Number(a['office:value']);
      return Number.isFinite(n) ? { value: n, ...formula } : undefined;
    }
    case 'currency': {
      const n = Number(a['office:value']);
      return Number.isFinite(n) ? { value: n, hint: 'currency', ...formula } : undefined;
    }
    case 'date': {
      const d = a['office:date-value'] ?? '';
      return d ? { value: d.endsWith('T00:00:00') ? d.slice(0, 10) : d, hint: 'date', ...formula } : undefined;
    }
    case 'boolean':
      return { value: a['office:boolean-value'] === 'true', ...formula };
    default:
      return undefined;
  }
}

/** Streams one content.xml into sheet schemas. */
class OdsReader {
  readonly sheets: SheetSchema[] = [];
  readonly skipped: string[] = [];
  private builder: SheetBuilder | null = null;
  private rowNo = 0;
  private rowRepeat = 1;
  private cells: RawCell[] = [];
  private col = 0;
  private cell: { attrs: Record<string, string>; text: string[]; paras: number; repeat: number } | null = null;
  private merges: MergeRange[] = [];
  private open: MergeRange[] = [];
  private anchors = new Map<MergeRange, RawCell>();
  /** depth inside elements whose text is not the cell's (annotations) */
  private hidden = 0;

  onopentag(name: string, a: Record<string, string>): void {
    if (name === 'table:table') this.startSheet(a['table:name'] ?? `Sheet ${this.sheets.length + this.skipped.length + 1}`);
    if (!this.builder) return;
    if (name === 'table:table-row') {
      this.cells = [];
      this.col = 0;
      this.rowRepeat = count(a['table:number-rows-repeated'], MAX_SHEET_ROWS);
    } else if (name === 'table:table-cell' || name === 'table:covered-table-cell') {
      this.cell = { attrs: a, text: [], paras: 0, repeat: count(a['table:number-columns-repeated'], MAX_SHEET_COLUMNS) };
      const across = count(a['table:number-columns-spanned'], MAX_SHEET_COLUMNS);
      const down = count(a['table:number-rows-spanned'], MAX_SHEET_ROWS);
      if (name === 'table:table-cell' && (across > 1 || down > 1)) {
        const top = this.rowNo + 1;
        const left = this.col + 1;
        const m: MergeRange = { ref: `${columnLetter(left - 1)}${top}:${columnLetter(left + across - 2)}${top + down - 1}`, top, left, bottom: top + down - 1, right: left + across - 1 };
        this.merges.push(m);
        this.open.push(m);
      }
    } else if (this.cell) {
      if (name === 'office:annotation') this.hidden++;
      else if (this.hidden === 0) this.cellMark(name, a);
    }
  }

  /** Spaces, tabs and breaks inside a cell's paragraphs, and the paragraph boundaries. */
  private cellMark(name: string, a: Record<string, string>): void {
    const cell = this.cell!;
    if (name === 'text:p' || name === 'text:h') {
      if (cell.paras++ > 0) cell.text.push('\n');
    } else if (name === 'text:s') cell.text.push(' '.repeat(count(a['text:c'], 1000)));
    else if (name === 'text:tab') cell.text.push('\t');
    else if (name === 'text:line-break') cell.text.push('\n');
  }

  ontext(data: string): void {
    if (this.cell && this.hidden === 0) this.cell.text.push(data);
  }

  onclosetag(name: string): void {
    if (name === 'table:table') this.endSheet();
    if (!this.builder) return;
    if (name === 'office:annotation') this.hidden = Math.max(0, this.hidden - 1);
    else if (name === 'table:table-cell' || name === 'table:covered-table-cell') this.endCell();
    else if (name === 'table:table-row') this.endRow();
  }

  private startSheet(name: string): void {
    if (this.sheets.length >= MAX_SHEETS) {
      this.skipped.push(name);
      return;
    }
    this.rowNo = 0;
    this.merges = [];
    this.open = [];
    this.anchors = new Map();
    this.builder = new SheetBuilder(name, []);
  }

  private endCell(): void {
    const c = this.cell!;
    this.cell = null;
    const text = c.text.join('').slice(0, MAX_CELL_CHARS);
    const value: RawCell = typedValue(c.attrs) ?? (text.trim() ? { value: text, ...(c.attrs['table:formula'] ? { formula: true } : {}) } : { value: null });
    if (value.value !== null) for (let i = 0; i < c.repeat && this.col + i < MAX_SHEET_COLUMNS; i++) this.cells[this.col + i] = value;
    this.col += c.repeat;
  }

  private endRow(): void {
    const filled = this.cells.some((c) => c && c.value !== null);
    for (let i = 0; i < this.cells.length; i++) if (!this.cells[i]) this.cells[i] = { value: null };
    const end = Math.min(MAX_SHEET_ROWS, this.rowNo + this.rowRepeat);
    // a repeated row is expanded while it holds something or a merged range above still covers it
    while (this.rowNo < end && (filled || this.open.length)) {
      this.rowNo++;
      const cells = this.cells.slice();
      if (this.open.length) applyMerges(this.rowNo, cells, this.open, this.anchors);
      this.open = this.open.filter((m) => m.bottom > this.rowNo);
      if (cells.some((c) => c.value !== null)) this.builder!.addRow(this.rowNo, cells);
    }
    this.rowNo = end;
    this.cells = [];
  }

  private endSheet(): void {
    if (!this.builder) return;
    const b = this.builder;
    this.builder = null;
    const sheet = b.finish();
    // (merged ranges are known only once the sheet has been read; the builder sorts those it is given)
    sheet.merged_ranges = this.merges.map((m) => m.ref).sort(compareStrings);
    this.sheets.push(sheet);
  }
}

async function readSheets(zip: OpenZip): Promise<OdsReader> {
  if (!zip.entries.some((e) => e.name === 'content.xml')) throw new ConvertError('The OpenDocument spreadsheet has no content part (content.xml).', REPAIR_HINT);
  const reader = new OdsReader();
  const parser = new Parser(reader, { xmlMode: true, decodeEntities: true });
  const decoder = new StringDecoder('utf8');
  let read = 0;
  for await (const chunk of (await zip.stream('content.xml')) as AsyncIterable<Buffer>) {
    read += chunk.length;
    if (read > MAX_CONTENT_BYTES) throw new ConvertError(`The spreadsheet's content part inflates to more than ${MAX_CONTENT_BYTES >> 20} MB; it was not read (a damaged file or a zip bomb?).`, REPAIR_HINT);
    parser.write(decoder.write(chunk));
  }
  parser.write(decoder.end());
  parser.end();
  return reader;
}

export const odsConverter: Converter = {
  name: 'ods',
  version: 10,
  async convert({ bytes, card, options }) {
    return withPackage(bytes, 'OpenDocument spreadsheet', REPAIR_HINT, async (zip) => {
      await assertOdfNotEncrypted(zip, 'spreadsheet');
      let reader: OdsReader;
      try {
        reader = await readSheets(zip);
      } catch (err) {
        if (err instanceof ConvertError) throw err;
        throw new ConvertError(`The spreadsheet could not be read: ${err instanceof Error ? err.message : String(err)}`, REPAIR_HINT);
      }
      if (reader.sheets.length === 0) throw new ConvertError('The spreadsheet has no sheets (a text document or presentation named .ods?).', 'Check the file type; text documents are read as .odt.');
      const result = schemaResult(card.id, basename(card.filename, extname(card.filename)), reader.sheets, 'workbook');
      if (reader.skipped.length) result.warnings = [`${reader.skipped.length} sheet(s) not converted: more than ${MAX_SHEETS} sheets (first: "${reader.skipped[0]}")`];
      return followPlan(result, options.plan, XLSX_CAPS, 'a workbook');
    });
  },
};

/** A ZIP package whose first part says it is an OpenDocument spreadsheet. */
export const odsRegistration: ConverterRegistration = {
  converter: odsConverter,
  formats: [packageFormat('ods', ODS_MIMETYPE, ['.ods'], ODS_MIMETYPE)],
};
