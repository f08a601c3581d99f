/**
 * The catalog split for retrieval (`lookup/`), so a query reads what it touches, not the library.
 * catalog.json stays the user-facing file (one entry per source, git-diffable) and is written after
 * this folder, from the same entries:
 *   - `lookup/entries/<hex>.json` — the full catalog entries whose id (after `src_`) starts with
 *     `<hex>` (as catalog.json has them, sorted by id). The prefix length is chosen at write time so
 *     a file averages at most LOOKUP_SHARD_TARGET_BYTES; one source's entry costs one small read.
 *   - `lookup/sources.tsv` — one line per source, sorted by id, with the few columns that filters,
 *     the period signal and name resolution need (SOURCE_ROW_COLUMNS; fields escaped, tags and meta
 *     as JSON). About 140 bytes a source; split into lines, not parsed as JSON.
 *   - `lookup/manifest.json` — format, shard prefix length, counts, the build time and the byte
 *     length and sha256 of the catalog.json written with it. A reader compares catalog.json's size
 *     (one stat) with it: a catalog edited by hand, restored from git alone or left by a crash
 *     between the two writes is noticed and the whole catalog is read instead, saying so.
 * Everything here is derived: `mhub ingest` (or `mhub doctor --fix`) rewrites it; unchanged entries
 * give the same bytes. Readers use plain JSON.parse and string splits (no schema pass).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogEntry } from './schemas.js';
import { CATALOG_FILE, LOOKUP_DIR } from './layout.js';
import { canonicalJson } from './json.js';
import { writeIfChanged } from './atomic.js';
import { UserError } from './errors.js';
import { EXIT } from '../util/exit-codes.js';

/** Version of the lookup/ layout; a reader meeting another version reads catalog.json instead and says so. */
export const LOOKUP_FORMAT = 1;
export const LOOKUP_MANIFEST_FILE = `${LOOKUP_DIR}/manifest.json`;
export const LOOKUP_ROWS_FILE = `${LOOKUP_DIR}/sources.tsv`;
export const LOOKUP_ENTRIES_DIR = `${LOOKUP_DIR}/entries`;
/** Average size an entries file may reach before the prefix grows by one hex digit. */
export const LOOKUP_SHARD_TARGET_BYTES = 128 * 1024;
/** Longest id prefix used for entries files (16^4 files). */
const MAX_PREFIX_DIGITS = 4;
const ID_PREFIX = 'src_';

/** The columns of lookup/sources.tsv, in order (its first line names them). */
export const SOURCE_ROW_COLUMNS = [
  'id', 'status', 'type', 'filename', 'original_path', 'title', 'doc_type', 'period', 'date', 'indexed_at', 'shelf', 'tags', 'meta',
] as const;

/** What lookup/sources.tsv holds of a source: enough to filter, to judge its period and to find it by name. */
export type SourceRow = Pick<CatalogEntry, 'id' | 'status' | 'type' | 'filename' | 'original_path' | 'title' | 'doc_type' | 'period' | 'date' | 'indexed_at' | 'shelf' | 'tags' | 'meta'>;

export interface LookupManifest {
  format: number;
  /** hex digits of the id (after src_) naming an entries file */
  prefix_digits: number;
  source_count: number;
  indexed_count: number;
  /** catalog.json's last_updated */
  last_updated: string | null;
  /** byte length and sha256 of the catalog.json written with this lookup */
  catalog_bytes: number;
  catalog_sha256: string;
}

// ---------------------------------------------------------------------------------------------
// Writing (ingest's commit stage, merge and doctor --fix through writeCatalog)

function escapeField(s: string): string {
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : s;
}

function unescapeField(s: string): string {
  return s.includes('\\') ? s.replace(/\\([\\tnr])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : '\\')) : s;
}

function rowLine(e: CatalogEntry): string {
  const cols: string[] = [
    e.id, e.status, e.type, e.filename, e.original_path, e.title ?? '', e.doc_type ?? '', e.period ?? '', e.date ?? '', e.indexed_at ?? '',
    e.shelf ?? '', e.tags?.length ? JSON.stringify(e.tags) : '', e.meta && Object.keys(e.meta).length ? JSON.stringify(e.meta) : '',
  ];
  return cols.map(escapeField).join('\t');
}

/** Hex digits of the entries-file prefix for a catalog of this many bytes. */
export function prefixDigits(catalogBytes: number): number {
  let d = 1;
  while (d < MAX_PREFIX_DIGITS && catalogBytes / 16 ** d > LOOKUP_SHARD_TARGET_BYTES) d++;
  return d;
}

const prefixOf = (id: string, digits: number): string => id.slice(ID_PREFIX.length, ID_PREFIX.length + digits);
const entriesFile = (prefix: string): string => `${LOOKUP_ENTRIES_DIR}/${prefix}.json`;

