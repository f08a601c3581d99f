/**
 * PDF bookmarks (the outline) → validated outline entries. Bookmarks are used only when they are
 * plausible: enough entries, targets that resolve and move forward, and not a "Page 1, Page 2…" list.
 */
import type { PdfDocument } from './load.js';
import type { OutlineEntry } from './outline-types.js';
import { cleanTexMarkup } from './titles.js';

/** Fewest bookmarks worth using (documents of up to SMALL_DOC_PAGES need fewer). */
export const MIN_BOOKMARKS = 3;
export const SMALL_DOC_PAGES = 8;
export const MIN_BOOKMARKS_SMALL_DOC = 2;
/** Share of bookmarks whose target must resolve. */
export const MIN_RESOLVED_SHARE = 0.8;
/** Share of consecutive targets that must not move backwards. */
export const MIN_FORWARD_SHARE = 0.8;
/** Share of "Page N" titles above which the outline says nothing about structure. */
export const MAX_PAGE_TITLE_SHARE = 0.5;
/** Deepest outline level kept. */
export const MAX_BOOKMARK_DEPTH = 6;

interface OutlineItem {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineItem[];
}

interface Target {
  page: number | null;
  top?: number;
}

/** The vertical position an explicit destination points at ([page, {name}, …args]), when it names one. */
export function destinationTop(explicit: unknown[]): number | undefined {
  const kind = (explicit[1] as { name?: string } | undefined)?.name;
  const at = kind === 'XYZ' ? explicit[3] : kind === 'FitH' || kind === 'FitBH' ? explicit[2] : kind === 'FitR' ? explicit[5] : undefined;
  return typeof at === 'number' && Number.isFinite(at) ? at : undefined;
}

async function resolveTarget(doc: PdfDocument, dest: string | unknown[] | null): Promise<Target> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return { page: null };
    const ref = explicit[0];
    const top = destinationTop(explicit);
    const at = top === undefined ? {} : { top };
    if (typeof ref === 'number') return { page: ref + 1, ...at };
    if (ref && typeof ref === 'object') return { page: (await doc.getPageIndex(ref as { num: number; gen: number })) + 1, ...at };
  } catch {
    /* unresolvable target */
  }
  return { page: null };
}

export interface BookmarkResult {
  entries: OutlineEntry[];
  /** why the outline was not used (for warnings), when entries is empty */
  rejected?: string;
}

/** Reads and validates the outline. Empty entries when absent or implausible. */
export async function readBookmarks(doc: PdfDocument): Promise<BookmarkResult> {
  const outline = ((await doc.getOutline().catch(() => null)) ?? []) as OutlineItem[];
  if (outline.length === 0) return { entries: [] };
  const flat: Array<{ title: string; level: number; page: number | null; top?: number }> = [];
  const walk = async (items: OutlineItem[], level: number) => {
    for (const it of items) {
      flat.push({ title: cleanTexMarkup(it.title ?? '').replace(/\s+/g, ' ').trim(), level, ...(await resolveTarget(doc, it.dest)) });
      if (level < MAX_BOOKMARK_DEPTH && it.items?.length) await walk(it.items, level + 1);
    }
  };
  await walk(outline, 1);
  const n = doc.numPages;
  const need = n <= SMALL_DOC_PAGES ? MIN_BOOKMARKS_SMALL_DOC : MIN_BOOKMARKS;
  if (flat.length < need) return { entries: [], rejected: `only ${flat.length} bookmark(s)` };
  const resolved = flat.filter((f) => f.page !== null && f.page >= 1 && f.page <= n && f.title.length > 0);
  if (resolved.length / flat.length < MIN_RESOLVED_SHARE) return { entries: [], rejected: 'bookmark targets do not resolve' };
  const pageTitles = resolved.filter((f) => /^(page|p\.?|seite|pg\.?)\s*\d+$|^\d+$/i.test(f.title)).length;
  if (pageTitles / resolved.length > MAX_PAGE_TITLE_SHARE) return { entries: [], rejected: 'bookmarks are a list of pages' };
  let forward = 0;
  for (let i = 1; i < resolved.length; i++) if (resolved[i]!.page! >= resolved[i - 1]!.page!) forward++;
  if (resolved.length > 1 && forward / (resolved.length - 1) < MIN_FORWARD_SHARE) return { entries: [], rejected: 'bookmark targets jump backwards' };
  const entries: OutlineEntry[] = [];
  for (const f of resolved) {
    const prev = entries[entries.length - 1];
    if (prev && f.page! < prev.page) continue;
    entries.push({ title: f.title, level: f.level, page: f.page!, ...(f.top !== undefined ? { top: f.top } : {}) });
  }
  return { entries };
}
