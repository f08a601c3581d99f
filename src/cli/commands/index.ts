/** Commands beyond init/ingest register here (one file per command). */
import type { Command } from 'commander';

export function registerAll(_program: Command): void {
  // search, tree, read, status, doctor, list, catalog, eval, auth, skill: added by their modules
}
