/**
 * Sources stage: every scanned file goes through the source stages (detect → plan → convert → tree →
 * enrich → write), up to `ingest.workers` files at once (PDFs parse in worker threads). Outcomes are
 * committed to the run in scan order, so the store does not depend on which file finished first.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CatalogEntry, type Config } from '../../store/schemas.js';
import { errorMessage } from '../../store/errors.js';
import { sourceIdFor } from '../ids.js';
import type { IngestRun } from '../run.js';
import { detectStage } from './detect.js';
import { planStage } from './plan.js';
import { convertStage } from './convert.js';
import { treeStage } from './tree.js';
import { enrichStage } from './enrich.js';
import { writeStage, removeSourceFiles } from './write.js';
import { settle, type RunStage, type SourceJob, type SourceStage } from './types.js';
import { appendJournal } from '../journal.js';
import { collectAfterLarge } from '../../util/memory.js';

export const SOURCE_STAGES: readonly SourceStage[] = [detectStage, planStage, convertStage, treeStage, enrichStage, writeStage];

/** Sources converted at once: `config.ingest.workers`, or the number of cores when 0 (the default). */
export function ingestConcurrency(config: Config): number {
  return config.ingest.workers > 0 ? config.ingest.workers : Math.max(1, availableParallelism());
}

/** Take one source through the stages until one settles it. A stage that throws fails this source alone. */
export async function runSourceStages(job: SourceJob, run: IngestRun): Promise<void> {
  for (const stage of SOURCE_STAGES) {
    try {
      await stage.run(job, run);
    } catch (err) {
      return settle(job, internalFailure(job, stage.name, err, run.nowIso()));
    }
    if (job.outcome) return;
  }
}

/** The entry of a source whose processing threw (a bug or an I/O failure, not bad input): failed, saying where. */
function internalFailure(job: SourceJob, stage: string, err: unknown, now: string): CatalogEntry {
  const rel = job.file.rel;
  return CatalogEntry.parse({
    id: job.id, filename: rel.split('/').pop(), original_path: rel, type: job.det?.card.type ?? 'unknown', size_kb: job.det?.card.size_kb ?? 0,
    sha256: job.det?.card.sha256 ?? '0'.repeat(64), status: 'failed',
    error: `Internal error in the ${stage} stage: ${errorMessage(err)}. The other files were ingested; please report this (run \`mhub ingest\` again to retry).`,
    strategy: null, title: rel, summary: '', tree_path: null, converted_path: null, converter: null, indexed_from_sha256: null, indexed_at: now,
  });
}

function makeJobs(run: IngestRun): SourceJob[] {
  const taken = new Map(run.previous.map((e) => [e.id, e.original_path]));
  return run.files.map((file) => {
    const id = sourceIdFor(file.rel, taken);
    return { file, id, prev: run.prevById.get(id), startedMs: 0, ms: 0 };
  });
}

/**
 * Sources in flight beyond the conversion workers: while the main thread builds and writes one
 * source's tree, the next is already converting, so no worker waits for the main thread.
 */
export const EXTRA_LANES = 1;

/** A file's size for scheduling (0 for archive members and files that cannot be stat'ed). */
function sizeOf(job: SourceJob): number {
  if (job.file.member) return 0;
  try {
    return statSync(job.file.abs).size;
  } catch {
    return 0;
  }
}

/**
 * The order sources start in: largest first, so the run does not end with one long conversion on
 * one core while the others idle (ties keep scan order). Outcomes are committed in scan order anyway.
 */
export function startOrder(jobs: SourceJob[]): SourceJob[] {
  const size = new Map(jobs.map((j) => [j, sizeOf(j)]));
  return jobs.map((j, i) => ({ j, i })).sort((a, b) => size.get(b.j)! - size.get(a.j)! || a.i - b.i).map((x) => x.j);
}

/** Run `work` over `items` with at most `limit` at once; after an error no new item starts, and it rejects with the first error. */
async function pooled<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let nextIndex = 0;
  let firstError: unknown;
  const lane = async () => {
    while (nextIndex < items.length && firstError === undefined) {
      const item = items[nextIndex++]!;
      await work(item).catch((err: unknown) => {
        firstError ??= err;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (firstError !== undefined) throw firstError;
}

/** Checkpoint a settled source: a source not indexed loses its old store files, then the journal records it. */
function checkpoint(job: SourceJob, run: IngestRun): void {
  const o = job.outcome;
  if (!o || o.how === 'unchanged' || o.how === 'vanished') return;
  if (o.how === 'processed' && o.entry.status !== 'indexed') removeSourceFiles(run.root, job.id);
  const rel = job.file.rel;
  const st = run.statCache.files[rel];
  appendJournal(run.root, { entry: o.entry, ...(st && job.det ? { stat: { rel, ...st } } : {}) });
}

/**
 * A new source just written: the index builders may start on it (IndexBuilder.prepareSource) while
 * other sources convert. A failure is left for the index stage, which redoes what was not done.
 */
async function prepareIndexes(job: SourceJob, run: IngestRun): Promise<void> {
  const o = job.outcome;
  if (!job.written || job.prev || o?.how !== 'processed' || o.entry.status !== 'indexed') return;
  for (const b of run.stages.indexBuilders) {
    try {
      await b.prepareSource?.(run.root, run.config, job.written, o.entry);
    } catch {
      /* the index stage builds it */
    }
  }
}

function commit(job: SourceJob, run: IngestRun): void {
  const { entry, how, pages } = job.outcome!;
  run.next.set(job.id, entry);
  const rel = job.file.rel;
  if (how === 'unchanged') {
    run.reports.push({ id: job.id, file: rel, type: entry.type, action: 'unchanged', status: entry.status, ...(entry.pages ? { pages: entry.pages } : {}) });
    return;
  }
  if (how === 'vanished') {
    run.next.delete(job.id); // gone: the prune stage drops its entry
    return;
  }
  const action = job.prev ? 'updated' : 'added';
  if (how === 'unread') {
    run.reports.push({ id: job.id, file: rel, type: 'unknown', action, status: 'failed', error: entry.error! });
    return;
  }
  run.pages += pages;
  run.changed.add(job.id);
  run.reports.push({
    id: job.id, file: rel, type: entry.type, action, status: entry.status,
    ...(entry.error ? { error: entry.error } : {}), ...(pages ? { pages } : {}), nodes: entry.node_count, ms: job.ms,
  });
}

export const sourcesStage: RunStage = {
  name: 'sources',
  async run(run) {
    const jobs = makeJobs(run);
    let done = 0;
    let pagesSoFar = 0;
    const t0 = Date.now();
    const progress = (file: string) =>
      run.opts.onProgress?.({ phase: 'convert', done, total: jobs.length, file, pages: pagesSoFar, elapsedMs: Date.now() - run.started, phaseElapsedMs: Date.now() - t0 });
    await pooled(startOrder(jobs), ingestConcurrency(run.config) + EXTRA_LANES, async (job) => {
      job.startedMs = Date.now();
      progress(job.file.rel);
      try {
        await runSourceStages(job, run);
        checkpoint(job, run);
        await prepareIndexes(job, run);
      } finally {
        job.ms = Date.now() - job.startedMs;
        // keep only the outcome: bytes, converted result and tree of a settled source are not needed again
        const size = (job.det?.card.size_kb ?? 0) * 1024;
        delete job.det;
        delete job.result;
        delete job.tree;
        delete job.written;
        collectAfterLarge(size);
        done++;
        pagesSoFar += job.outcome?.pages ?? 0;
        progress(job.file.rel);
      }
    });
    for (const job of jobs) commit(job, run);
  },
};
