/**
 * The LLM stages in use (loaded lazily by ./stages.ts once a provider is chosen): the sampling
 * planner, the tree + card enricher and the curator, all sharing one runner (cache, budget,
 * concurrency, retries, usage).
 */
import type { Config } from '../store/schemas.js';
import type { Planner, Enricher, Curator } from '../ingest/stages/hooks.js';
import type { LlmStages } from './stages.js';
import { planOffline } from '../ingest/plan/offline-planner.js';
import { readCatalog } from '../store/catalog.js';
import { CLAUDE_BIN } from './resolve.js';
import type { LlmProvider } from './provider.js';
import { LlmRunner } from './runner.js';
import { SourceRecord } from './record.js';
import { samplingInput } from './sample-input.js';
import { samplingRole, toStrategy } from './roles/sampling.js';
import { llmTree, needsLlmTree } from './enrich-tree.js';
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
  const records = new Map<string, SourceRecord>();
  const label = `${provider.name}, ${provider.model}`;

  const planner: Planner = {
    name: `llm:${provider.model}`,
    async plan(sample) {
      const offline = planOffline(sample);
      const rec = new SourceRecord();
      records.set(sample.card.id, rec);
      let input: string | null;
      try {
        input = await samplingInput(root, sample);
      } catch (err) {
        rec.fallback(`sampling: could not sample the file (${(err as Error).message})`);
        return offline;
      }
      if (input === null) return offline; // no cheap sample for this type: the offline planner decides
      const r = await runner.run(samplingRole, input);
      if (!r.ok) {
        rec.fallback(r.reason);
        return offline;
      }
      rec.ok('sampling');
      return toStrategy(r.value, sample.card.type, offline, provider.model);
    },
  };

  const enricher: Enricher = {
    name: 'llm-card-tree',
    async enrich({ card, result }) {
      const rec = records.get(card.id) ?? new SourceRecord();
      records.delete(card.id);
      let out = result;
      if (needsLlmTree(out)) {
        try {
          const t = await llmTree(runner, out, config.ingest.max_leaf_pages, log);
          if ('result' in t) {
            out = t.result;
            rec.ok('tree');
          } else rec.fallback(t.reason);
        } catch (err) {
          rec.fallback(`tree: ${(err as Error).message}`);
        }
      }
      try {
        const c = await llmCard(runner, card, out);
        if ('result' in c) {
          out = c.result;
          rec.ok('card');
        } else rec.fallback(c.reason);
      } catch (err) {
        rec.fallback(`card: ${(err as Error).message}`);
      }
      return { result: out, llm: rec.toEntry(provider.name, provider.model) };
    },
  };

  const curator: Curator = {
    name: 'llm-curation',
    curate: (entries, log) => curateCatalog(runner, entries, log),
  };

  let offlineOnly = 0;
  try {
    offlineOnly = readCatalog(root).sources.filter((e) => e.status === 'indexed' && !e.llm).length;
  } catch {
    /* an unreadable catalog is reported by the pipeline */
  }
  const hint = offlineOnly ? `; ${offlineOnly} source(s) in the catalog were indexed without the LLM; unchanged ones stay so until mhub ingest --force` : '';

  return {
    planner,
    enrichers: [enricher],
    curators: [curator],
    llmNote: `LLM: ${provider.name} (${provider.model}); ${reason}${maxCalls !== null ? `; at most ${maxCalls} calls` : ''}${hint}`,
    finish: async () => runner.meter.lines(label),
  };
}
