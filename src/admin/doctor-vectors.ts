/**
 * Vector audit: every FAISS file in vector_store/ is whole and readable, metadata.json is valid and
 * its rows match the catalog (one card vector per indexed source, one node vector per tree node),
 * FAISS row counts match the metadata, and one model identity is used throughout. A store without
 * vectors is healthy (search runs keyword-only) but gets a warning saying so.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { VECTOR_DIR } from '../store/layout.js';
import { compareStrings } from '../store/json.js';
import type { CatalogEntry, Config } from '../store/schemas.js';
import { FaissFileError, faissNodeReads, inspectFaissFile } from './faiss-file.js';
import { modelLabel, readVectorLayout, type VectorSet } from './vector-layout.js';
import { sameModel } from '../embed/types.js';
import { NODE_ROWS_FILE, readNodeMetadata, readNodeRowIndex } from '../vector/metadata.js';
import { namedList as named, problem, type Problem } from './problems.js';

const REINDEX_FIX = 'run `mhub doctor --fix` (rebuilds the vector indexes from the trees and cards)';
export interface VectorAudit {
  problems: Problem[];
  faissFiles: number;
  cardRows: number | null;
  nodeRows: number | null;
  model: string | null;
}

async function checkFaiss(root: string, rel: string, problems: Problem[]): Promise<number | null> {
  const abs = join(root, rel);
  const bad = (why: string) =>
    problems.push(problem('faiss_unreadable', 'error', rel, `FAISS file ${rel} is unreadable: ${why}.`, REINDEX_FIX, { kind: 'reindex' }));
  let ntotal: number;
  try {
    ntotal = inspectFaissFile(abs).ntotal;
  } catch (err) {
    bad(err instanceof FaissFileError ? err.message : (err as Error).message);
    return null;
  }
  const loaded = await faissNodeReads(abs);
  if (loaded && !loaded.ok) {
    bad(`faiss refuses it (${loaded.error})`);
    return null;
  }
  return ntotal;
}

function compareRows(set: VectorSet, want: Map<string, number>, kind: 'card' | 'node', problems: Problem[]): void {
  const have = new Map<string, number>();
  for (const id of set.rowSources) have.set(id, (have.get(id) ?? 0) + 1);
  const missing = [...want.keys()].filter((id) => !have.has(id)).sort(compareStrings);
  const extra = [...have.keys()].filter((id) => !want.has(id)).sort(compareStrings);
  const wrong = [...want.entries()].filter(([id, n]) => have.has(id) && have.get(id) !== n).map(([id]) => id).sort(compareStrings);
  const subject = set.metadataFile;
  const add = (msg: string) => problems.push(problem('vector_rows', 'error', subject, msg, REINDEX_FIX, { kind: 'reindex' }));
  const noun = kind === 'card' ? 'card vectors' : 'node vectors';
  if (missing.length) add(`${missing.length} indexed source(s) have no ${noun}: ${named(missing)}.`);
  if (extra.length) add(`${noun} exist for ${extra.length} source(s) not indexed in the catalog: ${named(extra)}.`);
  if (wrong.length) add(`${noun} count differs from the tree's node count for ${wrong.length} source(s): ${named(wrong)}.`);
}

const reindexProblem = (code: string, subject: string, message: string): Problem => problem(code, 'error', subject, message, REINDEX_FIX, { kind: 'reindex' });

/** One FAISS file + metadata pair: the file exists, its row count matches, its rows match the catalog. */
function auditSet(root: string, set: VectorSet, ntotals: Map<string, number | null>, indexed: CatalogEntry[], nodeCounts: Map<string, number>, out: VectorAudit): void {
  const rel = set.faissFile;
  if (!existsSync(join(root, rel))) {
    out.problems.push(reindexProblem('faiss_missing', rel, `${set.metadataFile} describes ${rel}, which is missing.`));
  } else {
    const ntotal = ntotals.get(rel);
    if (ntotal !== undefined && ntotal !== null && ntotal !== set.rowSources.length) {
      out.problems.push(reindexProblem('vector_count', rel, `${rel} holds ${ntotal} vectors but ${set.metadataFile} lists ${set.rowSources.length} rows.`));
    }
  }
  if (set.count !== set.rowSources.length || set.dims !== set.model.dims) {
    out.problems.push(reindexProblem('vector_metadata_invalid', set.metadataFile, `${set.metadataFile} says count ${set.count} / dims ${set.dims} but lists ${set.rowSources.length} rows for a ${set.model.dims}-dim model.`));
  }
  if (set.kind === 'card') {
    out.cardRows = set.rowSources.length;
    compareRows(set, new Map(indexed.map((e) => [e.id, 1])), 'card', out.problems);
  } else {
    out.nodeRows = set.rowSources.length;
    compareRows(set, new Map(indexed.map((e) => [e.id, nodeCounts.get(e.id) ?? e.node_count])), 'node', out.problems);
  }
}

