import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CATALOG_FILE, CONFIG_FILE } from './layout.js';
import { UserError } from './errors.js';
import { EXIT } from '../util/exit-codes.js';

export interface LocateOptions {
  /** explicit --store DIR */
  store?: string | undefined;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/** True when DIR holds a store (a catalog.json or config.json). */
export function isStoreDir(dir: string): boolean {
  return existsSync(join(dir, CATALOG_FILE)) || existsSync(join(dir, CONFIG_FILE));
}

/**
 * The store root: --store DIR, else $MHUB_STORE, else the nearest folder at or above cwd holding
 * catalog.json or config.json (like git). Returns null when none is found.
 */
export function findStore(opts: LocateOptions = {}): string | null {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const explicit = opts.store ?? env['MHUB_STORE'];
  if (explicit) return resolve(cwd, explicit);
  let dir = resolve(cwd);
  for (;;) {
    if (isStoreDir(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Like findStore but throws a UserError saying how to create one. */
export function requireStore(opts: LocateOptions = {}): string {
  const root = findStore(opts);
  if (!root) {
    throw new UserError(
      'No MetadataHub store found here or in any parent folder.',
      'Run `mhub init` to create one, or pass --store DIR / set MHUB_STORE.',
      EXIT.NOT_FOUND,
    );
  }
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new UserError(`Store folder ${root} does not exist.`, 'Run `mhub init DIR` first.', EXIT.NOT_FOUND);
  }
  return root;
}
