/**
 * mhub's own retrieval as an eval Retriever: the same entry points as the CLI and the skill —
 * `searchStore` for tier 1, `rankNodes` (what deep_retrieve suggests) for tier 2. Sources under the
 * weak threshold are kept (`includeNone`), so the ranking is measured, not the cut-off.
 */
import { searchStore } from '../search/search.js';
import { rankNodes } from '../search/nodes.js';
import type { SearchOptions } from '../search/types.js';
import type { Retriever } from './eval.js';

export function mhubRetriever(root: string, mode: SearchOptions['mode'] = 'auto'): Retriever {
  let resolvedMode = mode ?? 'auto';
  return {
    get name() {
      return `mhub ${resolvedMode}`;
    },
    async searchSources(query, k) {
      const r = await searchStore(root, query, { k, mode, includeNone: true, nodesPerSource: 0 });
      resolvedMode = r.mode;
      return r.results.map((h) => ({ id: h.id, file: h.file, score: h.score }));
    },
    async suggest(id, query, k) {
      const hits = await rankNodes(root, id, query, { k, vectors: mode !== 'keyword' });
      return hits.map((h) => ({ node_id: h.node_id, title: h.title, page_range: h.page_range, ...(h.line_range ? { line_range: h.line_range } : {}), ...(h.row_range ? { row_range: h.row_range } : {}), score: h.score }));
    },
  };
}
