/** Names of the folders and files that make up a store. All paths in the store are relative to its root. */
export const CATALOG_FILE = 'catalog.json';
export const CONFIG_FILE = 'config.json';
export const CONVERTED_DIR = 'converted';
export const TREE_DIR = 'tree_index';
export const VECTOR_DIR = 'vector_store';
export const LLM_CACHE_DIR = 'llm_cache';
/** The catalog split by source for retrieval (store/lookup.ts); derived, written before catalog.json. */
export const LOOKUP_DIR = 'lookup';
/** Present only in a partial store made by `mhub ingest --shard i/N`: which slice of the inbox it holds. */
export const SHARD_FILE = 'shard.json';
/** Local-only state (lock, stat cache): git-ignored. */
export const LOCAL_DIR = '.mhub';
export const LOCK_FILE = `${LOCAL_DIR}/ingest.lock`;
export const STAT_CACHE_FILE = `${LOCAL_DIR}/stat-cache.json`;
/** What the sources' files and folders looked like at the last ingest, for retrieval's freshness check (search/freshness.ts). */
export const FRESHNESS_STAMPS_FILE = `${LOCAL_DIR}/freshness.tsv`;

export const STORE_GITIGNORE = ['# MetadataHub local-only files', '.mhub/', '*.tmp-*', ''].join('\n');

export function treePath(id: string): string {
  return `${TREE_DIR}/${id}.tree.json`;
}

export function convertedDir(id: string): string {
  return `${CONVERTED_DIR}/${id}`;
}

/** The file holding a node's own text (its tree node's content_ref, when it has text). */
export function nodeTextPath(id: string, nodeId: string): string {
  return `${convertedDir(id)}/${nodeId}.md`;
}
