import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { EXIT } from '../../util/exit-codes.js';
import { eprint, globalOpts, printJson } from '../output.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('audit the store (trees, converted files, indexes, vectors, hashes, schemas, lock); --fix repairs what is broken')
    .option('--fix', 'repair: re-ingest only the affected sources, remove orphans and stale locks, rebuild broken indexes')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nExit codes: 0 healthy (warnings allowed), 5 unhealthy (after --fix: still unhealthy), 4 no store.\nAs a git pre-commit hook: see docs/doctor.md.')
    .action(async (flags: { fix?: boolean; json?: boolean }, cmd: Command) => {
      const root = requireStore({ store: globalOpts(cmd).store });
      const { doctor, formatDoctor } = await import('../../admin/doctor.js');
      if (flags.fix) {
        const { doctorFix, formatFix } = await import('../../admin/doctor-fix.js');
        const r = await doctorFix(root, flags.json ? () => {} : (m) => eprint(m));
        if (flags.json) printJson(r);
        else {
          if (!r.before.healthy || r.before.problems.length) console.log(formatDoctor(r.before), '\n');
          console.log(formatFix(r));
          console.log(`\nAfter repair:\n${formatDoctor(r.after)}`);
        }
        process.exitCode = r.after.healthy ? EXIT.OK : EXIT.UNHEALTHY;
        return;
      }
      const r = await doctor(root);
      if (flags.json) printJson(r);
      else console.log(formatDoctor(r));
      process.exitCode = r.healthy ? EXIT.OK : EXIT.UNHEALTHY;
    });
}
