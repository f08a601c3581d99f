/**
 * lookup/ audit: the folder retrieval reads instead of catalog.json (store/lookup.ts) must hold
 * exactly what catalog.json holds. Missing (a store from before lookup/): a warning, since answers
 * are right but every query reads the whole catalog. Different (a catalog edited by hand, a torn
 * write after a power cut): an error, since a catalog edited without changing its size would not
 * be noticed by queries. `doctor --fix` rewrites lookup/ from catalog.json.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_FILE, LOOKUP_DIR } from '../store/layout.js';
import { LOOKUP_ENTRIES_DIR, LOOKUP_MANIFEST_FILE, lookupFiles } from '../store/lookup.js';
import { compareStrings } from '../store/json.js';
import type { Catalog } from '../store/schemas.js';
import { namedList, problem, type Problem } from './problems.js';

const FIX = 'run `mhub doctor --fix` (rewrites lookup/ from catalog.json; or `mhub ingest`)';

function readOr(root: string, rel: string): string | null {
  try {
    return readFileSync(join(root, rel), 'utf8');
  } catch {
    return null;
  }
}

/** Files of lookup/ that differ from what catalog.json gives, are missing, or are left over. */
export function lookupDifferences(root: string, catalog: Catalog): string[] {
  const text = readFileSync(join(root, CATALOG_FILE), 'utf8');
  const want = lookupFiles(catalog, text);
  const bad = [...want].filter(([rel, bytes]) => readOr(root, rel) !== bytes).map(([rel]) => rel);
  const dir = join(root, LOOKUP_ENTRIES_DIR);
  if (existsSync(dir)) for (const name of readdirSync(dir)) if (!want.has(`${LOOKUP_ENTRIES_DIR}/${name}`)) bad.push(`${LOOKUP_ENTRIES_DIR}/${name}`);
  return bad.sort(compareStrings);
}

export function auditLookup(root: string, catalog: Catalog): Problem[] {
  if (!existsSync(join(root, CATALOG_FILE)) || catalog.sources.length === 0) return [];
  if (!existsSync(join(root, LOOKUP_MANIFEST_FILE))) {
    return [problem('lookup_missing', 'warning', LOOKUP_DIR, `${LOOKUP_DIR}/ is missing (a store written before it existed): answers are right, but every query reads the whole ${CATALOG_FILE}.`, FIX, { kind: 'lookup' })];
  }
  const bad = lookupDifferences(root, catalog);
  if (bad.length === 0) return [];
  return [problem('lookup_stale', 'error', LOOKUP_DIR, `${LOOKUP_DIR}/ does not match ${CATALOG_FILE} (${namedList(bad)}): queries could read outdated entries.`, FIX, { kind: 'lookup' })];
}
