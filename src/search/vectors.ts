/**
 * Query-time vector access: loads the store's FAISS card file and reads node vectors per source
 * (each file opened once per process), and
 * the embedding model recorded in vector_store/metadata.json — only when a vector search runs.
 */
import { existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../store/schemas.js';
import { indexHeader, openIndex } from '../vector/faiss.js';
import {
  CARD_INDEX_FILE, NODE_INDEX_FILE, readCardMetadata, readNodeMetadata, readNodeRowIndex, type CardMetadata, type NodeMetadata, type NodeRowIndex,
} from '../vector/metadata.js';
import type { Embedder } from '../embed/types.js';
import { sameModel, type ModelIdentity } from '../embed/types.js';
import { cachedQueryVector, rememberQueryVector } from './query-vectors.js';

/** The card index of a store, opened once per process (see `cardIndex`). */
export interface CardVectors { meta: CardMetadata; path: string }
/**
 * Node vectors, read per source: `rowsOf(id)` reads only that source's rows from nodes.faiss (one
 * positioned read when they are contiguous, as the builder writes them), cached per process.
 */
export interface NodeVectors { model: ModelIdentity; dims: number; rowsOf(sourceId: string): SourceRows }
/** A source's rows of nodes.faiss, the node each holds, and their vectors. */
export interface SourceRows { rows: number[]; nodeIds: string[]; data: Float32Array }
/** Which rows and nodes each source has (from nodes.rows.json, else nodes.metadata.json). */
type RowsBySource = (sourceId: string) => { rows: number[]; nodeIds: string[] };

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

/**
 * The store's card vectors (metadata checked against the index file's header), or a reason they
 * cannot be used. Reads only metadata.json and the file's header; the index itself is opened on
 * the first search (`cardScores`).
 */
export function loadCardVectors(root: string): CardVectors | string {
  const meta = readCardMetadata(root);
  const path = join(root, CARD_INDEX_FILE);
  if (!meta || !existsSync(path)) return 'no vector index in this store (vector_store/index.faiss); run `mhub ingest` with an embedding model configured';
  try {
    const head = cached(path, 'cardhead:' + path, () => indexHeader(path));
    if (head.count !== meta.count || head.dims !== meta.dims) return 'vector_store/index.faiss does not match metadata.json; run `mhub doctor --fix` or `mhub ingest --force`';
    return { meta, path };
  } catch (err) {
    return `vector_store/index.faiss unreadable (${(err as Error).message}); run \`mhub doctor --fix\``;
  }
}

/** Bytes before the first float of a FAISS IndexFlatIP file (flat-codec.ts). */
const FLAT_HEADER_BYTES = 4 + 4 + 8 + 8 + 8 + 1 + 4 + 8;

/** dims and count from the file's header, checked against its size. */
function flatHeader(fd: number, size: number): { dims: number; count: number } {
  const head = Buffer.alloc(FLAT_HEADER_BYTES);
  readSync(fd, head, 0, FLAT_HEADER_BYTES, 0);
  if (head.toString('latin1', 0, 4) !== 'IxFI') throw new Error('not a FAISS IndexFlatIP file');
  const dims = head.readInt32LE(4);
  const count = Number(head.readBigInt64LE(8));
  if (size !== FLAT_HEADER_BYTES + dims * count * 4) throw new Error('truncated or corrupt');
  return { dims, count };
}

/** The rows of one source, read from the open file (one read per contiguous run). */
function readSourceRows(fd: number, dims: number, rows: number[]): Float32Array {
  const data = new Float32Array(rows.length * dims);
  const bytes = Buffer.from(data.buffer);
  for (let k = 0; k < rows.length;) {
    let end = k + 1;
    while (end < rows.length && rows[end] === rows[end - 1]! + 1) end++;
    readSync(fd, bytes, k * dims * 4, (end - k) * dims * 4, FLAT_HEADER_BYTES + rows[k]! * dims * 4);
    k = end;
  }
  return data;
}

function openNodeVectors(path: string, model: ModelIdentity, expectedCount: number, rowsBy: RowsBySource): NodeVectors {
  const fd = openSync(path, 'r');
  const { dims, count } = flatHeader(fd, fstatSync(fd).size);
  if (count !== expectedCount) throw new Error('nodes.faiss does not match its metadata');
  const perSource = new Map<string, SourceRows>();
  const rowsOf = (id: string): SourceRows => {
    let got = perSource.get(id);
    if (!got) {
      const { rows, nodeIds } = rowsBy(id);
      perSource.set(id, (got = { rows, nodeIds, data: readSourceRows(fd, dims, rows) }));
    }
    return got;
  };
  return { model, dims, rowsOf };
}

/** Rows by source from the full metadata (stores without nodes.rows.json, or when it is stale). */
function rowsFromMetadata(meta: NodeMetadata): RowsBySource {
  const by = new Map<string, { rows: number[]; nodeIds: string[] }>();
  meta.rows.forEach(([source, node], i) => {
    let a = by.get(source);
    if (!a) by.set(source, (a = { rows: [], nodeIds: [] }));
    a.rows.push(i);
    a.nodeIds.push(node);
  });
  return (id) => by.get(id) ?? { rows: [], nodeIds: [] };
}

/** Rows by source from the row index: a source's rows are one run from its first. */
function rowsFromIndex(index: NodeRowIndex): RowsBySource {
  return (id) => {
    const e = index.sources[id];
    if (!e) return { rows: [], nodeIds: [] };
    const nodeIds = e[1] ? e[1].split(' ') : [];
    return { rows: nodeIds.map((_, k) => e[0] + k), nodeIds };
  };
}

/**
 * The store's node vectors when they were made by `model`: located by nodes.rows.json (one line a
 * source) when it matches nodes.metadata.json, else by the metadata itself; null when absent or unreadable.
 */
export function loadNodeVectors(root: string, model: CardMetadata['model']): NodeVectors | null {
  const path = join(root, NODE_INDEX_FILE);
  if (!existsSync(path)) return null;
  try {
    return cached(path, 'nodes:' + path, () => {
      const index = readNodeRowIndex(root);
      if (index) return sameModel(index.model, model) ? openNodeVectors(path, index.model, index.count, rowsFromIndex(index)) : null;
      const meta = readNodeMetadata(root);
      if (!meta || !sameModel(meta.model, model)) return null;
      return openNodeVectors(path, meta.model, meta.rows.length, rowsFromMetadata(meta));
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

/**
 * The query's vector in the store's model: from the query-vector cache when this query was embedded
 * before (no model load), else embedded and remembered; or the reason the model is unavailable.
 */
export async function queryVector(root: string, config: Config, model: CardMetadata['model'], query: string): Promise<Float32Array | string> {
  const hit = cachedQueryVector(root, model, query);
  if (hit) return hit;
  const emb = await queryEmbedder(root, config, model);
  if (typeof emb === 'string') return emb;
  const v = (await emb.embed([query]))[0]!;
  rememberQueryVector(root, model, query, v);
  return v;
}

let opens = 0;
/** How many times this process opened a card index file (tests: once per process and file version). */
export function cardIndexOpens(): number {
  return opens;
}

/** Cosine of the query with every card row (vectors are normalised, so inner product); the index is opened once per process. */
export async function cardScores(cv: CardVectors, q: Float32Array): Promise<Map<string, number>> {
  const ix = await cached(cv.path, 'cards:' + cv.path, () => {
    opens++;
    return openIndex(cv.path);
  });
  const hits = ix.search(q, cv.meta.count);
  const out = new Map<string, number>();
  for (const h of hits) out.set(cv.meta.rows[h.row]!.id, h.score);
  return out;
}

/** Cosine of the query with each node of a source: node id → score (reads only that source's rows). */
export function nodeScores(nv: NodeVectors, sourceId: string, q: Float32Array): Map<string, number> {
  const out = new Map<string, number>();
  const { nodeIds, data } = nv.rowsOf(sourceId);
  nodeIds.forEach((node, k) => {
    let s = 0;
    const off = k * nv.dims;
    for (let j = 0; j < nv.dims; j++) s += data[off + j]! * q[j]!;
    out.set(node, s);
  });
  return out;
}
