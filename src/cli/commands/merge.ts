import type { Command } from 'commander';
import type { MergeReport } from '../../ingest/merge.js';
import { findStore } from '../../store/locate.js';
import { initStore } from '../../store/init.js';
import { globalOpts, printJson, runLog } from '../output.js';
import { makeProgress } from '../progress.js';
import { ingestExitCode } from './ingest.js';

interface MergeFlags {
  json?: boolean;
  quiet?: boolean;
  llm?: string;
  maxCalls?: string;
}

export function formatMerge(r: MergeReport): string {
  const c = r.counts;
  const shards = r.partials.map((p) => p.shard ?? 'unsharded').join(', ');
  const lines = [
    `Merged ${r.partials.length} partial store(s) (${shards}${r.complete ? ', every shard' : ''}) into ${r.store} in ${r.seconds}s: ${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged, ${c.removed} removed.`,
    `Sources: ${c.indexed} indexed, ${c.skipped} skipped, ${c.failed} failed.`,
  ];
  for (const ix of r.indexes) lines.push(`Index ${ix.name}: ${ix.summary}`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function registerMerge(program: Command): void {
  program
    .command('merge <partials...>')
    .description('combine partial stores made by `mhub ingest --shard i/N` into this store (catalog, trees, converted files; indexes rebuilt without re-embedding)')
    .option('--json', 'print a machine-readable summary on stdout')
    .option('--quiet', 'print nothing but errors')
    .option('--llm <provider>', 'for LLM curation of the merged catalog, as in ingest: auto | anthropic | claude-cli | none')
    .option('--max-calls <n>', 'upper bound on LLM calls for this run')
    .addHelpText('after', [
      '',
      'Fan-out: run `mhub ingest --shard i/N --store /tmp/part-i PATHS` for i = 1..N (any machines, same config.json,',
      'same PATHS), then `mhub merge /tmp/part-*` here. The result is byte-identical to one `mhub ingest PATHS`.',
      'Given every shard 1..N, sources of this store that none holds are removed; given some, they are kept.',
      'Exit codes: 0 merged, 1 some merged sources failed when ingested, 2 bad arguments (overlapping shards, different',
      'configs or embedding models), 3 this store or a partial store is locked, 4 not a store, 5 a partial store is unhealthy.',
    ].join('\n'))
    .action(async (partials: string[], flags: MergeFlags, cmd: Command) => {
      const g = globalOpts(cmd);
      // found or created as ingest does, so a merged store has the same files as one ingested in one go
      let root = findStore({ store: g.store });
      if (!root) root = initStore(process.cwd()).root;
      const progress = makeProgress(!flags.quiet && !flags.json && !!process.stderr.isTTY);
      // loaded here: the other commands never pay for ingest code
      const { mergeStores } = await import('../../ingest/merge.js');
      const report = await mergeStores(root, {
        partials,
        llm: flags.llm,
        maxCalls: flags.maxCalls !== undefined ? Number(flags.maxCalls) : undefined,
        onProgress: (ev) => progress.update(ev),
        log: runLog(flags.quiet, progress),
      });
      progress.done();
      if (flags.json) printJson(report);
      else if (!flags.quiet) console.log(formatMerge(report));
      process.exitCode = ingestExitCode(report);
    });
}
