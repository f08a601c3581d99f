/** Plan stage: a cheap sample of the source, the offline strategy, and the planner's (LLM) refinement. */
import { takeSample } from '../plan/sample.js';
import { planOffline } from '../plan/offline-planner.js';
import type { SourceStage } from './types.js';
import { noteFallback } from '../fallbacks.js';

export const planStage: SourceStage = {
  name: 'plan',
  async run(job, run) {
    const sample = takeSample(job.det!.card, job.det!.bytes, run.config.ingest.max_leaf_pages);
    const offline = await planOffline(sample);
    try {
      job.plan = await run.stages.planner.plan(sample, offline);
    } catch (err) {
      noteFallback(run, `planner (${run.stages.planner.name})`, job.file.rel, err);
      job.plan = offline;
    }
    job.entry!.strategy = job.plan;
  },
};
