import { describe, expect, it } from 'vitest';
import { formatSearch } from '../src/cli/commands/search.js';
import type { SearchResult } from '../src/search/types.js';

const result = (nodes: unknown[]): SearchResult => ({
  query: 'bookworm',
  mode: 'keyword',
  verdict: 'strong',
  results: [{ id: 'src_1', title: 'releases', file: 'inbox/releases.csv', type: 'csv', score: 1, relevance: 0.6, verdict: 'strong', summary: '', nodes }],
  warnings: [],
}) as unknown as SearchResult;

describe('search output: where each suggested node is', () => {
  it('names a row hit once, and a single row or line in the singular', () => {
    const out = formatSearch(result([
      { node_id: '0000', title: 'releases row 17', row_range: [17, 17], score: 1, relevance: 0.2, verdict: 'weak' },
      { node_id: '0001', title: 'releases', row_range: [1, 22], score: 0.9, relevance: 0.2, verdict: 'weak' },
      { node_id: '0002', title: 'main', line_range: [12, 12], score: 0.8, relevance: 0.2, verdict: 'weak' },
      { node_id: '0003', title: 'Intro', page_range: [4, 5], score: 0.7, relevance: 0.2, verdict: 'weak' },
    ]));
    expect(out).toContain('→ 0000 releases row 17\n');
    expect(out).not.toContain('rows 17-17');
    expect(out).toContain('→ 0001 releases rows 1-22');
    expect(out).toContain('→ 0002 main line 12');
    expect(out).toContain('→ 0003 Intro pp.4-5');
  });
});
