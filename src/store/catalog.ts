import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog, CatalogEntry, SCHEMA_VERSION } from './schemas.js';
import { CATALOG_FILE } from './layout.js';
import { canonicalJson, compareStrings } from './json.js';
import { writeIfChanged } from './atomic.js';
import { writeLookup } from './lookup.js';
import { UserError } from './errors.js';
import { EXIT } from '../util/exit-codes.js';

export const GENERATOR = 'metadatahub';

export function emptyCatalog(): Catalog {
  return { schema_version: SCHEMA_VERSION, generator: GENERATOR, last_updated: null, source_count: 0, sources: [] };
}

/**
 * Entry objects produced by a schema parse (read from catalog.json or normalized here): already in
 * schema key order with defaults, so normalizing them again is skipped. Entries are never mutated
 * in place (stages build new objects), which is what makes this safe.
 */
const normalized = new WeakSet<CatalogEntry>();

function normalizeEntry(e: CatalogEntry): CatalogEntry {
  if (normalized.has(e)) return e;
  const out = CatalogEntry.parse(e);
  normalized.add(out);
  return out;
}

/** Read and validate catalog.json; an absent file is an empty catalog. */
export function readCatalog(root: string): Catalog {
  const p = join(root, CATALOG_FILE);
  if (!existsSync(p)) return emptyCatalog();
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(p, 'utf8'));
  } catch (err) {
    throw new UserError(`${CATALOG_FILE} is not valid JSON: ${(err as Error).message}`, 'Restore it from git (`git checkout catalog.json`) or re-run `mhub ingest`.', EXIT.UNHEALTHY);
  }
  const parsed = Catalog.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${CATALOG_FILE} does not match its schema at ${issue?.path.join('.')}: ${issue?.message}`, 'Restore it from git or run `mhub doctor --fix`.', EXIT.UNHEALTHY);
  }
  for (const e of parsed.data.sources) normalized.add(e);
  return parsed.data;
}

let queryCache: { path: string; stamp: string; value: Catalog } | null = null;

/**
 * catalog.json for queries (search, tier 2): plain JSON.parse and a shape check, no schema pass,
 * kept per process while the file is unchanged. The schema pass is for writers; at 10,000 sources
 * it cost a search ~200 of ~300 ms of reading the catalog. Entries are the writer's canonical
 * objects (`normalizeCatalog`), so the values are the same.
 */
export function readCatalogForQuery(root: string): Catalog {
  const p = join(root, CATALOG_FILE);
  let stamp: string;
  try {
    const st = statSync(p);
    stamp = `${st.mtimeMs}/${st.size}`;
  } catch {
    return emptyCatalog();
  }
  if (queryCache && queryCache.path === p && queryCache.stamp === stamp) return queryCache.value;
  let raw: Partial<Catalog> | null;
  try {
    raw = JSON.parse(readFileSync(p, 'utf8')) as Partial<Catalog> | null;
  } catch (err) {
    throw new UserError(`${CATALOG_FILE} is not valid JSON: ${(err as Error).message}`, 'Restore it from git (`git checkout catalog.json`) or re-run `mhub ingest`.', EXIT.UNHEALTHY);
  }
  const bad = !raw || typeof raw !== 'object' || !Array.isArray(raw.sources)
    || raw.sources.some((e) => !e || typeof e !== 'object' || typeof e.id !== 'string' || typeof e.status !== 'string' || typeof e.original_path !== 'string');
  if (bad) throw new UserError(`${CATALOG_FILE} does not match its schema (no "sources" list of entries with id, status and original_path).`, 'Restore it from git or run `mhub doctor --fix`.', EXIT.UNHEALTHY);
  const value = raw as Catalog;
  queryCache = { path: p, stamp, value };
  return value;
}

/**
 * Canonical catalog: entries sorted by id (each validated once, in schema key order with defaults),
 * counts and last_updated derived from the entries. At most one parse per entry object: at 10,000
 * sources a zod pass over the catalog costs about a second, and an unchanged re-ingest needs none.
 */
export function normalizeCatalog(entries: CatalogEntry[]): Catalog {
  const sources = entries.map(normalizeEntry).sort((a, b) => compareStrings(a.id, b.id));
  const last = sources.reduce<string | null>((m, e) => (m === null || e.indexed_at > m ? e.indexed_at : m), null);
  return { schema_version: SCHEMA_VERSION, generator: GENERATOR, last_updated: last, source_count: sources.length, sources };
}

export function serializeCatalog(catalog: Catalog): string {
  return canonicalJson(Catalog.parse(catalog));
}

/** Write catalog.json atomically (only when its bytes change). */
/**
 * Write lookup/ (the catalog split by source, store/lookup.ts), then catalog.json atomically (only
 * changed bytes anywhere). Returns true if catalog.json was written.
 */
export function writeCatalog(root: string, entries: CatalogEntry[]): boolean {
  const catalog = normalizeCatalog(entries);
  const text = canonicalJson(catalog);
  writeLookup(root, catalog, text);
  return writeIfChanged(join(root, CATALOG_FILE), text);
}
