/**
 * On-disk format of the keyword index (built at ingest by src/indexing, read by src/search).
 * Designed for fast cold loads: one small source-level file (postings over each source's card and
 * its whole body), plus one node-level file per source, loaded only for candidate sources.
 * Postings are flat arrays [docIndex, tf, docIndex, tf, …]; JSON without indentation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VECTOR_DIR } from '../store/layout.js';

export const KEYWORD_FORMAT_VERSION = 4;
export const KEYWORD_DIR = `${VECTOR_DIR}/keyword`;
export const KEYWORD_SOURCES_FILE = `${KEYWORD_DIR}/sources.json`;

export function keywordNodesFile(id: string): string {
  return `${KEYWORD_DIR}/nodes/${id}.json`;
}

/**
 * Source-level fields: identity (title, file name, type, period, tags), opening (the document's
 * first text: cover pages name the issuer, tickers, dates), card (summary, topics, sections),
 * body (all nodes).
 */
export const SOURCE_FIELDS = ['identity', 'opening', 'card', 'body'] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

/** Source-level index: one document per indexed source, three fields. */
export interface KeywordSourcesIndex {
  format: number;
  tokenizer: number;
  /** source ids, in row order (sorted) */
  ids: string[];
  /** token count of each source in each field */
  lengths: Record<SourceField, number[]>;
  /** postings per field */
  fields: Record<SourceField, Record<string, number[]>>;
}

/** [node_id, title, range kind ("p" pages, "l" lines, "r" rows, "" none), start, end] */
export type NodeRow = [string, string, string, number, number];

/** Node-level index of one source. */
export interface KeywordNodesIndex {
  format: number;
  tokenizer: number;
  id: string;
  /** sha256 of the inputs this file was built from (tree bytes + card), to skip rebuilding */
  input_sha: string;
  nodes: NodeRow[];
  /** token count per node (text field: ancestors' titles, summary, own text) */
  len: number[];
  terms: Record<string, number[]>;
  /** title field: token count per node and postings */
  title_len: number[];
  title_terms: Record<string, number[]>;
  /** term frequencies of the document's opening text (first characters of its first nodes) */
  opening: Record<string, number>;
}

/** Compact, deterministic serialisation (keys of term maps sorted by the writer). */
export function serializeIndex(value: unknown): string {
  return JSON.stringify(value) + '\n';
}

export function readSourcesIndex(root: string): KeywordSourcesIndex | null {
  const p = join(root, KEYWORD_SOURCES_FILE);
  if (!existsSync(p)) return null;
  try {
    const v = JSON.parse(readFileSync(p, 'utf8')) as KeywordSourcesIndex;
    return v.format === KEYWORD_FORMAT_VERSION ? v : null;
  } catch {
    return null;
  }
}

export function readNodesIndex(root: string, id: string): KeywordNodesIndex | null {
  const p = join(root, keywordNodesFile(id));
  if (!existsSync(p)) return null;
  try {
    const v = JSON.parse(readFileSync(p, 'utf8')) as KeywordNodesIndex;
    return v.format === KEYWORD_FORMAT_VERSION ? v : null;
  } catch {
    return null;
  }
}
