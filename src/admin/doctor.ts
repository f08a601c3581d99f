/**
 * `mhub doctor`: audits the store and says, for each problem, what is wrong and how to fix it.
 * Healthy = no problem of severity `error`. `doctorFix` (doctor-fix.ts) repairs what is broken.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_FILE } from '../store/layout.js';
import { Catalog, Config } from '../store/schemas.js';
import { defaultConfig } from '../store/config.js';
import { normalizeCatalog } from '../store/catalog.js';
import { compareStrings } from '../store/json.js';
import { readStatCache } from '../ingest/stat-cache.js';
import { problem, type Problem } from './problems.js';
import { auditSources } from './doctor-sources.js';
import { auditJsonFiles, auditLock, auditOrphans } from './doctor-files.js';
import { auditKeywordIndex } from './doctor-keyword.js';
import { auditVectors } from './doctor-vectors.js';
import { auditLookup } from './doctor-lookup.js';

export interface DoctorReport {
  store: string;
  healthy: boolean;
  errors: number;
  warnings: number;
  checked: { sources: number; trees: number; content_refs: number; json_files: number; faiss_files: number; card_vectors: number | null; node_vectors: number | null; model: string | null };
  problems: Problem[];
}

function readCatalogForAudit(root: string, problems: Problem[]): Catalog | null {
  const abs = join(root, CATALOG_FILE);
  const manual = 'restore it from git (`git checkout catalog.json`), or move the store aside and re-ingest';
  if (!existsSync(abs)) return { schema_version: 1, generator: '', last_updated: null, source_count: 0, sources: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (err) {
    problems.push(problem('catalog_invalid', 'error', CATALOG_FILE, `${CATALOG_FILE} is not valid JSON: ${(err as Error).message}.`, manual, null));
    return null;
  }
  const parsed = Catalog.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    problems.push(problem('catalog_invalid', 'error', CATALOG_FILE, `${CATALOG_FILE} does not match its schema at ${i?.path.join('.') || '(root)'}: ${i?.message}.`, manual, null));
    return null;
  }
  const cat = parsed.data;
  const normal = normalizeCatalog(cat.sources);
  const ids = cat.sources.map((e) => e.id);
  if (new Set(ids).size !== ids.length) {
    problems.push(problem('catalog_invalid', 'error', CATALOG_FILE, `${CATALOG_FILE} lists the same source id twice.`, manual, null));
  } else if (normal.source_count !== cat.source_count || ids.join('\n') !== normal.sources.map((e) => e.id).join('\n')) {
    problems.push(problem('catalog_order', 'warning', CATALOG_FILE, `${CATALOG_FILE} is not in canonical form (source_count ${cat.source_count} for ${ids.length} entries, or entries not sorted by id).`, 'run `mhub ingest` (rewrites the catalog canonically)', null));
  }
  return cat;
}

function readConfigForAudit(root: string): Config {
  try {
    return Config.parse(JSON.parse(readFileSync(join(root, 'config.json'), 'utf8')));
  } catch {
    return defaultConfig(); // reported by the JSON audit
  }
}

const SEVERITY_ORDER: Record<string, number> = { error: 0, warning: 1 };

export async function doctor(root: string): Promise<DoctorReport> {
  const problems: Problem[] = [];
  const lock = auditLock(root);
  problems.push(...lock.problems);
  const json = auditJsonFiles(root);
  problems.push(...json.problems);
  const config = readConfigForAudit(root);
  const catalog = readCatalogForAudit(root, problems);
  const entries = catalog?.sources ?? null;
  const checked: DoctorReport['checked'] = {
    sources: entries?.length ?? 0, trees: 0, content_refs: 0, json_files: json.checked + (existsSync(join(root, CATALOG_FILE)) ? 1 : 0),
    faiss_files: 0, card_vectors: null, node_vectors: null, model: null,
  };
  if (entries) {
    const src = auditSources(root, entries, readStatCache(root));
    problems.push(...src.problems);
    checked.trees = src.trees;
    checked.json_files += src.trees;
    checked.content_refs = src.contentRefs;
    problems.push(...auditOrphans(root, entries, lock.live));
    problems.push(...auditKeywordIndex(root, entries, src.nodeCounts).problems);
    problems.push(...auditLookup(root, catalog!));
    const vec = await auditVectors(root, config, entries, src.nodeCounts);
    problems.push(...vec.problems);
    checked.faiss_files = vec.faissFiles;
    checked.card_vectors = vec.cardRows;
    checked.node_vectors = vec.nodeRows;
    checked.model = vec.model;
  }
  // One problem per (code, subject): a source with several symptoms is repaired once anyway.
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = `${p.code}\0${p.subject}\0${p.message}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
  unique.sort((a, b) => (SEVERITY_ORDER[a.severity]! - SEVERITY_ORDER[b.severity]!) || compareStrings(a.subject, b.subject) || compareStrings(a.code, b.code));
  const errors = unique.filter((p) => p.severity === 'error').length;
  return { store: root, healthy: errors === 0, errors, warnings: unique.length - errors, checked, problems: unique };
}

export function formatDoctor(r: DoctorReport): string {
  const c = r.checked;
  const vec = c.card_vectors === null ? 'no vectors' : `${c.card_vectors} card vectors, ${c.node_vectors ?? 0} node vectors (${c.model ?? 'model unknown'})`;
  const lines = [`Checked ${c.sources} sources, ${c.trees} trees, ${c.content_refs} content files, ${c.json_files} JSON files, ${c.faiss_files} FAISS files; ${vec}.`];
  for (const p of r.problems) {
    lines.push(`${p.severity === 'error' ? 'ERROR' : 'warn '} [${p.code}] ${p.message}`);
    lines.push(`      fix: ${p.fix}`);
  }
  lines.push(r.healthy ? `Healthy${r.warnings ? ` (${r.warnings} warning${r.warnings > 1 ? 's' : ''})` : ''}.` : `Unhealthy: ${r.errors} error(s), ${r.warnings} warning(s). \`mhub doctor --fix\` repairs those marked fixable.`);
  return lines.join('\n');
}
