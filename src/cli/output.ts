/** Printing helpers shared by CLI commands: JSON to stdout, diagnostics to stderr, exit codes. */
import type { Command } from 'commander';
import { UserError, errorMessage } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

export function eprint(line: string): void {
  process.stderr.write(line + '\n');
}

/** Global options (e.g. --store) of the program a subcommand belongs to. */
export function globalOpts(cmd: Command): { store?: string } {
  let c: Command | null = cmd;
  while (c?.parent) c = c.parent;
  return (c?.opts() ?? {}) as { store?: string };
}

export function reportError(err: unknown, json: boolean): number {
  if (err instanceof UserError) {
    if (json) printJson({ error: { message: err.message, hint: err.hint, exit_code: err.exitCode } });
    else eprint(`mhub: ${err.message}${err.hint ? `\n  ${err.hint}` : ''}`);
    return err.exitCode;
  }
  if (json) printJson({ error: { message: errorMessage(err), exit_code: EXIT.INTERNAL } });
  else eprint(`mhub: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return EXIT.INTERNAL;
}

export async function runMain(program: Command): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    const json = process.argv.includes('--json');
    process.exitCode = reportError(err, json);
  }
}
