/**
 * Convert stage: the registered converter for the detected type turns the source into a tree of
 * nodes. Types without a converter, and converters that decline (skip_reason), settle the source as
 * skipped; bad input (ConvertError) and unexpected errors settle it as failed with the reason.
 * The converter gets the plan as directives (options.plan); the plan fields it could not honour,
 * and special_handling notes no step reads, go into the entry's plan_notes (docs/plan.md).
 */
import { errorMessage } from '../../store/errors.js';
import { ConvertError } from '../../model/convert.js';
import { converterFor, skipReasonFor } from '../converters/index.js';
import { noteConverterWarning } from '../fallbacks.js';
import { settle, type SourceStage } from './types.js';
import { planDirectives, sortNotes, unreadNotes } from '../plan/directives.js';
import { outlinePacks } from '../outline-packs.js';
import type { OutlinePack } from '../../model/outline-vocabulary.js';
import type { IngestRun } from '../run.js';

const packsByRun = new WeakMap<object, OutlinePack[]>();

/** The outline words of the store's vocabulary packs, read once per run (an unusable pack is said once). */
function outlinePacksOf(run: IngestRun): OutlinePack[] {
  let packs = packsByRun.get(run);
  if (!packs) {
    const read = outlinePacks(run.root, run.config);
    run.warnings.push(...read.warnings);
    packsByRun.set(run, (packs = read.packs));
  }
  return packs;
}

function failure(err: unknown): string {
  if (!(err instanceof ConvertError)) return `Conversion failed unexpectedly: ${errorMessage(err)}`;
  return err.hint ? `${err.message} ${err.hint}` : err.message;
}

export const convertStage: SourceStage = {
  name: 'convert',
  async run(job, run) {
    const { det, plan } = job;
    const entry = job.entry!;
    const converter = converterFor(det!.card.type);
    if (!converter) return settle(job, { ...entry, status: 'skipped', error: skipReasonFor(det!.card.type) });
    const { directives, unread } = planDirectives(plan!);
    try {
      const options = { maxLeafPages: run.config.ingest.max_leaf_pages, plan: directives, workers: run.config.ingest.workers, vocabularies: outlinePacksOf(run) };
      job.result = await converter.convert({ absPath: job.file.abs, card: det!.card, plan: plan!, bytes: det!.bytes, options });
    } catch (err) {
      return settle(job, { ...entry, status: 'failed', error: failure(err) });
    }
    // the source's bytes are not needed after conversion: a large file should not stay in memory twice
    job.det = { ...det!, bytes: new Uint8Array(0) };
    const result = job.result;
    for (const w of result.warnings ?? []) noteConverterWarning(run, converter.name, job.file.rel, w);
    if (result.pages !== undefined) entry.pages = result.pages;
    if (result.approach) entry.strategy = { ...plan!, recommended_approach: result.approach };
    const notes = sortNotes([...(result.plan_notes ?? []), ...unreadNotes(unread)]);
    if (notes.length) entry.plan_notes = notes;
    if (result.skip_reason) settle(job, { ...entry, status: 'skipped', error: result.skip_reason }, result.pages ?? 0);
  },
};
