/**
 * Shared plumbing of the skill scripts: argument parsing (node:util, strict), finding the store,
 * bounded JSON/text output, JSON errors with documented exit codes. Never interactive.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { skillConfig, skillDir } from './boot.js';
import { CATALOG_FILE } from '../store/layout.js';
import { UserError, errorMessage } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { errorBody } from '../util/error-json.js';

export { EXIT };

export const EXIT_CODES_HELP = `Exit codes:
  0  success (also when nothing matched: see "verdict" / "results")
  2  bad arguments or input (the error says what was expected)
  4  not found: no store, no such source, node, page, row or line
  5  the store is unreadable or damaged (run: mhub doctor)
  70 unexpected internal error`;

export const COMMON_OPTIONS_HELP = `Common options:
  --store DIR      the MetadataHub store (default: $MHUB_STORE, then the nearest folder at or
                   above the current one with catalog.json, then "store" in the config.json
                   next to this script); every answer names the store it used
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

/**
 * A value option given a value that starts with a dash (`--around "-X/--maxins"`, `--lines -5`
 * aside): the value is the next word, as it must be, unless that word is itself one of the options
 * (`--around --json` forgot its words). node:util's parseArgs refuses it as ambiguous; agents took
 * a call to learn to write `--around=-X`.
 */
export function joinDashValues(argv: string[], options: Options): string[] {
  const all = { ...COMMON_OPTIONS, ...options } as NonNullable<Options>;
  const flags = new Set(Object.entries(all).flatMap(([name, o]) => [`--${name}`, ...(o.short ? [`-${o.short}`] : [])]));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      // after "--" every word is a positional, as typed
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const name = a.startsWith('--') ? a.slice(2) : '';
    if (name && all[name]?.type === 'string' && next !== undefined && next.startsWith('-') && next !== '--' && !flags.has(next.split('=')[0]!)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** Parse argv strictly; unknown options become a usage error naming the expected form. */
export function parse(argv: string[], options: Options, usage: string): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: joinDashValues(argv, options), options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
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

/** How the store of this run was found (named in every answer). */
export type StoreSource = '--store' | '$MHUB_STORE' | 'current folder' | 'skill config.json';

let storeUsed: { path: string; found_by: StoreSource } | null = null;

/** The store this run answers from, once located. */
export function usedStore(): { path: string; found_by: StoreSource } | null {
  return storeUsed;
}

/** The nearest folder at or above `from` holding catalog.json (every store has one: `mhub init` writes it). */
function nearestStore(from: string): string | null {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, CATALOG_FILE))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * The store, in this order: --store DIR, $MHUB_STORE, the nearest folder at or above the current
 * one holding catalog.json, then the `store` of config.json next to the script (written by
 * `mhub skill install`). An explicit choice (--store, $MHUB_STORE) that is not a store is an error,
 * never silently replaced by another store.
 */
export function locateStore(explicit: string | undefined): string {
  const use = (dir: string, how: StoreSource): string => {
    storeUsed = { path: dir, found_by: how };
    return dir;
  };
  const pick = (dir: string, how: StoreSource): string => {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new UserError(`The store ${dir} (${how}) does not exist.`, 'Expected a folder made by `mhub init` / `mhub ingest`; fix --store, $MHUB_STORE or the skill\'s config.json.', EXIT.NOT_FOUND);
    }
    if (!existsSync(join(dir, CATALOG_FILE))) {
      throw new UserError(`${dir} (${how}) is not a MetadataHub store: it has no ${CATALOG_FILE}.`, 'Expected a folder made by `mhub init` / `mhub ingest`; fix --store, $MHUB_STORE or the skill\'s config.json.', EXIT.NOT_FOUND);
    }
    return use(dir, how);
  };
  if (explicit) return pick(resolve(explicit), '--store');
  const env = process.env['MHUB_STORE'];
  if (env) return pick(resolve(env), '$MHUB_STORE');
  const near = nearestStore(process.cwd());
  if (near) return use(near, 'current folder');
  if (skillConfig.store) return pick(isAbsolute(skillConfig.store) ? skillConfig.store : resolve(skillDir, skillConfig.store), 'skill config.json');
  throw new UserError(
    'No MetadataHub store found.',
    `Expected --store DIR, $MHUB_STORE, a folder with ${CATALOG_FILE} at or above ${process.cwd()}, or a "store" path in ${resolve(skillDir, 'config.json')}.`,
    EXIT.NOT_FOUND,
  );
}

function writeLine(s: string): void {
  process.stdout.write(s.endsWith('\n') ? s : s + '\n');
}

/** Text for people; once a store is located, a last line names it. */
export function writeOut(s: string): void {
  writeLine(storeUsed ? `${s.replace(/\n$/, '')}\nstore: ${storeUsed.path} (found by ${storeUsed.found_by})` : s);
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
    const body = errorBody(err, storeUsed?.path);
    if (text) process.stderr.write(`error: ${body.message}${body.hint ? `\n  ${body.hint}` : ''}${body.store ? `\n  store: ${body.store}` : ''}\n`);
    else writeLine(JSON.stringify({ error: body }));
    if (!user && process.env['MHUB_DEBUG']) process.stderr.write(`${(err as Error)?.stack ?? errorMessage(err)}\n`);
    process.exitCode = body.exit_code;
  }
}

/** JSON for agents: compact (one line) — no indentation saves context. */
export function emitJson(value: unknown): void {
  const named = storeUsed && value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object), store: storeUsed.path, store_found_by: storeUsed.found_by } : value;
  writeLine(JSON.stringify(named));
}
