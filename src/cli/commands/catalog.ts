import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { globalOpts, printJson } from '../output.js';

export function registerCatalog(program: Command): void {
  program
    .command('catalog')
    .description('the library overview: shelves (LLM shelves, or domains from tags, folders and types) and what each holds, in one screen')
    .option('--json', 'machine-readable output (every shelf with its source ids)')
    .action(async (flags: { json?: boolean }, cmd: Command) => {
      const root = requireStore({ store: globalOpts(cmd).store });
      const { libraryOverview, formatOverview } = await import('../../retrieve/library-overview.js');
      const o = libraryOverview(root);
      if (flags.json) printJson(o);
      else console.log(formatOverview(o));
    });
}
