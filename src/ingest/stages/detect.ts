/**
 * Detect stage: is the source unchanged (stat cache, then hash)? If not, read and classify it and
 * open its catalog entry. Files that cannot be read or are broken are settled as failed here.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { CatalogEntry, type FileCard } from '../../store/schemas.js';
import { errorMessage } from '../../store/errors.js';
import { detectFile, detectType, formatByName, readErrorMessage, SNIFF_BYTES, VanishedError } from '../detect.js';
import { detectMember } from '../archive-members.js';
import { converterTagFor, formatOf } from '../converters/index.js';
import { settle, type SourceJob, type SourceStage } from './types.js';
import type { IngestRun } from '../run.js';

/**
 * A file whose name now promises a format it was not read as: a converter for its extension was
 * registered since it was indexed (.tex and .rtf files read as plain text before the LaTeX and RTF
 * converters, .ipynb as JSON before the notebook one). Detection gives a named text format its
 * name's type, and a file read as plain text was matched by no format, so this holds once only; a
 * type read from magic bytes (a PDF named .txt) is left alone.
 */
function newlyNamedFormat(prev: CatalogEntry): boolean {
  const named = formatByName(prev.filename);
  if (!named || named.format.type === prev.type) return false;
  // read as plain text (or not at all): any format its name now names (.rtf, whose header is its magic)
  if (prev.type === 'text' || prev.type === 'unknown') return true;
  return !named.format.magic && !formatOf(prev.type)?.magic;
}

/**
 * A file read as plain text whose leading bytes a format's content test now claims: a test was
 * added or widened since it was indexed (SoX's sox.1 defines its own macros before .TH, and was
 * read as text until man pages were told by those too). Only text sources' first SNIFF_BYTES are read.
 */
function newlySniffedFormat(prev: CatalogEntry, abs: string): boolean {
  if (prev.type !== 'text') return false;
  let fd: number | undefined;
  try {
    fd = openSync(abs, 'r');
    const head = new Uint8Array(SNIFF_BYTES);
    const n = readSync(fd, head, 0, SNIFF_BYTES, 0);
    return detectType(prev.filename, head.subarray(0, n)).type !== 'text';
  } catch {
    return false; // unreadable: detection says why
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The catalog entry is current for this content and converter. */
export function isUnchanged(prev: CatalogEntry | undefined, sha: string, force: boolean): boolean {
  if (!prev || force || newlyNamedFormat(prev)) return false;
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
  let st;
  try {
    st = statSync(job.file.abs);
  } catch {
    return false; // vanished or unreadable: detection says which
  }
  return cached.size === st.size && cached.mtime_ms === st.mtimeMs && isUnchanged(job.prev, cached.sha256, false) && (!!job.file.member || !newlySniffedFormat(job.prev, job.file.abs));
}

/** The hash recorded for a file that could not be read (its content is unknown). */
const UNKNOWN_SHA256 = '0'.repeat(64);

function unreadable(job: SourceJob, error: string, now: string): CatalogEntry {
  const rel = job.file.rel;
  return CatalogEntry.parse({
    id: job.id, filename: rel.split('/').pop(), original_path: rel, type: 'unknown', size_kb: 0, sha256: UNKNOWN_SHA256,
    status: 'failed', error, strategy: null, title: rel, summary: '',
    tree_path: null, converted_path: null, converter: null, indexed_from_sha256: null, indexed_at: now,
  });
}

/**
 * A file that could not be read: gone since the scan (a notice; the prune stage drops its entry),
 * or failed with a message saying what to do. The same failure as last time is not news: the job
 * settles as unchanged, so this run's exit code does not repeat it (status still lists it).
 */
function settleUnread(job: SourceJob, run: IngestRun, err: unknown): void {
  if (err instanceof VanishedError) {
    run.notices.push({ path: job.file.rel, kind: 'unreadable', reason: 'not ingested: it vanished while being ingested (deleted or moved since the scan).' });
    return settle(job, job.prev ?? unreadable(job, 'vanished', run.nowIso()), 0, 'vanished');
  }
  const error = job.file.member ? `Could not read this archive member: ${errorMessage(err)}. The archive may be damaged; its other members are ingested.` : readErrorMessage(err);
  // its stat is remembered, so status and doctor can tell whether it changed since (no hash is known)
  try {
    const st = statSync(job.file.abs);
    run.statCache.files[job.file.rel] = { size: st.size, mtime_ms: st.mtimeMs, sha256: UNKNOWN_SHA256 };
  } catch {
    /* cannot even stat it: nothing to remember */
  }
  if (job.prev?.status === 'failed' && job.prev.error === error && job.prev.sha256 === UNKNOWN_SHA256) return settle(job, job.prev, 0, 'unchanged');
  settle(job, unreadable(job, error, run.nowIso()), 0, 'unread');
}

const MB = 1024 * 1024;

/** A file over `ingest.max_file_mb` is recorded as skipped without being read. */
function overLimit(job: SourceJob, run: IngestRun): CatalogEntry | null {
  const limit = run.config.ingest.max_file_mb;
  if (!limit || job.file.member) return null;
  let st;
  try {
    st = statSync(job.file.abs);
  } catch {
    return null; // vanished or unreadable: detection says which
  }
  const size = st.size;
  if (size <= limit * MB) return null;
  const rel = job.file.rel;
  // no hash without reading it: its stat is remembered, so status and doctor can tell whether it changed since
  run.statCache.files[rel] = { size, mtime_ms: st.mtimeMs, sha256: UNKNOWN_SHA256 };
  const error = `${rel} is ${(size / MB).toFixed(1)} MB, over the ingest.max_file_mb limit of ${limit} MB: not read. Raise ingest.max_file_mb in config.json (0 = no limit) to ingest it.`;
  return CatalogEntry.parse({
    id: job.id, filename: rel.split('/').pop(), original_path: rel, type: 'unknown', size_kb: Math.round((size / 1024) * 10) / 10,
    sha256: UNKNOWN_SHA256, status: 'skipped', error, strategy: null, title: rel, summary: '', tree_path: null,
    converted_path: null, converter: null, indexed_from_sha256: null, indexed_at: job.prev?.error === error ? job.prev.indexed_at : run.nowIso(),
  });
}

export const detectStage: SourceStage = {
  name: 'detect',
  async run(job, run) {
    if (statUnchanged(job, run)) return settle(job, job.prev!, 0, 'unchanged');
    const skipped = overLimit(job, run);
    if (skipped) {
      run.log(`skipped: ${skipped.error}`);
      return settle(job, skipped, 0, job.prev?.error === skipped.error ? 'unchanged' : 'processed');
    }
    try {
      job.det = job.file.member ? await detectMember(job.file, job.id) : detectFile(job.file.abs, job.file.rel, job.id);
    } catch (err) {
      return settleUnread(job, run, err);
    }
    const det = job.det;
    run.statCache.files[job.file.rel] = { size: det.size, mtime_ms: det.mtimeMs, sha256: det.card.sha256 };
    if (isUnchanged(job.prev, det.card.sha256, !!run.opts.force) && job.prev!.type === det.card.type) return settle(job, job.prev!, 0, 'unchanged');
    job.entry = baseEntry(det.card, run.nowIso());
    if (det.broken) settle(job, { ...job.entry, status: 'failed', error: det.broken });
  },
};
