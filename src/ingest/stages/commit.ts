/**
 * Commit stage: lookup/ and the catalog are written last (they point to everything written before),
 * then the local stat cache and freshness stamps; the run's journal goes.
 */
import { writeCatalog } from '../../store/catalog.js';
import { readManifest } from '../../store/lookup.js';
import { writeFreshnessStamps } from '../../store/freshness-stamps.js';
import { writeStatCache } from '../stat-cache.js';
import { clearJournal } from '../journal.js';
import type { RunStage } from './types.js';

export const commitStage: RunStage = {
  name: 'commit',
  run(run) {
    writeCatalog(run.root, run.entries);
    writeStatCache(run.root, run.statCache);
    const sha = readManifest(run.root)?.catalog_sha256;
    if (sha) writeFreshnessStamps(run.root, run.entries, run.statCache.files, run.config.inbox, sha);
    clearJournal(run.root);
  },
};
