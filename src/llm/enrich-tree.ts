/**
 * The LLM tree step for paged documents whose offline tree is weak (no outline, few headings): the
 * tree role reads page groups, sections are verified against their pages, and a page-granular tree
 * replaces the offline one. Returns a reason instead when anything fails; the offline tree stands.
 */
import type { ConvertedNode, ConvertResult } from '../model/convert.js';
import type { Strategy } from '../store/schemas.js';
import type { LlmRunner } from './runner.js';
import { treeRole } from './roles/tree.js';
import { groupPages, pageTexts } from './paged-text.js';
import { applyTreeHints, buildSectionTree, coversEachPageOnce, verifySections, type ProposedSection, type TreeHints } from './tree-build.js';

/** Offline trees with fewer section nodes than this are weak. */
export const FEW_SECTIONS = 3;
/** Shortest document worth an LLM tree. */
export const MIN_PAGES_FOR_LLM_TREE = 3;
/** Characters of page-tagged text per tree request (~20k tokens) and per page within it. */
export const TREE_GROUP_CHARS = 80_000;
export const TREE_PAGE_CHARS = 6_000;
/** Fewer verified sections than this: keep the offline tree. */
export const MIN_VERIFIED_SECTIONS = 2;

function sectionCount(n: ConvertedNode): number {
  return n.children.reduce((s, c) => s + (c.kind === 'page_group' ? 0 : 1) + sectionCount(c), 0);
}

export function needsLlmTree(result: ConvertResult): boolean {
  if (!result.pages || result.pages < MIN_PAGES_FOR_LLM_TREE) return false;
  if (result.toc_source === 'pages' || result.toc_source === 'paragraphs') return true;
  if (result.toc_source === 'bookmarks' || result.toc_source === 'llm') return false;
  return sectionCount(result.root) < FEW_SECTIONS;
}

/** Approaches whose paged result the tree step may structure (OCR text is re-classified into sections). */
const TREE_APPROACHES = new Set<Strategy['recommended_approach']>(['tree_index', 'ocr']);

/**
 * Whether the tree step runs, as the plan says: never when the plan asks for chunks, a schema or
 * symbols, nor over the document's own bookmarks; when the offline tree is weak; and when the
 * planner judged the structure weak or gave key sections the converter's outline does not come from.
 */
export function wantsLlmTree(plan: Strategy, result: ConvertResult): boolean {
  if (!TREE_APPROACHES.has(plan.recommended_approach)) return false;
  if (!result.pages || result.pages < MIN_PAGES_FOR_LLM_TREE) return false;
  if (result.toc_source === 'bookmarks' || result.toc_source === 'llm') return false;
  if (needsLlmTree(result)) return true;
  if (!plan.has_structure) return true;
  return plan.key_sections.length > 0 && result.toc_source !== 'printed_toc';
}

/** What the plan tells the tree step: the key sections (top level) and the expected number of sections. */
export function treeHints(plan: Strategy): TreeHints {
  return { keySections: plan.key_sections, estimatedNodes: plan.estimated_nodes ?? null };
}

/** The plan's part of a tree request (empty without hints, so such requests stay as they were). */
function hintLines(h: TreeHints): string {
  const lines: string[] = [];
  if (h.keySections.length) lines.push(`Key sections (top level, from the plan): ${h.keySections.join(' | ')}`);
  if (h.estimatedNodes) lines.push(`Expected sections in the whole document: about ${h.estimatedNodes}`);
  return lines.length ? `${lines.join('\n')}\n` : '';
}

export async function llmTree(
  runner: LlmRunner,
  result: ConvertResult,
  maxLeafPages: number,
  log: (m: string) => void,
  hints: TreeHints = { keySections: [], estimatedNodes: null },
): Promise<{ result: ConvertResult } | { reason: string }> {
  const pageCount = result.pages!;
  const pages = pageTexts(result);
  if (pages.size === 0) return { reason: 'tree: no page-tagged text in the conversion' };
  const groups = groupPages(pages, pageCount, TREE_GROUP_CHARS, TREE_PAGE_CHARS);
  const hint = hintLines(hints);
  const replies = await Promise.all(
    groups.map((g) => runner.run(treeRole, `Document: ${result.title}\n${hint}Pages ${g.from}-${g.to} of ${pageCount}.\n\n${g.text}`)),
  );
  const proposed: ProposedSection[] = [];
  for (const r of replies) {
    if (!r.ok) return { reason: r.reason };
    proposed.push(...r.value.sections);
  }
  const v = applyTreeHints(verifySections(proposed, pages, pageCount), hints, pages, pageCount);
  if (v.kept.length < MIN_VERIFIED_SECTIONS) {
    return { reason: `tree: only ${v.kept.length} of ${proposed.length} proposed sections verified on their pages` };
  }
  const root = buildSectionTree(result.root.title, v.kept, pages, pageCount, maxLeafPages);
  if (!coversEachPageOnce(root, pageCount)) return { reason: 'tree: the proposed sections did not cover every page exactly once' };
  if (result.root.summary) root.summary = result.root.summary;
  root.meta = { ...result.root.meta, llm_tree: { groups: groups.length, proposed: proposed.length, kept: v.kept.length, fixed: v.fixed, dropped: v.dropped, ...(hints.keySections.length ? { key_sections: v.keys } : {}) } };
  log(`LLM tree: ${v.kept.length} sections kept of ${proposed.length} proposed (${v.fixed} start pages fixed, ${v.dropped} dropped) over ${groups.length} page groups`);
  return { result: { ...result, toc_source: 'llm', root } };
}
