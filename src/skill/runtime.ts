/**
 * Shared plumbing of the skill scripts: argument parsing (node:util, strict), finding the store,
 * bounded JSON/text output, JSON errors with documented exit codes. Never interactive.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { skillConfig, skillDir } from './boot.js';
import { findStore, isStoreDir } from '../store/locate.js';
import { UserError, errorMessage } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

export { EXIT };

export const EXIT_CODES_HELP = `Exit codes:
  0  success (also when nothing matched: see "verdict" / "results")
  2  bad arguments or input (the error says what was expected)
  4  not found: no store, no such source, node, page, row or line
  5  the store is unreadable or damaged (run: mhub doctor)
  70 unexpected internal error`;

export const COMMON_OPTIONS_HELP = `Common options:
  --store DIR      the MetadataHub store (default: config.json "store" next to this script,
                   then $MHUB_STORE, then the nearest folder above the current one with catalog.json)
  --text           human-readable output instead of JSON
  --max-chars N    upper bound on the characters of the answer
  --help           this help`;

export type Options = ParseArgsConfig['options'];

export const COMMON_OPTIONS = {
  store: { type: 'string' },
  text: { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'max-chars': { type: 'string' },
} as const;

export interface Parsed {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Parse argv strictly; unknown options become a usage error naming the expected form. */
export function parse(argv: string[], options: Options, usage: string): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
    return { values: values as Parsed['values'], positionals };
  } catch (err) {
    throw new UserError(errorMessage(err).replace(/\.$/, '') + '.', `Expected: ${usage} (see --help).`, EXIT.USAGE);
  }
}

/** A whole number option; throws a usage error naming the flag otherwise. */
export function intOption(values: Parsed['values'], name: string, fallback: number, min = 0): number {
  const v = values[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UserError(`--${name} must be a whole number >= ${min} (got "${String(v)}").`, `Expected e.g. --${name} ${Math.max(min, fallback)}.`, EXIT.USAGE);
  }
  return n;
}

export function strOption(values: Parsed['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** The store: --store, config.json next to the script (when it names a store), $MHUB_STORE, then the nearest store above cwd. */
export function locateStore(explicit: string | undefined): string {
  const pick = (dir: string, how: string): string => {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new UserError(`The store ${dir} (${how}) does not exist.`, 'Expected a folder made by `mhub init` / `mhub ingest`; fix --store, $MHUB_STORE or the skill\'s config.json.', EXIT.NOT_FOUND);
    }
    return dir;
  };
  if (explicit) return pick(resolve(explicit), '--store');
  if (skillConfig.store) {
    const dir = isAbsolute(skillConfig.store) ? skillConfig.store : resolve(skillDir, skillConfig.store);
    if (isStoreDir(dir)) return dir;
  }
  const env = process.env['MHUB_STORE'];
  if (env) return pick(resolve(env), '$MHUB_STORE');
  const found = findStore({ env: {} });
  if (found) return found;
  throw new UserError(
    'No MetadataHub store found.',
    `Expected --store DIR, $MHUB_STORE, a "store" path in ${resolve(skillDir, 'config.json')}, or a folder with catalog.json above ${process.cwd()}.`,
    EXIT.NOT_FOUND,
  );
}

export function writeOut(s: string): void {
  process.stdout.write(s.endsWith('\n') ? s : s + '\n');
}

/** Run a script's main; errors become `{"error": {...}}` on stdout (JSON mode) or a line on stderr, with the documented exit code. */
export async function runScript(main: (argv: string[]) => Promise<void>): Promise<void> {
  // A reader that stops early (e.g. `| head`) is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  // stdout carries only the answer: anything a library prints goes to stderr as a diagnostic.
  console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);
  const argv = process.argv.slice(2);
  const text = argv.includes('--text');
  try {
    await main(argv);
  } catch (err) {
    const user = err instanceof UserError;
    const code = user ? err.exitCode : EXIT.INTERNAL;
    const message = user ? err.message : `unexpected error: ${errorMessage(err)}`;
    const hint = user ? err.hint : 'Please report this with the command that caused it.';
    if (text) process.stderr.write(`error: ${message}${hint ? `\n  ${hint}` : ''}\n`);
    else writeOut(JSON.stringify({ error: { message, expected: hint, exit_code: code } }));
    if (!user && process.env['MHUB_DEBUG']) process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
    process.exitCode = code;
  }
}

/** JSON for agents: compact (one line) — no indentation saves context. */
export function emitJson(value: unknown): void {
  writeOut(JSON.stringify(value));
}
