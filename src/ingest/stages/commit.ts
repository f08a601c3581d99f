/** Commit stage: the catalog is written last (it points to everything written before), then the stat cache; the run's journal goes. */
import { writeCatalog } from '../../store/catalog.js';
import { writeStatCache } from '../stat-cache.js';
import { clearJournal } from '../journal.js';
import type { RunStage } from './types.js';

export const commitStage: RunStage = {
  name: 'commit',
  run(run) {
    writeCatalog(run.root, run.entries);
    writeStatCache(run.root, run.statCache);
    clearJournal(run.root);
  },
};
