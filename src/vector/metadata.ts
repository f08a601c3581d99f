/**
 * vector_store metadata: which row of each FAISS file belongs to which source (and node), the model
 * that made the vectors, and the sha of the text each vector embeds (so unchanged text is reused).
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { VECTOR_DIR } from '../store/layout.js';
import type { ModelIdentity } from '../embed/types.js';
import type { IndexType } from './index-choice.js';

export const VECTOR_FORMAT_VERSION = 1;
export const CARD_INDEX_FILE = `${VECTOR_DIR}/index.faiss`;
export const CARD_METADATA_FILE = `${VECTOR_DIR}/metadata.json`;
export const NODE_INDEX_FILE = `${VECTOR_DIR}/nodes.faiss`;
export const NODE_METADATA_FILE = `${VECTOR_DIR}/nodes.metadata.json`;
export const NODE_ROWS_FILE = `${VECTOR_DIR}/nodes.rows.json`;

export interface CardMetadata {
  schema_version: number;
  kind: 'cards';
  index_file: string;
  metric: 'inner_product';
  /** FAISS index type chosen at index time from the row count (index-choice.ts); absent in older stores: flat */
  index_type?: IndexType;
  /** IVF only: lists, lists probed per query, k-means seed */
  nlist?: number;
  nprobe?: number;
  train_seed?: number;
  model: ModelIdentity;
  dims: number;
  count: number;
  /** row i of index.faiss */
  rows: { id: string; text_sha: string }[];
}

export interface NodeMetadata {
  schema_version: number;
  kind: 'nodes';
  index_file: string;
  metric: 'inner_product';
  /** always flat: rows stay grouped by source, so a source's node vectors are one positioned read */
  index_type?: 'flat';
  model: ModelIdentity;
  dims: number;
  count: number;
  /** `rowsSha` of `rows` (written before them, so a reader finds it in the file's first bytes); absent in older stores */
  rows_sha?: string;
  /** row i of nodes.faiss: [source id, node id, text sha] */
  rows: [string, string, string][];
}

/**
 * Which rows of nodes.faiss belong to which source, without the text shas: what a query needs. At
 * 6,000 sources nodes.metadata.json is 5 MB, read whole on every query; this file holds one line a
 * source. Written with nodes.metadata.json and used only while both carry the same `rows_sha`.
 */
export interface NodeRowIndex {
  schema_version: number;
  kind: 'node-rows';
  rows_sha: string;
  model: ModelIdentity;
  dims: number;
  count: number;
  /** source id → [its first row, its node ids in row order, separated by blanks] */
  sources: Record<string, [number, string]>;
}

/** A digest of which node each row holds (source and node ids, not the text shas). */
export function rowsSha(rows: NodeMetadata['rows']): string {
  const h = createHash('sha256');
  for (const [source, node] of rows) h.update(`${source}\t${node}\n`);
  return h.digest('hex').slice(0, 16);
}

/** The row index of node metadata, or null when a source's rows are not one run or an id holds a blank. */
export function nodeRowIndex(meta: NodeMetadata): NodeRowIndex | null {
  const sources: Record<string, [number, string]> = {};
  const ids = new Map<string, string[]>();
  let prev = '';
  for (const [i, [source, node]] of meta.rows.entries()) {
    if (/\s/.test(node) || (source !== prev && ids.has(source))) return null;
    if (source !== prev) {
      ids.set(source, []);
      sources[source] = [i, ''];
    }
    ids.get(source)!.push(node);
    prev = source;
  }
  const sorted: Record<string, [number, string]> = {};
  for (const id of Object.keys(sources).sort()) sorted[id] = [sources[id]![0], ids.get(id)!.join(' ')];
  return { schema_version: VECTOR_FORMAT_VERSION, kind: 'node-rows', rows_sha: meta.rows_sha ?? rowsSha(meta.rows), model: meta.model, dims: meta.dims, count: meta.count, sources: sorted };
}

/** Bytes of nodes.metadata.json read to find its `rows_sha` (it comes before the rows). */
const METADATA_HEAD_BYTES = 1024;

/** The row index, when nodes.metadata.json was written with it (same `rows_sha`); else null (read the metadata). */
export function readNodeRowIndex(root: string): NodeRowIndex | null {
  const idx = readJson<NodeRowIndex>(root, NODE_ROWS_FILE, 'node-rows');
  const metaPath = join(root, NODE_METADATA_FILE);
  if (!idx || !existsSync(metaPath)) return null;
  const fd = openSync(metaPath, 'r');
  try {
    const head = Buffer.alloc(METADATA_HEAD_BYTES);
    const n = readSync(fd, head, 0, METADATA_HEAD_BYTES, 0);
    const m = /"rows_sha":"([0-9a-f]+)"/.exec(head.toString('utf8', 0, n));
    return m?.[1] === idx.rows_sha ? idx : null;
  } finally {
    closeSync(fd);
  }
}

function readJson<T>(root: string, rel: string, kind: string): T | null {
  const p = join(root, rel);
  if (!existsSync(p)) return null;
  try {
    const v = JSON.parse(readFileSync(p, 'utf8')) as { schema_version?: number; kind?: string };
    return v.schema_version === VECTOR_FORMAT_VERSION && v.kind === kind ? (v as T) : null;
  } catch {
    return null;
  }
}

export function readCardMetadata(root: string): CardMetadata | null {
  return readJson<CardMetadata>(root, CARD_METADATA_FILE, 'cards');
}

export function readNodeMetadata(root: string): NodeMetadata | null {
  return readJson<NodeMetadata>(root, NODE_METADATA_FILE, 'nodes');
}
