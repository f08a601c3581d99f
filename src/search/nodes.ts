/**
 * Tier-2 suggestions: the nodes of one source that best match a query — BM25 over node titles,
 * summaries and text (per-source node index), fused with node-vector similarity when the store has
 * node vectors. Query words that cannot tell the source's nodes apart (its own name and year,
 * words in most of its nodes, instruction filler) are left out; metrics are expanded into the line
 * items filings print for them, and a node titled as a financial statement the query needs gains
 * (concepts.ts). Only nodes spanning at most `maxPages` pages, so a suggestion points somewhere specific.
 */
import { loadConfig } from '../store/config.js';
import type { NodeHit } from './types.js';
import { readNodesIndex, type KeywordNodesIndex } from './keyword-format.js';
import { QUERY_FILLER, queryTerms, tokenize } from './tokenize.js';
import { expansionText, queryStatements, titleStatement } from './concepts.js';
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
/** length normalisation of node texts (statement pages full of figures are not less relevant) */
export const NODE_TEXT_B = 0.5;
/**
 * Query terms found in more than this share of a source's nodes do not help choose among them
 * ("million", the fiscal year of a 10-K); they are left out of node scoring.
 */
export const NODE_COMMON_TERM_SHARE = 0.5;
/**
 * Bonus for a node whose title is a financial statement the query needs (concepts.ts), times the
 * title's match strength. On the reciprocal-rank scale: 1/(NODE_RRF_K+1) ≈ 0.048 is a first
 * keyword rank, so the primary statement reaches the top three from a middling keyword rank.
 */
export const NODE_STATEMENT_BONUS = 0.03;
/** share of the statement bonus for a later node titled as the same statement */
export const NODE_REPEATED_STATEMENT_SHARE = 0.5;
/** weight of expansion terms (the line items a metric is printed as: synonyms of what was typed) relative to typed terms */
export const NODE_EXPANSION_WEIGHT = 1;
/** nodes with no keyword match and a vector cosine below this are not suggested */
export const NODE_MIN_COSINE = 0.2;

export interface NodeRankInput {
  terms: string[];
  /** the query as typed (statement lexicon and metric expansions); without it, keyword and vector scoring only */
  text?: string;
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

/**
 * Query terms that can tell a source's nodes apart: not the source's own identity (words of the
 * root title: company name, form, fiscal year), not terms found in most of its nodes. Falls back to
 * all terms when that leaves none (unless `fallback` is false).
 */
export function nodeQueryTerms(ix: KeywordNodesIndex, terms: string[], fallback = true): string[] {
  const n = ix.nodes.length;
  if (n < 2) return terms;
  const rootTerms = new Set(tokenize(ix.nodes[0]![1]));
  const kept = terms.filter((t) => {
    if (rootTerms.has(t)) return false;
    const df = (ix.terms[t]?.length ?? 0) / 2;
    return df <= NODE_COMMON_TERM_SHARE * n;
  });
  return kept.length > 0 || !fallback ? kept : terms;
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
  const terms = nodeQueryTerms(ix, input.terms);
  const kw = new Float64Array(n);
  bm25Field(terms, ix.title_terms, ix.title_len, kw, NODE_TITLE_WEIGHT, eligible, NODE_TITLE_B);
  bm25Field(terms, ix.terms, ix.len, kw, 1, eligible, NODE_TEXT_B);
  if (input.text && NODE_EXPANSION_WEIGHT > 0) {
    const typed = new Set(terms);
    const extra = [...new Set(tokenize(expansionText(input.text)))].filter((t) => !typed.has(t) && !QUERY_FILLER.has(t));
    if (extra.length > 0) {
      const ex = nodeQueryTerms(ix, extra, false);
      bm25Field(ex, ix.title_terms, ix.title_len, kw, NODE_TITLE_WEIGHT * NODE_EXPANSION_WEIGHT, eligible, NODE_TITLE_B);
      bm25Field(ex, ix.terms, ix.len, kw, NODE_EXPANSION_WEIGHT, eligible, NODE_TEXT_B);
    }
  }
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
  const wanted = input.text ? queryStatements(input.text) : new Set();
  if (wanted.size > 0) {
    const seen = new Set<string>();
    ix.nodes.forEach(([, title], i) => {
      if (!eligible[i]) return;
      const st = titleStatement(title);
      if (!st || !wanted.has(st.statement)) return;
      // the first primary statement of a kind is the filer's own; later ones are copies (parent-only,
      // guarantor or segment versions in notes and schedules)
      const key = `${st.statement}/${st.strength}`;
      const share = seen.has(key) ? NODE_REPEATED_STATEMENT_SHARE : 1;
      seen.add(key);
      fused.set(i, (fused.get(i) ?? 0) + NODE_STATEMENT_BONUS * st.strength * share);
    });
  }
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
  return rankNodesIn(ix, { terms: queryTerms(query), text: query, query: q, nodeVectors: nv, k: opts.k ?? DEFAULT_NODE_K, maxPages: opts.maxPages ?? DEFAULT_MAX_PAGES });
}
