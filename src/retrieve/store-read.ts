/**
 * Light readers of the store for retrieval: catalog, trees and content files parsed with plain
 * JSON.parse and a shape check (no zod), so the skill scripts start fast. Every path taken from the
 * store or from arguments goes through resolveInStore, so nothing outside the store can be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Catalog, CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import { CATALOG_FILE, CONVERTED_DIR, convertedDir } from '../store/layout.js';
import { resolveInStore } from '../store/safe-path.js';
import { openLookup, type SourceLookup } from '../store/lookup.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

function parseJsonFile(abs: string, label: string, hint: string): unknown {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    throw new UserError(`Cannot read ${label}: ${(err as Error).message}`, hint, EXIT.UNHEALTHY);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${label} is not valid JSON: ${(err as Error).message}`, hint, EXIT.UNHEALTHY);
  }
}

/** catalog.json of the store; a store with no catalog yet says to run ingest. */
export function loadCatalog(root: string): Catalog {
  const abs = join(root, CATALOG_FILE);
  if (!existsSync(abs)) {
    throw new UserError(`The store at ${root} has no ${CATALOG_FILE} yet.`, 'Expected an ingested store: run `mhub ingest ./inbox` first.', EXIT.NOT_FOUND);
  }
  const raw = parseJsonFile(abs, CATALOG_FILE, 'Restore it from git or re-run `mhub ingest`.') as Partial<Catalog> | null;
  if (!raw || typeof raw !== 'object' || !Array.isArray(raw.sources)) {
    throw new UserError(`${CATALOG_FILE} has no "sources" list.`, 'Expected a catalog written by `mhub ingest`; restore it from git or re-run ingest.', EXIT.UNHEALTHY);
  }
  return raw as Catalog;
}

/** The catalog as deep_retrieve and read_source read it: lookup/ (one source's entries file), else the whole catalog.json. */
export function openStoreLookup(root: string): SourceLookup {
  return openLookup(root, loadCatalog);
}

function checkNode(n: unknown, where: string): asserts n is TreeNode {
  const node = n as TreeNode;
  if (!node || typeof node !== 'object' || typeof node.node_id !== 'string' || !Array.isArray(node.children)) {
    throw new UserError(`${where} is not a valid tree (a node lacks node_id or children).`, 'Re-run `mhub ingest --force` for this source.', EXIT.UNHEALTHY);
  }
}

/** The tree of an indexed source. */
export function loadTree(root: string, entry: CatalogEntry): TreeFile {
  if (!entry.tree_path) {
    throw new UserError(`Source ${entry.id} (${entry.original_path}) has no tree: its status is ${entry.status}${entry.error ? ` (${entry.error})` : ''}.`, 'Expected an indexed source; see `mhub status` or re-run `mhub ingest`.', EXIT.NOT_FOUND);
  }
  const abs = resolveInStore(root, entry.tree_path);
  if (!existsSync(abs)) {
    throw new UserError(`The tree file ${entry.tree_path} of ${entry.id} is missing.`, 'Re-run `mhub ingest` to rebuild it.', EXIT.UNHEALTHY);
  }
  const tree = parseJsonFile(abs, entry.tree_path, 'Re-run `mhub ingest --force` to rebuild it.') as TreeFile;
  checkNode(tree?.root, entry.tree_path);
  return tree;
}

/**
 * Resolve a file reference of source `id` (a node's content_ref or a rows file): it must stay under
 * converted/<id>/. Relative names without the converted/ prefix are taken relative to that folder.
 */
export function resolveContentRef(root: string, id: string, ref: string): string {
  const base = convertedDir(id);
  if (isAbsolute(ref) || /^[a-zA-Z]:[\\/]/.test(ref) || ref.includes('\\') || ref.includes('\0')) {
    throw new UserError(`Refusing content reference ${JSON.stringify(ref)}: it is not a relative path inside converted/${id}/.`, 'Expected a file of this source under converted/<id>/; the tree may have been tampered with (run `mhub doctor`).', EXIT.USAGE);
  }
  const rel = ref.startsWith(`${CONVERTED_DIR}/`) ? ref : `${base}/${ref}`;
  const norm = rel.split('/').filter((p) => p !== '' && p !== '.');
  if (norm.includes('..') || !rel.startsWith(`${base}/`)) {
    throw new UserError(`Refusing content reference ${JSON.stringify(ref)}: it leaves converted/${id}/.`, 'Expected a file of this source under converted/<id>/; the tree may have been tampered with.', EXIT.USAGE);
  }
  return resolveInStore(root, rel);
}

/** Text of a content file of source `id`; a missing file means a damaged store and says so. */
export function readContent(root: string, id: string, ref: string): string {
  const abs = resolveContentRef(root, id, ref);
  try {
    return readFileSync(abs, 'utf8');
  } catch (err) {
    throw new UserError(`The content file ${ref} of ${id} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`, 'Run `mhub doctor` (or `mhub ingest --force`) to rebuild it.', EXIT.UNHEALTHY);
  }
}
