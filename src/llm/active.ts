/**
 * The LLM stages in use (loaded lazily by ./stages.ts once a provider is chosen): the sampling
 * planner, the tree + card enricher and the curator, all sharing one runner (cache, budget,
 * concurrency, retries, usage).
 */
import type { Config } from '../store/schemas.js';
import type { Planner, Enricher, Curator } from '../model/stages.js';
import type { LlmStages } from './stage-types.js';
import { readCatalog } from '../store/catalog.js';
import { CLAUDE_BIN } from './resolve.js';
import type { LlmProvider } from './provider.js';
import { LlmRunner } from './runner.js';
import { SourceRecord } from './record.js';
import { samplingInput } from './sample-input.js';
import { samplingRole, toStrategy } from './roles/sampling.js';
import { llmTree, treeHints, wantsLlmTree } from './enrich-tree.js';
import { llmCard } from './enrich-card.js';
import { curateCatalog } from './curate.js';

async function makeProvider(kind: 'anthropic' | 'claude-cli', config: Config): Promise<LlmProvider> {
  if (kind === 'anthropic') {
    const { createAnthropicProvider } = await import('./providers/anthropic.js');
    return createAnthropicProvider({ model: config.llm.model, timeoutMs: config.llm.timeout_ms });
  }
  const { createClaudeCliProvider } = await import('./providers/claude-cli.js');
  return createClaudeCliProvider({ command: process.env.MHUB_CLAUDE_BIN || CLAUDE_BIN, model: config.llm.model, timeoutMs: config.llm.timeout_ms });
}

/** What every LLM stage of one run shares: the runner (cache, budget, retries, usage) and per-source records. */
interface Shared {
  root: string;
  config: Config;
  provider: LlmProvider;
  runner: LlmRunner;
  log: (m: string) => void;
  /** one record per source: opened by the planner, added to by the tree step, closed by the card step */
  records: Map<string, SourceRecord>;
}

function recordOf(sh: Shared, id: string): SourceRecord {
  let rec = sh.records.get(id);
  if (!rec) sh.records.set(id, (rec = new SourceRecord()));
  return rec;
}

function samplingPlanner(sh: Shared): Planner {
  return {
    name: `llm:${sh.provider.model}`,
    async plan(sample, offline) {
      const rec = new SourceRecord();
      sh.records.set(sample.card.id, rec);
      let input: string | null;
      try {
        input = await samplingInput(sh.root, sample);
      } catch (err) {
        const reason = `sampling: could not sample the file (${(err as Error).message})`;
        rec.fallback(reason);
        throw new Error(reason);
      }
      if (input === null) return offline; // no cheap sample for this type: the offline planner decides
      const r = await sh.runner.run(samplingRole, input);
      if (!r.ok) {
        rec.fallback(r.reason);
        throw new Error(r.reason); // the plan stage uses the offline plan and the run says so once
      }
      rec.ok('sampling');
      return toStrategy(r.value, offline, sh.provider.model);
    },
  };
}

function treeEnricher(sh: Shared): Enricher {
  return {
    name: 'llm-tree',
    async enrich({ card, plan, result }) {
      const rec = recordOf(sh, card.id);
      if (!wantsLlmTree(plan, result)) return { result };
      let reason: string;
      try {
        const t = await llmTree(sh.runner, result, sh.config.ingest.max_leaf_pages, sh.log, treeHints(plan));
        if ('result' in t) {
          rec.ok('tree');
          return { result: t.result };
        }
        reason = t.reason;
      } catch (err) {
        reason = `tree: ${(err as Error).message}`;
      }
      rec.fallback(reason);
      return { result, fallback: reason };
    },
  };
}

function cardEnricher(sh: Shared): Enricher {
  return {
    name: 'llm-card',
    async enrich({ card, result }) {
      const rec = recordOf(sh, card.id);
      sh.records.delete(card.id);
      let out = result;
      let fallback: string | undefined;
      try {
        const c = await llmCard(sh.runner, card, out);
        if ('result' in c) {
          out = c.result;
          rec.ok('card');
        } else fallback = c.reason;
      } catch (err) {
        fallback = `card: ${(err as Error).message}`;
      }
      if (fallback) rec.fallback(fallback);
      return { result: out, llm: rec.toEntry(sh.provider.name, sh.provider.model), ...(fallback ? { fallback } : {}) };
    },
  };
}

/** Catalog sources indexed without the LLM: they stay so until re-ingested with --force. */
function offlineOnlyHint(root: string): string {
  let offlineOnly = 0;
  try {
    offlineOnly = readCatalog(root).sources.filter((e) => e.status === 'indexed' && !e.llm).length;
  } catch {
    /* an unreadable catalog is reported by the pipeline */
  }
  return offlineOnly ? `; ${offlineOnly} source(s) in the catalog were indexed without the LLM; unchanged ones stay so until mhub ingest --force` : '';
}

export async function buildActiveStages(
  root: string,
  config: Config,
  kind: 'anthropic' | 'claude-cli',
  reason: string,
  maxCalls: number | null,
  log: (m: string) => void,
): Promise<LlmStages> {
  const provider = await makeProvider(kind, config);
  const runner = new LlmRunner(root, provider, {
    maxConcurrency: config.llm.max_concurrency,
    maxCalls,
    timeoutMs: config.llm.timeout_ms,
    maxRetries: config.llm.max_retries,
    log,
  });
  const sh: Shared = { root, config, provider, runner, log, records: new Map() };
  const curator: Curator = { name: 'llm-curation', curate: (entries, log, fallback) => curateCatalog(runner, entries, log, fallback) };
  return {
    planner: samplingPlanner(sh),
    treeEnrichers: [treeEnricher(sh)],
    cardEnrichers: [cardEnricher(sh)],
    curators: [curator],
    llmNote: `LLM: ${provider.name} (${provider.model}); ${reason}${maxCalls !== null ? `; at most ${maxCalls} calls` : ''}${offlineOnlyHint(root)}`,
    finish: async () => runner.meter.lines(`${provider.name}, ${provider.model}`),
  };
}
