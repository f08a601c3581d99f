/** CSV and TSV via csv-parse (quotes, embedded newlines, BOM), streamed into the sheet schema builder. */
import { decodeBytes } from '../../encoding.js';
import { Readable } from 'node:stream';
import { basename, extname } from 'node:path';
import { followPlan, type Capabilities } from '../plan-shape.js';
import type { Converter } from '../types.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from '../types.js';
import { ConvertError } from '../types.js';
import { SheetBuilder, type RawCell } from './schema.js';
import { schemaResult } from './result.js';

/** Characters fed to the parser at a time. */
export const CSV_CHUNK_BYTES = 1 << 16;
/** Leading characters inspected to pick the delimiter of a .csv file. */
export const DELIMITER_SNIFF_CHARS = 8192;
const CANDIDATES = [',', ';', '\t', '|'];

/** The delimiter that splits the first lines most consistently (quotes respected). */
export function sniffDelimiter(head: string): string {
  const lines = head.split(/\r?\n/).slice(0, 20).filter((l) => l.trim());
  let best = ',';
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const counts = lines.map((l) => {
      let n = 0;
      let quoted = false;
      for (const ch of l) {
        if (ch === '"') quoted = !quoted;
        else if (ch === d && !quoted) n++;
      }
      return n;
    });
    if (counts.length === 0 || counts[0] === 0) continue;
    const same = counts.filter((c) => c === counts[0]).length;
    const score = same * 1000 + counts[0]!;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

/**
 * Decode CSV bytes: UTF-8 (BOM optional), UTF-16 with or without a BOM (Excel's "Unicode Text"
 * export), and Windows-1252 when the bytes are not valid UTF-8 (Excel's default "CSV" export on
 * Windows). Shared with every text converter: ../../encoding.ts.
 */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: string } {
  const { text, encoding } = decodeBytes(bytes);
  return { text, encoding };
}

/** What this converter does with each plan field (see ./plan-shape.ts). */
const CSV_CAPS: Capabilities = {
  approaches: ['schema_index'],
  keySections: 'a table is indexed by its schema and rows, not by section titles',
  tablesAsRows: null,
  twoColumns: 'a table has no page layout to read in columns',
  plaintext: { native: null, reason: '' },
  estimatedNodes: 'a table is one schema node per column; rows are read with read_source --rows',
};

export const csvConverter: Converter = {
  name: 'csv',
  version: 11,
  async convert({ bytes, card, options }) {
    if (bytes.length === 0) throw new ConvertError('The file is empty.', 'Add rows or remove the file from the inbox.');
    const { parse } = await import('csv-parse');
    const { text, encoding } = decodeCsv(bytes);
    if (text.includes('\u0000')) throw new ConvertError('The file contains binary data, not delimited text.', 'Check that it really is a CSV/TSV file (an .xlsx renamed to .csv must keep its .xlsx name).');
    const delimiter = card.type === 'tsv' ? '\t' : sniffDelimiter(text.slice(0, DELIMITER_SNIFF_CHARS));
    const parser = parse({ delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
    const chunks = function* () {
      for (let i = 0; i < text.length; i += CSV_CHUNK_BYTES) yield text.slice(i, i + CSV_CHUNK_BYTES);
    };
    Readable.from(chunks()).pipe(parser);
    const title = basename(card.filename, extname(card.filename));
    const builder = new SheetBuilder(title);
    let rowNo = 0;
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        rowNo++;
        builder.addRow(rowNo, record.map((v): RawCell => ({ value: v === '' ? null : v })));
      }
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      throw new ConvertError(`The ${card.type.toUpperCase()} file could not be parsed near row ${rowNo + 1}: ${msg}`, 'Check for an unbalanced quote or a binary file saved with a .csv name.');
    }
    const sheet = builder.finish();
    if (sheet.columns.length === 0) throw new ConvertError('The file has no values (only empty rows).', 'Add rows or remove the file from the inbox.');
    const result = schemaResult(card.id, title, [sheet], 'table');
    result.meta = { ...result.meta, delimiter: delimiter === '\t' ? 'tab' : delimiter, encoding };
    return followPlan(result, options.plan, CSV_CAPS, `a ${card.type.toUpperCase()} table`);
  },
};

export const csvRegistration: ConverterRegistration = {
  converter: csvConverter,
  formats: [
    { type: 'csv', mime: 'text/csv', extensions: ['.csv'], priority: PRIORITY_SPECIFIC },
    { type: 'tsv', mime: 'text/tab-separated-values', extensions: ['.tsv', '.tab'], priority: PRIORITY_SPECIFIC },
  ],
};
