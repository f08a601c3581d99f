/**
 * Tree stage: tree enrichers may replace a weak converted tree (the LLM tree role), then the tree
 * is materialized: node ids, each node's own text as a file, summaries, parent ranges.
 */
import { materializeTree } from '../tree/materialize.js';
import type { Enricher } from '../../model/stages.js';
import type { SourceJob, SourceStage } from './types.js';
import type { IngestRun } from '../run.js';
import { noteFallback } from '../fallbacks.js';
import { collectAfterLarge } from '../../util/memory.js';

/** Run enrichers in order; one that fails leaves the result as it was (enrichers never fail a document) and the run says so once. */
export async function runEnrichers(job: SourceJob, enrichers: readonly Enricher[], run?: Pick<IngestRun, 'fallbacks'>): Promise<void> {
  for (const e of enrichers) {
    try {
      const out = await e.enrich({ card: job.det!.card, plan: job.entry!.strategy!, result: job.result! });
      job.result = out.result;
      if (out.llm) job.llm = out.llm;
      if (out.fallback && run) noteFallback(run, `enricher ${e.name}`, job.file.rel, new Error(out.fallback));
    } catch (err) {
      if (run) noteFallback(run, `enricher ${e.name}`, job.file.rel, err);
    }
  }
}

export const treeStage: SourceStage = {
  name: 'tree',
  async run(job, run) {
    // the source's bytes were let go after conversion: a large file's are collected before its tree is built
    collectAfterLarge((job.det?.card.size_kb ?? 0) * 1024);
    await runEnrichers(job, run.stages.treeEnrichers, run);
    job.tree = materializeTree(job.det!.card, job.entry!.strategy!.recommended_approach, job.result!);
  },
};
