/**
 * Scan stage: the files under the given paths (store folders and `ingest.exclude` left out; links
 * followed only inside the ingested folder), archives expanded into members, and a notice for
 * every path found but not ingested (../gather.ts).
 */
import { gatherSources } from '../gather.js';
import type { RunStage } from './types.js';

export const scanStage: RunStage = {
  name: 'scan',
  async run(run) {
    const g = await gatherSources(run.root, run.opts.paths, run.config, { cwd: run.opts.cwd, followLinks: run.opts.followLinks });
    run.files = g.files;
    run.notices = g.notices;
    run.externalRoots = g.externalRoots;
    const n = run.files.length;
    run.opts.onProgress?.({ phase: 'scan', done: n, total: n, file: '', pages: 0, elapsedMs: Date.now() - run.started });
  },
};
