/**
 * The library overview — the level above the trees: shelves of sources an agent can browse when
 * search is not enough. Shelves are the LLM's `shelf` field when present; otherwise they are chosen
 * greedily from tags, then card doc types, folders, file-name series and types: within each kind the
 * label that groups the most not-yet-shelved sources wins, labels that cover nearly everything (and so tell nothing apart) are skipped.
 * Reads only the catalog (no ingest code), so the skill can use it too.
 */
import { dirname } from 'node:path';
import { readCatalog } from '../store/catalog.js';
import { compareStrings, sortKeys } from '../store/json.js';
import type { CatalogEntry } from '../store/schemas.js';
import { documentDateRange } from '../search/filters.js';

/** Most shelves shown (the rest go to "Other"), so the overview fits one screen. */
export const MAX_SHELVES = 12;
/** A shelf groups at least this many sources (smaller groups go to "Other"). */
export const MIN_SHELF_SIZE = 2;
/** A label covering more than this share of the library is not a shelf (it separates nothing)… */
export const MAX_SHELF_SHARE = 0.8;
/** …except inside a partition (one kind of label splitting the library), where only "all of them" is excluded. */
const PARTITION_LIMIT = (n: number) => Math.max(MIN_SHELF_SIZE, n - 1);
/** …unless the library is this small. */
const SMALL_LIBRARY = 4;
/** Titles shown per shelf. */
export const EXAMPLES_PER_SHELF = 3;
/** File-name series listed per shelf. */
const SERIES_PER_SHELF = 8;
/** Co-occurring tags shown per shelf. */
const TAGS_PER_SHELF = 4;
const LINE_WIDTH = 110;

export type ShelfBasis = 'shelf' | 'tag' | 'doc_type' | 'folder' | 'name' | 'type' | 'other';

export interface Shelf {
  name: string;
  basis: ShelfBasis;
  count: number;
  pages: number;
  types: Record<string, number>;
  /** years covered, e.g. "2015-2023", or null when no dates are known */
  period: string | null;
  tags: string[];
  /** file-name series on the shelf (e.g. company names), most frequent first */
  series: string[];
  /** how many distinct series the shelf holds */
  series_count: number;
  examples: string[];
  ids: string[];
}

export interface LibraryOverview {
  store: string;
  sources: number;
  indexed: number;
  not_indexed: number;
  pages: number;
  shelves: Shelf[];
  by_type: Record<string, number>;
  by_folder: Record<string, number>;
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return sortKeys(out);
}

function folderOf(e: CatalogEntry): string {
  const d = dirname(e.original_path);
  return d === '.' ? '(store root)' : d;
}

function makeShelf(name: string, basis: ShelfBasis, members: CatalogEntry[]): Shelf {
  const sorted = [...members].sort((a, b) => compareStrings(a.title, b.title) || compareStrings(a.id, b.id));
  const years = members.flatMap((e) => documentDateRange(e) ?? []).map((d) => d.slice(0, 4)).sort(compareStrings);
  const period = years.length ? (years[0] === years[years.length - 1] ? years[0]! : `${years[0]}-${years[years.length - 1]}`) : null;
  const tagCounts = new Map<string, number>();
  for (const e of members) for (const t of e.tags) if (!(basis === 'tag' && t === name)) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
  const tags = [...tagCounts.entries()].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).slice(0, TAGS_PER_SHELF).map(([t]) => t);
  const seriesCounts = new Map<string, number>();
  for (const e of members) {
    const p = namePrefix(e.filename);
    if (p) seriesCounts.set(p, (seriesCounts.get(p) ?? 0) + 1);
  }
  const series = [...seriesCounts.entries()].sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0])).map(([p]) => p);
  return {
    name, basis, count: members.length,
    pages: members.reduce((s, e) => s + (e.pages ?? 0), 0),
    types: tally(members.map((e) => e.type)),
    period, tags,
    series: basis === 'name' ? [] : series.slice(0, SERIES_PER_SHELF),
    series_count: basis === 'name' ? 0 : series.length,
    examples: sorted.slice(0, EXAMPLES_PER_SHELF).map((e) => e.title || e.filename),
    ids: members.map((e) => e.id).sort(compareStrings),
  };
}

