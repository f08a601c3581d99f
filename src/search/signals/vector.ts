/**
 * Vector signals of tier 1: cosine of the query with each source's card vector, and with the best
 * of its node vectors. Loads the store's vectors and the model that made them, or says why not.
 */
import type { Config } from '../../store/schemas.js';
import { cardScores, loadCardVectors, loadNodeVectors, nodeScores, queryVector, type NodeVectors } from '../vectors.js';

export interface VectorSignals {
  card: Map<string, number>;
  node: Map<string, number>;
  query: Float32Array;
  nodeVectors: NodeVectors | null;
}

/** Best node cosine of each allowed source. */
function bestNodeCosines(nv: NodeVectors, allowed: ReadonlySet<string>, q: Float32Array): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of allowed) {
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
  const node = nodeVectors ? bestNodeCosines(nodeVectors, allowed, q) : new Map<string, number>();
  return { card, node, query: q, nodeVectors };
}
