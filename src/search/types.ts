/** The retrieval-side search contract shared by `mhub search`, the skill's search.js, deep_retrieve and eval. */
import type { Freshness } from './freshness.js';

export interface SearchFilters {
  /** source types (any of) */
  types?: string[];
  /** tags: any of */
  tagsAny?: string[];
  /** tags: all of */
  tagsAll?: string[];
  /** document date/period range, ISO date prefixes (YYYY, YYYY-MM, YYYY-MM-DD) */
  since?: string;
  until?: string;
  /** indexed_at range */
  indexedSince?: string;
  indexedUntil?: string;
  /** glob over original_path */
  pathGlob?: string;
  /** exact key=value matches on entry.meta (or top-level string fields) */
  meta?: Record<string, string>;
}

export interface NodeHit {
  node_id: string;
  title: string;
  page_range?: [number, number];
  line_range?: [number, number];
  row_range?: [number, number];
  /** fused score (tier-2 fusion.ts fuseNodeScores: the best keyword node scores about 1); compare within one list only */
  score: number;
  /** how surely this node answers the query, in [0,1] (node-confidence.ts) */
  relevance?: number;
  /** strong | weak | none, with the thresholds search uses and the first suggestion's lead (node-confidence.ts) */
  verdict?: Verdict;
}

export type Verdict = 'strong' | 'weak' | 'none';

export interface SourceHit {
  id: string;
  title: string;
  file: string;
  type: string;
  score: number;
  /** calibrated relevance in [0,1] */
  relevance: number;
  verdict: Verdict;
  summary: string;
  /** best-matching nodes of this source */
  nodes: NodeHit[];
  /** per-signal contributions with --explain */
  explain?: Record<string, number | string>;
}

export interface SearchOptions {
  k?: number;
  filters?: SearchFilters;
  /** auto: hybrid when vectors and a model are available, else keyword */
  mode?: 'auto' | 'keyword' | 'hybrid' | 'vector';
  explain?: boolean;
  /** nodes returned per source */
  nodesPerSource?: number;
  /** keep ranked results below the weak threshold (verdict `none`) instead of dropping them; for eval */
  includeNone?: boolean;
}

export interface SearchResult {
  query: string;
  mode: 'keyword' | 'hybrid' | 'vector';
  verdict: Verdict;
  results: SourceHit[];
  warnings: string[];
  /** how fresh the index is (its warning is not repeated in `warnings`) */
  freshness: Freshness;
}
