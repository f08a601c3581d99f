/**
 * The LLM tree step for paged documents whose offline tree is weak (no outline, few headings): the
 * tree role reads page groups, sections are verified against their pages, and a page-granular tree
 * replaces the offline one. Returns a reason instead when anything fails; the offline tree stands.
 */
import type { ConvertedNode, ConvertResult } from '../model/convert.js';
import type { LlmRunner } from './runner.js';
import { treeRole } from './roles/tree.js';
import { groupPages, pageTexts } from './paged-text.js';
import { buildSectionTree, coversEachPageOnce, verifySections, type ProposedSection } from './tree-build.js';

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

export async function llmTree(runner: LlmRunner, result: ConvertResult, maxLeafPages: number, log: (m: string) => void): Promise<{ result: ConvertResult } | { reason: string }> {
  const pageCount = result.pages!;
  const pages = pageTexts(result);
  if (pages.size === 0) return { reason: 'tree: no page-tagged text in the conversion' };
  const groups = groupPages(pages, pageCount, TREE_GROUP_CHARS, TREE_PAGE_CHARS);
  const replies = await Promise.all(
    groups.map((g) => runner.run(treeRole, `Document: ${result.title}\nPages ${g.from}-${g.to} of ${pageCount}.\n\n${g.text}`)),
  );
  const proposed: ProposedSection[] = [];
  for (const r of replies) {
    if (!r.ok) return { reason: r.reason };
    proposed.push(...r.value.sections);
  }
  const v = verifySections(proposed, pages, pageCount);
  if (v.kept.length < MIN_VERIFIED_SECTIONS) {
    return { reason: `tree: only ${v.kept.length} of ${proposed.length} proposed sections verified on their pages` };
  }
  const root = buildSectionTree(result.root.title, v.kept, pages, pageCount, maxLeafPages);
  if (!coversEachPageOnce(root, pageCount)) return { reason: 'tree: the proposed sections did not cover every page exactly once' };
  if (result.root.summary) root.summary = result.root.summary;
  root.meta = { ...result.root.meta, llm_tree: { groups: groups.length, proposed: proposed.length, kept: v.kept.length, fixed: v.fixed, dropped: v.dropped } };
  log(`LLM tree: ${v.kept.length} sections kept of ${proposed.length} proposed (${v.fixed} start pages fixed, ${v.dropped} dropped) over ${groups.length} page groups`);
  return { result: { ...result, toc_source: 'llm', root } };
}
