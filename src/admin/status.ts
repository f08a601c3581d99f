/**
 * `mhub status`: what the store holds (sources by status and type), when it was last ingested, and
 * what an ingest would pick up now — files new, changed or removed since the last ingest, and
 * sources whose converter has a newer version.
 */
import { readCatalog } from '../store/catalog.js';
import { loadConfig } from '../store/config.js';
import { readLock } from '../store/lock.js';
import { compareStrings, sortKeys } from '../store/json.js';
import { converterTagFor } from '../ingest/converters/index.js';
import type { CatalogEntry } from '../store/schemas.js';
import { diffSources } from './source-files.js';
import { formatShard, readShardFile } from '../ingest/shard.js';

export interface StatusReport {
  store: string;
  sources: { total: number; by_status: Record<string, number>; by_type: Record<string, number> };
  nodes: number;
  pages: number;
  last_ingest: string | null;
  pending: { new: string[]; changed: string[]; removed: string[]; outdated: string[] };
  /** true when nothing is pending */
  up_to_date: boolean;
  /** sources that failed to ingest (still failing until the file is fixed), with why */
  failed: { file: string; error: string }[];
  /** catalogued files that exist but cannot be read or checked, with why */
  unreadable: { file: string; reason: string }[];
  lock: { held: boolean; stale: boolean; holder: string | null };
  /** a partial store made by `mhub ingest --shard i/N`: its slice ("i/N"); null for an ordinary store */
  shard: string | null;
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return sortKeys(out);
}

/** Sources processed by an older converter version than the one installed (ingest would redo them). */
export function outdatedSources(entries: CatalogEntry[]): CatalogEntry[] {
  return entries.filter((e) => e.converter !== converterTagFor(e.type));
}

function shardOf(root: string): string | null {
  const s = readShardFile(root);
  return s ? formatShard(s) : null;
}

export function storeStatus(root: string): StatusReport {
  const config = loadConfig(root);
  const catalog = readCatalog(root);
  const entries = catalog.sources;
  const files = diffSources(root, config, entries);
  const pick = (s: string) => files.filter((f) => f.state === s).map((f) => f.file);
  const outdated = outdatedSources(entries).map((e) => e.original_path).sort(compareStrings);
  const pending = { new: pick('new'), changed: pick('changed'), removed: pick('removed'), outdated };
  const failed = entries.filter((e) => e.status === 'failed').map((e) => ({ file: e.original_path, error: e.error ?? 'no reason recorded' })).sort((a, b) => compareStrings(a.file, b.file));
  const unreadable = files.filter((f) => f.state === 'unreadable').map((f) => ({ file: f.file, reason: f.reason ?? 'cannot be read' }));
  const lock = readLock(root);
  const holder = lock.holder ? `pid ${lock.holder.pid} on ${lock.holder.host} since ${lock.holder.started_at} (${lock.holder.command})` : null;
  return {
    store: root,
    sources: {
      total: entries.length,
      by_status: tally(entries.map((e) => e.status)),
      by_type: tally(entries.map((e) => e.type)),
    },
    nodes: entries.reduce((s, e) => s + (e.status === 'indexed' ? e.node_count : 0), 0),
    pages: entries.reduce((s, e) => s + (e.status === 'indexed' ? (e.pages ?? 0) : 0), 0),
    last_ingest: catalog.last_updated,
    pending,
    up_to_date: Object.values(pending).every((l) => l.length === 0),
    failed,
    unreadable,
    lock: { held: lock.holder !== null || lock.stale, stale: lock.stale, holder },
    shard: shardOf(root),
  };
}

const MAX_LISTED = 10;

function listLines(label: string, items: string[]): string[] {
  if (items.length === 0) return [];
  const lines = [`  ${label} (${items.length}):`];
  for (const f of items.slice(0, MAX_LISTED)) lines.push(`    ${f}`);
  if (items.length > MAX_LISTED) lines.push(`    … ${items.length - MAX_LISTED} more (--json lists all)`);
  return lines;
}

export function formatStatus(r: StatusReport): string {
  const fmt = (rec: Record<string, number>) => Object.entries(rec).map(([k, v]) => `${v} ${k}`).join(', ') || 'none';
  const lines = [
    `Store: ${r.store}${r.shard ? ` (partial: shard ${r.shard}; \`mhub merge\` it into a full store)` : ''}`,
    `Sources: ${r.sources.total} (${fmt(r.sources.by_status)})`,
    `Types: ${fmt(r.sources.by_type)}`,
    `Indexed: ${r.pages} pages, ${r.nodes} tree nodes`,
    `Last ingest: ${r.last_ingest ?? 'never'}`,
  ];
  if (r.lock.held) lines.push(r.lock.stale ? `Lock: STALE (${r.lock.holder ?? 'unreadable'}); run \`mhub doctor --fix\`` : `Lock: ingest running (${r.lock.holder})`);
  if (r.up_to_date) {
    lines.push('Pending: nothing; the index is up to date.');
  } else {
    lines.push('Pending (run `mhub ingest` to pick these up):');
    lines.push(...listLines('new', r.pending.new), ...listLines('changed', r.pending.changed), ...listLines('removed', r.pending.removed));
    lines.push(...listLines('converter updated, will be re-converted', r.pending.outdated));
  }
  lines.push(...listLines('Failed (fix or replace the file, then run `mhub ingest`)', r.failed.map((f) => `${f.file}: ${f.error}`)).map((l) => l.slice(2)));
  lines.push(...listLines('Unreadable (fix permissions; not checked)', r.unreadable.map((f) => `${f.file}: ${f.reason}`)).map((l) => l.slice(2)));
  return lines.join('\n');
}
