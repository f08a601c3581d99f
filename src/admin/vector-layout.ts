/**
 * Reads the vector store's metadata (written by src/vector: metadata.json for the card index,
 * nodes.metadata.json for the node index) into one neutral shape for the doctor, and says plainly
 * when a metadata file exists but cannot be read.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  CARD_INDEX_FILE, CARD_METADATA_FILE, NODE_INDEX_FILE, NODE_METADATA_FILE, readCardMetadata, readNodeMetadata,
} from '../vector/metadata.js';
import type { ModelIdentity } from '../embed/types.js';

export interface VectorSet {
  kind: 'card' | 'node';
  /** store-relative metadata file */
  metadataFile: string;
  /** store-relative FAISS file */
  faissFile: string;
  /** source id of each row, in row order */
  rowSources: string[];
  /** node id of each row (node sets only) */
  rowNodes: string[];
  /** `count` as recorded in the metadata */
  count: number;
  model: ModelIdentity;
  dims: number;
}

export interface VectorLayout {
  sets: VectorSet[];
  problems: Array<{ file: string; message: string }>;
}

export function modelLabel(m: ModelIdentity): string {
  return `${m.name} (${m.dims} dims, ${m.fingerprint})`;
}

export function readVectorLayout(root: string): VectorLayout {
  const out: VectorLayout = { sets: [], problems: [] };
  if (existsSync(join(root, CARD_METADATA_FILE))) {
    const m = readCardMetadata(root);
    if (!m || !Array.isArray(m.rows) || !m.model) {
      out.problems.push({ file: CARD_METADATA_FILE, message: `${CARD_METADATA_FILE} is unreadable or not card metadata of this version.` });
    } else {
      out.sets.push({
        kind: 'card', metadataFile: CARD_METADATA_FILE, faissFile: CARD_INDEX_FILE,
        rowSources: m.rows.map((r) => r.id), rowNodes: [], count: m.count, model: m.model, dims: m.dims,
      });
    }
  }
  if (existsSync(join(root, NODE_METADATA_FILE))) {
    const m = readNodeMetadata(root);
    if (!m || !Array.isArray(m.rows) || !m.model) {
      out.problems.push({ file: NODE_METADATA_FILE, message: `${NODE_METADATA_FILE} is unreadable or not node metadata of this version.` });
    } else {
      out.sets.push({
        kind: 'node', metadataFile: NODE_METADATA_FILE, faissFile: NODE_INDEX_FILE,
        rowSources: m.rows.map((r) => r[0]), rowNodes: m.rows.map((r) => r[1]), count: m.count, model: m.model, dims: m.dims,
      });
    }
  }
  return out;
}
