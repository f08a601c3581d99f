/** Printing helpers shared by CLI commands: JSON to stdout, diagnostics to stderr, exit codes. */
import type { Command } from 'commander';
import { UserError } from '../store/errors.js';
import { errorBody } from '../util/error-json.js';

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function eprint(line: string): void {
  process.stderr.write(line + '\n');
}

/** The log of a long-running command: nothing under --quiet, else a line on stderr below a cleared progress bar. */
export function runLog(quiet: boolean | undefined, progress: { clear(): void }): (line: string) => void {
  if (quiet) return () => {};
  return (line) => {
    progress.clear();
    eprint(line);
  };
}

/** Global options (e.g. --store) of the program a subcommand belongs to. */
export function globalOpts(cmd: Command): { store?: string } {
  let c: Command | null = cmd;
  while (c?.parent) c = c.parent;
  return (c?.opts() ?? {}) as { store?: string };
}

/** Print an error (JSON shape shared with the skill scripts: ../util/error-json.ts) and return its exit code. */
export function reportError(err: unknown, json: boolean): number {
  const body = errorBody(err);
  if (json) printJson({ error: body });
  else if (err instanceof UserError) eprint(`mhub: ${body.message}${body.hint ? `\n  ${body.hint}` : ''}`);
  else eprint(`mhub: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return body.exit_code;
}

export async function runMain(program: Command): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    const json = process.argv.includes('--json');
    process.exitCode = reportError(err, json);
  }
}
