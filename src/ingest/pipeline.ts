/**
 * The ingest pipeline: a short loop over stages (./stages/). scan → sources (detect → plan →
 * convert → tree → enrich → write, per file, several at once) → prune → index → commit (catalog
 * last). Crash-safe: every file is written by temp+rename, the catalog only after everything it
 * points to exists. One ingest at a time per store (lock).
 */
import { acquireLock } from '../store/lock.js';
import { loadConfig } from '../store/config.js';
import { readCatalog } from '../store/catalog.js';
import { readStatCache } from './stat-cache.js';
import { readJournal } from './journal.js';
import { checkShardTarget, writeShardFile } from './shard.js';
import type { CatalogEntry, StatCache } from '../store/schemas.js';
import { resolveStages } from './stages/registry.js';
import { buildReport } from './report.js';
import { scanStage } from './stages/scan.js';
import { sourcesStage } from './stages/sources.js';
import { pruneStage } from './stages/prune.js';
import { indexStage } from './stages/index-stage.js';
import { commitStage } from './stages/commit.js';
import type { RunStage } from './stages/types.js';
import type { IngestOptions, IngestReport, IngestRun } from './run.js';

export type { IngestOptions, IngestReport, ProgressEvent, SourceAction, SourceReport } from './run.js';
export { ingestConcurrency } from './stages/sources.js';

export const RUN_STAGES: readonly RunStage[] = [scanStage, sourcesStage, pruneStage, indexStage, commitStage];

/**
 * The reproducible-builds convention: with SOURCE_DATE_EPOCH (seconds) set, every timestamp written
 * is that instant, so a store rebuilt from scratch is byte-identical to the committed one.
 */
function clockFromEnv(): Date | null {
  const raw = process.env['SOURCE_DATE_EPOCH'];
  if (!raw || !/^\d+$/.test(raw)) return null;
  return new Date(Number(raw) * 1000);
}

/** The catalog as the last run left it: the written catalog, with the sources an interrupted run journaled. */
function previousState(root: string): { previous: CatalogEntry[]; statCache: StatCache } {
  const byId = new Map(readCatalog(root).sources.map((e) => [e.id, e]));
  const statCache = readStatCache(root);
  for (const { entry, stat } of readJournal(root)) {
    byId.set(entry.id, entry);
    if (stat) statCache.files[stat.rel] = { size: stat.size, mtime_ms: stat.mtime_ms, sha256: stat.sha256 };
  }
  return { previous: [...byId.values()], statCache };
}

export async function openRun(root: string, opts: IngestOptions): Promise<IngestRun> {
  const log = opts.log ?? (() => {});
  const config = loadConfig(root);
  const { previous, statCache } = previousState(root);
  checkShardTarget(root, opts.shard, previous.length > 0);
  if (opts.shard) writeShardFile(root, opts.shard);
  return {
    root, opts, log, config, previous, statCache,
    started: Date.now(),
    nowIso: () => (opts.now ? opts.now() : clockFromEnv() ?? new Date()).toISOString(),
    prevById: new Map(previous.map((e) => [e.id, e])),
    stages: await resolveStages(root, config, { llm: opts.llm, maxCalls: opts.maxCalls, plans: opts.plans, log }),
    files: [], notices: [], externalRoots: {}, fallbacks: new Map(), next: new Map(), changed: new Set(), removed: new Set(), reports: [], pages: 0,
    entries: [], indexes: [], phases: {}, warnings: [],
  };
}

export async function ingest(root: string, opts: IngestOptions): Promise<IngestReport> {
  const started = Date.now();
  const release = acquireLock(root, `ingest ${opts.paths.join(' ')}`);
  try {
    const run = await openRun(root, opts);
    run.started = started;
    for (const stage of RUN_STAGES) {
      const t0 = performance.now();
      await stage.run(run, run);
      run.phases[stage.name] = Math.round(performance.now() - t0) / 1000;
    }
    return buildReport(run, await run.stages.finish());
  } finally {
    release();
  }
}
