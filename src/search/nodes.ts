/**
 * Tier-2 suggestions: the nodes of one source that best match a query — BM25 over node titles,
 * summaries and text (per-source node index), fused with node-vector similarity when the store has
 * node vectors. Only nodes spanning at most `maxPages` pages, so a suggestion points somewhere specific.
 */
import { loadConfig } from '../store/config.js';
import type { NodeHit } from './types.js';
import { readNodesIndex, type KeywordNodesIndex } from './keyword-format.js';
import { queryTerms } from './tokenize.js';
import { bm25Field } from './bm25.js';
import { loadCardVectors, loadNodeVectors, nodeScores, queryEmbedder, type NodeVectors } from './vectors.js';

export const DEFAULT_NODE_K = 3;
export const DEFAULT_MAX_PAGES = 5;
/** reciprocal-rank-fusion constant for node lists */
export const NODE_RRF_K = 20;
/** weight of the keyword list vs the node-vector list in node fusion */
export const NODE_KEYWORD_WEIGHT = 1;
/** node vectors (USE-lite on long questions) are a weak signal: they break keyword ties rather than override them */
export const NODE_VECTOR_WEIGHT = 0.25;
/** weight of the node-title field vs the node-text field (a title naming the query's subject is strong evidence) */
export const NODE_TITLE_WEIGHT = 2.0;
/** length normalisation of node titles and texts (statement pages full of figures are not less relevant) */
export const NODE_TITLE_B = 0.5;
export const NODE_TEXT_B = 0.5;
/** nodes with no keyword match and a vector cosine below this are not suggested */
export const NODE_MIN_COSINE = 0.2;

export interface NodeRankInput {
  terms: string[];
  /** query vector and the store's node vectors, when vector search is on */
  query?: Float32Array | null;
  nodeVectors?: NodeVectors | null;
  k: number;
  maxPages: number;
}

function rankOf(scores: Map<number, number>): Map<number, number> {
  const order = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return new Map(order.map(([i], r) => [i, r + 1]));
}

/** Rank nodes of an already loaded node index (shared by rankNodes and searchStore). */
export function rankNodesIn(ix: KeywordNodesIndex, input: NodeRankInput): NodeHit[] {
  const n = ix.nodes.length;
  const eligible = new Uint8Array(n);
  ix.nodes.forEach(([, , kind, start, end], i) => {
    // the root spans the whole document: never a specific suggestion (unless it is the only node)
    const isRoot = i === 0 && n > 1;
    const span = kind === 'p' ? end - start + 1 : 1;
    eligible[i] = !isRoot && span <= input.maxPages ? 1 : 0;
  });
  const kw = new Float64Array(n);
  bm25Field(input.terms, ix.title_terms, ix.title_len, kw, NODE_TITLE_WEIGHT, eligible, NODE_TITLE_B);
  bm25Field(input.terms, ix.terms, ix.len, kw, 1, eligible, NODE_TEXT_B);
  const kwMap = new Map<number, number>();
  kw.forEach((s, i) => { if (s > 0) kwMap.set(i, s); });
  const vecMap = new Map<number, number>();
  if (input.query && input.nodeVectors) {
    const byId = nodeScores(input.nodeVectors, ix.id, input.query);
    ix.nodes.forEach(([nodeId], i) => {
      const s = byId.get(nodeId);
      if (eligible[i] && s !== undefined && (s >= NODE_MIN_COSINE || kwMap.has(i))) vecMap.set(i, s);
    });
  }
  const kr = rankOf(kwMap);
  const vr = rankOf(vecMap);
  const fused = new Map<number, number>();
  for (const [i, r] of kr) fused.set(i, (fused.get(i) ?? 0) + NODE_KEYWORD_WEIGHT / (NODE_RRF_K + r));
  for (const [i, r] of vr) fused.set(i, (fused.get(i) ?? 0) + NODE_VECTOR_WEIGHT / (NODE_RRF_K + r));
  return [...fused.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, input.k)
    .map(([i, score]) => {
      const [node_id, title, kind, start, end] = ix.nodes[i]!;
      const hit: NodeHit = { node_id, title, score: Math.round(score * 1e6) / 1e6 };
      if (kind === 'p') hit.page_range = [start, end];
      else if (kind === 'l') hit.line_range = [start, end];
      else if (kind === 'r') hit.row_range = [start, end];
      return hit;
    });
}

/**
 * Best nodes of one source for a query. Uses node vectors when the store has them and the model
 * that made them is available; otherwise keyword scoring alone.
 */
export async function rankNodes(
  root: string,
  sourceId: string,
  query: string,
  opts: { k?: number; maxPages?: number; vectors?: boolean } = {},
): Promise<NodeHit[]> {
  const ix = readNodesIndex(root, sourceId);
  if (!ix) return [];
  let q: Float32Array | null = null;
  let nv: NodeVectors | null = null;
  if (opts.vectors !== false) {
    const cv = loadCardVectors(root);
    if (typeof cv !== 'string') {
      nv = loadNodeVectors(root, cv.meta.model);
      if (nv) {
        const emb = await queryEmbedder(root, loadConfig(root), cv.meta.model);
        if (typeof emb !== 'string') q = (await emb.embed([query]))[0] ?? null;
        else nv = null;
      }
    }
  }
  return rankNodesIn(ix, { terms: queryTerms(query), query: q, nodeVectors: nv, k: opts.k ?? DEFAULT_NODE_K, maxPages: opts.maxPages ?? DEFAULT_MAX_PAGES });
}
