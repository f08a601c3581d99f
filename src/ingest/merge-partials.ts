/**
 * The partial stores given to `mhub merge`, opened and checked before anything is written: each is
 * a readable, healthy store that no ingest holds or left unfinished; together they are disjoint
 * (no source in two of them, no shard given twice, one way of slicing), were made with the same
 * config (folders outside the store aside) and the same embedding model.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCatalog } from '../store/catalog.js';
import { readLock } from '../store/lock.js';
import { UserError, errorMessage } from '../store/errors.js';
import { CATALOG_FILE, convertedDir } from '../store/layout.js';
import { loadConfig } from '../store/config.js';
import { readExternalRoots } from '../store/source-path.js';
import { canonicalJson } from '../store/json.js';
import type { CatalogEntry } from '../store/schemas.js';
import { EXIT } from '../util/exit-codes.js';
import { storedVectorModel } from '../indexing/vector-builder.js';
import { JOURNAL_FILE } from './journal.js';
import { formatShard, readShardFile, type Shard } from './shard.js';

export interface Partial {
  root: string;
  shard: Shard | null;
  entries: CatalogEntry[];
  /** the config in effect (defaults filled in), without external_roots */
  config: Record<string, unknown>;
  externalRoots: Record<string, string>;
}

function unhealthy(root: string, what: string, hint: string): UserError {
  return new UserError(`Partial store ${root}: ${what}`, hint, EXIT.UNHEALTHY);
}

/** The config in effect (defaults filled in), without external_roots, and the external roots. */
function readConfigOf(root: string): { config: Record<string, unknown>; externalRoots: Record<string, string> } {
  let config: Record<string, unknown>;
  try {
    const { external_roots: _ext, ...rest } = loadConfig(root) as Record<string, unknown>;
    config = rest;
  } catch (err) {
    throw unhealthy(root, errorMessage(err), 'Fix its config.json, or re-run its `mhub ingest --shard i/N` into a fresh store.');
  }
  return { config, externalRoots: readExternalRoots(root) };
}

/** Every indexed source's tree and converted files are there (a store copied in part is refused). */
function checkFiles(root: string, entries: CatalogEntry[]): void {
  for (const e of entries) {
    if (e.status !== 'indexed') continue;
    const missing = [e.tree_path, convertedDir(e.id)].find((p) => !p || !existsSync(join(root, p)));
    if (missing !== undefined) {
      throw unhealthy(root, `${e.original_path} (${e.id}) is catalogued but ${missing ?? 'its tree'} is missing.`, 'Copy the whole partial store, or re-run its `mhub ingest --shard i/N`; `mhub doctor --store <partial>` shows what is wrong.');
    }
  }
}

export function openPartial(path: string, target: string): Partial {
  const root = resolve(path);
  if (root === target) throw new UserError(`${root} is the store being merged into.`, 'Give the partial stores (made by `mhub ingest --shard i/N --store …`), not the target.', EXIT.USAGE);
  if (!existsSync(root) || !statSync(root).isDirectory() || !existsSync(join(root, CATALOG_FILE))) {
    throw new UserError(`${root} is not a store (no ${CATALOG_FILE}).`, 'Give folders made by `mhub ingest --shard i/N --store <folder>`.', EXIT.NOT_FOUND);
  }
  const lock = readLock(root);
  if (lock.holder && !lock.stale) {
    const h = lock.holder;
    throw new UserError(`Partial store ${root} is locked by an ingest (pid ${h.pid} on ${h.host}, started ${h.started_at}).`, 'Wait for it to finish, then merge.', EXIT.LOCKED);
  }
  if (existsSync(join(root, JOURNAL_FILE))) {
    throw unhealthy(root, 'an ingest into it was interrupted (its journal is still there).', 'Run the same `mhub ingest --shard i/N --store …` again to finish it, then merge.');
  }
  let entries: CatalogEntry[];
  try {
    entries = readCatalog(root).sources;
  } catch (err) {
    throw unhealthy(root, errorMessage(err), err instanceof UserError ? err.hint : 'Re-run its ingest.');
  }
  checkFiles(root, entries);
  return { root, shard: readShardFile(root), entries, ...readConfigOf(root) };
}

/** No shard twice, one N for all. Returns whether the partials make up every shard of their N. */
export function checkShards(parts: Partial[]): boolean {
  const sharded = parts.filter((p) => p.shard);
  const counts = new Set(sharded.map((p) => p.shard!.count));
  if (counts.size > 1) {
    const list = sharded.map((p) => `${formatShard(p.shard!)} (${p.root})`).join(', ');
    throw new UserError(`The partial stores were sliced differently: ${list}.`, 'Merge shards made with the same N (--shard i/N) only.', EXIT.USAGE);
  }
  const seen = new Map<number, string>();
  for (const p of sharded) {
    const other = seen.get(p.shard!.index);
    if (other) throw new UserError(`Shard ${formatShard(p.shard!)} is given twice: ${other} and ${p.root}.`, 'Give each shard once.', EXIT.USAGE);
    seen.set(p.shard!.index, p.root);
  }
  const n = [...counts][0];
  return n !== undefined && sharded.length === parts.length && seen.size === n;
}

/** The same config everywhere (external_roots aside: each machine has its own paths). */
export function checkConfigs(parts: Partial[]): void {
  const first = parts[0]!;
  const a = canonicalJson(first.config);
  for (const p of parts.slice(1)) {
    if (canonicalJson(p.config) === a) continue;
    const keys = new Set([...Object.keys(first.config), ...Object.keys(p.config)]);
    const diff = [...keys].filter((k) => JSON.stringify(first.config[k]) !== JSON.stringify(p.config[k]));
    throw new UserError(
      `${p.root} was ingested with a different config.json than ${first.root} (${diff.join(', ')} differ).`,
      'Ingest every shard with the same config.json (copy it into each partial store before `mhub ingest --shard`), then merge.',
      EXIT.USAGE,
    );
  }
}

/** One embedding model for all (a store never mixes models in one vector file). */
export function checkEmbedders(parts: Partial[]): void {
  let first: { root: string; key: string } | null = null;
  for (const p of parts) {
    const m = storedVectorModel(p.root);
    if (!m) continue;
    const key = `${m.name} (${m.dims} dims, ${m.fingerprint})`;
    if (!first) first = { root: p.root, key };
    else if (first.key !== key) {
      throw new UserError(
        `The partial stores were embedded with different models: ${first.key} in ${first.root}, ${key} in ${p.root}.`,
        'Ingest every shard on machines with the same embedding model files (see `mhub status`), then merge.',
        EXIT.USAGE,
      );
    }
  }
}

/** Every source once: a source in two partial stores means they overlap. */
export function unionEntries(parts: Partial[]): Map<string, { entry: CatalogEntry; part: Partial }> {
  const out = new Map<string, { entry: CatalogEntry; part: Partial }>();
  for (const part of parts) {
    for (const entry of part.entries) {
      const had = out.get(entry.id);
      if (had) {
        throw new UserError(
          `${entry.original_path} (${entry.id}) is in two partial stores: ${had.part.root} and ${part.root}. The partial stores overlap.`,
          'Give each store made by `mhub ingest --shard i/N` once, every shard made with the same N and the same paths.',
          EXIT.USAGE,
        );
      }
      out.set(entry.id, { entry, part });
    }
  }
  return out;
}
