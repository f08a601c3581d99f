/**
 * `mhub merge <partial stores…>`: combines stores made by `mhub ingest --shard i/N` into this one.
 * Each source's catalog entry, tree and converted files are taken as its partial store made them;
 * then the ingest's own index and commit stages run over the union (keyword index rebuilt, vectors
 * taken from the partial stores by text instead of embedded again, catalog written last), so the
 * result is byte for byte what one `mhub ingest` of all the files writes. When the partial stores
 * are every shard of their N, they are the whole library: sources of the store that none of them
 * holds are removed (as a plain ingest prunes files that went); otherwise those are kept.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock } from '../store/lock.js';
import { loadConfig } from '../store/config.js';
import { readExternalRoots } from '../store/source-path.js';
import { readCatalog } from '../store/catalog.js';
import { writeIfChanged } from '../store/atomic.js';
import { canonicalJson, compareStrings, sortKeys } from '../store/json.js';
import { UserError } from '../store/errors.js';
import { CONFIG_FILE, LLM_CACHE_DIR, convertedDir, treePath } from '../store/layout.js';
import type { CatalogEntry } from '../store/schemas.js';
import { EXIT } from '../util/exit-codes.js';
import { openRun } from './pipeline.js';
import { buildReport } from './report.js';
import { readStatCache } from './stat-cache.js';
import { indexStage } from './stages/index-stage.js';
import { commitStage } from './stages/commit.js';
import { pruneConverted, removeSourceFiles } from './stages/write.js';
import { removeSource } from './stages/prune.js';
import { checkConfigs, checkEmbedders, checkShards, openPartial, unionEntries, type Partial } from './merge-partials.js';
import { formatShard, readShardFile } from './shard.js';
import type { IngestReport, IngestRun } from './run.js';

export interface MergeOptions {
  /** the partial stores' folders */
  partials: string[];
  llm?: string | undefined;
  maxCalls?: number | undefined;
  log?: (message: string) => void;
  onProgress?: IngestRun['opts']['onProgress'];
  /** clock for indexed_at of nothing merged (tests); merged entries keep their own */
  now?: () => Date;
}

export interface MergeReport extends IngestReport {
  partials: Array<{ store: string; shard: string | null; sources: number }>;
  /** the partial stores are every shard of their N (sources none of them holds were removed) */
  complete: boolean;
}

/** Files under a folder, relative to it (POSIX), sorted. */
function listFiles(dir: string, rel = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort(compareStrings)) {
    const abs = join(dir, name);
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(abs).isDirectory()) out.push(...listFiles(abs, r));
    else out.push(r);
  }
  return out;
}

/** Copy one store file (only when its bytes differ). True when the target changed. */
function copyFile(from: string, to: string, rel: string, durable: boolean): boolean {
  return writeIfChanged(join(to, rel), readFileSync(join(from, rel)), durable);
}

/** A source's tree and converted files, as its partial store has them; stale ones in the target go. True when a byte changed. */
function copySourceFiles(from: string, to: string, e: CatalogEntry): boolean {
  if (e.status !== 'indexed') {
    const had = existsSync(join(to, treePath(e.id))) || existsSync(join(to, convertedDir(e.id)));
    removeSourceFiles(to, e.id);
    return had;
  }
  let changed = false;
  const keep = new Set<string>();
  for (const f of listFiles(join(from, convertedDir(e.id)))) {
    const rel = `${convertedDir(e.id)}/${f}`;
    changed = copyFile(from, to, rel, false) || changed;
    keep.add(rel);
  }
  const before = listFiles(join(to, convertedDir(e.id))).length;
  pruneConverted(to, e.id, keep);
  changed = changed || before !== keep.size;
  return copyFile(from, to, treePath(e.id), false) || changed;
}

/** config.json: the partial stores' config, with every folder outside the store they registered (this store's paths win). */
function writeMergedConfig(root: string, parts: Partial[], targetHasSources: boolean, warnings: string[]): void {
  const path = join(root, CONFIG_FILE);
  const { external_roots: _ext, ...currentConfig } = loadConfig(root) as Record<string, unknown>;
  if (targetHasSources && canonicalJson(currentConfig) !== canonicalJson(parts[0]!.config)) {
    throw new UserError(
      `${root} holds sources ingested with another config.json than the partial stores'.`,
      'Merge into a new, empty store (--store <new folder>), or ingest the shards with this store\'s config.json.',
      EXIT.USAGE,
    );
  }
  const ext: Record<string, string> = readExternalRoots(root);
  for (const p of parts) {
    for (const [name, dir] of Object.entries(p.externalRoots)) {
      if (ext[name] === undefined) ext[name] = dir;
      else if (ext[name] !== dir) warnings.push(`external/${name}/ is ${ext[name]} here and ${dir} in ${p.root}: kept ${ext[name]} (edit external_roots in config.json if the files live elsewhere on this machine)`);
    }
  }
  const raw = JSON.parse(readFileSync(join(parts[0]!.root, CONFIG_FILE), 'utf8')) as Record<string, unknown>;
  if (Object.keys(ext).length > 0 || 'external_roots' in raw) raw['external_roots'] = sortKeys(ext);
  writeIfChanged(path, canonicalJson(raw));
}

