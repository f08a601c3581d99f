/** Commands beyond init/ingest register here (one file per command). */
import type { Command } from 'commander';
import { registerSearch } from './search.js';
import { registerAuth } from './auth.js';
import { registerStatus } from './status.js';
import { registerDoctor } from './doctor.js';
import { registerList } from './list.js';
import { registerCatalog } from './catalog.js';
import { registerEval } from './eval.js';
import { registerTree } from './tree.js';
import { registerRead } from './read.js';
import { registerSkill } from './skill.js';
import { registerMerge } from './merge.js';

export function registerAll(program: Command): void {
  registerSearch(program);
  registerAuth(program);
  registerStatus(program);
  registerDoctor(program);
  registerList(program);
  registerCatalog(program);
  registerEval(program);
  registerTree(program);
  registerRead(program);
  registerSkill(program);
  registerMerge(program);
  // search, tree, read, status, doctor, list, catalog, eval, auth, skill, merge: added by their modules
}
