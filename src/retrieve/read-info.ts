/** Shared pieces of read answers: request/answer types, node info with bounded meta, lookups. */
import type { CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import type { Citation } from './citation.js';
import type { Freshness } from '../search/freshness.js';
import { requireNode, countDescendants } from './tree-view.js';

export interface ReadRequest {
  nodeId?: string | undefined;
  pages?: string | undefined;
  rows?: string | undefined;
  lines?: string | undefined;
  sheet?: string | undefined;
  /** a sheet's column statistics instead of text */
  stats?: boolean | undefined;
  offset?: number | undefined;
  maxChars?: number | undefined;
  /** include descendants' text when reading a node (default true) */
  children?: boolean | undefined;
  /** only the window of the text where these words are densest (retrieve/read.ts aroundWindow) */
  around?: string | undefined;
}

export interface NodeInfo {
  node_id: string;
  title: string;
  kind?: string;
  page_range?: [number, number];
  line_range?: [number, number];
  row_range?: [number, number];
  /** titles from the root down to this node */
  path: string[];
  children: number;
  descendants: number;
  meta?: Record<string, unknown>;
  /** meta entries left out to keep the answer small */
  meta_omitted?: string[];
}

/** The node that follows a node's whole part in reading order: the section to read on to. */
export interface FollowingNode {
  node_id: string;
  title: string;
  page_range?: [number, number];
  line_range?: [number, number];
}

/**
 * The node after `path`'s last node and all below it: its next sibling, else its nearest ancestor's
 * next sibling; null at the document's end. Agents read a section's introduction ("Balance
 * assertions (introduction)") and missed the subsection after it that held the answer.
 */
export function followingNode(path: TreeNode[]): FollowingNode | null {
  for (let i = path.length - 1; i > 0; i--) {
    const siblings = path[i - 1]!.children;
    const next = siblings[siblings.indexOf(path[i]!) + 1];
    if (!next) continue;
    return { node_id: next.node_id, title: next.title, ...(next.page_range ? { page_range: next.page_range } : {}), ...(next.line_range ? { line_range: next.line_range } : {}) };
  }
  return null;
}

export interface ReadAnswer {
  id: string;
  file: string;
  title: string;
  type: string;
  mode: 'node' | 'pages' | 'rows' | 'lines' | 'stats';
  node?: NodeInfo;
  /** a node read to its end: the node after it in reading order (null at the document's end) */
  following?: FollowingNode | null;
  text?: string;
  sheet?: string;
  sheets?: string[];
  columns?: string[];
  rows?: unknown[][];
  total_rows?: number | null;
  /** --rows / --stats: the sheet's text rows above its table (titles, units, a datum) and below it (notes, sources), as ingest kept them */
  notes_above?: string[];
  notes_below?: string[];
  /** --stats: one entry per column (name, type, min/max/mean, date range, distinct, top values…) */
  column_stats?: Array<Record<string, unknown>>;
  offset?: number;
  chars?: number;
  truncated: boolean;
  /** the arguments that continue this read when truncated */
  next: string | null;
  note?: string;
  /** said once: e.g. the store's lookup/ is missing or out of date, so the whole catalog was read */
  warnings?: string[];
  citation: Citation;
  freshness: Freshness;
}

/** Characters of node meta (column stats, sheet shape, symbol info) returned with a node read. */
export const META_READ_CHARS = 6000;

/** Meta within `max` characters: the largest entries are dropped first and named in `omitted`. */
export function boundMeta(meta: Record<string, unknown>, max: number): { meta: Record<string, unknown>; omitted: string[] } {
  const out = { ...meta };
  const omitted: string[] = [];
  while (JSON.stringify(out).length > max) {
    let big = '';
    let size = -1;
    for (const [k, v] of Object.entries(out)) {
      const n = JSON.stringify(v)?.length ?? 0;
      if (n > size) [big, size] = [k, n];
    }
    if (!big) break;
    delete out[big];
    omitted.push(big);
  }
  return { meta: out, omitted };
}

export function nodeInfo(path: TreeNode[], withMeta = true): NodeInfo {
  const n = path[path.length - 1]!;
  const info: NodeInfo = { node_id: n.node_id, title: n.title, path: path.map((p) => p.title), children: n.children.length, descendants: countDescendants(n) };
  if (n.kind) info.kind = n.kind;
  if (n.page_range) info.page_range = n.page_range;
  if (n.line_range) info.line_range = n.line_range;
  if (n.row_range) info.row_range = n.row_range;
  if (n.meta && withMeta) {
    const { meta, omitted } = boundMeta(n.meta, META_READ_CHARS);
    info.meta = meta;
    if (omitted.length) info.meta_omitted = omitted;
  }
  return info;
}

export function base(entry: CatalogEntry, tree: TreeFile) {
  return { id: entry.id, file: entry.original_path, title: entry.title || tree.title, type: entry.type };
}

export function rangeArg(flag: string, r: [number, number]): string {
  return `${flag} ${r[0]}-${r[1]}`;
}

export function nodeById(tree: TreeFile, id: string): TreeNode {
  return requireNode(tree, id).node;
}

export function findPath(tree: TreeFile, node: TreeNode): TreeNode[] {
  return requireNode(tree, node.node_id).path;
}
