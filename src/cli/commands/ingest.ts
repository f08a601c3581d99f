import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IngestReport } from '../../ingest/pipeline.js';
import { findStore } from '../../store/locate.js';
import { initStore } from '../../store/init.js';
import { EXIT } from '../../util/exit-codes.js';
import { globalOpts, printJson, eprint, runLog } from '../output.js';
import { makeProgress } from '../progress.js';

interface IngestFlags {
  json?: boolean;
  quiet?: boolean;
  llm?: string;
  maxCalls?: string;
  force?: boolean;
  followLinks?: boolean;
  shard?: string;
  plans?: string;
}

/**
 * The exit code of this run: 1 when a source failed in this run (added or changed, and failed);
 * a source that failed before and is unchanged does not fail the run again (`mhub status` lists it).
 */
export function ingestExitCode(r: IngestReport): number {
  return r.sources.some((s) => s.status === 'failed' && (s.action === 'added' || s.action === 'updated')) ? EXIT.SOME_FAILED : EXIT.OK;
}

export function formatSummary(r: IngestReport): string {
  const c = r.counts;
  const lines = [
    `Ingested into ${r.store} in ${r.seconds}s: ${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged, ${c.removed} removed.`,
    `Sources: ${c.indexed} indexed, ${c.skipped} skipped, ${c.failed} failed. Pages converted: ${r.pages} (${r.pages_per_second} pages/s). ${r.llm}`,
  ];
  for (const ix of r.indexes) lines.push(`Index ${ix.name}: ${ix.summary}`);
  for (const u of r.llm_usage) lines.push(u);
  const problems = r.sources.filter((s) => s.status !== 'indexed' && s.action !== 'removed' && s.action !== 'unchanged');
  for (const s of problems.slice(0, 20)) lines.push(`  ${s.status.toUpperCase()} ${s.file}: ${s.error ?? ''}`);
  if (problems.length > 20) lines.push(`  … ${problems.length - 20} more (see --json or catalog.json)`);
  const still = r.sources.filter((s) => s.status === 'failed' && s.action === 'unchanged').length;
  if (still > 0) lines.push(`  ${still} source(s) failed in an earlier run and are unchanged (\`mhub status\` lists them).`);
  const skipped = r.not_ingested ?? [];
  if (skipped.length > 0) lines.push(`Not ingested: ${skipped.length} path(s).`);
  for (const n of skipped.slice(0, 20)) lines.push(`  SKIPPED ${n.path}: ${n.reason}`);
  if (skipped.length > 20) lines.push(`  … ${skipped.length - 20} more (see --json)`);
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

/** Exit statuses after a signal (128 + its number), as shells report them. */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

/**
 * Ctrl-C and SIGTERM end the run at once: worker threads stop with the process, the 'exit' handler
 * releases the store lock, and the sources already written are in the run's journal, so the next
 * ingest redoes only the rest.
 */
function exitOnSignals(progress: { clear(): void }): () => void {
  const on = (code: number, name: string) => () => {
    progress.clear();
    eprint(`ingest interrupted (${name}): sources finished so far are kept; run mhub ingest again to finish.`);
    process.exit(code);
  };
  const int = on(EXIT_SIGINT, 'SIGINT');
  const term = on(EXIT_SIGTERM, 'SIGTERM');
  process.once('SIGINT', int);
  process.once('SIGTERM', term);
  return () => {
    process.off('SIGINT', int);
    process.off('SIGTERM', term);
  };
}

export function registerIngest(program: Command): void {
  program
    .command('ingest [paths...]')
    .description('convert, tree-index and embed the files under PATHS (default ./inbox) into the store')
    .option('--json', 'print a machine-readable summary on stdout')
    .option('--quiet', 'print nothing but errors')
    .option('--llm <provider>', 'auto | anthropic | claude-cli | none')
    .option('--max-calls <n>', 'upper bound on LLM calls for this run')
    .option('--force', 're-process every source even when unchanged')
    .option('--shard <i/N>', 'ingest only slice i of N (by a hash of each file\'s path) into a partial store; combine the partial stores with `mhub merge`')
    .option('--plans <file>', 'recorded plans (JSON, see docs/plan.md) replacing the planner\'s for the files they name; add --force to re-plan unchanged files')
    .option('--follow-links', 'also follow symbolic links whose target lies outside the ingested folder (default: config ingest.follow_external_links, off)')
    .addHelpText('after', '\nExit codes: 0 every source of this run indexed or skipped (sources that failed in an earlier run and are unchanged do not count), 1 some failed in this run (recorded in the catalog), 2 bad arguments, 3 store locked, 130/143 interrupted by Ctrl-C/SIGTERM (finished sources kept).')
    .action(async (paths: string[], flags: IngestFlags, cmd: Command) => {
      const g = globalOpts(cmd);
      const missing = paths.filter((p) => !existsSync(resolve(p)));
      if (missing.length > 0) {
        eprint(`mhub ingest: no such file or folder: ${missing.join(', ')} (nothing was ingested; check the path, or run from the folder that holds it)`);
        process.exitCode = EXIT.USAGE;
        return;
      }
      let root = findStore({ store: g.store });
      if (!root) root = initStore(process.cwd()).root;
      const list = paths.length > 0 ? paths : [resolve(root, 'inbox')];
      const progress = makeProgress(!flags.quiet && !flags.json && !!process.stderr.isTTY);
      // loaded here, not at start-up: the other commands (search, read, tree) never pay for ingest code
      const { ingest } = await import('../../ingest/pipeline.js');
      const shard = flags.shard !== undefined ? (await import('../../ingest/shard.js')).parseShard(flags.shard) : undefined;
      const restoreSignals = exitOnSignals(progress);
      const report = await ingest(root, {
        paths: list,
        llm: flags.llm,
        maxCalls: flags.maxCalls !== undefined ? Number(flags.maxCalls) : undefined,
        force: !!flags.force,
        ...(flags.plans ? { plans: resolve(flags.plans) } : {}),
        ...(flags.followLinks ? { followLinks: true } : {}),
        ...(shard ? { shard } : {}),
        onProgress: (ev) => progress.update(ev),
        log: runLog(flags.quiet, progress),
      });
      restoreSignals();
      progress.done();
      if (flags.json) printJson(report);
      else if (!flags.quiet) console.log(formatSummary(report));
      process.exitCode = ingestExitCode(report);
    });
}
