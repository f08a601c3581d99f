/** Find a source in the catalog by what an agent or a person is likely to type: id, file name or path. */
import type { CatalogEntry } from '../store/schemas.js';
import type { SourceLookup, SourceRow } from '../store/lookup.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { compareStrings } from '../store/json.js';

/** Shortest id prefix accepted (after `src_`). */
export const MIN_ID_PREFIX = 4;
/** Shortest fragment of a path accepted as a unique substring match. */
export const MIN_SUBSTRING = 3;
/** Candidates named in an ambiguity or not-found error. */
export const MAX_CANDIDATES = 8;

function stem(name: string): string {
  const i = name.lastIndexOf('.');
  return i > 0 ? name.slice(0, i) : name;
}

function describe(list: SourceRow[]): string {
  return list
    .slice(0, MAX_CANDIDATES)
    .map((e) => `${e.id} (${e.original_path})`)
    .join(', ') + (list.length > MAX_CANDIDATES ? `, … ${list.length - MAX_CANDIDATES} more` : '');
}

/**
 * The catalog entry for `ref`, tried in this order: exact id, id without `src_`, unique id prefix,
 * exact store path, path suffix, file name, file name without extension, file name prefix, then a
 * unique substring of the path (all case-insensitive except ids). Ambiguous or unknown references throw a UserError that lists candidates.
 * An exact id reads one entries file of lookup/; anything else reads the sources' rows (lookup/sources.tsv).
 */
export function resolveSource(lookup: SourceLookup, ref: string): CatalogEntry {
  const q = (ref ?? '').trim();
  if (!q) throw new UserError('No source given.', 'Expected a source id (src_…) or a file name, e.g. from search results.', EXIT.USAGE);
  const byId = lookup.entry(q) ?? lookup.entry(`src_${q}`);
  if (byId) return byId;
  const all = lookup.rows();
  const full = (row: SourceRow): CatalogEntry => {
    const e = lookup.entry(row.id);
    if (!e) throw new UserError(`Source ${row.id} is listed in lookup/sources.tsv but not in its entries file.`, 'Run `mhub doctor --fix` (or `mhub ingest`) to rebuild lookup/.', EXIT.UNHEALTHY);
    return e;
  };
  const lower = q.toLowerCase().replace(/\\/g, '/');
  const steps: Array<(e: SourceRow) => boolean> = [
    (e) => /^(src_)?[0-9a-f]+$/.test(lower) && lower.replace(/^src_/, '').length >= MIN_ID_PREFIX && e.id.startsWith(lower.startsWith('src_') ? lower : `src_${lower}`),
    (e) => e.original_path.toLowerCase() === lower,
    (e) => e.original_path.toLowerCase().endsWith(`/${lower}`),
    (e) => e.filename.toLowerCase() === lower,
    (e) => stem(e.filename).toLowerCase() === lower,
    (e) => e.filename.toLowerCase().startsWith(lower),
    (e) => lower.length >= MIN_SUBSTRING && e.original_path.toLowerCase().includes(lower),
  ];
  for (const test of steps) {
    const hits = all.filter(test);
    if (hits.length === 1) return full(hits[0]!);
    if (hits.length > 1) {
      hits.sort((a, b) => compareStrings(a.original_path, b.original_path));
      throw new UserError(`"${q}" matches ${hits.length} sources: ${describe(hits)}.`, 'Expected one source: pass its id (src_…) instead.', EXIT.USAGE);
    }
  }
  const near = all.filter((e) => e.original_path.toLowerCase().includes(lower) || e.title.toLowerCase().includes(lower));
  near.sort((a, b) => compareStrings(a.original_path, b.original_path));
  throw new UserError(
    `No source "${q}" in the store (${all.length} sources).`,
    near.length > 0 ? `Did you mean: ${describe(near)}?` : 'Expected a source id (src_…) or file name as shown by search; run search first.',
    EXIT.NOT_FOUND,
  );
}
