/**
 * LLM stages for ingest (planner, enrichers, curators). Offline unless a provider is configured:
 * `--llm auto|anthropic|claude-cli|none` or config.json `llm.provider` (see ./resolve.ts). With a
 * provider, the sampling role plans each source, the tree role rebuilds weak page trees, the card
 * role writes the card, and curation tags and links the catalog. Every step falls back to the
 * offline result on failure and says why in the catalog entry's `llm` record.
 */
import type { Config } from '../store/schemas.js';
import type { LlmStages } from './stage-types.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { resolveProvider } from './resolve.js';

export type { LlmStages };

function checkMaxCalls(v: number | undefined, fromConfig: number | null): number | null {
  if (v === undefined) return fromConfig;
  if (!Number.isInteger(v) || v < 0) throw new UserError(`--max-calls must be a whole number ≥ 0 (got ${v}).`, 'Example: --max-calls 200', EXIT.USAGE);
  return v;
}

export async function resolveLlmStages(
  root: string,
  config: Config,
  opts: { llm?: string | undefined; maxCalls?: number | undefined; log: (m: string) => void },
): Promise<LlmStages> {
  const maxCalls = checkMaxCalls(opts.maxCalls, config.llm.max_calls);
  const res = await resolveProvider(config, opts.llm);
  if (res.provider === 'none') {
    return { planner: null, treeEnrichers: [], cardEnrichers: [], curators: [], llmNote: `LLM: none (${res.reason})`, finish: async () => [] };
  }
  if (res.problem) {
    throw new UserError(
      `Cannot use the ${res.provider} LLM provider: ${res.problem}.`,
      res.provider === 'anthropic'
        ? 'Set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or log in with an SDK profile), or run with --llm none. `mhub auth status` shows what is found.'
        : 'Install Claude Code and log in (`claude`), or run with --llm none. `mhub auth status` shows what is found.',
      EXIT.USAGE,
    );
  }
  // the active stages (roles, zod schemas, the SDK) load only when a provider is in use
  const { buildActiveStages } = await import('./active.js');
  return buildActiveStages(root, config, res.provider, res.reason, maxCalls, opts.log);
}
