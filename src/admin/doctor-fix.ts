/**
 * `mhub doctor --fix`: redo only what is broken, then audit again.
 * Order: stale lock → orphans and temp files → re-ingest the affected sources (their paths, forced;
 * entries whose file is gone are dropped by the same run) → rebuild the store-wide indexes when
 * they are still broken. Problems that need a person (invalid config, unreadable catalog) are left.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE, LOOKUP_DIR, VECTOR_DIR, convertedDir, treePath } from '../store/layout.js';
import { readCatalog, writeCatalog } from '../store/catalog.js';
import { loadConfig } from '../store/config.js';
import { acquireLock } from '../store/lock.js';
import { resolveInStore } from '../store/safe-path.js';
import { readExternalRoots, sourceDiskPath } from '../store/source-path.js';
import { TreeFile, type CatalogEntry } from '../store/schemas.js';
import { rebuildLookup } from '../store/lookup.js';
import { UserError, errorMessage } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { ingest } from '../ingest/pipeline.js';
import { defaultIndexBuilders } from '../indexing/builders.js';
import { doctor, type DoctorReport } from './doctor.js';
import type { Problem } from './problems.js';

export interface FixAction {
  action: string;
  subject: string;
  ok: boolean;
  detail?: string;
}

export interface FixReport {
  before: DoctorReport;
  actions: FixAction[];
  after: DoctorReport;
}

/** Rebuild keyword and vector indexes for every indexed source, from trees and cards (no re-conversion). */
export async function rebuildIndexes(root: string, log: (m: string) => void = () => {}): Promise<string[]> {
  const release = acquireLock(root, 'doctor --fix (rebuild indexes)');
  try {
    const config = loadConfig(root);
    const entries = readCatalog(root).sources;
    // Whole vector files are rebuilt from scratch: a truncated or mismatched file is never reused.
    const dir = join(root, VECTOR_DIR);
    if (existsSync(dir)) {
      for (const f of readdirSync(dir)) if (f.endsWith('.faiss') || f.endsWith('.json') || f.endsWith('.bin')) rmSync(join(dir, f), { force: true });
    }
    const changed = new Set(entries.filter((e) => e.status === 'indexed').map((e) => e.id));
    const cache = new Map<string, TreeFile | null>();
    const loadTree = (id: string): TreeFile | null => {
      if (cache.has(id)) return cache.get(id)!;
      const e = entries.find((x) => x.id === id);
      let t: TreeFile | null = null;
      try {
        if (e?.tree_path) t = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path), 'utf8')));
      } catch {
        t = null;
      }
      cache.set(id, t);
      return t;
    };
    const summaries: string[] = [];
    for (const b of defaultIndexBuilders(config)) {
      const r = await b.build({ root, config, entries, changed, removed: new Set(), loadTree, log });
      summaries.push(`${r.name}: ${r.summary}`);
    }
    return summaries;
  } finally {
    release();
  }
}

type Repairs = Array<NonNullable<Problem['repair']>>;

/** The stale lock and the files to delete (orphans, temp files). */
function unlockAndRemove(root: string, repairs: Repairs, actions: FixAction[]): void {
  if (repairs.some((r) => r.kind === 'unlock')) {
    rmSync(join(root, LOCK_FILE), { force: true });
    actions.push({ action: 'unlock', subject: LOCK_FILE, ok: true });
  }
  for (const r of repairs) {
    if (r.kind !== 'remove') continue;
    try {
      rmSync(resolveInStore(root, r.path), { recursive: true, force: true });
      actions.push({ action: 'remove', subject: r.path, ok: true });
    } catch (err) {
      actions.push({ action: 'remove', subject: r.path, ok: false, detail: errorMessage(err) });
    }
  }
}

/** No source file left at all: drop the entries directly (the indexes are rebuilt afterwards). */
function dropDirectly(root: string, entries: CatalogEntry[], drops: string[], actions: FixAction[]): void {
  const release = acquireLock(root, 'doctor --fix (drop sources)');
  try {
    for (const id of drops) {
      rmSync(join(root, convertedDir(id)), { recursive: true, force: true });
      rmSync(join(root, treePath(id)), { force: true });
    }
    writeCatalog(root, entries.filter((e) => !drops.includes(e.id)));
  } finally {
    release();
  }
  for (const id of drops) actions.push({ action: 'drop', subject: id, ok: true });
}

/**
 * Re-ingest the sources to redo (their paths, forced) and drop the entries whose file is gone (the
 * same ingest drops them). Returns whether an ingest ran and the ids dropped.
 */
