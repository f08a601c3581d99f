/**
 * read_source / `mhub read`: the text of a node, a page range, a row range or a line range of one
 * source, bounded, with a citation and the index's freshness.
 */
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { openStoreLookup, loadTree } from './store-read.js';
import { resolveSource } from './resolve.js';
import { sourceFreshness, type Freshness } from '../search/freshness.js';
import type { CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import { requireNode } from './tree-view.js';
import { DEFAULT_READ_CHARS, MAX_READ_CHARS, parseRange } from './bounded.js';
import { readNodeText, readPages, readLines } from './read-text.js';
import { sheetNames } from './read-rows.js';
import { makeCitation } from './citation.js';
import { base, findPath, nodeById, nodeInfo, rangeArg, type ReadAnswer, type ReadRequest } from './read-info.js';
import { readSheetRows, readSheetStats } from './read-sheet.js';

export type { ReadAnswer, ReadRequest, NodeInfo } from './read-info.js';

export function readSource(root: string, ref: string, req: ReadRequest): ReadAnswer {
  const lookup = openStoreLookup(root);
  const entry = resolveSource(lookup, ref);
  const freshness = sourceFreshness(root, lookup, entry);
  const tree = loadTree(root, entry);
  const maxChars = Math.min(Math.max(1, req.maxChars ?? DEFAULT_READ_CHARS), MAX_READ_CHARS);
  const offset = Math.max(0, req.offset ?? 0);
  const given = [req.pages && '--pages', req.lines && '--lines', req.rows && '--rows', req.stats && '--stats'].filter(Boolean);
  if (given.length > 1) throw new UserError(`Give only one of ${given.join(', ')}.`, 'Expected a single range per read.', EXIT.USAGE);
  if (req.nodeId && (req.pages || req.lines)) {
    throw new UserError('Give either a node id or a --pages/--lines range, not both.', 'Expected `read_source SRC NODE` or `read_source SRC --pages A-B`.', EXIT.USAGE);
  }
  const path = req.nodeId ? requireNode(tree, req.nodeId).path : null;

  const ctx = { root, entry, tree, path, req, maxChars, freshness };
  const answer = req.stats ? readSheetStats(ctx) : req.rows ? readSheetRows(ctx) : req.pages || req.lines ? readRange(ctx, offset) : readNode(ctx, offset);
  if (lookup.warning) answer.warnings = [lookup.warning];
  return answer;
}

type ReadContext = { root: string; entry: CatalogEntry; tree: TreeFile; path: TreeNode[] | null; req: ReadRequest; maxChars: number; freshness: Freshness };

/** A page or line range (--pages / --lines). */
function readRange(ctx: ReadContext, offset: number): ReadAnswer {
  const { root, entry, tree, req, maxChars, freshness } = ctx;
  const isPages = !!req.pages;
  const flag = isPages ? '--pages' : '--lines';
  const [a, b] = parseRange(flag, (req.pages ?? req.lines)!);
  const got = isPages ? readPages(root, tree, a, b, { offset, maxChars }) : readLines(root, tree, a, b, { offset, maxChars });
  let next: string | null = null;
  if (got.next_offset !== null) next = `${entry.id} ${rangeArg(flag, got.range)} --offset ${got.next_offset}`;
  else if (got.next_range) next = `${entry.id} ${rangeArg(flag, got.next_range)}`;
  const only = got.nodes_read.length === 1 ? findPath(tree, nodeById(tree, got.nodes_read[0]!)) : null;
  return {
    ...base(entry, tree),
    mode: isPages ? 'pages' : 'lines',
    ...(only ? { node: nodeInfo(only) } : {}),
    text: got.text,
    offset: got.offset,
    chars: got.text.length,
    truncated: got.truncated || got.next_range !== null,
    next,
    ...(got.past_end !== null ? { note: `Asked for ${isPages ? 'pages' : 'lines'} ${a}-${b}, but the source has ${got.past_end} ${isPages ? 'pages' : 'lines'}: ${rangeArg(flag, got.range).replace(/^--/, '')} returned.` } : {}),
    citation: makeCitation(entry, { ...(only ? { node_id: only[only.length - 1]!.node_id, node_title: only[only.length - 1]!.title } : {}), ...(isPages ? { pages: got.range } : { lines: got.range }) }),
    freshness,
  };
}

/** One node's text (with its sub-sections unless --no-children), the root when no node is given. */
function readNode(ctx: ReadContext, offset: number): ReadAnswer {
  const { root, entry, tree, path, req, maxChars, freshness } = ctx;
  const nodePath = path ?? [tree.root];
  const node = nodePath[nodePath.length - 1]!;
  const got = readNodeText(root, tree, node, { offset, maxChars, withChildren: req.children ?? true });
  const answer: ReadAnswer = {
    ...base(entry, tree),
    mode: 'node',
    node: nodeInfo(nodePath),
    text: got.text,
    offset: got.offset,
    chars: got.text.length,
    truncated: got.truncated,
    next: got.next_offset !== null ? `${entry.id} ${node.node_id} --offset ${got.next_offset}${req.children === false ? ' --no-children' : ''}` : null,
    citation: makeCitation(entry, {
      node_id: node.node_id,
      node_title: node.title,
      pages: got.pages ?? node.page_range,
      rows: node.row_range,
      lines: node.line_range,
    }),
    freshness,
  };
  if (!got.text && got.offset === 0) {
    answer.note = node.children.length > 0 ? 'This node has no text of its own or below it.' : 'This node has no text; its title, summary and meta are all there is.';
    if (sheetNames(tree).length > 0) answer.note += ' For spreadsheet data ask for rows (--rows A-B) or column stats (--stats).';
  }
  return answer;
}

/** Most parts one read_source call returns (nodes, or comma-separated page or line ranges). */
export const MAX_READ_PARTS = 4;

/**
 * The read requests of one call naming several parts of a source: several node ids, or a
 * comma-separated list of page or line ranges ("59,63", "12-13,40"). One part: one request, as
 * before. Each part is bounded by maxChars on its own.
 */
export function splitReadRequest(nodeIds: string[], req: ReadRequest): ReadRequest[] {
  const list = (v: string | undefined) => (v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const pages = list(req.pages);
  const lines = list(req.lines);
  const parts: ReadRequest[] = nodeIds.length > 1
    ? nodeIds.map((nodeId) => ({ ...req, nodeId }))
    : pages.length > 1 ? pages.map((p) => ({ ...req, pages: p }))
      : lines.length > 1 ? lines.map((l) => ({ ...req, lines: l }))
        : [{ ...req, ...(nodeIds[0] ? { nodeId: nodeIds[0] } : {}) }];
  if (parts.length > 1) {
    if (nodeIds.length > 1 && (pages.length > 1 || lines.length > 1)) {
      throw new UserError('Give several node ids or several ranges, not both.', 'Expected `read_source SRC 0012 0015` or `read_source SRC --pages 59,63`.', EXIT.USAGE);
    }
    if (parts.length > MAX_READ_PARTS) {
      throw new UserError(`At most ${MAX_READ_PARTS} parts per call (got ${parts.length}).`, 'Expected fewer node ids or ranges; read the rest in a second call.', EXIT.USAGE);
    }
    if ((req.offset ?? 0) > 0) {
      throw new UserError('--offset continues one part, not several.', 'Expected the `next` arguments of the part to continue, alone.', EXIT.USAGE);
    }
  }
  return parts;
}

/** Several parts of one source in one call (splitReadRequest), in the order asked. */
export function readSourceParts(root: string, ref: string, parts: ReadRequest[]): { parts: ReadAnswer[] } {
  return { parts: parts.map((p) => readSource(root, ref, p)) };
}
