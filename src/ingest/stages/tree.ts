/**
 * Tree stage: tree enrichers may replace a weak converted tree (the LLM tree role), then the tree
 * is materialized: node ids, each node's own text as a file, summaries, parent ranges.
 */
import { materializeTree } from '../tree/materialize.js';
import type { Enricher } from '../../model/stages.js';
import type { SourceJob, SourceStage } from './types.js';

/** Run enrichers in order; one that fails leaves the result as it was (enrichers never fail a document). */
export async function runEnrichers(job: SourceJob, enrichers: readonly Enricher[]): Promise<void> {
  for (const e of enrichers) {
    try {
      const out = await e.enrich({ card: job.det!.card, plan: job.entry!.strategy!, result: job.result!, bytes: job.det!.bytes });
      job.result = out.result;
      if (out.llm) job.llm = out.llm;
    } catch {
      /* the offline result stands */
    }
  }
}

export const treeStage: SourceStage = {
  name: 'tree',
  async run(job, run) {
    await runEnrichers(job, run.stages.treeEnrichers);
    job.tree = materializeTree(job.det!.card, job.entry!.strategy!.recommended_approach, job.result!);
  },
};