interface Candidate {
  name: string;
  basis: ShelfBasis;
  ids: Set<string>;
}

/** Kinds of label in the order they are tried: tags name domains best, file types least. */
const BASIS_ORDER: ShelfBasis[] = ['tag', 'doc_type', 'folder', 'name', 'type'];
/** Card doc types that say nothing about a domain. */
const GENERIC_DOC_TYPES = new Set(['', 'document', 'text', 'file', 'other', 'unknown']);
/** A file-name prefix shorter than this is not a series name. */
const MIN_PREFIX_LENGTH = 2;

/** The leading word of a file name ("ADOBE_2019_10K.pdf" → "ADOBE"), naming a series of files. */
export function namePrefix(filename: string): string | null {
  const head = filename.replace(/\.[^.]+$/, '').split(/[_\-\s.]+/)[0] ?? '';
  return head.length >= MIN_PREFIX_LENGTH && !/^\d+$/.test(head) ? head : null;
}

function candidates(entries: CatalogEntry[]): Candidate[] {
  const map = new Map<string, Candidate>();
  const add = (basis: ShelfBasis, name: string, id: string) => {
    const key = `${basis}\0${name}`;
    let c = map.get(key);
    if (!c) map.set(key, (c = { name, basis, ids: new Set() }));
    c.ids.add(id);
  };
  for (const e of entries) {
    for (const t of new Set(e.tags)) add('tag', t, e.id);
    const dt = (e.doc_type ?? '').trim();
    if (!GENERIC_DOC_TYPES.has(dt.toLowerCase())) add('doc_type', dt, e.id);
    add('folder', folderOf(e), e.id);
    const prefix = namePrefix(e.filename);
    if (prefix) add('name', `${prefix}*`, e.id);
    add('type', e.type, e.id);
  }
  return [...map.values()];
}

/** Greedy shelving with labels of the given kinds: the label grouping the most open sources wins. */
function pick(cands: Candidate[], bases: ShelfBasis[], open: Set<string>, limit: number, room: number): Array<{ c: Candidate; ids: string[] }> {
  const out: Array<{ c: Candidate; ids: string[] }> = [];
  for (const basis of bases) {
    while (out.length < room && open.size > 0) {
      let best: { c: Candidate; n: number } | null = null;
      for (const c of cands) {
        if (c.basis !== basis || c.ids.size > limit) continue;
        let n = 0;
        for (const id of c.ids) if (open.has(id)) n++;
        if (n < MIN_SHELF_SIZE) continue;
        if (!best || n > best.n || (n === best.n && compareStrings(c.name, best.c.name) < 0)) best = { c, n };
      }
      if (!best) break;
      const ids = [...best.c.ids].filter((id) => open.has(id)).sort(compareStrings);
      for (const id of ids) open.delete(id);
      out.push({ c: best.c, ids });
    }
  }
  return out;
}

/**
 * The primary kind of label is the one that shelves the most sources in at least two shelves
 * (a partition, e.g. filings by doc type); what it leaves is shelved by the other kinds in order.
 */
function greedyShelves(entries: CatalogEntry[]): Shelf[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const all = () => new Set(entries.map((e) => e.id));
  const cands = candidates(entries);
  // A label on (nearly) every source separates nothing.
  const limit = entries.length > SMALL_LIBRARY ? Math.floor(entries.length * MAX_SHELF_SHARE) : Math.max(MIN_SHELF_SIZE, entries.length - 1);
  let primary: ShelfBasis | null = null;
  let bestCovered = 0;
  for (const basis of BASIS_ORDER) {
    const trial = pick(cands, [basis], all(), Math.max(limit, PARTITION_LIMIT(entries.length)), MAX_SHELVES);
    const covered = trial.reduce((s, t) => s + t.ids.length, 0);
    if (trial.length >= 2 && covered > bestCovered) {
      primary = basis;
      bestCovered = covered;
    }
  }
  const open = all();
  const picked = primary ? pick(cands, [primary], open, Math.max(limit, PARTITION_LIMIT(entries.length)), MAX_SHELVES) : [];
  picked.push(...pick(cands, BASIS_ORDER.filter((b) => b !== primary), open, limit, MAX_SHELVES - picked.length));
  const shelves = picked.map((p) => makeShelf(p.c.name, p.c.basis, p.ids.map((id) => byId.get(id)!)));
  if (open.size > 0) {
    // Nothing separates what is left: fall back to folders, so every source sits somewhere.
    const rest = [...open].map((id) => byId.get(id)!);
    const folders = new Set(rest.map(folderOf));
    const single = shelves.length === 0 && folders.size === 1;
    shelves.push(makeShelf(single ? folderOf(rest[0]!) : 'Other', single ? 'folder' : 'other', rest));
  }
  return shelves;
}