async function reingestAndDrop(root: string, repairs: Repairs, actions: FixAction[], log: (m: string) => void): Promise<{ ingested: boolean; drops: string[] }> {
  const reingest = [...new Map(repairs.filter((r) => r.kind === 'reingest').map((r) => [r.id, r.path])).entries()];
  const drops = [...new Set(repairs.filter((r) => r.kind === 'drop').map((r) => r.id))];
  if (reingest.length === 0 && drops.length === 0) return { ingested: false, drops };
  const entries = readCatalog(root).sources;
  const roots = readExternalRoots(root);
  const disk = (p: string) => sourceDiskPath(root, p, roots);
  // an archive member is redone by re-ingesting its archive
  const paths = [...new Set(reingest.map(([, p]) => disk(p)))].filter((p) => existsSync(p));
  // An ingest drops entries whose file is gone; give it one existing, unchanged source if nothing else.
  const anchor = paths.length === 0 ? entries.find((e) => !drops.includes(e.id) && existsSync(disk(e.original_path))) : undefined;
  try {
    if (paths.length === 0 && !anchor) {
      dropDirectly(root, entries, drops, actions);
      return { ingested: false, drops };
    }
    const report = await ingest(root, { paths: paths.length > 0 ? paths : [disk(anchor!.original_path)], force: paths.length > 0, log });
    for (const [id, p] of reingest) actions.push({ action: 'reingest', subject: `${id} (${p})`, ok: true });
    for (const id of drops) actions.push({ action: 'drop', subject: id, ok: report.sources.some((s) => s.id === id && s.action === 'removed') });
    return { ingested: true, drops };
  } catch (err) {
    actions.push({ action: 'reingest', subject: reingest.map(([, p]) => p).join(', ') || drops.join(', '), ok: false, detail: errorMessage(err) });
    return { ingested: false, drops };
  }
}

/** Index problems an ingest may already have repaired: audit again and rebuild only if still broken. */
async function reindexIfBroken(root: string, repairs: Repairs, done: { ingested: boolean; drops: string[] }, actions: FixAction[], log: (m: string) => void): Promise<void> {
  const needsIndex = repairs.some((r) => r.kind === 'reindex');
  if (!needsIndex && !(done.drops.length > 0 && !done.ingested)) return;
  const mid = done.ingested ? await doctor(root) : null;
  if (mid && !mid.problems.some((p) => p.repair?.kind === 'reindex' && p.severity === 'error')) return;
  try {
    const summaries = await rebuildIndexes(root, log);
    actions.push({ action: 'reindex', subject: VECTOR_DIR, ok: true, detail: summaries.join('; ') });
  } catch (err) {
    actions.push({ action: 'reindex', subject: VECTOR_DIR, ok: false, detail: errorMessage(err) });
  }
}

/** lookup/ rewritten from catalog.json as it is (an ingest that ran has already done it). */
function fixLookup(root: string, repairs: Repairs, ingested: boolean, actions: FixAction[]): void {
  if (ingested || !repairs.some((r) => r.kind === 'lookup')) return;
  const release = acquireLock(root, 'doctor --fix (lookup)');
  try {
    rebuildLookup(root, readCatalog(root));
    actions.push({ action: 'lookup', subject: LOOKUP_DIR, ok: true });
  } catch (err) {
    actions.push({ action: 'lookup', subject: LOOKUP_DIR, ok: false, detail: errorMessage(err) });
  } finally {
    release();
  }
}

export async function doctorFix(root: string, log: (m: string) => void = () => {}): Promise<FixReport> {
  const before = await doctor(root);
  const running = before.problems.find((p) => p.code === 'lock_held');
  if (running) throw new UserError(`Not repairing while an ingest runs: ${running.message}`, 'Wait for it to finish, then run `mhub doctor --fix` again.', EXIT.LOCKED);
  const actions: FixAction[] = [];
  const repairs: Repairs = before.problems.map((p) => p.repair).filter((r) => r !== null);
  unlockAndRemove(root, repairs, actions);
  const done = await reingestAndDrop(root, repairs, actions, log);
  await reindexIfBroken(root, repairs, done, actions, log);
  fixLookup(root, repairs, done.ingested, actions);
  const after = await doctor(root);
  return { before, actions, after };
}

export function formatFix(r: FixReport): string {
  const lines: string[] = [];
  if (r.before.problems.length === 0) lines.push('Nothing to fix.');
  for (const a of r.actions) lines.push(`${a.ok ? 'fixed' : 'FAILED'}: ${a.action} ${a.subject}${a.detail ? ` — ${a.detail}` : ''}`);
  return lines.join('\n');
}
