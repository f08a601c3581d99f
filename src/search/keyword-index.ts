/**
 * Read access to the keyword index for search. Every reader goes through `SourceKeywords` (fields
 * with per-term posting lists) and `nodeKeywords` (one small file per source), so the storage
 * behind them (today one `sources.json`, parsed once per process and file version) can be split by
 * term without touching the ranking code.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  KEYWORD_SOURCES_FILE, SOURCE_FIELDS, readNodesIndex, readSourcesIndex, type KeywordNodesIndex, type SourceField,
} from '../model/keyword-format.js';
import { meanLength, recordField, type PostingField } from './bm25.js';

export interface SourceKeywords {
  /** source ids in row order (a posting's doc number indexes this list) */
  ids: string[];
  field(name: SourceField): PostingField;
}

let cache: { path: string; mtime: number; value: SourceKeywords | null } | null = null;

function open(root: string): SourceKeywords | null {
  const ix = readSourcesIndex(root);
  if (!ix) return null;
  const fields = new Map<SourceField, PostingField>();
  for (const f of SOURCE_FIELDS) {
    const postings = ix.fields[f];
    fields.set(f, { lengths: ix.lengths[f], avgLength: meanLength(ix.lengths[f]), postings: (t) => postings[t] });
  }
  return { ids: ix.ids, field: (name) => fields.get(name)! };
}

/** The source-level keyword index, or null when it is missing or of another format version. */
export function sourceKeywords(root: string): SourceKeywords | null {
  const path = join(root, KEYWORD_SOURCES_FILE);
  let mtime: number;
  try {
    mtime = statSync(path).mtimeMs;
  } catch {
    return null;
  }
  if (cache && cache.path === path && cache.mtime === mtime) return cache.value;
  const value = open(root);
  cache = { path, mtime, value };
  return value;
}

/** Node-level index of one source (title and text fields), or null. */
export function nodeKeywords(root: string, id: string): KeywordNodesIndex | null {
  return readNodesIndex(root, id);
}

export interface NodeFields {
  title: PostingField;
  text: PostingField;
}

export function nodeFields(ix: KeywordNodesIndex): NodeFields {
  return { title: recordField(ix.title_terms, ix.title_len), text: recordField(ix.terms, ix.len) };
}
