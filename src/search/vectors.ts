/**
 * Query-time vector access: loads the store's FAISS card and node files (cached per process) and
 * the embedding model recorded in vector_store/metadata.json — only when a vector search runs.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../store/schemas.js';
import type { FlatVectors } from '../vector/flat-codec.js';
import { readFlatIndex, searchIndex } from '../vector/faiss.js';
import {
  CARD_INDEX_FILE, NODE_INDEX_FILE, readCardMetadata, readNodeMetadata, type CardMetadata, type NodeMetadata,
} from '../vector/metadata.js';
import type { Embedder } from '../embed/types.js';
import { sameModel } from '../embed/types.js';

export interface CardVectors { meta: CardMetadata; vectors: FlatVectors; path: string }
export interface NodeVectors { meta: NodeMetadata; vectors: FlatVectors; rowsBySource: Map<string, number[]> }

const fileCache = new Map<string, { mtime: number; value: unknown }>();

/** Per-process cache of what was loaded from `path` (under `key`), invalidated when the file changes. */
function cached<T>(path: string, key: string, load: () => T): T {
  const mtime = statSync(path).mtimeMs;
  const hit = fileCache.get(key);
  if (hit && hit.mtime === mtime) return hit.value as T;
  const value = load();
  fileCache.set(key, { mtime, value });
  return value;
}

/** Card vectors, or a reason they cannot be used. */
export function loadCardVectors(root: string): CardVectors | string {
  const meta = readCardMetadata(root);
  const path = join(root, CARD_INDEX_FILE);
  if (!meta || !existsSync(path)) return 'no vector index in this store (vector_store/index.faiss); run `mhub ingest` with an embedding model configured';
  try {
    const vectors = cached(path, 'cards:' + path, () => readFlatIndex(path));
    if (vectors.count !== meta.count || vectors.dims !== meta.dims) return 'vector_store/index.faiss does not match metadata.json; run `mhub doctor --fix` or `mhub ingest --force`';
    return { meta, vectors, path };
  } catch (err) {
    return `vector_store/index.faiss unreadable (${(err as Error).message}); run \`mhub doctor --fix\``;
  }
}

export function loadNodeVectors(root: string, model: CardMetadata['model']): NodeVectors | null {
  const meta = readNodeMetadata(root);
  const path = join(root, NODE_INDEX_FILE);
  if (!meta || !existsSync(path) || !sameModel(meta.model, model)) return null;
  try {
    return cached(path, 'nodes:' + path, () => {
      const vectors = readFlatIndex(path);
      const rowsBySource = new Map<string, number[]>();
      meta.rows.forEach((r, i) => {
        let a = rowsBySource.get(r[0]);
        if (!a) rowsBySource.set(r[0], (a = []));
        a.push(i);
      });
      return { meta, vectors, rowsBySource };
    });
  } catch {
    return null;
  }
}

const embedderCache = new Map<string, Promise<{ embedder: Embedder | null; reason: string }>>();

/** The embedder that made the store's vectors (same name, dims and fingerprint), or a reason why not. */
export async function queryEmbedder(root: string, config: Config, model: CardMetadata['model']): Promise<Embedder | string> {
  const key = `${root}\u0000${model.name}`;
  let p = embedderCache.get(key);
  if (!p) {
    p = import('../embed/resolve.js').then((m) => m.resolveEmbedder(root, config, model.name));
    embedderCache.set(key, p);
  }
  const { embedder, reason } = await p;
  if (!embedder) return `the store's vectors were made with ${model.name}, which is not available here (${reason})`;
  if (!sameModel(embedder.identity, model)) {
    return `the store's vectors were made with ${model.name} [${model.fingerprint}] but this machine has [${embedder.identity.fingerprint}]; re-run \`mhub ingest\` to re-embed`;
  }
  return embedder;
}

/** Cosine of the query with every card row (vectors are normalised, so inner product). */
export async function cardScores(cv: CardVectors, q: Float32Array): Promise<Map<string, number>> {
  const hits = await searchIndex(cv.path, cv.vectors, q, cv.vectors.count);
  const out = new Map<string, number>();
  for (const h of hits) out.set(cv.meta.rows[h.row]!.id, h.score);
  return out;
}

export function dot(v: FlatVectors, row: number, q: Float32Array): number {
  let s = 0;
  const off = row * v.dims;
  for (let j = 0; j < v.dims; j++) s += v.data[off + j]! * q[j]!;
  return s;
}

/** Cosine of the query with each node of a source: node id → score. */
export function nodeScores(nv: NodeVectors, sourceId: string, q: Float32Array): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of nv.rowsBySource.get(sourceId) ?? []) out.set(nv.meta.rows[r]![1], dot(nv.vectors, r, q));
  return out;
}