/** One model identity throughout, and the one config.json pins (if any). */
function auditModels(config: Config, sets: VectorSet[], out: VectorAudit): void {
  const [first, ...others] = sets;
  if (!first) return;
  out.model = modelLabel(first.model);
  for (const o of others) {
    if (!sameModel(first.model, o.model)) {
      out.problems.push(reindexProblem('model_mismatch', VECTOR_DIR, `${first.metadataFile} was made by ${modelLabel(first.model)} but ${o.metadataFile} by ${modelLabel(o.model)}: vectors must never mix models.`));
    }
  }
  const pinned = config.embedding.model;
  if (pinned !== 'auto' && pinned !== 'none' && !first.model.name.toLowerCase().startsWith(pinned.toLowerCase())) {
    out.problems.push(reindexProblem('model_mismatch', VECTOR_DIR, `config.json pins embedding model "${pinned}" but the vectors were made by ${modelLabel(first.model)}.`));
  }
}

/**
 * nodes.rows.json agrees with nodes.metadata.json (same rows_sha). When it is missing or stale,
 * queries still work: they read the whole node metadata, slower on a large store (a warning).
 */
function auditNodeRows(root: string, out: VectorAudit): void {
  const meta = readNodeMetadata(root);
  if (!meta?.rows_sha || readNodeRowIndex(root)) return;
  const why = existsSync(join(root, NODE_ROWS_FILE)) ? 'does not match nodes.metadata.json' : 'is missing';
  out.problems.push(problem('node_rows_stale', 'warning', NODE_ROWS_FILE, `${NODE_ROWS_FILE} ${why}: queries read the whole node metadata instead (slower on a large store).`, REINDEX_FIX, { kind: 'reindex' }));
}

/** Every FAISS file under vector_store/ checked for readability: store-relative path → row count (null: unreadable). */
async function faissRowCounts(root: string, problems: Problem[]): Promise<Map<string, number | null>> {
  const dir = join(root, VECTOR_DIR);
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.faiss') && !f.includes('.tmp-')).sort(compareStrings) : [];
  const ntotals = new Map<string, number | null>();
  for (const f of files) ntotals.set(`${VECTOR_DIR}/${f}`, await checkFaiss(root, `${VECTOR_DIR}/${f}`, problems));
  return ntotals;
}

export async function auditVectors(root: string, config: Config, entries: CatalogEntry[], nodeCounts: Map<string, number>): Promise<VectorAudit> {
  const problems: Problem[] = [];
  const out: VectorAudit = { problems, faissFiles: 0, cardRows: null, nodeRows: null, model: null };
  const ntotals = await faissRowCounts(root, problems);
  out.faissFiles = ntotals.size;
  const layout = readVectorLayout(root);
  for (const p of layout.problems) problems.push(reindexProblem('vector_metadata_invalid', p.file, p.message));
  const indexed = entries.filter((e) => e.status === 'indexed');
  if (layout.sets.length === 0 && ntotals.size === 0) {
    if (indexed.length > 0 && config.embedding.model !== 'none' && layout.problems.length === 0) {
      problems.push(problem('vectors_absent', 'warning', VECTOR_DIR, 'No vector index: search runs keyword-only.', 'install the embedder (see README) and run `mhub doctor --fix` to build the vectors', { kind: 'reindex' }));
    }
    return out;
  }
  const described = new Set(layout.sets.map((s) => s.faissFile));
  for (const rel of ntotals.keys()) {
    if (!described.has(rel) && !layout.problems.length) problems.push(reindexProblem('vector_metadata_missing', rel, `${rel} has no metadata file saying which source each row belongs to.`));
  }
  for (const set of layout.sets) auditSet(root, set, ntotals, indexed, nodeCounts, out);
  auditModels(config, layout.sets, out);
  auditNodeRows(root, out);
  return out;
}