function sameEntry(a: CatalogEntry | undefined, b: CatalogEntry): boolean {
  return !!a && JSON.stringify(a) === JSON.stringify(b);
}

/** Every merged source into the run: files copied, entry set, counted as added / updated / unchanged. */
function takeSources(run: IngestRun, union: ReturnType<typeof unionEntries>): void {
  const ids = [...union.keys()].sort(compareStrings);
  ids.forEach((id, i) => {
    const { entry, part } = union.get(id)!;
    const filesChanged = copySourceFiles(part.root, run.root, entry);
    const prev = run.prevById.get(id);
    const same = sameEntry(prev, entry) && !filesChanged;
    run.next.set(id, entry);
    if (!same) run.changed.add(id);
    const action = !prev ? 'added' : same ? 'unchanged' : 'updated';
    run.reports.push({ id, file: entry.original_path, type: entry.type, action, status: entry.status, ...(entry.error ? { error: entry.error } : {}), ...(entry.pages ? { pages: entry.pages } : {}) });
    run.opts.onProgress?.({ phase: 'convert', done: i + 1, total: ids.length, file: entry.original_path, pages: 0, elapsedMs: Date.now() - run.started });
  });
}

/** Sources of this store that no partial store holds: removed when the partial stores are the whole library, else kept. */
function settleOthers(run: IngestRun, union: ReturnType<typeof unionEntries>, complete: boolean): void {
  for (const prev of run.previous) {
    if (union.has(prev.id)) continue;
    if (!complete) {
      run.next.set(prev.id, prev);
      continue;
    }
    removeSource(run, prev);
  }
}

/** LLM results cached by the partial stores (a re-ingest anywhere then makes no call), and their stat caches (no re-hash here). */
function takeCaches(run: IngestRun, parts: Partial[], union: ReturnType<typeof unionEntries>): void {
  for (const p of parts) {
    for (const f of listFiles(join(p.root, LLM_CACHE_DIR))) {
      const rel = `${LLM_CACHE_DIR}/${f}`;
      if (!existsSync(join(run.root, rel))) copyFile(p.root, run.root, rel, true);
    }
    const stats = readStatCache(p.root).files;
    for (const { entry, part } of union.values()) {
      const rec = part === p ? stats[entry.original_path] : undefined;
      if (rec) run.statCache.files[entry.original_path] = rec;
    }
  }
}

function openParts(root: string, paths: string[]): { parts: Partial[]; complete: boolean; union: ReturnType<typeof unionEntries> } {
  if (paths.length === 0) throw new UserError('mhub merge: no partial stores given.', 'mhub merge /tmp/part-1 /tmp/part-2 … (stores made by `mhub ingest --shard i/N`)', EXIT.USAGE);
  const parts = paths.map((p) => openPartial(p, root));
  const complete = checkShards(parts);
  checkConfigs(parts);
  checkEmbedders(parts);
  return { parts, complete, union: unionEntries(parts) };
}

function incompleteWarning(parts: Partial[]): string | null {
  const shards = parts.filter((p) => p.shard).map((p) => p.shard!);
  if (shards.length === 0) return null;
  const n = shards[0]!.count;
  const have = new Set(shards.map((s) => s.index));
  const missing = Array.from({ length: n }, (_, i) => i + 1).filter((i) => !have.has(i)).map((i) => `${i}/${n}`);
  if (missing.length === 0) return null;
  return `shards ${missing.join(', ')} were not given: their sources are not in the store, and sources already in it were kept`;
}

export async function mergeStores(root: string, opts: MergeOptions): Promise<MergeReport> {
  const started = Date.now();
  const { parts, complete, union } = openParts(root, opts.partials);
  const release = acquireLock(root, `merge ${opts.partials.join(' ')}`);
  try {
    const held = readShardFile(root);
    if (held) throw new UserError(`${root} is itself a partial store (shard ${formatShard(held)}).`, 'Merge into a new store (--store <new folder>) or an ordinary one.', EXIT.USAGE);
    const warnings: string[] = [];
    writeMergedConfig(root, parts, readCatalog(root).sources.length > 0, warnings);
    const run = await openRun(root, { paths: [], llm: opts.llm, maxCalls: opts.maxCalls, ...(opts.log ? { log: opts.log } : {}), ...(opts.onProgress ? { onProgress: opts.onProgress } : {}), ...(opts.now ? { now: opts.now } : {}) });
    run.started = started;
    run.donors = parts.map((p) => p.root);
    run.warnings.push(...warnings, ...[incompleteWarning(parts)].filter((w): w is string => !!w));
    const t0 = performance.now();
    takeSources(run, union);
    settleOthers(run, union, complete);
    takeCaches(run, parts, union);
    run.phases['copy'] = Math.round(performance.now() - t0) / 1000;
    for (const stage of [indexStage, commitStage]) {
      const t = performance.now();
      await stage.run(run, run);
      run.phases[stage.name] = Math.round(performance.now() - t) / 1000;
    }
    const report = buildReport(run, await run.stages.finish());
    return { ...report, partials: parts.map((p) => ({ store: p.root, shard: p.shard ? formatShard(p.shard) : null, sources: p.entries.length })), complete };
  } finally {
    release();
  }
}
