/**
 * Which planner, enrichers, index builders and curators an ingest uses. The LLM layer and the
 * indexing layer register theirs here; the stages only see the interfaces in src/model/stages.ts.
 */
import type { Config } from '../../store/schemas.js';
import type { Planner, Enricher, IndexBuilder, Curator } from '../../model/stages.js';
import { resolveLlmStages } from '../../llm/stages.js';
import { defaultIndexBuilders } from '../../indexing/builders.js';
import { loadRecordedPlans, recordedPlanner } from '../plan/recorded.js';

export interface StageOptions {
  /** --llm auto|anthropic|claude-cli|none */
  llm?: string | undefined;
  maxCalls?: number | undefined;
  /** --plans FILE: recorded plans that replace the planner's for the sources they name */
  plans?: string | undefined;
  log: (message: string) => void;
}

export interface Stages {
  /** refines the offline plan; the offline plan stands when it fails */
  planner: Planner;
  /** tree stage: may replace a weak converted tree */
  treeEnrichers: Enricher[];
  /** enrich stage: may improve the document card */
  cardEnrichers: Enricher[];
  indexBuilders: IndexBuilder[];
  curators: Curator[];
  /** one line saying which LLM provider (if any) is used and why */
  llmNote: string;
  /** called at the end of the run: usage summary lines (calls, tokens, cost) */
  finish(): Promise<string[]>;
}

/** Keeps the offline planner's strategy. */
export const offlinePlanner: Planner = { name: 'offline', plan: async (_sample, offline) => offline };

export async function resolveStages(root: string, config: Config, opts: StageOptions): Promise<Stages> {
  const recorded = opts.plans ? loadRecordedPlans(opts.plans) : null;
  const llm = await resolveLlmStages(root, config, opts);
  const planner = llm.planner ?? offlinePlanner;
  return {
    planner: recorded ? recordedPlanner(recorded, opts.plans!, planner) : planner,
    treeEnrichers: llm.treeEnrichers,
    cardEnrichers: llm.cardEnrichers,
    indexBuilders: defaultIndexBuilders(config),
    curators: llm.curators,
    llmNote: recorded ? `${llm.llmNote}; recorded plans for ${recorded.size} file(s) from ${opts.plans}` : llm.llmNote,
    finish: () => llm.finish(),
  };
}
