/**
 * The texts indexed for each source: its metadata card (keyword card field, card vector) and each
 * tree node (title path, summary, own text). Shared by the keyword and vector builders.
 */
import { headingOf, sheetNotesTitle } from '../model/place-labels.js';
import { existsSync, readFileSync } from 'node:fs';
import type { CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import { resolveInStore } from '../store/safe-path.js';

/** Characters of a node's own text kept for its vector (title + summary + opening text). */
export const NODE_VECTOR_TEXT_CHARS = 600;
/** Sections listed in the card text. */
export const CARD_SECTIONS_MAX = 40;

export interface NodeText {
  node_id: string;
  title: string;
  /** titles of the ancestors (root excluded), outermost first */
  path: string[];
  summary: string;
  text: string;
  range: { kind: 'p' | 'l' | 'r' | ''; start: number; end: number };
  /** the node's kind in the tree ('' when none): `contents` for a printed table of contents */
  kind: string;
  /** depth in the tree (the root 0) */
  depth: number;
}

/** The words of a source's file name ("3M_2018_10K.pdf" → "3M 2018 10K"): a hint, not what the document says it is. */
export function fileNameText(e: CatalogEntry): string {
  return e.filename.replace(/\.[^.]+$/, '').replace(/[_]+/g, ' ');
}

/**
 * What a source says it is: title, type, period, date, tags and metadata values, all read from its
 * content (cover page, PDF metadata, first headings) or given by the user. The file name is not
 * part of it (issue 18: it is one weak hint, indexed with the card).
 */
export function identityText(e: CatalogEntry, withFileName = false): string {
  const lines = [
    e.title,
    withFileName ? fileNameText(e) : '',
    [e.doc_type, e.period, e.date].filter(Boolean).join(' · '),
    e.tags.length ? `Tags: ${e.tags.join(', ')}` : '',
    Object.values(e.meta ?? {}).join(' '),
  ];
  return lines.filter((l) => l.trim().length > 0).join('\n');
}

/** What a source is about: summary, key topics, sections overview. */
export function aboutText(e: CatalogEntry): string {
  const lines = [
    e.summary,
    e.key_topics.length ? `Topics: ${e.key_topics.join('; ')}` : '',
    e.sections_overview.length ? `Sections: ${e.sections_overview.slice(0, CARD_SECTIONS_MAX).join('; ')}` : '',
  ];
  return lines.filter((l) => l.trim().length > 0).join('\n');
}

/** The card as text (embedded as the card vector): identity with the file name, then summary, topics, sections. */
export function cardText(e: CatalogEntry): string {
  return [identityText(e, true), aboutText(e)].filter(Boolean).join('\n');
}

function rangeOf(n: TreeNode): NodeText['range'] {
  if (n.page_range) return { kind: 'p', start: n.page_range[0], end: n.page_range[1] };
  if (n.line_range) return { kind: 'l', start: n.line_range[0], end: n.line_range[1] };
  if (n.row_range) return { kind: 'r', start: n.row_range[0], end: n.row_range[1] };
  return { kind: '', start: 0, end: 0 };
}

function readContent(root: string, ref: string | null): string {
  if (!ref) return '';
  try {
    const p = resolveInStore(root, ref);
    if (!existsSync(p)) return '';
    return readFileSync(p, 'utf8').replace(/<!-- page \d+ -->/g, ' ');
  } catch {
    return '';
  }
}

/**
 * Every node of a tree in pre-order (the root included), with its own text read from the store —
 * lazily, one node's text at a time: a source of 100k nodes is never held in memory whole.
 */
export function* nodeTexts(root: string, tree: TreeFile): Generator<NodeText> {
  const stack: Array<{ n: TreeNode; path: string[]; depth: number }> = [{ n: tree.root, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { n, path, depth } = stack.pop()!;
    yield { node_id: n.node_id, title: n.title, path, summary: n.summary, text: readContent(root, n.content_ref), range: rangeOf(n), kind: n.kind ?? '', depth };
    const childPath = depth === 0 ? path : [...path, n.title];
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ n: n.children[i]!, path: childPath, depth: depth + 1 });
  }
}

/** Data rows indexed per sheet at most (one entry per row); larger sheets are indexed in blocks of rows. */
export const MAX_INDEXED_ROWS = 5000;
/** Characters of one row's text kept for the index. */
export const ROW_TEXT_CHARS = 1000;

