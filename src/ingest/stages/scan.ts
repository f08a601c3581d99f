/**
 * Scan stage: the files under the given paths (store folders and `ingest.exclude` left out; links
 * followed only inside the ingested folder), archives expanded into members, and a notice for
 * every path found but not ingested (../gather.ts). With `--shard i/N`, only that slice (../shard.ts).
 */
import { gatherSources } from '../gather.js';
import { inShard } from '../shard.js';
import type { RunStage } from './types.js';

export const scanStage: RunStage = {
  name: 'scan',
  async run(run) {
    const shard = run.opts.shard;
    const keep = shard ? (rel: string) => inShard(rel, shard) : undefined;
    const g = await gatherSources(run.root, run.opts.paths, run.config, { cwd: run.opts.cwd, followLinks: run.opts.followLinks, keep });
    run.files = g.files;
    run.notices = g.notices;
    run.externalRoots = g.externalRoots;
    const n = run.files.length;
    run.opts.onProgress?.({ phase: 'scan', done: n, total: n, file: '', pages: 0, elapsedMs: Date.now() - run.started });
  },
};
