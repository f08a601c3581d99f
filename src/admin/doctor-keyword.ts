/**
 * Keyword index audit: vector_store/keyword/sources.json lists exactly the indexed sources and its
 * term shards exist, each indexed source has a readable node file with one row per tree node, and
 * nothing else lies under keyword/ (older shard folders, node files of removed sources).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  KEYWORD_DIR, KEYWORD_FORMAT_VERSION, KEYWORD_NODES_EXT, KEYWORD_SOURCES_FILE, KEYWORD_TERMS_PREFIX, keywordNodesFile, keywordShardFile, nodesBodyOffset,
} from '../model/keyword-format.js';
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

/** Shard files sources.json names that are missing (a damaged or half-removed index). */
function missingShards(root: string, meta: Record<string, unknown>): string[] {
  const shards = Number(meta['shards']);
  const dir = String(meta['terms_dir']);
  if (!Number.isInteger(shards) || shards < 1 || !dir.startsWith(KEYWORD_TERMS_PREFIX)) return ['(no shard list)'];
  const out: string[] = [];
  for (let i = 0; i < shards; i++) {
    const rel = keywordShardFile(dir, i, shards);
    if (!existsSync(join(root, rel))) out.push(rel);
  }
  return out;
}

/** Files and folders under keyword/ that the current index does not use. */
function strayKeywordFiles(root: string, want: Set<string>, termsDir: string): string[] {
  const out: string[] = [];
  const dir = join(root, KEYWORD_DIR);
  for (const f of readdirSync(dir).sort(compareStrings)) {
    if (f.startsWith(KEYWORD_TERMS_PREFIX) && f !== termsDir) out.push(`${KEYWORD_DIR}/${f}`);
  }
  const nodesDir = join(dir, 'nodes');
  if (existsSync(nodesDir)) {
    for (const f of readdirSync(nodesDir).sort(compareStrings)) {
      if (!f.endsWith(KEYWORD_NODES_EXT) || !want.has(f.slice(0, -KEYWORD_NODES_EXT.length))) out.push(`${KEYWORD_DIR}/nodes/${f}`);
    }
  }
  return out;
}

/** Problems of one source's node file (missing, unreadable, other version, node count off). */
function auditNodeFile(root: string, id: string, expected: number | undefined, bad: (code: string, subject: string, message: string) => void, dated: string[]): void {
  const rel = keywordNodesFile(id);
  let text: string;
  try {
    text = readFileSync(join(root, rel), 'utf8');
  } catch {
    bad('keyword_nodes_missing', rel, `Keyword node index ${rel} is missing.`);
    return;
  }
  let header: Record<string, unknown> | null = null;
  try {
    header = JSON.parse(text.slice(0, nodesBodyOffset(text))) as Record<string, unknown>;
  } catch (err) {
    bad('keyword_index_invalid', rel, `Keyword node index ${rel} is unreadable: ${(err as Error).message}.`);
    return;
  }
  const rows = header?.['nodes'];
  if (!header || !Array.isArray(rows)) return bad('keyword_index_invalid', rel, `Keyword node index ${rel} is unreadable: no nodes array.`);
  if (header['format'] !== KEYWORD_FORMAT_VERSION) return bad('keyword_index_invalid', rel, `Keyword node index ${rel} has format ${String(header['format'])}, expected ${KEYWORD_FORMAT_VERSION}.`);
  // spreadsheet data rows are extra entries under their sheet node's id: count distinct nodes
  const nodes = new Set(rows.map((r: unknown) => (Array.isArray(r) ? r[0] : r))).size;
  if (expected !== undefined && nodes !== expected) bad('keyword_rows', rel, `Keyword node index ${rel} has ${nodes} nodes for a tree of ${expected} nodes.`);
  else if (!Array.isArray(header['parent'])) dated.push(rel);
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
  const lost = missingShards(root, value);
  if (lost.length) bad('keyword_index_invalid', KEYWORD_SOURCES_FILE, `Keyword index ${KEYWORD_SOURCES_FILE} names term shards that are missing: ${named(lost)}.`);
  const ids = (value['ids'] as unknown[]).map(String);
  const have = new Set(ids);
  const want = new Set(indexed);
  const missing = indexed.filter((id) => !have.has(id));
  const extra = ids.filter((id) => !want.has(id));
  if (missing.length || extra.length) {
    bad('keyword_rows', KEYWORD_SOURCES_FILE, `Keyword index lists ${ids.length} sources for ${indexed.length} indexed${missing.length ? `; missing ${named(missing)}` : ''}${extra.length ? `; not in the catalog: ${named(extra)}` : ''}.`);
  }
  const dated: string[] = [];
  for (const id of indexed) auditNodeFile(root, id, nodeCounts.get(id), bad, dated);
  if (dated.length > 0) {
    const message = `${dated.length} keyword node ${dated.length === 1 ? 'index predates' : 'indexes predate'} the nodes' parents (${named(dated)}): suggestion lists may show a section beside its own introduction.`;
    problems.push(problem('keyword_nodes_dated', 'warning', `${KEYWORD_DIR}/nodes`, message, REINDEX_FIX, { kind: 'reindex' }));
  }
  for (const rel of strayKeywordFiles(root, want, String(value['terms_dir']))) {
    problems.push(problem('orphan', 'error', rel, `${rel} is not part of the current keyword index.`, `delete ${rel} (\`mhub doctor --fix\`)`, { kind: 'remove', path: rel }));
  }
  return { problems, present: true };
}
