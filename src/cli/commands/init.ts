import type { Command } from 'commander';
import { initStore } from '../../store/init.js';
import { printJson } from '../output.js';

export function registerInit(program: Command): void {
  program
    .command('init [dir]')
    .description('create an empty store (folders, config.json with defaults, .gitignore)')
    .option('--json', 'machine-readable output')
    .action((dir: string | undefined, opts: { json?: boolean }) => {
      const r = initStore(dir ?? '.');
      if (opts.json) return printJson(r);
      if (r.created.length === 0) console.log(`Store at ${r.root} already initialised; nothing to do.`);
      else console.log(`${r.existed ? 'Completed' : 'Created'} store at ${r.root}: ${r.created.join(', ')}`);
    });
}
