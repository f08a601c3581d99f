/**
 * Extension points of the ingest pipeline, so each layer plugs in without editing the pipeline and
 * without importing it: planners (offline or LLM), enrichers (LLM trees and cards), curators, and
 * index builders (keyword, vectors). Only types live here; src/ingest/stages/registry.ts wires them.
 */
import type { CatalogEntry, Config, FileCard, Strategy, TreeFile } from '../store/schemas.js';
import type { Sample } from './sample.js';
import type { ConvertResult } from './convert.js';

export interface Planner {
  name: string;
  /**
   * `offline` is the offline planner's strategy for the same sample. A planner that cannot plan a
   * source throws (with why): the plan stage uses `offline` and the run says so once.
   */
  plan(sample: Sample, offline: Strategy): Promise<Strategy>;
}

export interface EnrichInput {
  card: FileCard;
  plan: Strategy;
  result: ConvertResult;
}

/**
 * Improves a conversion result; must never throw for a document's sake. Tree enrichers run in the
 * tree stage (before node ids are assigned), card enrichers in the enrich stage; the `llm` record of
 * the last card enricher is stored in the catalog entry.
 */
export interface Enricher {
  name: string;
  /** `fallback`: why the enricher kept the result it was given (said once per run in the report) */
  enrich(input: EnrichInput): Promise<{ result: ConvertResult; llm?: CatalogEntry['llm']; fallback?: string }>;
}

export interface IndexBuildContext {
  root: string;
  config: Config;
  /** final catalog entries (all statuses), sorted by id */
  entries: CatalogEntry[];
  /** ids whose tree or card changed in this run (added or updated) */
  changed: Set<string>;
  /** ids removed in this run */
  removed: Set<string>;
  /** loads a tree from the store (cached) */
  loadTree(id: string): TreeFile | null;
  /**
   * Other stores whose index outputs a builder may reuse for the same inputs (`mhub merge`: the
   * partial stores, whose vectors are taken by text instead of embedding the texts again).
   */
  donors?: string[];
  log(message: string): void;
  /** reports work done inside a builder: `done` of `total` items (texts embedded, sources indexed) */
  progress?(phase: 'embed' | 'index', done: number, total: number, what: string): void;
}

export interface IndexBuildReport {
  name: string;
  summary: string;
  warnings?: string[];
  stats?: Record<string, number | string>;
}

/** Builds a store-wide index after sources are converted and before the catalog is written. */
export interface IndexBuilder {
  name: string;
  build(ctx: IndexBuildContext): Promise<IndexBuildReport>;
  /**
   * What, besides the entries, config and index files, the builder's output depends on (e.g. the
   * embedding model's identity): part of the stamp that lets an unchanged run skip the builders.
   */
  stampKey?(root: string, config: Config): Promise<string>;
  /**
   * Work on one new source as soon as its tree is written, while other sources still convert (the
   * vectors builder embeds its node texts into the checkpoint build() then takes them from, the
   * keyword builder writes its node postings file, which build() reads back when its inputs match), so
   * the index stage that follows the conversions has less left to do. Best effort: what it did
   * not do, build() does.
   */
  prepareSource?(root: string, config: Config, tree: TreeFile, entry: CatalogEntry): Promise<void>;
}

/** Post-batch catalog curation (tags, shelves, related sources). May rewrite entries' metadata. */
export interface Curator {
  name: string;
  /** `fallback` is told each source that kept its previous curation, with why (said once per run in the report) */
  curate(entries: CatalogEntry[], log: (m: string) => void, fallback?: (file: string, reason: string) => void): Promise<CatalogEntry[]>;
}
