/** Citations: everything an agent needs to point a reader at the exact place an answer came from. */
import type { CatalogEntry } from '../store/schemas.js';

export interface Citation {
  source_id: string;
  file: string;
  title: string;
  node_id?: string;
  node_title?: string;
  pages?: [number, number];
  rows?: [number, number];
  /** the same rows as the spreadsheet numbers them (a CSV: the file's lines), when its header's row (meta.header_row) is known */
  sheet_rows?: [number, number];
  sheet?: string;
  lines?: [number, number];
  /** the HTML section's fragment (`file.html#anchor`), when the node has one */
  anchor?: string;
  /** sha256 of the source file the index was built from */
  sha256: string;
  /**
   * ready-to-paste reference, e.g. `reports/acme-2022.pdf, pp. 60-61 (src_1a2b3c4d, node 0012)`, or
   * `guide.html, section "Permissions" (src_…, node 0010)` for a section with no place of its own
   */
  text: string;
}

export interface CitationParts {
  node_id?: string | undefined;
  node_title?: string | undefined;
  pages?: [number, number] | undefined;
  rows?: [number, number] | undefined;
  sheet_rows?: [number, number] | undefined;
  sheet?: string | undefined;
  lines?: [number, number] | undefined;
  anchor?: string | undefined;
}

/**
 * Data rows as the spreadsheet numbers them: data row 1 sits right under the header (a sheet node's
 * meta.header_row); undefined for a sheet without a header. Omni-Path's topology sheet has its header on
 * row 3: an agent's "row 6" was row 9 where a reader opens the file.
 */
export function sheetRowsOf(sheetMeta: Readonly<Record<string, unknown>> | undefined, rows: [number, number] | undefined): [number, number] | undefined {
  const header = sheetMeta?.['header_row'];
  return rows && typeof header === 'number' ? [header + rows[0], header + rows[1]] : undefined;
}

function span(label1: string, labelN: string, r: [number, number]): string {
  return r[0] === r[1] ? `${label1} ${r[0]}` : `${labelN} ${r[0]}-${r[1]}`;
}

/** How a source's pages are named in a citation: a slide deck's pages are its slides. */
function pageLabels(entry: CatalogEntry): [string, string] {
  return entry.type === 'pptx' || entry.type === 'odp' ? ['slide', 'slides'] : ['p.', 'pp.'];
}

/** Where a sheet's rows are in the file as its reader numbers them: a workbook's sheet rows, a CSV's lines. */
function fileRows(entry: CatalogEntry, r: [number, number]): string {
  return entry.type === 'csv' ? span('line', 'lines', r) : `sheet ${span('row', 'rows', r)}`;
}

export function makeCitation(entry: CatalogEntry, parts: CitationParts): Citation {
  const where: string[] = [];
  if (parts.sheet) where.push(`sheet "${parts.sheet}"`);
  if (parts.pages) where.push(span(...pageLabels(entry), parts.pages));
  if (parts.rows) where.push(`${span('row', 'rows', parts.rows)}${parts.sheet_rows ? ` (${fileRows(entry, parts.sheet_rows)})` : ''}`);
  if (parts.lines) where.push(span('line', 'lines', parts.lines));
  // a section with neither pages, rows, lines nor an anchor (an HTML heading without an id) is named by its title
  if (where.length === 0 && !parts.anchor && parts.node_title) where.push(`section "${parts.node_title}"`);
  const ids = [entry.id, ...(parts.node_id ? [`node ${parts.node_id}`] : [])].join(', ');
  const c: Citation = { source_id: entry.id, file: entry.original_path, title: entry.title, sha256: entry.sha256, text: '' };
  if (parts.node_id) c.node_id = parts.node_id;
  if (parts.node_title) c.node_title = parts.node_title;
  if (parts.pages) c.pages = parts.pages;
  if (parts.rows) c.rows = parts.rows;
  if (parts.rows && parts.sheet_rows) c.sheet_rows = parts.sheet_rows;
  if (parts.sheet) c.sheet = parts.sheet;
  if (parts.lines) c.lines = parts.lines;
  if (parts.anchor) c.anchor = parts.anchor;
  c.text = `${entry.original_path}${parts.anchor ? `#${parts.anchor}` : ''}${where.length ? `, ${where.join(', ')}` : ''} (${ids})`;
  return c;
}
