/**
 * Index stage: curators (LLM tags and links) may rewrite the entries' metadata, then every index
 * builder (keyword, vectors) updates its index from the entries and the trees of changed sources.
 * A failing curator or builder is reported as a warning; the run goes on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TreeFile } from '../../store/schemas.js';
import { compareStrings } from '../../store/json.js';
import { errorMessage } from '../../store/errors.js';
import type { IngestRun } from '../run.js';
import type { RunStage } from './types.js';

async function curate(run: IngestRun): Promise<void> {
  for (const c of run.stages.curators) {
    try {
      run.entries = await c.curate(run.entries, run.log);
    } catch (err) {
      run.warnings.push(`curation (${c.name}) failed: ${errorMessage(err)}; offline tags kept`);
    }
  }
}

/** Loads a source's tree from the store once per run; null when it has none or it is unreadable. */
function treeLoader(run: IngestRun): (id: string) => TreeFile | null {
  const cache = new Map<string, TreeFile | null>();
  return (id) => {
    if (cache.has(id)) return cache.get(id)!;
    const e = run.next.get(id);
    let t: TreeFile | null = null;
    if (e?.tree_path) {
      try {
        t = TreeFile.parse(JSON.parse(readFileSync(join(run.root, e.tree_path), 'utf8')));
      } catch {
        t = null;
      }
    }
    cache.set(id, t);
    return t;
  };
}

export const indexStage: RunStage = {
  name: 'index',
  async run(run) {
    run.entries = [...run.next.values()].sort((a, b) => compareStrings(a.id, b.id));
    await curate(run);
    const loadTree = treeLoader(run);
    const { root, config, entries, changed, removed, log } = run;
    for (const b of run.stages.indexBuilders) {
      const t0 = Date.now();
      const progress = (phase: 'embed' | 'index', done: number, total: number, what: string) =>
        run.opts.onProgress?.({ phase, done, total, file: what, pages: run.pages, elapsedMs: Date.now() - run.started, phaseElapsedMs: Date.now() - t0 });
      try {
        run.indexes.push(await b.build({ root, config, entries, changed, removed, loadTree, log, progress }));
      } catch (err) {
        run.warnings.push(`index ${b.name} not rebuilt: ${errorMessage(err)}`);
      }
    }
    for (const ix of run.indexes) run.warnings.push(...(ix.warnings ?? []));
  },
};
