/**
 * Keyword index audit: vector_store/keyword/sources.json lists exactly the indexed sources, and each
 * indexed source has a readable node file with one row per tree node.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYWORD_DIR, KEYWORD_FORMAT_VERSION, KEYWORD_SOURCES_FILE, keywordNodesFile } from '../model/keyword-format.js';
import { compareStrings } from '../store/json.js';
import type { CatalogEntry } from '../store/schemas.js';
import { namedList as named, problem, type Problem } from './problems.js';

const REINDEX_FIX = 'run `mhub doctor --fix` (rebuilds the indexes from the trees; no re-conversion)';
function readJson(abs: string): { value: Record<string, unknown> | null; error: string | null } {
  try {
    const v = JSON.parse(readFileSync(abs, 'utf8')) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return { value: null, error: 'not a JSON object' };
    return { value: v as Record<string, unknown>, error: null };
  } catch (err) {
    return { value: null, error: (err as Error).message };
  }
}

export function auditKeywordIndex(root: string, entries: CatalogEntry[], nodeCounts: Map<string, number>): { problems: Problem[]; present: boolean } {
  const problems: Problem[] = [];
  const indexed = entries.filter((e) => e.status === 'indexed').map((e) => e.id).sort(compareStrings);
  const abs = join(root, KEYWORD_SOURCES_FILE);
  const bad = (code: string, subject: string, message: string) => problems.push(problem(code, 'error', subject, message, REINDEX_FIX, { kind: 'reindex' }));
  if (!existsSync(abs)) {
    if (indexed.length > 0) bad('keyword_index_missing', KEYWORD_SOURCES_FILE, `Keyword index ${KEYWORD_SOURCES_FILE} is missing; search cannot rank ${indexed.length} indexed sources.`);
    return { problems, present: false };
  }
  const { value, error } = readJson(abs);
  if (!value) {
    bad('keyword_index_invalid', KEYWORD_SOURCES_FILE, `Keyword index ${KEYWORD_SOURCES_FILE} is unreadable: ${error}.`);
    return { problems, present: true };
  }
  if (value['format'] !== KEYWORD_FORMAT_VERSION || !Array.isArray(value['ids'])) {
    bad('keyword_index_invalid', KEYWORD_SOURCES_FILE, `Keyword index ${KEYWORD_SOURCES_FILE} has format ${String(value['format'])}, expected ${KEYWORD_FORMAT_VERSION}.`);
    return { problems, present: true };
  }
  const ids = (value['ids'] as unknown[]).map(String);
  const have = new Set(ids);
  const want = new Set(indexed);
  const missing = indexed.filter((id) => !have.has(id));
  const extra = ids.filter((id) => !want.has(id));
  if (missing.length || extra.length) {
    bad('keyword_rows', KEYWORD_SOURCES_FILE, `Keyword index lists ${ids.length} sources for ${indexed.length} indexed${missing.length ? `; missing ${named(missing)}` : ''}${extra.length ? `; not in the catalog: ${named(extra)}` : ''}.`);
  }
  for (const id of indexed) {
    const rel = keywordNodesFile(id);
    if (!existsSync(join(root, rel))) {
      bad('keyword_nodes_missing', rel, `Keyword node index ${rel} is missing.`);
      continue;
    }
    const n = readJson(join(root, rel));
    const rows = n.value?.['nodes'];
    if (!n.value || !Array.isArray(rows)) {
      bad('keyword_index_invalid', rel, `Keyword node index ${rel} is unreadable: ${n.error ?? 'no nodes array'}.`);
      continue;
    }
    if (n.value['format'] !== KEYWORD_FORMAT_VERSION) {
      bad('keyword_index_invalid', rel, `Keyword node index ${rel} has format ${String(n.value['format'])}, expected ${KEYWORD_FORMAT_VERSION}.`);
      continue;
    }
    const expected = nodeCounts.get(id);
    // spreadsheet data rows are extra entries under their sheet node's id: count distinct nodes
    const nodes = new Set(rows.map((r: unknown) => (Array.isArray(r) ? r[0] : r))).size;
    if (expected !== undefined && nodes !== expected) bad('keyword_rows', rel, `Keyword node index ${rel} has ${nodes} nodes for a tree of ${expected} nodes.`);
  }
  const nodesDir = join(root, KEYWORD_DIR, 'nodes');
  if (existsSync(nodesDir)) {
    const stray = readdirSync(nodesDir).filter((f) => f.endsWith('.json') && !want.has(f.slice(0, -5))).sort(compareStrings);
    for (const f of stray) {
      const rel = `${KEYWORD_DIR}/nodes/${f}`;
      problems.push(problem('orphan', 'error', rel, `${rel} indexes a source that is not in the catalog.`, `delete ${rel} (\`mhub doctor --fix\`)`, { kind: 'remove', path: rel }));
    }
  }
  return { problems, present: true };
}