export function libraryOverview(root: string): LibraryOverview {
  const all = readCatalog(root).sources;
  const indexed = all.filter((e) => e.status === 'indexed');
  let shelves: Shelf[];
  const shelved = indexed.filter((e) => e.shelf && e.shelf.trim());
  if (shelved.length > 0) {
    const groups = new Map<string, CatalogEntry[]>();
    for (const e of shelved) {
      const k = e.shelf!.trim();
      groups.set(k, [...(groups.get(k) ?? []), e]);
    }
    shelves = [...groups.entries()].map(([name, members]) => makeShelf(name, 'shelf', members));
    shelves.sort((a, b) => b.count - a.count || compareStrings(a.name, b.name));
    const rest = indexed.filter((e) => !(e.shelf && e.shelf.trim()));
    if (rest.length) shelves.push(makeShelf('Other', 'other', rest));
  } else {
    shelves = greedyShelves(indexed);
  }
  // File-name series mean something only when names repeat (ADOBE_2015…, ADOBE_2019…).
  const prefixes = indexed.map((e) => namePrefix(e.filename)).filter((p): p is string => p !== null);
  if (new Set(prefixes).size === prefixes.length) shelves = shelves.map((s) => ({ ...s, series: [], series_count: 0 }));
  return {
    store: root,
    sources: all.length,
    indexed: indexed.length,
    not_indexed: all.length - indexed.length,
    pages: indexed.reduce((s, e) => s + (e.pages ?? 0), 0),
    shelves,
    by_type: tally(indexed.map((e) => e.type)),
    by_folder: tally(indexed.map(folderOf)),
  };
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 1) + '…';
}

/** One screen: a header, one or two lines per shelf, and the ways to drill down. */
export function formatOverview(o: LibraryOverview): string {
  const types = Object.entries(o.by_type).map(([t, n]) => `${n} ${t}`).join(', ');
  const lines = [`Library: ${o.indexed} sources indexed (${types || 'none'}), ${o.pages} pages${o.not_indexed ? `; ${o.not_indexed} not indexed (mhub status)` : ''}.`];
  if (o.shelves.length === 0) lines.push('No indexed sources yet: drop files into inbox/ and run `mhub ingest`.');
  for (const s of o.shelves) {
    const kind = s.basis === 'shelf' || s.basis === 'other' ? '' : ` [${s.basis}]`;
    // A series list says more than one type count when the shelf is a mix of named series.
    const series = s.series_count > 1 ? `from ${s.series.join(', ')}${s.series_count > s.series.length ? ` +${s.series_count - s.series.length}` : ''}` : '';
    const facts = [Object.entries(s.types).map(([t, n]) => `${n} ${t}`).join(', '), s.period ?? '', s.tags.length ? `tags: ${s.tags.join(', ')}` : '', series].filter(Boolean).join('; ');
    lines.push(clip(`■ ${s.name}${kind} (${s.count}) — ${facts}`, LINE_WIDTH));
    lines.push(clip(`    e.g. ${s.examples.join(' | ')}`, LINE_WIDTH));
  }
  lines.push('Browse a shelf: `mhub list --tag T` / `--type T` / `--path "folder/**"`; open a source: `mhub tree <id>`.');
  return lines.join('\n');
}
