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

/** Tree files larger than this are not kept between builders (read again instead): a 100k-node tree parses to hundreds of MB. */
export const TREE_CACHE_FILE_BYTES = 8 << 20;
/** Tree file bytes kept in the cache at most (all the trees of a few hundred filings). */
export const TREE_CACHE_TOTAL_BYTES = 64 << 20;

/**
 * Loads a source's tree from the store; null when it has none or it is unreadable. Trees are kept
 * for the next builder up to TREE_CACHE_TOTAL_BYTES of files, a large one not at all, so the
 * index stage never holds a huge tree longer than the builder that reads it.
 */
function treeLoader(run: IngestRun): (id: string) => TreeFile | null {
  const cache = new Map<string, TreeFile | null>();
  let cachedBytes = 0;
  return (id) => {
    if (cache.has(id)) return cache.get(id)!;
    const e = run.next.get(id);
    let t: TreeFile | null = null;
    let size = 0;
    if (e?.tree_path) {
      try {
        const text = readFileSync(join(run.root, e.tree_path), 'utf8');
        size = text.length;
        t = TreeFile.parse(JSON.parse(text));
      } catch {
        t = null;
      }
    }
    if (size <= TREE_CACHE_FILE_BYTES && cachedBytes + size <= TREE_CACHE_TOTAL_BYTES) {
      cache.set(id, t);
      cachedBytes += size;
    }
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
