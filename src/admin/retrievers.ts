/** mhub's own retrieval as an eval Retriever: `searchStore` for tier 1, `rankNodes` for tier 2. */
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
      const r = await searchStore(root, query, { k, mode });
      resolvedMode = r.mode;
      return r.results.map((h) => ({ id: h.id, file: h.file, score: h.score }));
    },
    async suggest(id, query, k) {
      const hits = await rankNodes(root, id, query, { k, vectors: mode !== 'keyword' });
      return hits.map((h) => ({ node_id: h.node_id, title: h.title, page_range: h.page_range, score: h.score }));
    },
  };
}
