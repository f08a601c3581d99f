/**
 * The skill's search answer: `searchStore` (the same ranking and filters as `mhub search`) with
 * paging (--offset/--limit), clipped summaries, a character bound and the index's freshness.
 */
import type { SearchFilters, SearchOptions, SearchResult, SourceHit } from '../search/types.js';
import type { Freshness } from '../search/freshness.js';
import { passagePlace, renderFreshness } from './render.js';
import { clip, rangeBeside } from './tree-view.js';
import { annotateHits, type ListedNode } from './snippets.js';
import { openStoreLookup } from './store-read.js';

export const DEFAULT_SEARCH_LIMIT = 5;
/** Most results one call returns, whatever --limit says. */
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_MAX_CHARS = 8000;
/** Characters of each result's summary. */
export const RESULT_SUMMARY_CHARS = 300;
/** In the text view, results after the first FULL_SUMMARY_RESULTS show SHORT_SUMMARY_CHARS of their summary. */
export const FULL_SUMMARY_RESULTS = 2;
export const SHORT_SUMMARY_CHARS = 120;
export const SEARCH_MODES = ['auto', 'keyword', 'hybrid', 'vector'] as const;

export interface SearchRequest {
  limit: number;
  offset: number;
  nodesPerSource: number;
  filters: SearchFilters;
  mode: NonNullable<SearchOptions['mode']>;
  explain: boolean;
  maxChars: number;
}

export interface SearchAnswer {
  query: string;
  mode: SearchResult['mode'];
  verdict: SearchResult['verdict'];
  offset: number;
  results: Array<SourceHit & { rank: number; nodes: ListedNode[] }>;
  /** pass as --offset to get the following results; null when there are no more */
  next_offset: number | null;
  truncated: boolean;
  warnings: string[];
  freshness: Freshness;
}

export async function runSearch(root: string, query: string, req: SearchRequest): Promise<SearchAnswer> {
  const limit = Math.min(req.limit, MAX_SEARCH_LIMIT);
  const { searchStore } = await import('../search/search.js');
  // never fewer than the default page: the rare-term guarantee keeps its sources among the first
  // k (search.ts keepRare), so a smaller k would reorder the first results (--limit 1 ≠ --limit 5)
  const k = Math.max(req.offset + limit, DEFAULT_SEARCH_LIMIT);
  const res = await searchStore(root, query, {
    k,
    filters: req.filters,
    mode: req.mode,
    explain: req.explain,
    nodesPerSource: req.nodesPerSource,
  });
  const listed = res.results.slice(req.offset, req.offset + limit).map((h, i) => ({ ...h, summary: clip(h.summary ?? '', RESULT_SUMMARY_CHARS), rank: req.offset + i + 1 }));
  const lookup = listed.length > 0 ? openStoreLookup(root) : null;
  const page = annotateHits(root, listed, res.query, (id) => lookup?.entry(id) ?? null);
  // A full page may have more behind it (searchStore does not count beyond k; asking for k+1 would
  // rank nodes of one more source, which costs more than an occasional empty last page).
  let more = res.results.length > req.offset + limit || (k === req.offset + limit && res.results.length >= k);
  let truncated = false;
  const answer: SearchAnswer = {
    query: res.query,
    mode: res.mode,
    verdict: page[0]?.verdict ?? (req.offset > 0 ? res.verdict : 'none'),
    offset: req.offset,
    results: page,
    next_offset: null,
    truncated: false,
    warnings: res.warnings,
    freshness: res.freshness,
  };
  // Drop trailing results until the answer fits the character bound (at least one result stays).
  while (answer.results.length > 1 && JSON.stringify(answer).length > req.maxChars) {
    answer.results.pop();
    more = true;
    truncated = true;
  }
  answer.truncated = truncated;
  answer.next_offset = more ? req.offset + answer.results.length : null;
  return answer;
}

export function renderSearchText(a: SearchAnswer): string {
  const lines: string[] = [`search "${a.query}" (${a.mode}): ${a.verdict}`];
  for (const r of a.results) {
    lines.push('', `${r.rank}. ${r.title}  [${r.id}]  ${r.file}  (${r.type}, relevance ${r.relevance}, ${r.verdict})`);
    // later results are alternatives: a shorter summary keeps the answer small
    if (r.summary) lines.push(`   ${r.rank - a.offset > FULL_SUMMARY_RESULTS ? clip(r.summary, SHORT_SUMMARY_CHARS) : r.summary}`);
    for (const n of r.nodes) {
      const range = rangeBeside(n);
      const within = n.path?.length ? `  in: ${n.path.join(' › ')}` : '';
      lines.push(`   - ${n.node_id} ${n.title}${range ? ` (${range})` : ''}${n.verdict ? ` · ${n.verdict}` : ''}${within}`);
      if (n.passage) lines.push(`       ${passagePlace(n.passage)}${n.passage.text}${n.passage.more ? ` [${n.passage.more} more characters in the node]` : ''}`);
      if (n.passage?.cite) lines.push(`       cite: ${n.passage.cite}`);
    }
  }
  if (a.results.length === 0) lines.push('', 'No results.');
  if (a.next_offset !== null) lines.push('', `more: --offset ${a.next_offset}`);
  for (const w of a.warnings) lines.push(`warning: ${w}`);
  lines.push(renderFreshness(a.freshness));
  return lines.join('\n');
}
