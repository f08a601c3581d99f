/**
 * Which planner, enrichers, index builders and curators an ingest uses. The LLM layer and the
 * search layer register theirs here; the pipeline only sees the interfaces in ./hooks.ts.
 */
import type { Config } from '../../store/schemas.js';
import type { Planner, Enricher, IndexBuilder, Curator } from './hooks.js';
import { planOffline } from '../plan/offline-planner.js';
import { resolveLlmStages } from '../../llm/stages.js';
import { defaultIndexBuilders } from '../../indexing/builders.js';

export interface StageOptions {
  /** --llm auto|anthropic|claude-cli|none */
  llm?: string | undefined;
  maxCalls?: number | undefined;
  log: (message: string) => void;
}

export interface Stages {
  planner: Planner;
  enrichers: Enricher[];
  indexBuilders: IndexBuilder[];
  curators: Curator[];
  /** one line saying which LLM provider (if any) is used and why */
  llmNote: string;
  /** called at the end of the run: usage summary lines (calls, tokens, cost) */
  finish(): Promise<string[]>;
}

export const offlinePlanner: Planner = { name: 'offline', plan: async (s) => planOffline(s) };

export async function resolveStages(root: string, config: Config, opts: StageOptions): Promise<Stages> {
  const llm = await resolveLlmStages(root, config, opts);
  return {
    planner: llm.planner ?? offlinePlanner,
    enrichers: llm.enrichers,
    indexBuilders: defaultIndexBuilders(config),
    curators: llm.curators,
    llmNote: llm.llmNote,
    finish: () => llm.finish(),
  };
}
