/**
 * The tree stage: turns a converter's nodes into the stored tree. Assigns node ids in pre-order
 * ("0000" is the document root), writes each node's own text to converted/<id>/<node_id>.md, fills
 * missing summaries extractively and widens parent ranges to cover their children.
 */
import type { ConvertedNode, ConvertResult } from '../converters/types.js';
import type { TreeNode, TreeFile, FileCard, Approach } from '../../store/schemas.js';
import { SCHEMA_VERSION } from '../../store/schemas.js';
import { convertedDir, nodeTextPath, treePath } from '../../store/layout.js';
import { leadSummary, SUMMARY_MAX_CHARS } from './summarize.js';

/** Digits of a node id; more nodes than 10^4 widen ids for that source only. */
export const NODE_ID_DIGITS = 4;

export interface MaterializedTree {
  tree: TreeFile;
  /** store-relative path → content, every file under converted/<id>/ */
  files: Map<string, string | Uint8Array>;
  /** the document's opening prose (nodes' own text in reading order), for the card summary */
  leadText: string;
}

/** Characters of opening text gathered for the document summary. */
export const LEAD_TEXT_CHARS = 1500;

function countNodes(n: ConvertedNode): number {
  return 1 + n.children.reduce((s, c) => s + countNodes(c), 0);
}

function cover(a: [number, number] | undefined, b: [number, number] | undefined): [number, number] | undefined {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
}

/** A node's page, line and row ranges widened to cover its children's (only the kinds it has). */
function coveredRanges(n: ConvertedNode, children: TreeNode[]): Pick<TreeNode, 'page_range' | 'line_range' | 'row_range'> {
  let page_range = n.page_range;
  let line_range = n.line_range;
  let row_range = n.row_range;
  for (const c of children) {
    page_range = cover(page_range, c.page_range);
    line_range = cover(line_range, c.line_range);
    row_range = cover(row_range, c.row_range);
  }
  return { ...(page_range ? { page_range } : {}), ...(line_range ? { line_range } : {}), ...(row_range ? { row_range } : {}) };
}

/** Children's titles listed in a parent's summary. */
export const LISTED_CHILDREN = 8;
/** A title's words, without a suffix telling where a part of its text is ("(continued)", "(pages 10–14)"). */
const titleKey = (t: string) => t.toLowerCase().replace(/(?:\s*\((?:continued|pages? \d[^)]*)\))+$/, '').replace(/[^\p{L}\p{N}]+/gu, '');
/** A part that only goes on with text begun before it: "… (continued)", "… (continued) (pages 10–14)". */
const CONTINUED = /\(continued\)(?:\s*\([^)]*\))?$/i;

/**
 * A parent's summary when it has none: its children's titles, except those that only repeat its own
 * title (its opening text, "… (continued)" parts): they say nothing of what it holds. Only such
 * children: the first one's summary.
 */
export function childList(title: string, children: TreeNode[]): string {
  const own = titleKey(title);
  const listed = children.filter((c) => titleKey(c.title) !== own && !CONTINUED.test(c.title));
  return listed.length ? listed.map((c) => c.title).slice(0, LISTED_CHILDREN).join('; ') : (children[0]?.summary ?? '');
}

export function materializeTree(card: FileCard, approach: Approach, result: ConvertResult): MaterializedTree {
  const total = countNodes(result.root);
  const digits = Math.max(NODE_ID_DIGITS, String(total - 1).length);
  const dir = convertedDir(card.id);
  const files = new Map<string, string | Uint8Array>();
  let next = 0;
  let leadText = '';

  const visit = (n: ConvertedNode): TreeNode => {
    const node_id = String(next++).padStart(digits, '0');
    const content = n.content && n.content.trim().length > 0 ? n.content : '';
    let content_ref: string | null = null;
    if (content) {
      if (leadText.length < LEAD_TEXT_CHARS) leadText += (leadText ? '\n\n' : '') + content.slice(0, LEAD_TEXT_CHARS - leadText.length);
      content_ref = nodeTextPath(card.id, node_id);
      files.set(content_ref, content.endsWith('\n') ? content : content + '\n');
    }
    const children = n.children.map(visit);
    const summary = n.summary || (content ? leadSummary(content, SUMMARY_MAX_CHARS, n.title) : childList(n.title, children));
    return {
      node_id,
      title: n.title,
      ...(n.kind ? { kind: n.kind } : {}),
      summary,
      ...coveredRanges(n, children),
      content_ref,
      ...(n.meta ? { meta: n.meta } : {}),
      children,
    };
  };

  const root = visit(result.root);
  for (const f of result.extra_files ?? []) files.set(`${dir}/${f.name}`, f.content);
  const tree: TreeFile = {
    schema_version: SCHEMA_VERSION,
    id: card.id,
    file: card.original_path,
    type: card.type,
    title: result.title,
    toc_source: result.toc_source,
    strategy: approach,
    ...(result.pages !== undefined ? { page_count: result.pages } : {}),
    ...(result.line_count !== undefined ? { line_count: result.line_count } : {}),
    node_count: total,
    root,
  };
  return { tree, files, leadText };
}

export { treePath };
