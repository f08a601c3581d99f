/**
 * `mhub doctor --fix`: redo only what is broken, then audit again.
 * Order: stale lock → orphans and temp files → re-ingest the affected sources (their paths, forced;
 * entries whose file is gone are dropped by the same run) → rebuild the store-wide indexes when
 * they are still broken. Problems that need a person (invalid config, unreadable catalog) are left.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_FILE, VECTOR_DIR, convertedDir, treePath } from '../store/layout.js';
import { readCatalog, writeCatalog } from '../store/catalog.js';
import { loadConfig } from '../store/config.js';
import { acquireLock } from '../store/lock.js';
import { resolveInStore } from '../store/safe-path.js';
import { readExternalRoots, sourceDiskPath } from '../store/source-path.js';
import { TreeFile } from '../store/schemas.js';
import { UserError, errorMessage } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { ingest } from '../ingest/pipeline.js';
import { defaultIndexBuilders } from '../indexing/builders.js';
import { doctor, type DoctorReport } from './doctor.js';

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

export async function doctorFix(root: string, log: (m: string) => void = () => {}): Promise<FixReport> {
  const before = await doctor(root);
  const running = before.problems.find((p) => p.code === 'lock_held');
  if (running) throw new UserError(`Not repairing while an ingest runs: ${running.message}`, 'Wait for it to finish, then run `mhub doctor --fix` again.', EXIT.LOCKED);
  const actions: FixAction[] = [];
  const repairs = before.problems.map((p) => p.repair).filter((r) => r !== null);

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

  const reingest = [...new Map(repairs.filter((r) => r.kind === 'reingest').map((r) => [r.id, r.path])).entries()];
  const drops = [...new Set(repairs.filter((r) => r.kind === 'drop').map((r) => r.id))];
  let ingested = false;
  if (reingest.length > 0 || drops.length > 0) {
    const entries = readCatalog(root).sources;
    const roots = readExternalRoots(root);
    const disk = (p: string) => sourceDiskPath(root, p, roots);
    // an archive member is redone by re-ingesting its archive
    const paths = [...new Set(reingest.map(([, p]) => disk(p)))].filter((p) => existsSync(p));
    // An ingest drops entries whose file is gone; give it one existing, unchanged source if nothing else.
    const anchor = paths.length === 0 ? entries.find((e) => !drops.includes(e.id) && existsSync(disk(e.original_path))) : undefined;
    try {
      if (paths.length > 0 || anchor) {
        const report = await ingest(root, { paths: paths.length > 0 ? paths : [disk(anchor!.original_path)], force: paths.length > 0, log });
        ingested = true;
        for (const [id, p] of reingest) actions.push({ action: 'reingest', subject: `${id} (${p})`, ok: true });
        for (const id of drops) actions.push({ action: 'drop', subject: id, ok: report.sources.some((s) => s.id === id && s.action === 'removed') });
      } else {
        // No source file left at all: drop the entries directly, then rebuild the indexes below.
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
    } catch (err) {
      actions.push({ action: 'reingest', subject: reingest.map(([, p]) => p).join(', ') || drops.join(', '), ok: false, detail: errorMessage(err) });
    }
  }

  // Index problems an ingest may already have repaired: audit again and rebuild only if still broken.
  const needsIndex = repairs.some((r) => r.kind === 'reindex');
  if (needsIndex || (drops.length > 0 && !ingested)) {
    const mid = ingested ? await doctor(root) : null;
    if (!mid || mid.problems.some((p) => p.repair?.kind === 'reindex' && p.severity === 'error') || !ingested) {
      try {
        const summaries = await rebuildIndexes(root, log);
        actions.push({ action: 'reindex', subject: VECTOR_DIR, ok: true, detail: summaries.join('; ') });
      } catch (err) {
        actions.push({ action: 'reindex', subject: VECTOR_DIR, ok: false, detail: errorMessage(err) });
      }
    }
  }
  const after = await doctor(root);
  return { before, actions, after };
}

export function formatFix(r: FixReport): string {
  const lines: string[] = [];
  if (r.before.problems.length === 0) lines.push('Nothing to fix.');
  for (const a of r.actions) lines.push(`${a.ok ? 'fixed' : 'FAILED'}: ${a.action} ${a.subject}${a.detail ? ` — ${a.detail}` : ''}`);
  return lines.join('\n');
}
