import { realpathSync, existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UserError } from './errors.js';
import { EXIT } from '../util/exit-codes.js';

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Resolve a store-relative path and refuse anything that lands outside the store: `..`, absolute
 * paths, and symlinks whose target leaves the store.
 */
export function resolveInStore(root: string, relPath: string): string {
  if (typeof relPath !== 'string' || relPath === '' || relPath.includes('\0')) {
    throw new UserError(`Invalid store path ${JSON.stringify(relPath)}.`, 'Expected a path relative to the store, e.g. converted/src_1234abcd/0001.md.', EXIT.USAGE);
  }
  if (isAbsolute(relPath) || /^[a-zA-Z]:[\\/]/.test(relPath)) {
    throw new UserError(`Refusing absolute path ${relPath}.`, 'Expected a path relative to the store.', EXIT.USAGE);
  }
  const realRoot = realpathSync(root);
  const abs = resolve(realRoot, relPath);
  if (!inside(realRoot, abs)) {
    throw new UserError(`Refusing path ${relPath}: it leaves the store.`, 'Expected a path inside the store.', EXIT.USAGE);
  }
  if (existsSync(abs)) {
    const real = realpathSync(abs);
    if (!inside(realRoot, real)) {
      throw new UserError(`Refusing path ${relPath}: it is a link to a file outside the store.`, 'Expected a path inside the store.', EXIT.USAGE);
    }
    return real;
  }
  return abs;
}
