/** Scan stage: the files under the given paths (store folders and `ingest.exclude` left out), archives expanded into members. */
import { scanPaths } from '../scan.js';
import { expandArchives } from '../archive-members.js';
import type { RunStage } from './types.js';

export const scanStage: RunStage = {
  name: 'scan',
  async run(run) {
    const { files } = scanPaths(run.root, run.opts.paths, run.opts.cwd, run.config.ingest.exclude);
    run.files = await expandArchives(files);
  },
};
