/** LLM stages for ingest (planner, enrichers, curators). Owned by the LLM layer; offline until configured. */
import type { Config } from '../store/schemas.js';
import type { Planner, Enricher, Curator } from '../ingest/stages/hooks.js';

export interface LlmStages {
  planner: Planner | null;
  enrichers: Enricher[];
  curators: Curator[];
  llmNote: string;
  finish(): Promise<string[]>;
}

export async function resolveLlmStages(
  _root: string,
  _config: Config,
  _opts: { llm?: string | undefined; maxCalls?: number | undefined; log: (m: string) => void },
): Promise<LlmStages> {
  return { planner: null, enrichers: [], curators: [], llmNote: 'LLM: none (offline planner)', finish: async () => [] };
}
