/**
 * vector_store metadata: which row of each FAISS file belongs to which source (and node), the model
 * that made the vectors, and the sha of the text each vector embeds (so unchanged text is reused).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VECTOR_DIR } from '../store/layout.js';
import type { ModelIdentity } from '../embed/types.js';
import type { IndexType } from './index-choice.js';

export const VECTOR_FORMAT_VERSION = 1;
export const CARD_INDEX_FILE = `${VECTOR_DIR}/index.faiss`;
export const CARD_METADATA_FILE = `${VECTOR_DIR}/metadata.json`;
export const NODE_INDEX_FILE = `${VECTOR_DIR}/nodes.faiss`;
export const NODE_METADATA_FILE = `${VECTOR_DIR}/nodes.metadata.json`;

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
  /** row i of nodes.faiss: [source id, node id, text sha] */
  rows: [string, string, string][];
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