/** The files of lookup/ for a canonical catalog (entries sorted by id) and its serialized text. */
export function lookupFiles(catalog: Catalog, catalogText: string): Map<string, string> {
  const bytes = Buffer.byteLength(catalogText, 'utf8');
  const digits = prefixDigits(bytes);
  const files = new Map<string, string>();
  const groups = new Map<string, CatalogEntry[]>();
  for (const e of catalog.sources) {
    const p = prefixOf(e.id, digits);
    const g = groups.get(p);
    if (g) g.push(e);
    else groups.set(p, [e]);
  }
  for (const [p, list] of groups) files.set(entriesFile(p), canonicalJson(list));
  files.set(LOOKUP_ROWS_FILE, [SOURCE_ROW_COLUMNS.join('\t'), ...catalog.sources.map(rowLine)].join('\n') + '\n');
  const manifest: LookupManifest = {
    format: LOOKUP_FORMAT,
    prefix_digits: digits,
    source_count: catalog.sources.length,
    indexed_count: catalog.sources.filter((e) => e.status === 'indexed').length,
    last_updated: catalog.last_updated,
    catalog_bytes: bytes,
    catalog_sha256: createHash('sha256').update(catalogText).digest('hex'),
  };
  files.set(LOOKUP_MANIFEST_FILE, canonicalJson(manifest));
  return files;
}

/**
 * Write lookup/ for the catalog about to be written (call before writing catalog.json): entries
 * files and sources.tsv first (only changed bytes; stale entries files removed), the manifest last
 * and durable. Entries files are not fsynced (like trees: `mhub doctor --fix` redoes a torn one).
 */
export function writeLookup(root: string, catalog: Catalog, catalogText: string): void {
  const files = lookupFiles(catalog, catalogText);
  for (const [rel, text] of files) if (rel !== LOOKUP_MANIFEST_FILE) writeIfChanged(join(root, rel), text, false);
  try {
    for (const name of readdirSync(join(root, LOOKUP_ENTRIES_DIR))) {
      if (!files.has(`${LOOKUP_ENTRIES_DIR}/${name}`)) rmSync(join(root, LOOKUP_ENTRIES_DIR, name), { force: true });
    }
  } catch {
    /* no folder yet */
  }
  writeIfChanged(join(root, LOOKUP_MANIFEST_FILE), files.get(LOOKUP_MANIFEST_FILE)!);
}

/** Rewrite lookup/ from catalog.json as it is on disk (doctor --fix). */
export function rebuildLookup(root: string, catalog: Catalog): void {
  // the manifest describes catalog.json's bytes as they are, canonical or edited by hand
  writeLookup(root, catalog, readFileSync(join(root, CATALOG_FILE), 'utf8'));
}

// ---------------------------------------------------------------------------------------------
// Reading (search, deep_retrieve, read_source)

/** What retrieval reads of the catalog: per source, never the whole file when lookup/ is current. */
export interface SourceLookup {
  /** catalog.json's last_updated */
  builtAt: string | null;
  /** sha256 of the catalog this lookup describes (null when read from catalog.json itself) */
  catalogSha: string | null;
  /** every catalogued source's row, sorted by id (lookup/sources.tsv, read on first use) */
  rows(): SourceRow[];
  /** one source's row (lookup/sources.tsv, only that line parsed), or null */
  row(id: string): SourceRow | null;
  /** ids of the indexed sources, sorted */
  indexedIds(): string[];
  /** the full catalog entry of a source, or null */
  entry(id: string): CatalogEntry | null;
  /** said once per answer when the whole catalog is read instead of lookup/ */
  warning: string | null;
  /** the whole catalog, when it was read (no current lookup/) */
  whole: Catalog | null;
}

function badFile(rel: string, why: string): UserError {
  return new UserError(`${rel} ${why}.`, 'Run `mhub doctor --fix` (or `mhub ingest`) to rebuild lookup/.', EXIT.UNHEALTHY);
}

function readText(root: string, rel: string): string | null {
  try {
    return readFileSync(join(root, rel), 'utf8');
  } catch {
    return null;
  }
}

function parseRow(line: string, rel: string): SourceRow {
  const c = line.split('\t').map(unescapeField);
  if (c.length !== SOURCE_ROW_COLUMNS.length) throw badFile(rel, `has a line with ${c.length} columns instead of ${SOURCE_ROW_COLUMNS.length}`);
  const row: SourceRow = {
    id: c[0]!, status: c[1] as SourceRow['status'], type: c[2] as SourceRow['type'], filename: c[3]!, original_path: c[4]!,
    title: c[5]!, doc_type: c[6]!, period: c[7]!, date: c[8]!, indexed_at: c[9]!, tags: c[11] ? (JSON.parse(c[11]) as string[]) : [],
  };
  if (c[10]) row.shelf = c[10];
  if (c[12]) row.meta = JSON.parse(c[12]) as Record<string, string>;
  return row;
}

/** lookup/sources.tsv split into lines (not parsed): ids indexed by line, rows parsed when asked for. */
interface RowTable {
  ids: string[];
  lines: string[];
  index: Map<string, number> | null;
  parsed: Array<SourceRow | undefined>;
}

