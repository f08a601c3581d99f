/**
 * Enrich stage: card enrichers (the LLM card role) may improve the document card and the root's
 * summary; then the catalog entry gets its title, summary and card fields. The converter's own card or root summary wins; else
 * the opening prose; else the root's list of sections.
 */
import { CatalogEntry } from '../../store/schemas.js';
import { convertedDir, treePath } from '../../store/layout.js';
import { leadSummary } from '../tree/summarize.js';
import { runEnrichers } from './tree.js';
import type { SourceStage } from './types.js';

/**
 * File names by convention, which many folders hold (README, NEWS, index…): a title that is only
 * such a name tells nothing apart. Two projects' README.md files without a heading of their own
 * were both titled "README".
 */
const CONVENTIONAL_NAME = /^(?:read[ _.-]?me|install|news|change[ _-]?log|changes|history|todo|copying|licen[cs]e|authors|contributing|hacking|faq|index|main|notes|untitled|document)$/i;

/**
 * The title, with the folder the file sits in when the title is only its conventional file name
 * ("README — alpha" for alpha/README.md); unchanged at the top of the inbox, where no folder names it.
 */
export function placedTitle(title: string, originalPath: string): string {
  // the path below the folder ingested: inbox/…, or external/<name>/… for a folder outside the store
  const parts = originalPath.split('/').slice(originalPath.startsWith('external/') ? 2 : 1);
  const file = parts[parts.length - 1] ?? '';
  const stem = file.replace(/\.[^.]*$/, '');
  const folder = parts.length >= 2 ? parts[parts.length - 2]! : '';
  if (!folder || title.trim().toLowerCase() !== stem.toLowerCase() || !CONVENTIONAL_NAME.test(stem)) return title;
  return `${title} — ${folder}`;
}

/** Sections listed in a card's overview when the converter gives none. */
export const SECTIONS_OVERVIEW_MAX = 20;

export const enrichStage: SourceStage = {
  name: 'enrich',
  async run(job, run) {
    await runEnrichers(job, run.stages.cardEnrichers, run);
    const result = job.result!;
    const { tree, leadText } = job.tree!;
    // a card enricher may give the document root a summary: the stored tree carries it too
    if (result.root.summary) tree.root.summary = result.root.summary;
    const card = result.card ?? {};
    const title = placedTitle(card.title || result.title, job.entry!.original_path);
    if (title !== (card.title || result.title) && tree.root.title === result.title) tree.root.title = title;
    const summary = card.summary || result.root.summary || leadSummary(leadText) || tree.root.summary || result.title;
    job.entry = CatalogEntry.parse({
      ...job.entry!,
      status: 'indexed',
      error: null,
      title,
      summary,
      doc_type: card.doc_type ?? '',
      period: card.period ?? '',
      date: card.date ?? '',
      key_topics: card.key_topics ?? [],
      sections_overview: card.sections_overview ?? tree.root.children.map((c) => c.title).slice(0, SECTIONS_OVERVIEW_MAX),
      meta: result.meta,
      tree_path: treePath(job.id),
      converted_path: convertedDir(job.id),
      node_count: tree.node_count,
      toc_source: tree.toc_source,
      ...(job.llm ? { llm: job.llm } : {}),
    });
  },
};
