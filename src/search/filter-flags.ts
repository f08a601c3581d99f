/**
 * The one parser of filter flags (`mhub search`, `mhub list` and the skill's search.js): raw flag
 * values → SearchFilters, or a UserError naming the flag and the expected form. List flags (type,
 * tag, all-tags) accept repeats and comma-separated values; --meta key=value is repeatable.
 */
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { checkDateBound } from './filters.js';
import type { SearchFilters } from './types.js';

/** Filter flags as given on a command line (names as in the CLI, camel-cased). */
export interface FilterFlags {
  type?: string[] | string;
  tag?: string[] | string;
  allTags?: string[] | string;
  since?: string;
  until?: string;
  indexedSince?: string;
  indexedUntil?: string;
  path?: string;
  meta?: string[] | string;
}

/** Repeated and comma-separated values, trimmed, empties dropped. */
export function listValues(v: string[] | string | undefined): string[] {
  const arr = Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
  return arr.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

function dateBounds(f: FilterFlags): void {
  const bounds = [['--since', f.since], ['--until', f.until], ['--indexed-since', f.indexedSince], ['--indexed-until', f.indexedUntil]] as const;
  for (const [name, v] of bounds) {
    try {
      checkDateBound(name, v);
    } catch (err) {
      throw new UserError((err as Error).message, 'Expected a date like 2019, 2019-06 or 2019-06-30, e.g. --since 2018 --until 2019-06.', EXIT.USAGE);
    }
  }
}

function metaPairs(values: string[]): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const kv of values) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new UserError(`--meta expects key=value (got "${kv}").`, 'Expected e.g. --meta company=3M.', EXIT.USAGE);
    meta[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
  }
  return meta;
}

/** Filter flags → SearchFilters (only the filters given). */
export function parseFilterFlags(f: FilterFlags): SearchFilters {
  dateBounds(f);
  const out: SearchFilters = {};
  const types = listValues(f.type);
  if (types.length) out.types = types;
  const any = listValues(f.tag);
  if (any.length) out.tagsAny = any;
  const all = listValues(f.allTags);
  if (all.length) out.tagsAll = all;
  if (f.since) out.since = f.since;
  if (f.until) out.until = f.until;
  if (f.indexedSince) out.indexedSince = f.indexedSince;
  if (f.indexedUntil) out.indexedUntil = f.indexedUntil;
  if (f.path) out.pathGlob = f.path;
  // meta values may hold commas: only repeats separate them
  const meta = metaPairs((Array.isArray(f.meta) ? f.meta : f.meta ? [f.meta] : []).filter((s) => s.trim()));
  if (Object.keys(meta).length) out.meta = meta;
  return out;
}
