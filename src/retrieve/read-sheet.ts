/** Spreadsheet reads: raw rows by range, and the column statistics of a sheet. */
import type { CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import type { Freshness } from '../search/freshness.js';
import { parseRange } from './bounded.js';
import { pickSheet, readRows, fitRows, sheetNames } from './read-rows.js';
import { makeCitation, sheetRowsOf } from './citation.js';
import { base, findPath, nodeInfo, type ReadAnswer, type ReadRequest } from './read-info.js';

export interface SheetReadContext {
  root: string;
  entry: CatalogEntry;
  tree: TreeFile;
  /** the node given by the caller and its ancestors, if any */
  path: TreeNode[] | null;
  req: ReadRequest;
  maxChars: number;
  freshness: Freshness;
}

/** --stats: one entry per column of the chosen sheet, halved until it fits maxChars. */
export function readSheetStats({ entry, tree, path, req, maxChars, freshness }: SheetReadContext): ReadAnswer {
  const sheet = pickSheet(tree, path, req.sheet);
  const cols = Array.isArray(sheet.node.meta?.['columns']) ? (sheet.node.meta['columns'] as Array<Record<string, unknown>>) : [];
  const sheets = sheetNames(tree);
  let column_stats = cols;
  let truncated = false;
  while (column_stats.length > 1 && JSON.stringify(column_stats).length > maxChars) {
    column_stats = column_stats.slice(0, Math.ceil(column_stats.length / 2));
    truncated = true;
  }
  return {
    ...base(entry, tree),
    mode: 'stats',
    node: nodeInfo(findPath(tree, sheet.node), false),
    sheet: sheet.name,
    ...(sheets.length > 1 ? { sheets } : {}),
    ...sheetNotes(sheet.node),
    columns: cols.map((c) => String(c['name'] ?? '')),
    total_rows: sheet.node.row_range ? sheet.node.row_range[1] : typeof sheet.node.meta?.['row_count'] === 'number' ? (sheet.node.meta['row_count'] as number) : null,
    column_stats,
    truncated,
    next: truncated ? `${entry.id} ${sheet.node.node_id} --stats --max-chars ${maxChars * 4}` : null,
    citation: makeCitation(entry, { node_id: sheet.node.node_id, node_title: sheet.node.title, sheet: sheet.name }),
    freshness,
  };
}

/** The sheet's notes above and below its table (node meta `preamble` and `notes`), the fields that hold some. */
function sheetNotes(node: TreeNode): Pick<ReadAnswer, 'notes_above' | 'notes_below'> {
  const list = (v: unknown) => (Array.isArray(v) && v.length > 0 ? v.map(String) : undefined);
  const above = list(node.meta?.['preamble']);
  const below = list(node.meta?.['notes']);
  return { ...(above ? { notes_above: above } : {}), ...(below ? { notes_below: below } : {}) };
}

/** --rows A-B: raw rows of the chosen sheet, bounded by MAX_ROWS_PER_READ and maxChars. */
export function readSheetRows({ root, entry, tree, path, req, maxChars, freshness }: SheetReadContext): ReadAnswer {
  const [a, b] = parseRange('--rows', req.rows!);
  const sheet = pickSheet(tree, path, req.sheet);
  const got = fitRows(readRows(root, tree, sheet, a, b), maxChars);
  const total = got.total_rows; // a start past the end was refused by readRows
  const pastEnd = total !== null && total !== undefined && b > total ? `Asked for rows ${a}-${b}, but the sheet has ${total} rows: rows ${a}-${total} returned.` : null;
  const sheets = sheetNames(tree);
  const cont = got.next_range ? `${entry.id} --rows ${got.next_range[0]}-${got.next_range[1]}${sheets.length > 1 ? ` --sheet "${got.sheet}"` : ''}` : null;
  return {
    ...base(entry, tree),
    mode: 'rows',
    node: nodeInfo(findPath(tree, sheet.node), false),
    sheet: got.sheet,
    ...(sheets.length > 1 ? { sheets } : {}),
    ...sheetNotes(sheet.node),
    columns: got.columns,
    rows: got.rows,
    total_rows: got.total_rows,
    truncated: got.truncated,
    next: cont,
    ...(got.rows.length === 0 ? { note: `No data rows in ${a}-${b}.` } : pastEnd ? { note: pastEnd } : {}),
    citation: makeCitation(entry, { node_id: sheet.node.node_id, node_title: sheet.node.title, sheet: got.sheet, ...(got.range ? { rows: got.range, sheet_rows: sheetRowsOf(sheet.node.meta, got.range) } : {}) }),
    freshness,
  };
}
