/**
 * The plan's part in a PDF's outline (docs/plan.md): chunk_embed reads the pages in flat page
 * groups; tree_index with key sections, when the document's own structure is weak (no bookmarks,
 * no printed contents, few detected top-level headings), puts the key sections at the top level,
 * matched to the page and line where each is printed, with the detected headings nested under them.
 */
import type { PlanDirectives, PlanNote } from '../../../model/plan.js';
import type { ConvertResult } from '../types.js';
import type { Line } from './layout-types.js';
import type { OutlineEntry } from './outline-types.js';
import type { Section } from './sections.js';
import { anchorKeySections, leafPagesFor, missingNote } from '../plan-shape.js';

/** Fewer detected top-level entries than this is a weak structure: key sections may anchor the top level. */
export const WEAK_TOP_LEVEL = 3;

export interface PlannedOutline {
  entries: OutlineEntry[];
  toc_source: ConvertResult['toc_source'];
  /** pure page groups: no heading-based splits */
  flat: boolean;
}

/** The key sections at the body lines where they start (contents pages left out), as level-1 entries. */
function keyEntries(keys: string[], lines: Line[][], tocPages: Set<number>): { entries: OutlineEntry[]; missing: string[] } {
  const flat: string[] = [];
  const where: Array<{ page: number; line: number }> = [];
  lines.forEach((ls, pi) => {
    if (tocPages.has(pi + 1)) return;
    ls.forEach((l, li) => {
      flat.push(l.text);
      where.push({ page: pi + 1, line: li });
    });
  });
  const { anchors, missing } = anchorKeySections(keys, flat);
  const entries = anchors.map((a) => ({ title: flat[a.index]!.trim(), level: 1, ...where[a.index]!, kind: 'section' }));
  return { entries, missing };
}

/** Key-section entries on top, the detected entries one level deeper, in reading order. */
function merge(keys: OutlineEntry[], detected: OutlineEntry[]): OutlineEntry[] {
  const at = new Set(keys.map((k) => `${k.page}:${k.line}`));
  const nested = detected.filter((d) => !at.has(`${d.page}:${d.line}`)).map((d) => ({ ...d, level: d.level + 1 }));
  const order = (e: OutlineEntry) => e.page * 1e6 + (e.line ?? 0);
  return [...keys, ...nested].sort((a, b) => order(a) - order(b) || a.level - b.level);
}

/**
 * The outline the plan asks for, given the converter's own (`entries`, `toc_source`). Located
 * entries (with lines) in, located entries out.
 */
export function plannedOutline(
  plan: PlanDirectives | undefined,
  own: { entries: OutlineEntry[]; toc_source: ConvertResult['toc_source'] },
  lines: Line[][],
  tocPages: Set<number>,
  notes: PlanNote[],
): PlannedOutline {
  if (!plan) return { ...own, flat: false };
  if (plan.approach === 'chunk_embed') {
    if (plan.keySections.length) notes.push({ field: 'key_sections', reason: 'not used: the plan asks for chunk_embed (flat page groups)' });
    return { entries: [], toc_source: 'pages', flat: true };
  }
  const strong = own.toc_source === 'bookmarks' || own.toc_source === 'printed_toc';
  const topLevel = own.entries.filter((e) => e.level === 1).length;
  if (!plan.keySections.length || strong || topLevel >= WEAK_TOP_LEVEL) return { ...own, flat: false };
  const k = keyEntries(plan.keySections, lines, tocPages);
  const m = k.entries.length ? missingNote(k.missing, plan.keySections.length, 'on the pages') : { field: 'key_sections', reason: `none of ${plan.keySections.length} found on the pages` };
  if (m) notes.push(m);
  if (k.entries.length === 0) return { ...own, flat: false };
  return { entries: merge(k.entries, own.entries), toc_source: 'plan', flat: false };
}

/** Notes for the plan fields a PDF conversion does not honour. */
export function pdfDeclined(plan: PlanDirectives | undefined): PlanNote[] {
  if (!plan) return [];
  const notes: PlanNote[] = [];
  if (plan.approach === 'schema_index' || plan.approach === 'symbol_index') {
    notes.push({ field: 'recommended_approach', reason: `${plan.approach}: a PDF is converted as tree_index, chunk_embed or ocr; tree_index was used` });
  }
  if (plan.tablesAsRows) notes.push({ field: 'special_handling', reason: 'tables as rows with header: PDF table rows are kept as `cell | cell` lines; column headers are not repeated on each row' });
  if (!plan.plaintext) notes.push({ field: 'convert_to_plaintext', reason: 'a PDF has no markup to keep: its text is always extracted' });
  return notes;
}

function countSections(list: Section[]): number {
  return list.reduce((n, s) => n + 1 + countSections(s.children), 0);
}

/**
 * Sections at the plan's granularity: the document's own tree when it already has as many nodes as
 * estimated_nodes; otherwise leaves cut finer (never longer than max_leaf_pages) to come near it.
 */
export function sectionsToEstimate(build: (maxLeafPages: number) => Section[], pages: number, target: number | null, maxLeafPages: number): Section[] {
  const natural = build(Math.max(1, maxLeafPages));
  if (!target || countSections(natural) >= target) return natural;
  const leaf = leafPagesFor(pages, target, maxLeafPages);
  return leaf < maxLeafPages ? build(leaf) : natural;
}
