/**
 * deep_retrieve / `mhub tree`: a source's tree (titles, ids, ranges, summaries) bounded by depth,
 * node count and characters, plus — with a query — the nodes ranked best for it (tier 2), each small
 * enough (at most a few pages) that reading it is cheap.
 */
import { boundQuery } from '../search/arguments.js';
import type { CatalogEntry, TreeFile } from '../store/schemas.js';
import type { NodeHit, Verdict } from '../search/types.js';
import type { NodePassage } from './snippets.js';
import { openStoreLookup, loadTree } from './store-read.js';
import { resolveSource } from './resolve.js';
import { sourceFreshness, type Freshness } from '../search/freshness.js';
import { viewTree, requireNode, clip, DEFAULT_TREE_DEPTH, QUERY_TREE_DEPTH, DEFAULT_TREE_MAX_NODES, DEFAULT_SUMMARY_CHARS, type ViewNode } from './tree-view.js';
import { sheetRowsOf } from './citation.js';

/** Suggestions returned by default. */
export const DEFAULT_SUGGESTIONS = 5;
/** Default bound on the whole JSON answer, in characters. */
export const DEFAULT_TREE_MAX_CHARS = 16_000;
/** Characters of each suggestion's summary. */
export const SUGGESTION_SUMMARY_CHARS = 300;

export interface DeepOptions {
  query?: string | undefined;
  depth?: number | undefined;
  maxNodes?: number | undefined;
  k?: number | undefined;
  summaries?: boolean | undefined;
  fromNode?: string | undefined;
  maxChars?: number | undefined;
  /** false: keyword scoring only for suggestions (no embedding model load) */
  vectors?: boolean | undefined;
}

export interface Suggestion extends NodeHit {
  kind?: string;
  /** for rows of a sheet: the rows as the spreadsheet numbers them (header row = meta.header_row; row_range counts data rows, as read_source --rows does) */
  excel_rows?: [number, number];
  summary: string;
  /** titles of the ancestors, root first */
  path: string[];
  /** where the node holds the query's words most densely, with its page (retrieve/snippets.ts) */
  passage?: NodePassage;
}

export interface DeepAnswer {
  id: string;
  title: string;
  file: string;
  type: string;
  toc_source: string;
  strategy: string;
  page_count?: number;
  line_count?: number;
  node_count: number;
  summary: string;
  query?: string;
  /** how sure the first suggestion is: strong | weak | none (the words search uses) */
  verdict?: Verdict;
  suggestions: Suggestion[];
  warnings: string[];
  depth: number;
  shown: number;
  truncated: boolean;
  root: ViewNode;
  next: string | null;
  freshness: Freshness;
}

async function suggest(root: string, tree: TreeFile, entry: CatalogEntry, query: string, k: number, vectors: boolean, warnings: string[]): Promise<Suggestion[]> {
  const docType = entry.doc_type ?? '';
  const { rankNodes } = await import('../search/nodes.js');
  const { nodeKeywords } = await import('../search/keyword-index.js');
  const { keywordNodesFile } = await import('../model/keyword-format.js');
  if (!nodeKeywords(root, tree.id)) {
    warnings.push(`the node index of ${tree.id} (${keywordNodesFile(tree.id)}) is missing or from an older version, so there are no suggestions; run \`mhub ingest\` to rebuild it. The outline below still works.`);
    return [];
  }
  const hits: NodeHit[] = await rankNodes(root, tree.id, query, { k, vectors, warnings, docType });
  const { hitPassage, isNotesHit, passageCite, termWeights } = await import('./snippets.js');
  const weights = termWeights(root, tree.id, query, undefined, docType);
  return hits.slice(0, k).map((h, r) => {
    const { node, path } = requireNode(tree, h.node_id);
    const s: Suggestion = { ...h, title: h.title || node.title, summary: clip(node.summary ?? '', SUGGESTION_SUMMARY_CHARS), path: path.slice(0, -1).map((p) => p.title) };
    const passage = hitPassage(root, tree, path, h, weights, r + 1);
    if (passage) s.passage = { ...passage, cite: passageCite(entry, h, passage, node) };
    if (node.kind) s.kind = node.kind;
    if (!s.page_range && node.page_range) s.page_range = node.page_range;
    if (!s.line_range && node.line_range) s.line_range = node.line_range;
    // a sheet's notes are no rows of it
    if (!s.row_range && node.row_range && !isNotesHit(h, node)) s.row_range = node.row_range;
    const excel = sheetRowsOf(node.meta, s.row_range);
    if (excel) s.excel_rows = excel;
    return s;
  });
}

export async function deepRetrieve(root: string, ref: string, opts: DeepOptions = {}): Promise<DeepAnswer> {
  const lookup = openStoreLookup(root);
  const entry = resolveSource(lookup, ref);
  const freshness = sourceFreshness(root, lookup, entry);
  const tree = loadTree(root, entry);
  const depth = opts.depth ?? (opts.query?.trim() ? QUERY_TREE_DEPTH : DEFAULT_TREE_DEPTH);
  const maxChars = opts.maxChars ?? DEFAULT_TREE_MAX_CHARS;
  const warnings: string[] = lookup.warning ? [lookup.warning] : [];
  // a pasted document is not a query: bounded, and the answer says so
  const bounded = opts.query?.trim() ? boundQuery(opts.query.trim()) : null;
  if (bounded?.warning) warnings.push(bounded.warning);
  const query = bounded?.query;
  const said = warnings.length;
  const suggestions = query ? await suggest(root, tree, entry, query, Math.max(1, opts.k ?? DEFAULT_SUGGESTIONS), opts.vectors ?? true, warnings) : [];
  if (query && suggestions.length === 0 && !warnings.slice(said).some((w) => w.startsWith('the node index of'))) warnings.push(`no node of this source matches "${query}"; browse the outline or try other words`);

  let maxNodes = opts.maxNodes ?? DEFAULT_TREE_MAX_NODES;
  let summaries = opts.summaries ?? true;
  let summaryChars = DEFAULT_SUMMARY_CHARS;
  const build = (): DeepAnswer => {
    const view = viewTree(tree, { depth, maxNodes, summaries, summaryChars, fromNode: opts.fromNode });
    const answer: DeepAnswer = {
      id: entry.id,
      title: entry.title || tree.title,
      file: entry.original_path,
      type: entry.type,
      toc_source: tree.toc_source,
      strategy: tree.strategy,
      ...(tree.page_count !== undefined ? { page_count: tree.page_count } : {}),
      ...(tree.line_count !== undefined ? { line_count: tree.line_count } : {}),
      node_count: tree.node_count,
      summary: clip(entry.summary ?? '', SUGGESTION_SUMMARY_CHARS * 2),
      ...(query ? { query, verdict: suggestions[0]?.verdict ?? 'none' } : {}),
      suggestions,
      warnings,
      depth,
      shown: view.shown,
      truncated: view.truncated,
      root: view.root,
      next: view.truncated ? 'Nodes with hidden_descendants have more below: pass --node <node_id> (and --depth N) to expand one, or read it with read_source.' : null,
      freshness,
    };
    return answer;
  };
  // Shrink the view until the whole answer fits the character budget.
  let answer = build();
  while (JSON.stringify(answer).length > maxChars) {
    if (summaries && summaryChars > 80) summaryChars = Math.floor(summaryChars / 2);
    else if (maxNodes > 8) maxNodes = Math.floor(maxNodes / 2);
    else if (summaries) summaries = false;
    else break;
    answer = build();
  }
  return answer;
}
