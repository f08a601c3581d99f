/**
 * The state of one ingest run, shared by its stages (./stages/): options, the store's config and
 * previous catalog, the hooks in use, and what each stage has produced so far. Also the public
 * types of the pipeline (options, progress events, the report).
 */
import type { CatalogEntry, Config, StatCache } from '../store/schemas.js';
import type { IndexBuildReport } from '../model/stages.js';
import type { ScannedFile, ScanNotice } from './scan.js';
import type { ExternalRoots } from '../store/source-path.js';
import type { Stages } from './stages/registry.js';
import type { Shard } from './shard.js';

export type SourceAction = 'added' | 'updated' | 'unchanged' | 'removed';

export interface SourceReport {
  id: string;
  file: string;
  type: string;
  action: SourceAction;
  status: 'indexed' | 'skipped' | 'failed';
  error?: string;
  pages?: number;
  nodes?: number;
  ms?: number;
}

export interface IngestReport {
  store: string;
  sources: SourceReport[];
  counts: { added: number; updated: number; unchanged: number; removed: number; indexed: number; skipped: number; failed: number };
  pages: number;
  seconds: number;
  pages_per_second: number;
  llm: string;
  llm_usage: string[];
  indexes: IndexBuildReport[];
  /** seconds spent in each run stage (scan, sources, prune, index, commit) */
  phases: Record<string, number>;
  /** peak resident memory of the process (all threads), MB */
  peak_rss_mb: number;
  warnings: string[];
  /** paths found but not ingested (links out of the folder, special files, unreadable folders, refused archive members, …), each with why */
  not_ingested: ScanNotice[];
}

/** What a progress event counts: files scanned, sources converted, texts embedded, indexes built. */
export type ProgressPhase = 'scan' | 'convert' | 'embed' | 'index';

export interface ProgressEvent {
  /** default 'convert' */
  phase?: ProgressPhase;
  done: number;
  total: number;
  /** the file (convert), or what is being built (embed, index) */
  file: string;
  /** pages converted so far (convert) */
  pages: number;
  /** since the run started */
  elapsedMs: number;
  /** since this phase started (rates and ETA); elapsedMs when absent */
  phaseElapsedMs?: number;
}

export interface IngestOptions {
  paths: string[];
  cwd?: string;
  llm?: string | undefined;
  maxCalls?: number | undefined;
  /** a recorded plans file (docs/plan.md): its plans replace the planner's for the sources it names */
  plans?: string | undefined;
  onProgress?: (ev: ProgressEvent) => void;
  log?: (message: string) => void;
  /** forces re-processing of every source */
  force?: boolean;
  /** clock for indexed_at (tests) */
  now?: () => Date;
  /** follow links whose target lies outside the ingested folder (default: config ingest.follow_external_links) */
  followLinks?: boolean;
  /** ingest only this slice of the paths into a partial store (`mhub ingest --shard i/N`; ../shard.ts) */
  shard?: Shard;
}

export interface IngestRun {
  root: string;
  opts: IngestOptions;
  started: number;
  log: (message: string) => void;
  /** ISO time written as indexed_at */
  nowIso: () => string;
  config: Config;
  /** the catalog as it was when the run started */
  previous: CatalogEntry[];
  prevById: Map<string, CatalogEntry>;
  statCache: StatCache;
  stages: Stages;
  /** scan stage: the files to ingest, in path order */
  files: ScannedFile[];
  /** scan stage (and later ones): paths not ingested, with why */
  notices: ScanNotice[];
  /** folders outside the store, by name (config.json external_roots) */
  externalRoots: ExternalRoots;
  /** fallbacks taken (planner, enrichers): said once per kind in the report's warnings */
  fallbacks: Map<string, { count: number; first: string; file?: string; said?: string }>;
  /** source stages: the new catalog, by id */
  next: Map<string, CatalogEntry>;
  /** ids added or updated in this run, in scan order */
  changed: Set<string>;
  /** ids removed in this run */
  removed: Set<string>;
  reports: SourceReport[];
  pages: number;
  /** index stage: stores whose index outputs the builders may reuse (`mhub merge`: the partial stores) */
  donors?: string[];
  /** index stage: the final entries, sorted by id */
  entries: CatalogEntry[];
  indexes: IndexBuildReport[];
  /** seconds per run stage, filled as they finish */
  phases: Record<string, number>;
  warnings: string[];
}
