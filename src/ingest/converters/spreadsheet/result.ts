/** Turns sheet schemas into the schema tree: a workbook root, one node per sheet, one child per column. */
import { convertedDir } from '../../../store/layout.js';
import type { ConvertedNode, ConvertResult, ExtraFile } from '../types.js';
import { sheetMarkdown, sheetSlug, type ColumnStats, type SheetSchema } from './schema.js';
import { SAMPLE_VALUES_LABEL, TOP_VALUES_LABEL } from '../../../model/column-summary.js';
import { cutAtWord } from '../titles.js';

function columnSummary(c: ColumnStats): string {
  const bits = [`${c.type} column`];
  if (c.min !== undefined) bits.push(`from ${c.min} to ${c.max} (mean ${c.mean})`);
  if (c.date_min) bits.push(`dates ${c.date_min} to ${c.date_max}`);
  if (c.top_values?.length) {
    // when no value repeats, the "top" values are only the first in sort order: say so
    const label = c.top_values.some((t) => t.count > 1) ? TOP_VALUES_LABEL : SAMPLE_VALUES_LABEL;
    bits.push(`${label} ${c.top_values.map((t) => t.value).join(', ')}`);
  }
  const empty = c.empty ? `, ${c.empty} empty${c.missing_marks ? ` (${c.missing_marks.map((m) => `"${m}"`).join(', ')})` : ''}` : '';
  bits.push(`${c.distinct}${c.distinct_capped ? '+' : ''} distinct, ${c.non_empty} filled${empty}`);
  return `${c.name}: ${bits.join('; ')}`;
}

/** Longest summary of a sheet. */
export const SHEET_SUMMARY_CHARS = 400;

/**
 * The sheet's size, the notes above its table (what its rows are: a datum, units, a source; before
 * the columns, which a wide sheet lists at length: a cut there had left out GEOTRANS' "DATUM: WGE"),
 * then its columns.
 */
function sheetSummary(s: SheetSchema): string {
  const cols = s.columns.map((c) => `${c.name} (${c.type})`).join(', ');
  const size = `Sheet "${s.name}": ${s.row_count} rows × ${s.columns.length} columns`;
  if (!s.preamble.length) return cutAtWord(`${size}${cols ? `: ${cols}` : ''}.`, SHEET_SUMMARY_CHARS);
  return cutAtWord(`${size}. Notes above the table: ${s.preamble.join('; ')}.${cols ? ` Columns: ${cols}.` : ''}`, SHEET_SUMMARY_CHARS);
}

export function schemaResult(id: string, title: string, sheets: SheetSchema[], kind: 'workbook' | 'table'): ConvertResult {
  const taken = new Set<string>();
  const extra_files: ExtraFile[] = [];
  const sheetNodes: ConvertedNode[] = sheets.map((s) => {
    const slug = sheetSlug(s.name, taken);
    const rowsName = `${slug}.rows.jsonl`;
    extra_files.push({ name: rowsName, content: s.rows_jsonl });
    const node: ConvertedNode = {
      title: s.name,
      kind: 'sheet',
      summary: sheetSummary(s),
      content: sheetMarkdown(s),
      meta: {
        rows_ref: `${convertedDir(id)}/${rowsName}`,
        header_row: s.header_row,
        row_count: s.row_count,
        column_count: s.columns.length,
        columns: s.columns.map((c) => ({ ...c })),
        sample_data: s.sample_data,
        ...(s.preamble.length ? { preamble: s.preamble } : {}),
        ...(s.notes.length ? { notes: s.notes } : {}),
        ...(s.merged_ranges.length ? { merged_ranges: s.merged_ranges } : {}),
        ...(s.formula_cells ? { formula_cells: s.formula_cells } : {}),
      },
      children: s.columns.map((c) => ({ title: c.name, kind: 'column', summary: columnSummary(c), meta: { letter: c.letter, type: c.type }, children: [] })),
    };
    if (s.row_count > 0) node.row_range = [1, s.row_count];
    return node;
  });
  const totalRows = sheets.reduce((n, s) => n + s.row_count, 0);
  const root: ConvertedNode =
    sheetNodes.length === 1 && kind === 'table'
      ? { ...sheetNodes[0]!, title }
      : {
          title,
          kind: 'workbook',
          summary: `${sheets.length} sheet${sheets.length === 1 ? '' : 's'}, ${totalRows} data rows: ${sheets.map((s) => `${s.name} (${s.row_count} rows)`).join(', ')}`.slice(0, 400),
          children: sheetNodes,
        };
  const columns = sheets.flatMap((s) => s.columns.map((c) => c.name));
  return {
    title,
    toc_source: 'schema',
    approach: 'schema_index',
    root,
    extra_files,
    card: {
      summary: root.summary ?? '',
      key_topics: [...new Set(columns)].slice(0, 20),
      sections_overview: sheets.map((s) => s.name).slice(0, 20),
    },
    meta: { sheets: String(sheets.length), rows: String(totalRows) },
  };
}
