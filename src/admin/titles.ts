/**
 * Do source titles tell documents apart (issue 14)? Distinct titles among the indexed sources whose
 * content differs (two copies of one file may share a title), and the titles shared by documents
 * that differ — printed by `mhub eval` under its figures.
 */
import type { CatalogEntry } from '../store/schemas.js';

/** Shared titles listed at most. */
export const SHARED_TITLES_LISTED = 10;

export interface TitleFigures {
  /** indexed sources with distinct content (by sha256) */
  documents: number;
  /** distinct titles among them */
  distinct: number;
  /** titles held by more than one distinct document, most shared first */
  shared: Array<{ title: string; files: string[] }>;
}

export function titleFigures(entries: CatalogEntry[]): TitleFigures {
  const byContent = new Map<string, CatalogEntry>();
  for (const e of entries) if (e.status === 'indexed' && !byContent.has(e.sha256)) byContent.set(e.sha256, e);
  const byTitle = new Map<string, { title: string; files: string[] }>();
  for (const e of byContent.values()) {
    const key = e.title.trim().toLowerCase();
    const t = byTitle.get(key) ?? { title: e.title, files: [] };
    t.files.push(e.original_path);
    byTitle.set(key, t);
  }
  const shared = [...byTitle.values()]
    .filter((t) => t.files.length > 1)
    .map((t) => ({ title: t.title, files: [...t.files].sort() }))
    .sort((a, b) => b.files.length - a.files.length || (a.title < b.title ? -1 : 1));
  return { documents: byContent.size, distinct: byTitle.size, shared };
}

export function formatTitleFigures(t: TitleFigures): string {
  const lines = [`source titles: ${t.distinct} distinct of ${t.documents} documents${t.shared.length ? '' : ' (every document has its own)'}`];
  for (const s of t.shared.slice(0, SHARED_TITLES_LISTED)) lines.push(`    shared by ${s.files.length}: "${s.title}" (${s.files.join(', ')})`);
  if (t.shared.length > SHARED_TITLES_LISTED) lines.push(`    … and ${t.shared.length - SHARED_TITLES_LISTED} more shared titles`);
  return lines.join('\n');
}
