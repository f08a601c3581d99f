/**
 * Cheap freshness checks run with every search: indexes that disagree with the catalog, and inbox
 * files added, changed or removed since the last ingest (size + mtime against the stat cache).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Catalog } from '../store/schemas.js';
import { CONFIG_FILE, STAT_CACHE_FILE } from '../store/layout.js';
import { readCardMetadata } from '../vector/metadata.js';

/** Upper bound on inbox entries inspected per search (keeps search fast on huge inboxes). */
export const STALE_SCAN_MAX_FILES = 5000;

function inboxName(root: string): string {
  try {
    const c = JSON.parse(readFileSync(join(root, CONFIG_FILE), 'utf8')) as { inbox?: unknown };
    return typeof c.inbox === 'string' ? c.inbox : 'inbox';
  } catch {
    return 'inbox';
  }
}

function pendingInbox(root: string, catalog: Catalog): { changed: number; removed: number } {
  const inbox = join(root, inboxName(root));
  let files: Record<string, { size: number; mtime_ms: number }> = {};
  try {
    files = (JSON.parse(readFileSync(join(root, STAT_CACHE_FILE), 'utf8')) as { files: typeof files }).files ?? {};
  } catch {
    /* no stat cache: compare against the catalog only */
  }
  const known = new Set(catalog.sources.map((s) => s.original_path));
  let changed = 0;
  let seen = 0;
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (seen >= STALE_SCAN_MAX_FILES) return;
      if (name.startsWith('.')) continue;
      const p = join(dir, name);
      let st;
      try { st = statSync(p); } catch { continue; }
      if (st.isDirectory()) { walk(p); continue; }
      seen++;
      const rel = relative(root, p).split(sep).join('/');
      const c = files[rel];
      if (c ? c.size !== st.size || Math.abs(c.mtime_ms - st.mtimeMs) > 1 : !known.has(rel)) changed++;
    }
  };
  if (existsSync(inbox)) walk(inbox);
  const prefix = inboxName(root).replace(/\/+$/, '') + '/';
  const removed = catalog.sources.filter((s) => s.original_path.startsWith(prefix) && !existsSync(join(root, s.original_path))).length;
  return { changed, removed };
}

export function staleIndexWarnings(root: string, catalog: Catalog, keywordIds: string[] | null): string[] {
  const out: string[] = [];
  const indexed = catalog.sources.filter((s) => s.status === 'indexed').map((s) => s.id).join();
  if (keywordIds && keywordIds.join() !== indexed) out.push('the keyword index does not match catalog.json (stale); run `mhub ingest`');
  const meta = readCardMetadata(root);
  if (meta && meta.rows.map((r) => r.id).join() !== indexed) out.push('the vector index does not match catalog.json (stale); run `mhub ingest`');
  const p = pendingInbox(root, catalog);
  if (p.changed || p.removed) {
    out.push(`index is stale: ${p.changed} inbox file(s) new or changed and ${p.removed} removed since the last ingest; run \`mhub ingest\``);
  }
  return out;
}
