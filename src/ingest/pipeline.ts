/**
 * The ingest pipeline: scan → detect → (skip unchanged) → plan → convert → enrich → tree →
 * write converted files and trees → index builders → catalog (last). Crash-safe: every file is
 * written by temp+rename, the catalog only after everything it points to exists.
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { acquireLock } from '../store/lock.js';
import { loadConfig } from '../store/config.js';
import { readCatalog, writeCatalog } from '../store/catalog.js';
import { writeIfChanged } from '../store/atomic.js';
import { canonicalJson, compareStrings } from '../store/json.js';
import { CatalogEntry, TreeFile, type Config, type FileCard, type Strategy } from '../store/schemas.js';
import { convertedDir, treePath } from '../store/layout.js';
import { errorMessage } from '../store/errors.js';
import { scanPaths, type ScannedFile } from './scan.js';
import { sourceIdFor } from './ids.js';
import { detectFile, type Detected } from './detect.js';
import { expandArchives, detectMember, sourceStillExists } from './archive-members.js';
import { takeSample } from './plan/sample.js';
import { converterFor, converterTagFor, skipReasonFor } from './converters/index.js';
import { ConvertError, type ConvertResult } from './converters/types.js';
import { materializeTree } from './tree/materialize.js';
import { leadSummary } from './tree/summarize.js';
import { readStatCache, writeStatCache } from './stat-cache.js';
import { resolveStages, type Stages } from './stages/registry.js';
import type { IndexBuildReport } from './stages/hooks.js';

export type SourceAction = 'added' | 'updated' | 'unchanged' | 'removed';

export interface SourceReport {
  id: string;
  file: string;
  type: string;
  action: SourceAction;
  status: 'indexed' | 'skipped' | 'failed';
  error?: string;
  pages?: number;
  nodes?: number;
  ms?: number;
}

export interface IngestReport {
  store: string;
  sources: SourceReport[];
  counts: { added: number; updated: number; unchanged: number; removed: number; indexed: number; skipped: number; failed: number };
  pages: number;
  seconds: number;
  pages_per_second: number;
  llm: string;
  llm_usage: string[];
  indexes: IndexBuildReport[];
  warnings: string[];
}

export interface ProgressEvent {
  done: number;
  total: number;
  file: string;
  pages: number;
  elapsedMs: number;
}

export interface IngestOptions {
  paths: string[];
  cwd?: string;
  llm?: string | undefined;
  maxCalls?: number | undefined;
  onProgress?: (ev: ProgressEvent) => void;
  log?: (message: string) => void;
  /** forces re-processing of every source */
  force?: boolean;
  /** clock for indexed_at (tests) */
  now?: () => Date;
}

const converterTag = converterTagFor;

function isUnchanged(prev: CatalogEntry | undefined, sha: string, force: boolean): boolean {
  if (!prev || force) return false;
  return prev.indexed_from_sha256 === sha && prev.sha256 === sha && prev.converter === converterTag(prev.type);
}

/** Remove files under converted/<id>/ that the new conversion did not produce. */
function pruneConverted(root: string, id: string, keep: Set<string>): void {
  const dir = join(root, convertedDir(id));
  if (!existsSync(dir)) return;
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs)) {
      const a = join(abs, name);
      const r = `${rel}/${name}`;
      if (statSync(a).isDirectory()) {
        walk(a, r);
        if (readdirSync(a).length === 0) rmSync(a, { recursive: true, force: true });
      } else if (!keep.has(r)) rmSync(a, { force: true });
    }
  };
  walk(dir, convertedDir(id));
}

function removeSourceFiles(root: string, id: string): void {
  rmSync(join(root, convertedDir(id)), { recursive: true, force: true });
  rmSync(join(root, treePath(id)), { force: true });
}

function baseEntry(card: FileCard, now: string): CatalogEntry {
  return CatalogEntry.parse({
    ...card,
    status: 'skipped',
    error: null,
    strategy: null,
    title: card.filename,
    summary: '',
    tree_path: null,
    converted_path: null,
    converter: converterTag(card.type),
    indexed_from_sha256: card.sha256,
    indexed_at: now,
  });
}

