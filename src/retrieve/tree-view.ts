/**
 * A bounded view of a source tree: nodes down to a depth, at most a number of nodes (breadth first,
 * so the top of the document is always shown), summaries clipped. Hidden children are counted so
 * the reader knows where to look deeper (`--node ID`).
 */
import type { TreeFile, TreeNode } from '../store/schemas.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

export const DEFAULT_TREE_DEPTH = 2;
/** Outline levels shown with suggestions (--query): the suggestions carry the answer; the top level is the map back (agents found the full outline after them long). */
export const QUERY_TREE_DEPTH = 1;
export const DEFAULT_TREE_MAX_NODES = 120;
export const DEFAULT_SUMMARY_CHARS = 240;
/** Node meta shown inline when its JSON is at most this long (column stats, sheet shapes, symbols). */
export const META_INLINE_CHARS = 400;

export interface ViewNode {
  node_id: string;
  title: string;
  kind?: string;
  summary?: string;
  page_range?: [number, number];
  line_range?: [number, number];
  row_range?: [number, number];
  meta?: Record<string, unknown>;
  /** nodes below this one that are not shown (hidden children and their subtrees) */
  hidden_descendants?: number;
  children?: ViewNode[];
}

export interface TreeViewOptions {
  depth?: number;
  maxNodes?: number;
  summaries?: boolean;
  summaryChars?: number;
  /** start the view at this node instead of the root */
  fromNode?: string;
}

export interface TreeViewResult {
  root: ViewNode;
  shown: number;
  total: number;
  truncated: boolean;
}

export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1));
  const sp = cut.lastIndexOf(' ');
  return (sp > max * 0.6 ? cut.slice(0, sp) : cut) + '…';
}

export function countDescendants(n: TreeNode): number {
  let c = 0;
  for (const ch of n.children) c += 1 + countDescendants(ch);
  return c;
}

/** Pre-order search for a node; returns it with its ancestors (root first). */
export function findNodePath(root: TreeNode, id: string): TreeNode[] | null {
  const path: TreeNode[] = [];
  const walk = (n: TreeNode): boolean => {
    path.push(n);
    if (n.node_id === id) return true;
    for (const c of n.children) if (walk(c)) return true;
    path.pop();
    return false;
  };
  return walk(root) ? path : null;
}

/** A node by id, with a not-found error that says what ids look like. */
export function requireNode(tree: TreeFile, id: string): { node: TreeNode; path: TreeNode[] } {
  const want = id.trim();
  let path = findNodePath(tree.root, want);
  if (!path && /^\d+$/.test(want)) {
    const width = tree.root.node_id.length;
    path = findNodePath(tree.root, want.padStart(width, '0'));
  }
  if (!path) {
    throw new UserError(
      `Source ${tree.id} has no node "${id}" (its nodes are ${tree.root.node_id}…${String(Math.max(0, tree.node_count - 1)).padStart(tree.root.node_id.length, '0')}).`,
      'Expected a node_id from deep_retrieve / mhub tree output.',
      EXIT.NOT_FOUND,
    );
  }
  return { node: path[path.length - 1]!, path };
}

function inlineMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const json = JSON.stringify(meta);
  return json.length <= META_INLINE_CHARS ? meta : undefined;
}

export function viewTree(tree: TreeFile, opts: TreeViewOptions = {}): TreeViewResult {
  const depth = Math.max(0, opts.depth ?? DEFAULT_TREE_DEPTH);
  const maxNodes = Math.max(1, opts.maxNodes ?? DEFAULT_TREE_MAX_NODES);
  const summaries = opts.summaries ?? true;
  const summaryChars = opts.summaryChars ?? DEFAULT_SUMMARY_CHARS;
  const start = opts.fromNode ? requireNode(tree, opts.fromNode).node : tree.root;

  const make = (n: TreeNode): ViewNode => {
    const v: ViewNode = { node_id: n.node_id, title: n.title };
    if (n.kind) v.kind = n.kind;
    if (summaries && n.summary) v.summary = clip(n.summary, summaryChars);
    if (n.page_range) v.page_range = n.page_range;
    if (n.line_range) v.line_range = n.line_range;
    if (n.row_range) v.row_range = n.row_range;
    const meta = summaries ? inlineMeta(n.meta) : undefined;
    if (meta) v.meta = meta;
    return v;
  };

  // Breadth-first within the depth limit and the node budget.
  const rootView = make(start);
  let shown = 1;
  let frontier: Array<{ n: TreeNode; v: ViewNode }> = [{ n: start, v: rootView }];
  for (let level = 0; level < depth && frontier.length > 0; level++) {
    const next: Array<{ n: TreeNode; v: ViewNode }> = [];
    for (const { n, v } of frontier) {
      if (n.children.length === 0) continue;
      const kids: ViewNode[] = [];
      for (const c of n.children) {
        if (shown >= maxNodes) break;
        const cv = make(c);
        kids.push(cv);
        next.push({ n: c, v: cv });
        shown++;
      }
      if (kids.length > 0) v.children = kids;
    }
    frontier = next;
  }
  // Count what each shown node hides.
  const annotate = (n: TreeNode, v: ViewNode) => {
    const shownKids = v.children ?? [];
    let hidden = 0;
    n.children.forEach((c, i) => {
      const cv = shownKids[i];
      if (cv && cv.node_id === c.node_id) annotate(c, cv);
      else hidden += 1 + countDescendants(c);
    });
    if (hidden > 0) v.hidden_descendants = hidden;
  };
  annotate(start, rootView);
  const total = 1 + countDescendants(start);
  return { root: rootView, shown, total, truncated: shown < total };
}

function rangeText(v: { page_range?: [number, number]; line_range?: [number, number]; row_range?: [number, number] }): string {
  const r = (one: string, many: string, x: [number, number]) => (x[0] === x[1] ? `${one} ${x[0]}` : `${many} ${x[0]}-${x[1]}`);
  if (v.page_range) return r('p.', 'pp.', v.page_range);
  if (v.row_range) return r('row', 'rows', v.row_range);
  if (v.line_range) return r('line', 'lines', v.line_range);
  return '';
}

export { rangeText };

/** A title that ends with its pages already ("Item 1. Business (continued) (pages 11–14)": one of several parts of one title). */
const TITLE_STATES_PAGES = /\(pages? \d+(?:–\d+)?\)$/;

/** The range shown beside a title: none when the title states its pages (agents read "(pages 8–12)  (pp. 8-12)"). */
export function rangeBeside(v: { title: string; page_range?: [number, number]; line_range?: [number, number]; row_range?: [number, number] }): string {
  return v.page_range && TITLE_STATES_PAGES.test(v.title) ? '' : rangeText(v);
}

/** Human rendering: one line per node (id, title, range), summary indented below. */
export function renderTreeText(view: ViewNode, showSummaries = true): string {
  const lines: string[] = [];
  const walk = (v: ViewNode, indent: string) => {
    const range = rangeBeside(v);
    const more = v.hidden_descendants ? `  [+${v.hidden_descendants} more]` : '';
    lines.push(`${indent}${v.node_id}  ${v.title}${range ? `  (${range})` : ''}${more}`);
    if (showSummaries && v.summary) lines.push(`${indent}      ${v.summary}`);
    for (const c of v.children ?? []) walk(c, indent + '  ');
  };
  walk(view, '');
  return lines.join('\n');
}
