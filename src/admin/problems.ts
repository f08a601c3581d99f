/** The doctor's vocabulary: one problem = what is wrong, where, how to fix it, and the repair `--fix` runs. */

export type Severity = 'error' | 'warning';

export type Repair =
  /** convert this source again (ingest its path with force) */
  | { kind: 'reingest'; id: string; path: string }
  /** its file is gone: drop the entry and its files */
  | { kind: 'drop'; id: string }
  /** delete this store-relative file or folder */
  | { kind: 'remove'; path: string }
  /** delete the stale ingest lock */
  | { kind: 'unlock' }
  /** rebuild the store-wide indexes (keyword, vectors) from the trees and cards */
  | { kind: 'reindex' }
  /** rewrite lookup/ from catalog.json */
  | { kind: 'lookup' };

export interface Problem {
  code: string;
  severity: Severity;
  /** source id or store-relative path the problem is about */
  subject: string;
  message: string;
  /** what to do, in words (the command `--fix` would run, or the manual step) */
  fix: string;
  /** what `doctor --fix` does about it; null when it needs a person */
  repair: Repair | null;
}

export function problem(code: string, severity: Severity, subject: string, message: string, fix: string, repair: Repair | null): Problem {
  return { code, severity, subject, message, fix, repair };
}

export const REINGEST_FIX = 'run `mhub doctor --fix` (re-ingests only this source)';

/** Items named in one message before "… and N more". */
export const MAX_NAMED = 3;

/** "a, b, c and 4 more" */
export function namedList(items: string[], max = MAX_NAMED): string {
  return items.slice(0, max).join(', ') + (items.length > max ? ` and ${items.length - max} more` : '');
}