/** Build the catalog entry and store files for one source. Never throws for bad input: returns a failed entry. */
async function processSource(root: string, file: ScannedFile, det: Detected, stages: Stages, config: Config, now: string): Promise<{ entry: CatalogEntry; pages: number }> {
  const entry = baseEntry(det.card, now);
  if (det.broken) {
    return { entry: { ...entry, status: 'failed', error: det.broken }, pages: 0 };
  }
  const sample = takeSample(det.card, det.bytes);
  let plan: Strategy;
  try {
    plan = await stages.planner.plan(sample);
  } catch {
    plan = await (await import('./stages/registry.js')).offlinePlanner.plan(sample);
  }
  entry.strategy = plan;
  const converter = converterFor(det.card.type);
  if (!converter) {
    return { entry: { ...entry, status: 'skipped', error: skipReasonFor(det.card.type) }, pages: 0 };
  }
  let result: ConvertResult;
  try {
    result = await converter.convert({ absPath: file.abs, card: det.card, plan, bytes: det.bytes, options: { maxLeafPages: config.ingest.max_leaf_pages } });
  } catch (err) {
    const hint = err instanceof ConvertError && err.hint ? ` ${err.hint}` : '';
    const msg = err instanceof ConvertError ? err.message : `Conversion failed unexpectedly: ${errorMessage(err)}`;
    return { entry: { ...entry, status: 'failed', error: msg + hint }, pages: 0 };
  }
  if (result.pages !== undefined) entry.pages = result.pages;
  if (result.approach) entry.strategy = { ...plan, recommended_approach: result.approach };
  if (result.skip_reason) {
    removeSourceFiles(root, det.card.id);
    return { entry: { ...entry, status: 'skipped', error: result.skip_reason }, pages: result.pages ?? 0 };
  }
  let llm: CatalogEntry['llm'] | undefined;
  for (const e of stages.enrichers) {
    try {
      const out = await e.enrich({ card: det.card, plan: entry.strategy!, result, bytes: det.bytes });
      result = out.result;
      if (out.llm) llm = out.llm;
    } catch {
      /* enrichers must not fail a document; the offline result stands */
    }
  }
  const { tree, files, leadText } = materializeTree(det.card, entry.strategy!.recommended_approach, result);
  const keep = new Set<string>();
  for (const [rel, content] of files) {
    writeIfChanged(join(root, rel), content);
    keep.add(rel);
  }
  pruneConverted(root, det.card.id, keep);
  writeIfChanged(join(root, treePath(det.card.id)), canonicalJson(TreeFile.parse(tree)));
  const card = result.card ?? {};
  // The converter's own card or root summary wins; else the opening prose; else the root's list of sections.
  const summary = card.summary || result.root.summary || leadSummary(leadText) || tree.root.summary || result.title;
  return {
    entry: CatalogEntry.parse({
      ...entry,
      status: 'indexed',
      error: null,
      title: card.title || result.title,
      summary,
      doc_type: card.doc_type ?? '',
      period: card.period ?? '',
      date: card.date ?? '',
      key_topics: card.key_topics ?? [],
      sections_overview: card.sections_overview ?? tree.root.children.map((c) => c.title).slice(0, 20),
      meta: result.meta,
      tree_path: treePath(det.card.id),
      converted_path: convertedDir(det.card.id),
      node_count: tree.node_count,
      toc_source: tree.toc_source,
      ...(llm ? { llm } : {}),
    }),
    pages: result.pages ?? 0,
  };
}

/** A source being converted concurrently; committed to the catalog in scan order. */
interface ConversionSlot {
  id: string;
  rel: string;
  prev: CatalogEntry | undefined;
  ms: number;
  out?: { entry: CatalogEntry; pages: number };
  err?: unknown;
}

/** Sources converted at once: `config.ingest.workers`, or the number of cores when 0 (the default). */
export function ingestConcurrency(config: Config): number {
  return config.ingest.workers > 0 ? config.ingest.workers : Math.max(1, availableParallelism());
}

