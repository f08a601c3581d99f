/**
 * The per-source checkpoint of an ingest: each source settled by the source stages (converted,
 * skipped or failed) is appended to `.mhub/ingest-journal.jsonl` as soon as its files are written.
 * A run killed before its catalog was written (Ctrl-C, SIGTERM, kill -9) leaves the journal; the
 * next run reads it over the catalog, so those sources count as done and only the rest is redone.
 * The commit stage removes the journal after writing the catalog. A torn last line is ignored.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LOCAL_DIR } from '../store/layout.js';
import { CatalogEntry, type StatCache } from '../store/schemas.js';

export const JOURNAL_FILE = `${LOCAL_DIR}/ingest-journal.jsonl`;

type StatRecord = StatCache['files'][string];

export interface JournalLine {
  entry: CatalogEntry;
  /** the stat-cache record of the source's file, when it was read */
  stat?: { rel: string } & StatRecord;
}

export function appendJournal(root: string, line: JournalLine): void {
  mkdirSync(join(root, LOCAL_DIR), { recursive: true });
  appendFileSync(join(root, JOURNAL_FILE), JSON.stringify(line) + '\n');
}

/** Entries settled by an interrupted run, in the order they were written (later lines win). */
export function readJournal(root: string): JournalLine[] {
  const p = join(root, JOURNAL_FILE);
  if (!existsSync(p)) return [];
  const out: JournalLine[] = [];
  for (const raw of readFileSync(p, 'utf8').split('\n')) {
    if (!raw.trim()) continue;
    try {
      const j = JSON.parse(raw) as JournalLine;
      out.push({ entry: CatalogEntry.parse(j.entry), ...(j.stat ? { stat: j.stat } : {}) });
    } catch {
      /* a torn or damaged line: that source is simply redone */
    }
  }
  return out;
}

export function clearJournal(root: string): void {
  rmSync(join(root, JOURNAL_FILE), { force: true });
}