function readRowTable(root: string): RowTable {
  const text = readText(root, LOOKUP_ROWS_FILE);
  if (text === null) throw badFile(LOOKUP_ROWS_FILE, 'is missing');
  const lines = text.split('\n');
  if (lines[0] !== SOURCE_ROW_COLUMNS.join('\t')) throw badFile(LOOKUP_ROWS_FILE, 'has other columns than this version of mhub writes');
  const body = lines.slice(1).filter((l) => l !== '');
  return { ids: body.map((l) => l.slice(0, l.indexOf('\t'))), lines: body, index: null, parsed: [] };
}

function rowAt(t: RowTable, i: number): SourceRow {
  return (t.parsed[i] ??= parseRow(t.lines[i]!, LOOKUP_ROWS_FILE));
}

/** lookup/ as written by writeLookup, after the manifest and catalog.json's size agreed. */
function fileLookup(root: string, m: LookupManifest): SourceLookup {
  let table: RowTable | null = null;
  const rowTable = (): RowTable => (table ??= readRowTable(root));
  const shards = new Map<string, CatalogEntry[] | null>();
  const shard = (prefix: string): CatalogEntry[] | null => {
    if (!shards.has(prefix)) shards.set(prefix, readShard(root, entriesFile(prefix)));
    return shards.get(prefix)!;
  };
  return {
    builtAt: m.last_updated,
    catalogSha: m.catalog_sha256,
    warning: null,
    whole: null,
    rows: () => {
      const t = rowTable();
      return t.lines.map((_, i) => rowAt(t, i));
    },
    row: (id) => {
      const t = rowTable();
      t.index ??= new Map(t.ids.map((x, i) => [x, i]));
      const i = t.index.get(id);
      return i === undefined ? null : rowAt(t, i);
    },
    // status is the second column: no row is parsed
    indexedIds: () => {
      const t = rowTable();
      return t.ids.filter((id, i) => t.lines[i]!.startsWith('indexed\t', id.length + 1));
    },
    entry: (id) => (id.startsWith(ID_PREFIX) ? (shard(prefixOf(id, m.prefix_digits))?.find((e) => e.id === id) ?? null) : null),
  };
}

function readShard(root: string, rel: string): CatalogEntry[] | null {
  const text = readText(root, rel);
  if (text === null) return null;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (err) {
    throw badFile(rel, `is not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(list)) throw badFile(rel, 'is not a list of entries');
  return list as CatalogEntry[];
}

/** The whole catalog.json read at once (a store without a current lookup/). */
export function catalogLookup(catalog: Catalog, warning: string | null): SourceLookup {
  let byId: Map<string, CatalogEntry> | null = null;
  const entry = (id: string): CatalogEntry | null => (byId ??= new Map(catalog.sources.map((e) => [e.id, e]))).get(id) ?? null;
  return {
    builtAt: catalog.last_updated ?? null,
    catalogSha: null,
    warning,
    whole: catalog,
    rows: () => catalog.sources,
    indexedIds: () => catalog.sources.filter((e) => e.status === 'indexed').map((e) => e.id),
    row: entry,
    entry,
  };
}

/** lookup/manifest.json, or null when absent or unreadable. */
export function readManifest(root: string): LookupManifest | null {
  const text = readText(root, LOOKUP_MANIFEST_FILE);
  if (text === null) return null;
  try {
    const m = JSON.parse(text) as LookupManifest;
    return m && typeof m === 'object' && typeof m.catalog_bytes === 'number' ? m : null;
  } catch {
    return null;
  }
}

/**
 * Why lookup/ cannot stand for catalog.json (null when it can): absent, another format, or a
 * catalog.json whose size differs from the one it was written with.
 */
export function lookupProblem(root: string, m: LookupManifest | null, catalogBytes: number | null): string | null {
  if (catalogBytes === null) return null;
  if (!m) return `this store has no ${LOOKUP_DIR}/ (written by mhub ingest since lookup format ${LOOKUP_FORMAT})`;
  if (m.format !== LOOKUP_FORMAT) return `${LOOKUP_DIR}/ is of format ${m.format}, this mhub reads format ${LOOKUP_FORMAT}`;
  if (m.catalog_bytes !== catalogBytes) return `${CATALOG_FILE} changed since ${LOOKUP_DIR}/ was written (edited by hand, or restored without it)`;
  return null;
}

/**
 * The catalog as retrieval reads it: lookup/ when it matches catalog.json (one stat of the catalog,
 * then only the files a query asks for), else the whole catalog.json with a warning that says why
 * and how to fix it. `readWhole` reads catalog.json (the caller's reader: shape-checked, cached).
 */
export function openLookup(root: string, readWhole: (root: string) => Catalog): SourceLookup {
  let catalogBytes: number | null;
  try {
    catalogBytes = statSync(join(root, CATALOG_FILE)).size;
  } catch {
    catalogBytes = null;
  }
  const m = readManifest(root);
  const problem = lookupProblem(root, m, catalogBytes);
  if (!problem && m) return fileLookup(root, m);
  const catalog = readWhole(root);
  const warning = problem && catalog.sources.length > 0
    ? `${problem}, so every query reads the whole ${CATALOG_FILE}; run \`mhub ingest\` (or \`mhub doctor --fix\`) to rebuild ${LOOKUP_DIR}/ and make queries fast again.`
    : null;
  return catalogLookup(catalog, warning);
}
