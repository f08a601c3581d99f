import type { Command } from 'commander';
import { resolve } from 'node:path';
import { requireStore } from '../../store/locate.js';
import { UserError } from '../../store/errors.js';
import { EXIT } from '../../util/exit-codes.js';
import type { EvalReport } from '../../admin/eval.js';
import { globalOpts, printJson } from '../output.js';

interface EvalFlags {
  k?: string;
  json?: boolean;
  explain?: boolean;
  mode?: string;
  baseline?: boolean;
}

export function registerEval(program: Command): void {
  program
    .command('eval <questions>')
    .description('measure retrieval on a JSON Lines question set: tier-1 hit@1/hit@k/MRR, tier-2 hit@1/hit@3, and each miss')
    .option('-k <n>', 'sources returned per question (tier-1 hit@k)', '5')
    .option('--mode <mode>', 'auto | keyword | hybrid | vector', 'auto')
    .option('--baseline', 'also run the BM25-over-512-token-chunks baseline for comparison')
    .option('--explain', 'list every question with what came back, not only the misses')
    .option('--json', 'machine-readable output')
    .addHelpText('after', '\nQuestion format (one JSON object a line): {"id", "query", "expected": [{"file": "name.pdf", "pages": [60]}]}')
    .action(async (file: string, flags: EvalFlags, cmd: Command) => {
      const root = requireStore({ store: globalOpts(cmd).store });
      const k = Number(flags.k ?? 5);
      if (!Number.isInteger(k) || k <= 0) throw new UserError(`-k must be a positive integer (got ${flags.k})`, 'Example: -k 5', EXIT.USAGE);
      const mode = flags.mode ?? 'auto';
      if (!['auto', 'keyword', 'hybrid', 'vector'].includes(mode)) throw new UserError(`--mode must be auto, keyword, hybrid or vector (got ${mode})`, '', EXIT.USAGE);
      const { readQuestions } = await import('../../admin/questions.js');
      const { evaluate, formatEval } = await import('../../admin/eval.js');
      const questions = readQuestions(resolve(file));
      const { mhubRetriever } = await import('../../admin/retrievers.js');
      const reports: EvalReport[] = [await evaluate(root, questions, mhubRetriever(root, mode as 'auto'), k)];
      if (flags.baseline) {
        const { chunkBaseline } = await import('../../admin/baseline.js');
        reports.push(await evaluate(root, questions, chunkBaseline(root), k));
      }
      if (flags.json) {
        printJson(reports);
        return;
      }
      const { titleFigures, formatTitleFigures } = await import('../../admin/titles.js');
      const { readCatalog } = await import('../../store/catalog.js');
      console.log(formatEval(reports, !!flags.explain));
      console.log(formatTitleFigures(titleFigures(readCatalog(root).sources)));
    });
}