/**
 * The reproducible-builds convention: with SOURCE_DATE_EPOCH (seconds) set, every timestamp written
 * is that instant, so a store rebuilt from scratch is byte-identical to the committed one.
 */
function clockFromEnv(): Date | null {
  const raw = process.env['SOURCE_DATE_EPOCH'];
  if (!raw || !/^\d+$/.test(raw)) return null;
  return new Date(Number(raw) * 1000);
}

export async function ingest(root: string, opts: IngestOptions): Promise<IngestReport> {
  const started = Date.now();
  const log = opts.log ?? (() => {});
  const nowIso = () => (opts.now ? opts.now() : clockFromEnv() ?? new Date()).toISOString();
  const release = acquireLock(root, `ingest ${opts.paths.join(' ')}`);
  try {
    const config = loadConfig(root);
    const catalog = readCatalog(root);
    const prevById = new Map(catalog.sources.map((e) => [e.id, e]));
    const taken = new Map(catalog.sources.map((e) => [e.id, e.original_path]));
    const statCache = readStatCache(root);
    const files = await expandArchives(scanPaths(root, opts.paths, opts.cwd, config.ingest.exclude).files);
    const stages = await resolveStages(root, config, { llm: opts.llm, maxCalls: opts.maxCalls, log });

    const next = new Map<string, CatalogEntry>();
    const reports: SourceReport[] = [];
    const changed = new Set<string>();
    let pages = 0;
    let done = 0;
    const seenIds = new Set<string>();

    const concurrency = ingestConcurrency(config);
    const running = new Set<Promise<void>>();
    const converting: ConversionSlot[] = [];
    let pagesSoFar = 0;
    for (const file of files) {
      const t0 = Date.now();
      const id = sourceIdFor(file.rel, taken);
      seenIds.add(id);
      const prev = prevById.get(id);
      opts.onProgress?.({ done, total: files.length, file: file.rel, pages, elapsedMs: Date.now() - started });
      // Fast path: size+mtime match the stat cache and the catalog entry is current.
      const st = statSync(file.abs);
      const cached = statCache.files[file.rel];
      if (!opts.force && prev && cached && cached.size === st.size && cached.mtime_ms === st.mtimeMs && isUnchanged(prev, cached.sha256, false)) {
        next.set(id, prev);
        reports.push({ id, file: file.rel, type: prev.type, action: 'unchanged', status: prev.status, ...(prev.pages ? { pages: prev.pages } : {}) });
        done++;
        continue;
      }
      let det: Detected;
      try {
        det = file.member ? await detectMember(file, id) : detectFile(file.abs, file.rel, id);
      } catch (err) {
        const entry = CatalogEntry.parse({
          id, filename: file.rel.split('/').pop(), original_path: file.rel, type: 'unknown', size_kb: 0, sha256: '0'.repeat(64),
          status: 'failed', error: `Could not read the file: ${errorMessage(err)}`, strategy: null, title: file.rel, summary: '',
          tree_path: null, converted_path: null, converter: null, indexed_from_sha256: null, indexed_at: nowIso(),
        });
        next.set(id, entry);
        reports.push({ id, file: file.rel, type: 'unknown', action: prev ? 'updated' : 'added', status: 'failed', error: entry.error! });
        done++;
        continue;
      }
      statCache.files[file.rel] = { size: det.size, mtime_ms: det.mtimeMs, sha256: det.card.sha256 };
      if (isUnchanged(prev, det.card.sha256, !!opts.force)) {
        next.set(id, prev!);
        reports.push({ id, file: file.rel, type: prev!.type, action: 'unchanged', status: prev!.status, ...(prev!.pages ? { pages: prev!.pages } : {}) });
        done++;
        continue;
      }
      // Conversions of up to `concurrency` sources run at once (PDFs parse in worker threads);
      // their results are committed after the loop in scan order, so the store is deterministic.
      while (running.size >= concurrency) await Promise.race(running);
      const slot: ConversionSlot = { id, rel: file.rel, prev, ms: 0 };
      converting.push(slot);
      const task: Promise<void> = processSource(root, file, det, stages, config, nowIso())
        .then((out) => { slot.out = out; }, (err: unknown) => { slot.err = err; })
        .finally(() => {
          running.delete(task);
          slot.ms = Date.now() - t0;
          done++;
          pagesSoFar += slot.out?.pages ?? 0;
          opts.onProgress?.({ done, total: files.length, file: file.rel, pages: pagesSoFar, elapsedMs: Date.now() - started });
        });
      running.add(task);
    }
    await Promise.all(running);
    for (const slot of converting) {
      if (slot.err !== undefined) throw slot.err;
      const { id, prev } = slot;
      const { entry, pages: p } = slot.out!;
      if (entry.status !== 'indexed') removeSourceFiles(root, id);
      pages += p;
      next.set(id, entry);
      changed.add(id);
      reports.push({
        id, file: slot.rel, type: entry.type, action: prev ? 'updated' : 'added', status: entry.status,
        ...(entry.error ? { error: entry.error } : {}), ...(p ? { pages: p } : {}), nodes: entry.node_count, ms: slot.ms,
      });
    }

    // Entries not seen in this scan: keep them while their file exists elsewhere, drop them when it is gone.
    const removed = new Set<string>();
    const scannedRels = new Set(files.map((f) => f.rel));
    for (const prev of catalog.sources) {
      if (seenIds.has(prev.id)) continue;
      if (sourceStillExists(root, prev.original_path, scannedRels)) {
        next.set(prev.id, prev);
      } else {
        removeSourceFiles(root, prev.id);
        removed.add(prev.id);
        delete statCache.files[prev.original_path];
        reports.push({ id: prev.id, file: prev.original_path, type: prev.type, action: 'removed', status: prev.status });
      }
    }

    let entries = [...next.values()].sort((a, b) => compareStrings(a.id, b.id));
    const warnings: string[] = [];
    for (const c of stages.curators) {
      try {
        entries = await c.curate(entries, log);
      } catch (err) {
        warnings.push(`curation (${c.name}) failed: ${errorMessage(err)}; offline tags kept`);
      }
    }
    const treeCache = new Map<string, TreeFile | null>();
    const loadTree = (id: string): TreeFile | null => {
      if (treeCache.has(id)) return treeCache.get(id)!;
      const e = next.get(id);
      let t: TreeFile | null = null;
      if (e?.tree_path) {
        try {
          t = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path), 'utf8')));
        } catch {
          t = null;
        }
      }
      treeCache.set(id, t);
      return t;
    };
    const indexes: IndexBuildReport[] = [];
    for (const b of stages.indexBuilders) {
      try {
        indexes.push(await b.build({ root, config, entries, changed, removed, loadTree, log }));
      } catch (err) {
        warnings.push(`index ${b.name} not rebuilt: ${errorMessage(err)}`);
      }
    }
    for (const ix of indexes) warnings.push(...(ix.warnings ?? []));
    writeCatalog(root, entries);
    writeStatCache(root, statCache);
    const llm_usage = await stages.finish();

    reports.sort((a, b) => compareStrings(a.file, b.file));
    const count = (f: (r: SourceReport) => boolean) => reports.filter(f).length;
    const seconds = (Date.now() - started) / 1000;
    return {
      store: root,
      sources: reports,
      counts: {
        added: count((r) => r.action === 'added'),
        updated: count((r) => r.action === 'updated'),
        unchanged: count((r) => r.action === 'unchanged'),
        removed: count((r) => r.action === 'removed'),
        indexed: count((r) => r.action !== 'removed' && r.status === 'indexed'),
        skipped: count((r) => r.action !== 'removed' && r.status === 'skipped'),
        failed: count((r) => r.action !== 'removed' && r.status === 'failed'),
      },
      pages,
      seconds: Math.round(seconds * 100) / 100,
      pages_per_second: seconds > 0 ? Math.round((pages / seconds) * 10) / 10 : 0,
      llm: stages.llmNote,
      llm_usage,
      indexes,
      warnings,
    };
  } finally {
    release();
  }
}

