import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { globalOpts, printJson } from '../output.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('sources by status and type, last ingest, and files new/changed/removed since then')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExit codes: 0 always when the store is readable (pending work is not an error); 4 no store.')
    .action(async (flags: { json?: boolean }, cmd: Command) => {
      const root = requireStore({ store: globalOpts(cmd).store });
      const { storeStatus, formatStatus } = await import('../../admin/status.js');
      const r = storeStatus(root);
      if (flags.json) printJson(r);
      else console.log(formatStatus(r));
    });
}
