/** What the LLM layer hands the ingest pipeline (./stages.ts resolves it, ./active.ts builds it). */
import type { Planner, Enricher, Curator } from '../model/stages.js';

export interface LlmStages {
  planner: Planner | null;
  /** run in the tree stage, before node ids are assigned (LLM trees for weak page trees) */
  treeEnrichers: Enricher[];
  /** run in the enrich stage (LLM cards); the last one's `llm` record goes into the catalog entry */
  cardEnrichers: Enricher[];
  curators: Curator[];
  llmNote: string;
  finish(): Promise<string[]>;
}
