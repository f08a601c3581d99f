/**
 * Index stage: curators (LLM tags and links) may rewrite the entries' metadata, then every index
 * builder (keyword, vectors) updates its index from the entries and the trees of changed sources.
 * A failing curator or builder is reported as a warning; the run goes on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TreeFile } from '../../store/schemas.js';
import { normalizeCatalog } from '../../store/catalog.js';
import { errorMessage } from '../../store/errors.js';
import type { IngestRun } from '../run.js';
import { indexStamp, readIndexStamp, writeIndexStamp } from '../index-stamp.js';
import type { RunStage } from './types.js';
import { noteFallback } from '../fallbacks.js';

async function curate(run: IngestRun): Promise<void> {
  for (const c of run.stages.curators) {
    try {
      run.entries = normalizeCatalog(await c.curate(run.entries, run.log, (file, reason) => noteFallback(run, `curation (${c.name})`, file, new Error(reason)))).sources;
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

/** Each builder's name and what else its output depends on (the embedding model's identity, …). */
function builderKeys(run: IngestRun): Promise<string[]> {
  return Promise.all(run.stages.indexBuilders.map(async (b) => `${b.name}:${b.stampKey ? await b.stampKey(run.root, run.config) : ''}`));
}

/** True when no source changed and the indexes' inputs and outputs are as the last build left them. */
async function indexesCurrent(run: IngestRun): Promise<boolean> {
  if (run.opts.force || run.changed.size > 0 || run.removed.size > 0) return false;
  const previous = readIndexStamp(run.root);
  if (!previous) return false;
  return previous === indexStamp(run.root, run.config, run.entries, await builderKeys(run));
}

export const indexStage: RunStage = {
  name: 'index',
  async run(run) {
    // normalized once here: the index stamp hashes them as the catalog will store them
    run.entries = normalizeCatalog([...run.next.values()]).sources;
    if (await indexesCurrent(run)) {
      for (const b of run.stages.indexBuilders) run.indexes.push({ name: b.name, summary: 'up to date (no source changed since it was built)' });
      return;
    }
    await curate(run);
    const loadTree = treeLoader(run);
    const { root, config, entries, changed, removed, log } = run;
    for (const b of run.stages.indexBuilders) {
      const t0 = Date.now();
      const progress = (phase: 'embed' | 'index', done: number, total: number, what: string) =>
        run.opts.onProgress?.({ phase, done, total, file: what, pages: run.pages, elapsedMs: Date.now() - run.started, phaseElapsedMs: Date.now() - t0 });
      try {
        run.indexes.push(await b.build({ root, config, entries, changed, removed, loadTree, log, progress, ...(run.donors ? { donors: run.donors } : {}) }));
      } catch (err) {
        run.warnings.push(`index ${b.name} not rebuilt: ${errorMessage(err)}`);
      }
    }
    for (const ix of run.indexes) run.warnings.push(...(ix.warnings ?? []));
    if (run.indexes.length === run.stages.indexBuilders.length && run.warnings.length === 0) {
      writeIndexStamp(run.root, indexStamp(run.root, run.config, run.entries, await builderKeys(run)));
    }
  },
};
