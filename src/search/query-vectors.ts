/**
 * A small per-store cache of query embeddings (`.mhub/query-vectors.json`, local and git-ignored):
 * an agent asks search.js and then deep_retrieve.js the same question, so the second script finds
 * the query's vector here and does not load the embedding model (~0.9 s of a fresh process).
 * Keyed by the model's fingerprint and the query text; the last QUERY_CACHE_MAX queries are kept.
 * A store that cannot be written (read-only) simply gets no cache.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LOCAL_DIR } from '../store/layout.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { CardMetadata } from '../vector/metadata.js';

export const QUERY_CACHE_FILE = `${LOCAL_DIR}/query-vectors.json`;
export const QUERY_CACHE_MAX = 32;

interface CacheFile {
  /** key → base64 float32 vector, oldest first */
  entries: Array<[string, string]>;
}

const keyOf = (model: CardMetadata['model'], query: string): string =>
  createHash('sha256').update(`${model.name}\u0000${model.fingerprint}\u0000${query}`).digest('hex').slice(0, 32);

function readCache(root: string): CacheFile {
  try {
    const raw = JSON.parse(readFileSync(join(root, QUERY_CACHE_FILE), 'utf8')) as CacheFile;
    return Array.isArray(raw.entries) ? raw : { entries: [] };
  } catch {
    return { entries: [] };
  }
}

export function cachedQueryVector(root: string, model: CardMetadata['model'], query: string): Float32Array | null {
  const key = keyOf(model, query);
  const hit = readCache(root).entries.find(([k]) => k === key);
  if (!hit) return null;
  const buf = Buffer.from(hit[1], 'base64');
  const v = new Float32Array(buf.byteLength / 4);
  Buffer.from(v.buffer).set(buf);
  return v.length === model.dims ? v : null;
}

export function rememberQueryVector(root: string, model: CardMetadata['model'], query: string, v: Float32Array): void {
  const key = keyOf(model, query);
  const cache = readCache(root);
  const entries = cache.entries.filter(([k]) => k !== key);
  entries.push([key, Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')]);
  try {
    const path = join(root, QUERY_CACHE_FILE);
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, JSON.stringify({ entries: entries.slice(-QUERY_CACHE_MAX) }) + '\n');
  } catch {
    /* read-only store: no cache */
  }
}
