/**
 * Per-source audit: the catalog entry, its tree, its converted files and its source file agree.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertedDir, treePath } from '../store/layout.js';
import { TreeFile, type CatalogEntry, type StatCache, type TreeNode } from '../store/schemas.js';
import { checkCatalogued, checkContext } from './source-files.js';
import { outdatedSources } from './status.js';
import { problem, REINGEST_FIX, type Problem } from './problems.js';

/** Content files named in one problem message before "… and N more". */
const MAX_NAMED_FILES = 3;

export interface SourceAudit {
  problems: Problem[];
  trees: number;
  contentRefs: number;
  /** node count per indexed source id, from its tree (for vector count checks) */
  nodeCounts: Map<string, number>;
}

const PAGE_MARK_RE = /^<!-- page (\d+) -->$/gm;

/** The first page marker in TEXT outside RANGE, or null when all agree. */
export function pagesOutside(text: string, range: [number, number]): number | null {
  for (const m of text.matchAll(PAGE_MARK_RE)) {
    const p = Number(m[1]);
    if (p < range[0] || p > range[1]) return p;
  }
  return null;
}

function walk(n: TreeNode, visit: (n: TreeNode) => void): void {
  visit(n);
  for (const c of n.children) walk(c, visit);
}

function loadTree(root: string, e: CatalogEntry): { tree: TreeFile | null; problem: Problem | null } {
  const rel = e.tree_path ?? treePath(e.id);
  const reingest = { kind: 'reingest' as const, id: e.id, path: e.original_path };
  if (!e.tree_path) return { tree: null, problem: problem('tree_missing', 'error', e.id, `${e.original_path} is indexed but its catalog entry names no tree.`, REINGEST_FIX, reingest) };
  const abs = join(root, rel);
  if (!existsSync(abs)) return { tree: null, problem: problem('tree_missing', 'error', e.id, `Tree ${rel} of ${e.original_path} is missing.`, REINGEST_FIX, reingest) };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (err) {
    return { tree: null, problem: problem('tree_invalid', 'error', e.id, `Tree ${rel} is not valid JSON (${(err as Error).message}).`, REINGEST_FIX, reingest) };
  }
  const parsed = TreeFile.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { tree: null, problem: problem('tree_invalid', 'error', e.id, `Tree ${rel} does not match its schema at ${i?.path.join('.') || '(root)'}: ${i?.message}.`, REINGEST_FIX, reingest) };
  }
  return { tree: parsed.data, problem: null };
}

function auditTree(root: string, e: CatalogEntry, tree: TreeFile, out: SourceAudit): void {
  const reingest = { kind: 'reingest' as const, id: e.id, path: e.original_path };
  let nodes = 0;
  let refs = 0;
  const missing: string[] = [];
  const foreign: string[] = [];
  const misplaced: string[] = [];
  const prefix = `${convertedDir(e.id)}/`;
  walk(tree.root, (n) => {
    nodes++;
    if (n.content_ref === null) return;
    refs++;
    if (!n.content_ref.startsWith(prefix) || n.content_ref.includes('..')) foreign.push(n.content_ref);
    else if (!existsSync(join(root, n.content_ref))) missing.push(n.content_ref);
    else if (n.page_range) {
      const off = pagesOutside(readFileSync(join(root, n.content_ref), 'utf8'), n.page_range);
      if (off !== null) misplaced.push(`${n.content_ref} holds page ${off}, node ${n.node_id} covers ${n.page_range[0]}-${n.page_range[1]}`);
    }
  });
  out.nodeCounts.set(e.id, nodes);
  out.contentRefs += refs;
  const disagree: string[] = [];
  if (tree.id !== e.id) disagree.push(`tree id ${tree.id}`);
  if (tree.file !== e.original_path) disagree.push(`tree file ${tree.file}`);
  if (tree.node_count !== nodes) disagree.push(`tree says ${tree.node_count} nodes but holds ${nodes}`);
  if (e.node_count !== nodes) disagree.push(`catalog says ${e.node_count} nodes, tree holds ${nodes}`);
  if (e.pages !== undefined && tree.page_count !== undefined && e.pages !== tree.page_count) disagree.push(`catalog says ${e.pages} pages, tree ${tree.page_count}`);
  if (misplaced.length) disagree.push(`${misplaced.length} content file(s) hold pages outside their node: ${misplaced.slice(0, MAX_NAMED_FILES).join('; ')}`);
  if (disagree.length) out.problems.push(problem('tree_mismatch', 'error', e.id, `Tree of ${e.original_path} disagrees with the catalog: ${disagree.join('; ')}.`, REINGEST_FIX, reingest));
  if (foreign.length) {
    out.problems.push(problem('content_ref_outside', 'error', e.id, `Tree of ${e.original_path} points outside ${prefix}: ${foreign.slice(0, MAX_NAMED_FILES).join(', ')}.`, REINGEST_FIX, reingest));
  }
  const dir = join(root, convertedDir(e.id));
  if (refs > 0 && !existsSync(dir)) {
    out.problems.push(problem('converted_missing', 'error', e.id, `Converted folder ${convertedDir(e.id)}/ of ${e.original_path} is missing.`, REINGEST_FIX, reingest));
  } else if (missing.length) {
    const more = missing.length > MAX_NAMED_FILES ? ` and ${missing.length - MAX_NAMED_FILES} more` : '';
    out.problems.push(problem('content_missing', 'error', e.id, `${missing.length} content file(s) of ${e.original_path} are missing: ${missing.slice(0, MAX_NAMED_FILES).join(', ')}${more}.`, REINGEST_FIX, reingest));
  }
}

