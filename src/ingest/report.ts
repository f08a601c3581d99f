/** The report of an ingest run: one line per source, counts, pages per second, warnings. */
import { compareStrings } from '../store/json.js';
import type { IngestReport, IngestRun, SourceReport } from './run.js';
import { fallbackWarnings } from './fallbacks.js';

function counts(reports: SourceReport[]): IngestReport['counts'] {
  const count = (f: (r: SourceReport) => boolean) => reports.filter(f).length;
  const kept = (status: SourceReport['status']) => count((r) => r.action !== 'removed' && r.status === status);
  return {
    added: count((r) => r.action === 'added'),
    updated: count((r) => r.action === 'updated'),
    unchanged: count((r) => r.action === 'unchanged'),
    removed: count((r) => r.action === 'removed'),
    indexed: kept('indexed'),
    skipped: kept('skipped'),
    failed: kept('failed'),
  };
}

export function buildReport(run: IngestRun, llmUsage: string[]): IngestReport {
  const sources = [...run.reports].sort((a, b) => compareStrings(a.file, b.file));
  const seconds = (Date.now() - run.started) / 1000;
  return {
    store: run.root,
    sources,
    counts: counts(sources),
    pages: run.pages,
    seconds: Math.round(seconds * 100) / 100,
    pages_per_second: seconds > 0 ? Math.round((run.pages / seconds) * 10) / 10 : 0,
    llm: run.stages.llmNote,
    llm_usage: llmUsage,
    indexes: run.indexes,
    phases: run.phases,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    warnings: [...fallbackWarnings(run), ...run.warnings],
    not_ingested: [...run.notices].sort((a, b) => compareStrings(a.path, b.path)),
  };
}
