/**
 * The one stage interface. A run is scan → sources → prune → index → commit; the `sources` stage
 * takes every scanned file through detect → plan → convert → tree → enrich → write, several files
 * at once. A source stage reads what earlier stages put on the job and adds its own; it settles the
 * job (sets `outcome`) when nothing is left to do for that source (unchanged, skipped, failed, or
 * written), and the chain stops there.
 */
import type { CatalogEntry, Strategy, TreeFile } from '../../store/schemas.js';
import type { ConvertResult } from '../../model/convert.js';
import type { ScannedFile } from '../scan.js';
import type { Detected } from '../detect.js';
import type { MaterializedTree } from '../tree/materialize.js';
import type { IngestRun } from '../run.js';

export interface Stage<T> {
  name: string;
  run(subject: T, run: IngestRun): Promise<void> | void;
}

/** A run-level stage (scan, sources, prune, index, commit). */
export type RunStage = Stage<IngestRun>;

/** One source on its way through the source stages. */
export interface SourceJob {
  file: ScannedFile;
  id: string;
  prev: CatalogEntry | undefined;
  startedMs: number;
  /** time spent in the source stages */
  ms: number;
  det?: Detected;
  plan?: Strategy;
  result?: ConvertResult;
  tree?: MaterializedTree;
  /** the tree as written to the store (for the index builders' prepareSource) */
  written?: TreeFile;
  llm?: CatalogEntry['llm'];
  /** the catalog entry being built (from detection on) */
  entry?: CatalogEntry;
  /** set once the source is settled: its catalog entry and how it was settled */
  outcome?: { entry: CatalogEntry; how: Settled; pages: number };
}

/** unchanged: the previous entry stands; unread: the file could not be read; vanished: gone since the scan; processed: detected and beyond */
export type Settled = 'unchanged' | 'unread' | 'vanished' | 'processed';

export type SourceStage = Stage<SourceJob>;

/** Settle a job: nothing further to do for this source. */
export function settle(job: SourceJob, entry: CatalogEntry, pages = 0, how: Settled = 'processed'): void {
  job.outcome = { entry, how, pages };
}
