/**
 * Recorded plans (`mhub ingest --plans FILE`): plans written beforehand, one per document, that
 * replace the planner's for the sources they name, so a run can be replayed with the same plans or
 * a document ingested as its owner decided. The file is JSON: `{ "plans": { "<path>": {…} } }`,
 * where <path> is the source's path as the catalog records it, a trailing part of it, or its file
 * name; each plan holds Strategy fields (recommended_approach at least; the rest default to the
 * offline plan's). Sources not named are planned as usual. See docs/plan.md.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { Strategy } from '../../store/schemas.js';
import { UserError } from '../../store/errors.js';
import type { Planner } from '../../model/stages.js';

const RecordedPlan = Strategy.partial().required({ recommended_approach: true });
const PlansFile = z.object({ plans: z.record(RecordedPlan) });

export type RecordedPlans = Map<string, z.infer<typeof RecordedPlan>>;

export function loadRecordedPlans(path: string): RecordedPlans {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(`Cannot read the plans file ${path}: ${(err as Error).message}.`, 'Give a JSON file: { "plans": { "<file path or name>": { "recommended_approach": "tree_index", … } } }');
  }
  const parsed = PlansFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UserError(`The plans file ${path} is not valid at ${issue.path.join('.') || '(top)'}: ${issue.message}.`, 'Each plan needs recommended_approach (tree_index, schema_index, symbol_index, chunk_embed or ocr); see docs/plan.md.');
  }
  return new Map(Object.entries(parsed.data.plans));
}

/** The recorded plan for a source path: exact path, then the longest trailing part, then the file name. */
export function recordedPlanFor(plans: RecordedPlans, originalPath: string): z.infer<typeof RecordedPlan> | null {
  const exact = plans.get(originalPath);
  if (exact) return exact;
  let best: string | null = null;
  for (const key of plans.keys()) {
    if (originalPath.endsWith(`/${key}`) && (!best || key.length > best.length)) best = key;
  }
  if (best) return plans.get(best)!;
  return plans.get(basename(originalPath)) ?? null;
}

/** A planner answering from recorded plans, and asking `inner` for the sources they do not name. */
export function recordedPlanner(plans: RecordedPlans, file: string, inner: Planner): Planner {
  const label = `recorded:${basename(file)}`;
  return {
    name: `${label}+${inner.name}`,
    async plan(sample, offline) {
      const rec = recordedPlanFor(plans, sample.card.original_path);
      if (!rec) return inner.plan(sample, offline);
      return Strategy.parse({ ...offline, ...rec, planner: label });
    },
  };
}
