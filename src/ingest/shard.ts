/**
 * Scale-out ingest: `mhub ingest --shard i/N` takes a deterministic slice of the inbox into a
 * partial store, `mhub merge` (./merge.ts) combines the partial stores. A file belongs to shard
 * `1 + (first 4 bytes of sha256(store-relative path of its outermost file)) mod N`: stable across
 * machines and independent of listing order; an archive's members stay with the archive (it is read
 * by one shard only). A partial store says which slice it holds in `shard.json` (kept at the store
 * root, not under `.mhub/`, so it travels with CI artifacts that leave hidden folders out).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SHARD_FILE } from '../store/layout.js';
import { writeIfChanged } from '../store/atomic.js';
import { canonicalJson } from '../store/json.js';
import { UserError } from '../store/errors.js';
import { containerPath } from '../store/source-path.js';
import { EXIT } from '../util/exit-codes.js';

/** Upper bound on N: far more shards than any batch runner fans out to, small enough to catch typos. */
export const MAX_SHARDS = 4096;

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

const ShardFile = z.object({ shard: z.string(), count: z.number().int().positive(), index: z.number().int().positive() });

export function formatShard(s: Shard): string {
  return `${s.index}/${s.count}`;
}

/** Parses `i/N` (1 ≤ i ≤ N), as jest and playwright take it. */
export function parseShard(spec: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(spec);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > MAX_SHARDS || index < 1 || index > count) {
    throw new UserError(
      `--shard ${spec}: expected i/N with 1 ≤ i ≤ N ≤ ${MAX_SHARDS} (e.g. --shard 2/4 for the second of four slices).`,
      'Run one `mhub ingest --shard i/N` per slice, each into its own store, then `mhub merge` them.',
      EXIT.USAGE,
    );
  }
  return { index, count };
}

/** The shard (1-based) a store-relative path belongs to. */
export function shardOf(rel: string, count: number): number {
  const h = createHash('sha256').update(containerPath(rel)).digest();
  return (h.readUInt32BE(0) % count) + 1;
}

export function inShard(rel: string, s: Shard): boolean {
  return shardOf(rel, s.count) === s.index;
}

/** The slice a partial store holds; null for an ordinary store. */
export function readShardFile(root: string): Shard | null {
  const p = join(root, SHARD_FILE);
  if (!existsSync(p)) return null;
  let parsed;
  try {
    parsed = ShardFile.parse(JSON.parse(readFileSync(p, 'utf8')));
  } catch (err) {
    throw new UserError(`${p} is damaged: ${(err as Error).message}`, 'Re-run `mhub ingest --shard i/N` into a fresh store for this slice.', EXIT.UNHEALTHY);
  }
  return { index: parsed.index, count: parsed.count };
}

export function writeShardFile(root: string, s: Shard): void {
  writeIfChanged(join(root, SHARD_FILE), canonicalJson({ shard: formatShard(s), count: s.count, index: s.index }));
}

/**
 * A store holds one slice or all of the inbox, never a mix: `--shard` into a store with another
 * slice (or into a full store), and a plain ingest into a partial store, are refused.
 */
export function checkShardTarget(root: string, wanted: Shard | undefined, hasSources: boolean): void {
  const held = readShardFile(root);
  if (wanted && held && (held.index !== wanted.index || held.count !== wanted.count)) {
    throw new UserError(
      `This store holds shard ${formatShard(held)}; --shard ${formatShard(wanted)} would mix two slices in one partial store.`,
      'Give each shard its own store (--store /tmp/part-i), then `mhub merge` them.',
      EXIT.USAGE,
    );
  }
  if (wanted && !held && hasSources) {
    throw new UserError(
      `This store already holds a full ingest; --shard ${formatShard(wanted)} would drop the other slices' sources from it.`,
      'Ingest each shard into its own, new store (--store /tmp/part-i), then `mhub merge` them into this one.',
      EXIT.USAGE,
    );
  }
  if (!wanted && held) {
    throw new UserError(
      `This store is partial (shard ${formatShard(held)}): a plain ingest would add the other slices' sources to it.`,
      `Re-run with --shard ${formatShard(held)}, or \`mhub merge\` it into a full store (delete ${SHARD_FILE} to turn it into an ordinary store).`,
      EXIT.USAGE,
    );
  }
}
