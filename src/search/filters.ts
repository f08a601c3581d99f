/**
 * Filters that need no embeddings: type, tags (any / all), document date range, indexed date range,
 * path glob and exact meta matches. Applied to the sources' rows (store/lookup.ts) or catalog entries before any ranking.
 */
import picomatch from 'picomatch';
import type { SourceRow } from '../store/lookup.js';
import type { SearchFilters } from './types.js';
import { checkTypeFilter } from './arguments.js';

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
const YEAR_RE = /(?<!\d)(?:19|20)\d{2}(?!\d)/g;

/** Lower-cased tag set of an entry. */
function tagSet(e: SourceRow): Set<string> {
  return new Set((e.tags ?? []).map((t) => t.toLowerCase()));
}

/**
 * The document's date interval as ISO prefixes [start, end]: from `date` when set, else from the
 * years named in `period` (e.g. "FY2018" → 2018..2018, "2019-2020" → 2019..2020). Null when unknown.
 */
export function documentDateRange(e: Pick<SourceRow, 'date' | 'period'>): [string, string] | null {
  const date = (e.date ?? '').trim();
  if (/^\d{4}(-\d{2}(-\d{2})?)?/.test(date)) {
    const d = date.slice(0, 10);
    return [d, d];
  }
  const years = [...(e.period ?? '').matchAll(YEAR_RE)].map((m) => m[0]).sort();
  if (years.length === 0) return null;
  return [years[0] as string, years[years.length - 1] as string];
}

/** Compare an ISO prefix against a bound on the bound's precision ("2018" vs "2018-06-30" → equal). */
function cmpPrefix(value: string, bound: string): number {
  const a = value.slice(0, bound.length);
  return a < bound ? -1 : a > bound ? 1 : 0;
}

function inRange(range: [string, string] | null, since?: string, until?: string): boolean {
  if (!since && !until) return true;
  if (!range) return false;
  if (since && cmpPrefix(range[1], since) < 0) return false;
  if (until && cmpPrefix(range[0], until) > 0) return false;
  return true;
}

function metaValue(e: SourceRow, key: string): string | undefined {
  const m = e.meta?.[key];
  if (m !== undefined) return m;
  const top = (e as unknown as Record<string, unknown>)[key];
  if (typeof top === 'string' || typeof top === 'number' || typeof top === 'boolean') return String(top);
  return undefined;
}

/** Validate ISO-ish date bounds; throws an Error naming the bad value. */
export function checkDateBound(name: string, v: string | undefined): void {
  if (v === undefined) return;
  if (!/^\d{4}(-\d{2}(-\d{2})?)?$/.test(v)) throw new Error(`${name} must be YYYY, YYYY-MM or YYYY-MM-DD (got "${v}")`);
}

/** Keep only entries matching every given filter. Entries not `indexed` are always dropped. */
export function applyFilters<T extends SourceRow>(entries: T[], filters: SearchFilters = {}): T[] {
  checkTypeFilter(filters.types, entries);
  const types = filters.types?.length ? new Set(filters.types.map((t) => t.toLowerCase())) : null;
  const any = filters.tagsAny?.map((t) => t.toLowerCase()).filter(Boolean) ?? [];
  const all = filters.tagsAll?.map((t) => t.toLowerCase()).filter(Boolean) ?? [];
  const glob = filters.pathGlob ? picomatch(filters.pathGlob, { dot: true, nocase: true }) : null;
  const meta = Object.entries(filters.meta ?? {});
  const globOnName = !!filters.pathGlob && !filters.pathGlob.includes('/');
  return entries.filter((e) => {
    if (e.status !== 'indexed') return false;
    if (types && !types.has(e.type) && !types.has((e.doc_type ?? '').toLowerCase())) return false;
    if (any.length || all.length) {
      const tags = tagSet(e);
      if (any.length && !any.some((t) => tags.has(t))) return false;
      if (all.length && !all.every((t) => tags.has(t))) return false;
    }
    if (!inRange(documentDateRange(e), filters.since, filters.until)) return false;
    if (filters.indexedSince || filters.indexedUntil) {
      const d = e.indexed_at ? e.indexed_at.slice(0, 10) : '';
      if (!inRange(d ? [d, d] : null, filters.indexedSince, filters.indexedUntil)) return false;
    }
    // a pattern without "/" matches file names anywhere ("*.md"), one with "/" the store-relative path
    if (glob && !(globOnName ? glob(baseName(e.original_path)) : glob(e.original_path))) return false;
    for (const [k, v] of meta) {
      const got = metaValue(e, k);
      if (got === undefined || got.toLowerCase() !== v.toLowerCase()) return false;
    }
    return true;
  });
}

/** True when any filter is set. */
export function hasFilters(f: SearchFilters | undefined): boolean {
  if (!f) return false;
  return !!(f.types?.length || f.tagsAny?.length || f.tagsAll?.length || f.since || f.until || f.indexedSince || f.indexedUntil || f.pathGlob || Object.keys(f.meta ?? {}).length);
}
