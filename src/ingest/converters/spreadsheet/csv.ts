/** CSV and TSV via csv-parse (quotes, embedded newlines, BOM), streamed into the sheet schema builder. */
import { Readable } from 'node:stream';
import { basename, extname } from 'node:path';
import type { Converter } from '../types.js';
import { ConvertError } from '../types.js';
import { SheetBuilder, type RawCell } from './schema.js';
import { schemaResult } from './result.js';

/** Bytes fed to the parser at a time. */
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

export const csvConverter: Converter = {
  name: 'csv',
  version: 1,
  async convert({ bytes, card }) {
    if (bytes.length === 0) throw new ConvertError('The file is empty.', 'Add rows or remove the file from the inbox.');
    const { parse } = await import('csv-parse');
    const head = Buffer.from(bytes.subarray(0, DELIMITER_SNIFF_CHARS)).toString('utf8');
    const delimiter = card.type === 'tsv' ? '\t' : sniffDelimiter(head);
    const parser = parse({ delimiter, bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
    const chunks = function* () {
      for (let i = 0; i < bytes.length; i += CSV_CHUNK_BYTES) yield Buffer.from(bytes.subarray(i, i + CSV_CHUNK_BYTES));
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
    result.meta = { ...result.meta, delimiter: delimiter === '\t' ? 'tab' : delimiter };
    return result;
  },
};
