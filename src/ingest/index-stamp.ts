/**
 * What the indexes were last built from: the catalog entries, the embedding config, the builders and the
 * index files themselves (size + mtime). When a run changed and removed no source and the stamp is
 * the same, the index stage has nothing to do and skips the builders (an unchanged re-ingest of
 * hundreds of sources then reads no tree, no node index and no vector file). Local only:
 * `.mhub/index-stamp.json`. `mhub ingest --force` ignores it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_DIR, VECTOR_DIR } from '../store/layout.js';
import { writeFileAtomic } from '../store/atomic.js';
import type { CatalogEntry, Config } from '../store/schemas.js';

export const INDEX_STAMP_FILE = `${LOCAL_DIR}/index-stamp.json`;
/** Bump when what the builders write changes for the same inputs (a new index format, tokenizer, …; 2: node files keep each node's parent). */
export const INDEX_STAMP_VERSION = 2;

/** size and mtime of every file under vector_store/ (keyword indexes included), sorted by path. */
function outputs(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return;
    const st = statSync(abs);
    if (st.isDirectory()) for (const n of readdirSync(abs).sort()) walk(`${rel}/${n}`);
    else out.push(`${rel} ${st.size} ${st.mtimeMs}`);
  };
  walk(VECTOR_DIR);
  return out;
}

/** `entries`: normalized (`normalizeCatalog(…).sources`: sorted by id, schema key order, defaults), as the catalog stores them. */
export function indexStamp(root: string, config: Config, entries: CatalogEntry[], builders: string[]): string {
  const h = createHash('sha256');
  // only the config the builders read (the scan adds run-time keys such as external_roots to the rest)
  h.update(JSON.stringify({ v: INDEX_STAMP_VERSION, builders, embedding: config.embedding }));
  // normalized, so a stamp written at build time matches the next run's
  for (const e of entries) h.update(JSON.stringify(e));
  for (const o of outputs(root)) h.update(o + '\n');
  return h.digest('hex');
}

export function readIndexStamp(root: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(root, INDEX_STAMP_FILE), 'utf8')) as { stamp?: string }).stamp ?? null;
  } catch {
    return null;
  }
}

export function writeIndexStamp(root: string, stamp: string): void {
  writeFileAtomic(join(root, INDEX_STAMP_FILE), JSON.stringify({ stamp }) + '\n', false);
}
