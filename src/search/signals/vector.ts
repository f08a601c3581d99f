/**
 * Vector signals of tier 1: cosine of the query with each source's card vector, and with the best
 * of its node vectors (for the sources with the best card cosines, NODE_SIGNAL_SOURCES at most). Loads the store's vectors and the model that made them, or says why not.
 */
import type { Config } from '../../store/schemas.js';
import { cardScores, loadCardVectors, loadNodeVectors, nodeScores, queryVector, type NodeVectors } from '../vectors.js';

export interface VectorSignals {
  card: Map<string, number>;
  node: Map<string, number>;
  query: Float32Array;
  nodeVectors: NodeVectors | null;
  /** the source ids the card index lists, in its row order */
  ids: string[];
}

/**
 * Node vectors are read for at most this many sources: the allowed ones with the best card
 * cosines. A library up to this size is scored exactly as by a full scan; past it, the cost of a
 * query stays bounded (NODE_SIGNAL_SOURCES sources' rows, not all of nodes.faiss).
 */
export const NODE_SIGNAL_SOURCES = 200;

/** The allowed sources whose node vectors are read: all, or the NODE_SIGNAL_SOURCES best by card cosine. */
function nodeCandidates(card: Map<string, number>, allowed: ReadonlySet<string>): Iterable<string> {
  if (allowed.size <= NODE_SIGNAL_SOURCES) return allowed;
  return [...card].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, NODE_SIGNAL_SOURCES).map(([id]) => id);
}

/** Best node cosine of each candidate source. */
function bestNodeCosines(nv: NodeVectors, candidates: Iterable<string>, q: Float32Array): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of candidates) {
    let best = -1;
    for (const s of nodeScores(nv, id, q).values()) if (s > best) best = s;
    if (best > -1) out.set(id, best);
  }
  return out;
}

/** The vector signals of the allowed sources, or the reason vector search is unavailable. */
export async function vectorSignals(root: string, config: Config, query: string, allowed: ReadonlySet<string>): Promise<VectorSignals | string> {
  const cv = loadCardVectors(root);
  if (typeof cv === 'string') return cv;
  const q = await queryVector(root, config, cv.meta.model, query);
  if (typeof q === 'string') return q;
  const card = new Map<string, number>();
  for (const [id, s] of await cardScores(cv, q)) if (allowed.has(id)) card.set(id, s);
  const nodeVectors = loadNodeVectors(root, cv.meta.model);
  const node = nodeVectors ? bestNodeCosines(nodeVectors, nodeCandidates(card, allowed), q) : new Map<string, number>();
  return { card, node, query: q, nodeVectors, ids: cv.meta.rows.map((r) => r.id) };
}
