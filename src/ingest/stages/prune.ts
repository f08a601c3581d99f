/**
 * Prune stage: catalog sources this scan did not see are kept while their file exists elsewhere
 * (another path was ingested) and dropped, with their store files, once it is gone.
 */
import { sourceStillExists } from '../archive-members.js';
import { removeSourceFiles } from './write.js';
import type { RunStage } from './types.js';
import type { IngestRun } from '../run.js';
import type { CatalogEntry } from '../../store/schemas.js';

/** Drops a source from the store: its files, its stat-cache line; reported as removed. */
export function removeSource(run: IngestRun, prev: CatalogEntry): void {
  removeSourceFiles(run.root, prev.id);
  run.removed.add(prev.id);
  delete run.statCache.files[prev.original_path];
  run.reports.push({ id: prev.id, file: prev.original_path, type: prev.type, action: 'removed', status: prev.status });
}

export const pruneStage: RunStage = {
  name: 'prune',
  run(run) {
    const seen = new Set(run.next.keys());
    const scannedRels = new Set(run.files.map((f) => f.rel));
    for (const prev of run.previous) {
      if (seen.has(prev.id)) continue;
      if (sourceStillExists(run.root, prev.original_path, scannedRels, run.externalRoots)) {
        run.next.set(prev.id, prev);
        continue;
      }
      removeSource(run, prev);
    }
  },
};
