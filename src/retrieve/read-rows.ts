/**
 * Raw rows of a spreadsheet sheet. The sheet node's `meta.rows_ref` names a JSONL file under
 * converted/<id>/: line 1 is `{"columns":[...]}`, data row N is on line N+1. Only the lines needed
 * are read (chunked), so asking for rows 1-50 of a 100k-row sheet stays fast.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { TreeFile, TreeNode } from '../store/schemas.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { resolveContentRef } from './store-read.js';

/** Rows returned by one --rows read at most; larger ranges are clamped and a next range given. */
export const MAX_ROWS_PER_READ = 500;
/** Bytes read per chunk while scanning the JSONL file. */
const CHUNK_BYTES = 64 * 1024;

export interface SheetRef {
  node: TreeNode;
  rowsRef: string;
  name: string;
}

export interface RowsRead {
  sheet: string;
  node_id: string;
  columns: string[];
  /** each row as an array of cell values, in column order */
  rows: unknown[][];
  range: [number, number] | null;
  total_rows: number | null;
  next_range: [number, number] | null;
  truncated: boolean;
}

function rowsRefOf(n: TreeNode): string | null {
  const r = n.meta?.['rows_ref'];
  return typeof r === 'string' && r ? r : null;
}

function sheetsOf(n: TreeNode, out: SheetRef[] = []): SheetRef[] {
  const ref = rowsRefOf(n);
  if (ref) out.push({ node: n, rowsRef: ref, name: String(n.meta?.['sheet'] ?? n.title) });
  for (const c of n.children) sheetsOf(c, out);
  return out;
}

/**
 * The sheet to read: the given node when it (or its nearest ancestor) has rows, a sheet named by
 * `sheet`, or the only/first sheet of the workbook.
 */
export function pickSheet(tree: TreeFile, path: TreeNode[] | null, sheet: string | undefined): SheetRef {
  const all = sheetsOf(tree.root);
  if (all.length === 0) {
    throw new UserError(`Source ${tree.id} (${tree.file}) has no row data.`, tree.root.page_range ? 'Expected --pages A-B for this paged source.' : tree.root.line_range ? 'Expected --lines A-B for this text source.' : 'Read it by node id instead.', EXIT.USAGE);
  }
  if (path) {
    for (let i = path.length - 1; i >= 0; i--) {
      const hit = all.find((s) => s.node.node_id === path[i]!.node_id);
      if (hit) return hit;
    }
  }
  if (sheet) {
    const want = sheet.toLowerCase();
    const hit = all.find((s) => s.name.toLowerCase() === want || s.node.title.toLowerCase() === want);
    if (!hit) throw new UserError(`No sheet "${sheet}" in ${tree.file}.`, `Expected one of: ${all.map((s) => s.name).join(', ')}.`, EXIT.NOT_FOUND);
    return hit;
  }
  return all[0]!;
}

export function sheetNames(tree: TreeFile): string[] {
  return sheetsOf(tree.root).map((s) => s.name);
}

/** Lines [first, last] (1-based) of a file, reading chunk by chunk and stopping once `last` is read. */
function readLineRange(abs: string, first: number, last: number): { lines: string[]; more: boolean } {
  let fd: number;
  try {
    fd = openSync(abs, 'r');
  } catch (err) {
    throw new UserError(`The rows file ${abs} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`, 'Run `mhub doctor` (or `mhub ingest --force`) to rebuild it.', EXIT.UNHEALTHY);
  }
  const out: string[] = [];
  const buf = Buffer.allocUnsafe(CHUNK_BYTES);
  let lineNo = 1;
  let carry: Buffer[] = [];
  let more = false;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      let start = 0;
      for (let i = 0; i < n; i++) {
        if (buf[i] !== 0x0a) continue;
        if (lineNo >= first && lineNo <= last) {
          carry.push(Buffer.from(buf.subarray(start, i)));
          out.push(Buffer.concat(carry).toString('utf8'));
        } else if (lineNo > last) {
          more = true;
          return { lines: out, more };
        }
        carry = [];
        lineNo++;
        start = i + 1;
      }
      if (lineNo >= first && lineNo <= last) carry.push(Buffer.from(buf.subarray(start, n)));
      else if (lineNo > last && start < n) {
        more = true;
        return { lines: out, more };
      }
    }
    const tail = Buffer.concat(carry).toString('utf8');
    if (lineNo >= first && lineNo <= last && tail.length > 0) out.push(tail);
    return { lines: out, more };
  } finally {
    closeSync(fd);
  }
}

function toRow(line: string, columns: string[], file: string, rowNo: number): unknown[] {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    throw new UserError(`Row ${rowNo} of ${file} is not valid JSON.`, 'Re-run `mhub ingest --force` for this source.', EXIT.UNHEALTHY);
  }
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return columns.map((c) => (v as Record<string, unknown>)[c] ?? null);
  return [v];
}

/** Data rows A-B of a sheet (clamped to MAX_ROWS_PER_READ and to the sheet's size). */
export function readRows(root: string, tree: TreeFile, sheet: SheetRef, from: number, to: number): RowsRead {
  const abs = resolveContentRef(root, tree.id, sheet.rowsRef);
  const header = readLineRange(abs, 1, 1).lines[0];
  let columns: string[] = [];
  try {
    const h = JSON.parse(header ?? '') as { columns?: unknown };
    if (Array.isArray(h.columns)) columns = h.columns.map(String);
  } catch {
    throw new UserError(`The rows file ${sheet.rowsRef} of ${tree.id} has no {"columns": [...]} header line.`, 'Re-run `mhub ingest --force` for this source.', EXIT.UNHEALTHY);
  }
  const total = sheet.node.row_range ? sheet.node.row_range[1] : typeof sheet.node.meta?.['rows'] === 'number' ? (sheet.node.meta['rows'] as number) : null;
  if (total !== null && from > total) {
    throw new UserError(`Sheet "${sheet.name}" has ${total} data rows; row ${from} does not exist.`, `Expected a row range within 1-${total}.`, EXIT.NOT_FOUND);
  }
  let end = total !== null ? Math.min(to, total) : to;
  let next: [number, number] | null = null;
  if (end - from + 1 > MAX_ROWS_PER_READ) {
    next = [from + MAX_ROWS_PER_READ, end];
    end = from + MAX_ROWS_PER_READ - 1;
  }
  const { lines, more } = readLineRange(abs, from + 1, end + 1);
  const rows = lines.filter((l) => l.trim() !== '').map((l, i) => toRow(l, columns, sheet.rowsRef, from + i));
  if (!next && more && total === null && end < to) next = [end + 1, to];
  const range: [number, number] | null = rows.length > 0 ? [from, from + rows.length - 1] : null;
  return { sheet: sheet.name, node_id: sheet.node.node_id, columns, rows, range, total_rows: total, next_range: next, truncated: next !== null };
}

/** Drop trailing rows until the JSON of the rows fits `maxChars`; returns how many were kept. */
export function fitRows(read: RowsRead, maxChars: number): RowsRead {
  let size = JSON.stringify(read.columns).length;
  let keep = 0;
  for (const r of read.rows) {
    const s = JSON.stringify(r).length + 1;
    if (keep > 0 && size + s > maxChars) break;
    size += s;
    keep++;
  }
  if (keep === read.rows.length) return read;
  const lastKept = read.range![0] + keep - 1;
  const askedEnd = read.next_range ? read.next_range[1] : read.range![1];
  return { ...read, rows: read.rows.slice(0, keep), range: keep > 0 ? [read.range![0], lastKept] : null, next_range: [lastKept + 1, askedEnd], truncated: true };
}