/** A searchable block of spreadsheet rows: the sheet node and data rows [start, end] (1 = first data row). */
export interface RowText {
  node_id: string;
  title: string;
  text: string;
  start: number;
  end: number;
}

function readRows(root: string, ref: string): { rows: unknown[][] } | null {
  try {
    const lines = readFileSync(resolveInStore(root, ref), 'utf8').split('\n').filter((l) => l.trim());
    // line 1 is {"columns": [...]}, then one JSON array per data row
    return { rows: lines.slice(1).map((l) => JSON.parse(l) as unknown[]) };
  } catch {
    return null;
  }
}

/** A row's cell values (column names are searchable through the column nodes, not repeated per row). */
function rowText(row: unknown[]): string {
  return row.map((v) => (v === null || v === undefined ? '' : String(v))).filter(Boolean).join('; ').slice(0, ROW_TEXT_CHARS);
}

/**
 * The data rows of every sheet node (meta.rows_ref) as searchable blocks: one per row up to
 * MAX_INDEXED_ROWS rows, else blocks of consecutive rows. Row numbers are data rows, the numbering
 * `read_source --rows` uses (data row 1 is Excel row header_row + 1).
 */
export function rowTexts(root: string, tree: TreeFile): RowText[] {
  const out: RowText[] = [];
  const walk = (n: TreeNode): void => {
    const ref = n.meta?.['rows_ref'];
    const data = typeof ref === 'string' ? readRows(root, ref) : null;
    if (data && data.rows.length > 0) {
      const sheet = String(n.meta?.['sheet'] ?? n.title);
      const per = Math.ceil(data.rows.length / MAX_INDEXED_ROWS);
      for (let i = 0; i < data.rows.length; i += per) {
        const block = data.rows.slice(i, i + per);
        const start = i + 1;
        const end = i + block.length;
        const text = block.map((r) => rowText(r)).join('\n');
        out.push({ node_id: n.node_id, title: `${sheet} row${start === end ? ` ${start}` : `s ${start}-${end}`}`, text, start, end });
      }
    }
    for (const c of n.children) walk(c);
  };
  walk(tree.root);
  return out;
}

/** A sheet's notes as a searchable entry: the sheet node, what the notes are, and their text. */
export interface NoteText {
  node_id: string;
  title: string;
  text: string;
}

/**
 * The notes set above and below each sheet's table (meta.preamble, meta.notes: a title, units, a
 * datum, sources, a summary the table does not hold) as entries of their own beside the rows: in the
 * sheet's text they sat under hundreds of rows' cells, and a question about them found rows. Omni-Path's
 * topology sheet gives its two core switches' sizes only in its notes ("Core Name:core2 … Core
 * Size:1152"); an agent asking which core switch was bigger read three sheets' rows before finding them.
 */
export function sheetNoteTexts(tree: TreeFile): NoteText[] {
  const out: NoteText[] = [];
  const lines = (v: unknown) => (Array.isArray(v) ? v.map(String).filter((x) => x.trim()) : []);
  const walk = (n: TreeNode): void => {
    if (n.kind === 'sheet' || typeof n.meta?.['rows_ref'] === 'string') {
      const sheet = String(n.meta?.['sheet'] ?? n.title);
      for (const [where, key] of [['above', 'preamble'], ['below', 'notes']] as const) {
        const text = lines(n.meta?.[key]).join('\n');
        if (text) out.push({ node_id: n.node_id, title: sheetNotesTitle(sheet, where), text });
      }
    }
    for (const c of n.children) walk(c);
  };
  walk(tree.root);
  return out;
}

/** Text embedded for a node: its title path, summary and opening text. */
/**
 * `text.replace(/\s+/g, ' ').trim().slice(0, max)` without collapsing the whole text: a prefix is
 * collapsed first, and the whole text only when the prefix was not enough (a large source's nodes
 * would otherwise each leave a full copy behind, which is what peaks the memory of a large ingest).
 */
export function collapsedHead(text: string, max: number): string {
  const head = text.slice(0, max * 4).replace(/\s+/g, ' ').trimStart();
  if (head.length > max) return head.slice(0, max);
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}

export function nodeVectorText(n: NodeText): string {
  const head = [...n.path, headingOf(n.title)].join(' > ');
  const body = collapsedHead(n.text, NODE_VECTOR_TEXT_CHARS);
  return [head, n.summary, body].filter(Boolean).join('\n');
}