export function auditSources(root: string, entries: CatalogEntry[], cache: StatCache): SourceAudit {
  const out: SourceAudit = { problems: [], trees: 0, contentRefs: 0, nodeCounts: new Map() };
  const outdated = new Set(outdatedSources(entries).map((e) => e.id));
  const ctx = checkContext(root, entries);
  for (const e of entries) {
    const reingest = { kind: 'reingest' as const, id: e.id, path: e.original_path };
    if (/^(\.\.(\/|$)|\/)/.test(e.original_path)) {
      // recorded by an older version: a store path must never climb out of the store
      out.problems.push(problem('source_path_outside', 'error', e.id, `${e.original_path} is recorded with a path outside the store (an older MetadataHub did this for folders outside the store).`, 'run `mhub doctor --fix` (drops the entry), then `mhub ingest <that folder>` to record it as external/<name>/…', { kind: 'drop', id: e.id }));
      continue;
    }
    const file = checkCatalogued(root, e, cache, ctx);
    if (file.state === 'unreadable') {
      out.problems.push(problem('source_unreadable', 'warning', e.id, `Source file ${e.original_path} cannot be read (${file.reason ?? 'unknown reason'}), so it cannot be checked.`, 'fix its permissions (e.g. chmod u+r), or remove it and run `mhub ingest`', null));
    } else if (file.state === 'removed') {
      out.problems.push(problem('source_missing', 'error', e.id, `Source file ${e.original_path} no longer exists but is still catalogued.`, 'run `mhub doctor --fix` or `mhub ingest` (drops the entry and its files)', { kind: 'drop', id: e.id }));
    } else if (file.state === 'changed') {
      out.problems.push(problem('source_changed', 'error', e.id, `Source file ${e.original_path} changed since it was indexed (sha256 differs).`, REINGEST_FIX, reingest));
    } else if (outdated.has(e.id) && e.status !== 'failed') {
      out.problems.push(problem('converter_outdated', 'warning', e.id, `${e.original_path} was converted by ${e.converter ?? 'no converter'}; a newer converter is installed.`, REINGEST_FIX, reingest));
    }
    if (e.status === 'failed') {
      out.problems.push(problem('source_failed', 'warning', e.id, `${e.original_path} failed to ingest: ${e.error ?? 'no reason recorded'}`, 'fix or replace the file, then run `mhub ingest`', null));
    }
    if (e.status !== 'indexed') {
      for (const rel of [treePath(e.id), convertedDir(e.id)]) {
        if (existsSync(join(root, rel))) out.problems.push(problem('orphan', 'error', rel, `${rel} belongs to ${e.original_path}, which is ${e.status}, not indexed.`, `delete ${rel} (\`mhub doctor --fix\`)`, { kind: 'remove', path: rel }));
      }
      continue;
    }
    const { tree, problem: p } = loadTree(root, e);
    if (p) {
      out.problems.push(p);
      continue;
    }
    out.trees++;
    auditTree(root, e, tree!, out);
  }
  return out;
}

