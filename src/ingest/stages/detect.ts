/**
 * Detect stage: is the source unchanged (stat cache, then hash)? If not, read and classify it and
 * open its catalog entry. Files that cannot be read or are broken are settled as failed here.
 */
import { statSync } from 'node:fs';
import { CatalogEntry, type FileCard } from '../../store/schemas.js';
import { errorMessage } from '../../store/errors.js';
import { detectFile } from '../detect.js';
import { detectMember } from '../archive-members.js';
import { converterTagFor } from '../converters/index.js';
import { settle, type SourceJob, type SourceStage } from './types.js';
import type { IngestRun } from '../run.js';

/** The catalog entry is current for this content and converter. */
export function isUnchanged(prev: CatalogEntry | undefined, sha: string, force: boolean): boolean {
  if (!prev || force) return false;
  return prev.indexed_from_sha256 === sha && prev.sha256 === sha && prev.converter === converterTagFor(prev.type);
}

/** A new entry for a detected file, before planning and conversion. */
export function baseEntry(card: FileCard, now: string): CatalogEntry {
  return CatalogEntry.parse({
    ...card,
    status: 'skipped',
    error: null,
    strategy: null,
    title: card.filename,
    summary: '',
    tree_path: null,
    converted_path: null,
    converter: converterTagFor(card.type),
    indexed_from_sha256: card.sha256,
    indexed_at: now,
  });
}

/** Size and mtime match the stat cache and the catalog entry is current: no need to read the file. */
function statUnchanged(job: SourceJob, run: IngestRun): boolean {
  const cached = run.statCache.files[job.file.rel];
  if (run.opts.force || !job.prev || !cached) return false;
  const st = statSync(job.file.abs);
  return cached.size === st.size && cached.mtime_ms === st.mtimeMs && isUnchanged(job.prev, cached.sha256, false);
}

function unreadable(job: SourceJob, err: unknown, now: string): CatalogEntry {
  const rel = job.file.rel;
  return CatalogEntry.parse({
    id: job.id, filename: rel.split('/').pop(), original_path: rel, type: 'unknown', size_kb: 0, sha256: '0'.repeat(64),
    status: 'failed', error: `Could not read the file: ${errorMessage(err)}`, strategy: null, title: rel, summary: '',
    tree_path: null, converted_path: null, converter: null, indexed_from_sha256: null, indexed_at: now,
  });
}

export const detectStage: SourceStage = {
  name: 'detect',
  async run(job, run) {
    if (statUnchanged(job, run)) return settle(job, job.prev!, 0, 'unchanged');
    try {
      job.det = job.file.member ? await detectMember(job.file, job.id) : detectFile(job.file.abs, job.file.rel, job.id);
    } catch (err) {
      return settle(job, unreadable(job, err, run.nowIso()), 0, 'unread');
    }
    const det = job.det;
    run.statCache.files[job.file.rel] = { size: det.size, mtime_ms: det.mtimeMs, sha256: det.card.sha256 };
    if (isUnchanged(job.prev, det.card.sha256, !!run.opts.force)) return settle(job, job.prev!, 0, 'unchanged');
    job.entry = baseEntry(det.card, run.nowIso());
    if (det.broken) settle(job, { ...job.entry, status: 'failed', error: det.broken });
  },
};
