/** Pure parts of the LLM layer: reply repair, section verification and the page-granular tree, retry-after. */
import { describe, it, expect } from 'vitest';
import { parseJsonLoose, closeTruncated } from '../src/llm/json-repair.js';
import { verifySections, buildSectionTree, coversEachPageOnce, leafPages } from '../src/llm/tree-build.js';
import { groupPages, pageTexts, condensePage, PAGE_HEAD_CHARS } from '../src/llm/paged-text.js';
import { retryAfterMs } from '../src/llm/providers/retry-after.js';
import { cacheRelPath } from '../src/llm/cache.js';
import { estimateCostUsd } from '../src/llm/usage.js';

describe('reply repair', () => {
  it('parses clean JSON as is and repairs fences, prose, trailing commas and cut-off replies', () => {
    expect(parseJsonLoose('{"a":1}')).toEqual({ value: { a: 1 }, repaired: false });
    expect(parseJsonLoose('Sure!\n```json\n{"a": [1, 2,],}\n```')?.value).toEqual({ a: [1, 2] });
    expect(parseJsonLoose('{"a": "x", "b": ["p", "q')?.value).toEqual({ a: 'x', b: ['p', 'q'] });
    expect(parseJsonLoose('{"a": 1, "b":')?.value).toEqual({ a: 1 });
    expect(parseJsonLoose('{"s": [{"t": "x", "p": 2}, {"t": "y", "p"')?.value).toEqual({ s: [{ t: 'x', p: 2 }, { t: 'y' }] });
    expect(parseJsonLoose('no json here')).toBeNull();
    expect(closeTruncated('{"a": {"b": 1}} trailing')).toBe('{"a": {"b": 1}}');
  });
});

describe('page tree from proposed sections', () => {
  const pages = new Map<number, string>([
    [1, 'Contents\nIntroduction 2\nResults 4'],
    [2, 'Introduction\nWhy we did it.'],
    [3, 'More introduction.'],
    [4, 'Results\n1.1 Revenue\nNumbers.'],
    [5, '1.2 Costs\nMore numbers.'],
    [6, 'Appendix A — Tables'],
  ]);
  it('keeps verified sections, fixes a start page off by one, drops titles printed nowhere', () => {
    const v = verifySections(
      [
        { title: 'Introduction', start_page: 2, level: 1, summary: '' },
        { title: 'Results', start_page: 3, level: 1, summary: '' }, // printed on page 4
        { title: '1.1 Revenue', start_page: 4, level: 2, summary: 'rev' },
        { title: '1.2 Costs', start_page: 5, level: 2, summary: '' },
        { title: 'Appendix A - Tables', start_page: 6, level: 1, summary: '' }, // dash variant still matches
        { title: 'Conclusion', start_page: 5, level: 1, summary: '' }, // nowhere
        { title: 'Introduction', start_page: 2, level: 1, summary: '' }, // duplicate
      ],
      pages,
      6,
    );
    expect(v.kept.map((s) => [s.title, s.start_page])).toEqual([['Introduction', 2], ['Results', 4], ['1.1 Revenue', 4], ['1.2 Costs', 5], ['Appendix A - Tables', 6]]);
    expect([v.fixed, v.dropped]).toEqual([1, 2]);
    const root = buildSectionTree('Doc', v.kept, pages, 6, 5);
    expect(coversEachPageOnce(root, 6)).toBe(true);
    expect(root.children.map((c) => [c.title, c.page_range])).toEqual([
      ['Front matter', [1, 1]],
      ['Introduction', [2, 3]],
      ['Results', [4, 5]],
      ['Appendix A - Tables', [6, 6]],
    ]);
    expect(root.children[2]!.children.map((c) => [c.title, c.page_range, c.summary ?? ''])).toEqual([
      ['1.1 Revenue', [4, 4], 'rev'],
      ['1.2 Costs', [5, 5], ''],
    ]);
    expect(root.children[1]!.content).toBe('<!-- page 2 -->\nIntroduction\nWhy we did it.\n\n<!-- page 3 -->\nMore introduction.');
  });

  it('splits long sections into page groups and gives a parent\'s opening pages their own leaf', () => {
    const many = new Map<number, string>();
    for (let p = 1; p <= 14; p++) many.set(p, p === 1 ? 'Part One' : p === 9 ? 'Chapter Nine' : `text ${p}`);
    const root = buildSectionTree('Doc', [
      { title: 'Part One', start_page: 1, level: 1, summary: '' },
      { title: 'Chapter Nine', start_page: 9, level: 2, summary: '' },
    ], many, 14, 5);
    expect(coversEachPageOnce(root, 14)).toBe(true);
    const part = root.children[0]!;
    expect(part.children.map((c) => [c.title, c.page_range])).toEqual([
      ['Part One (opening pages)', [1, 8]],
      ['Chapter Nine', [9, 14]],
    ]);
    expect(part.children[0]!.children.map((c) => c.page_range)).toEqual([[1, 5], [6, 8]]);
    expect(leafPages(root)).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
  });

  it('recovers page texts from node content and packs pages into groups that fit', () => {
    const pt = pageTexts({
      title: 'T', toc_source: 'pages', pages: 3,
      root: { title: 'T', children: [
        { title: 'a', page_range: [1, 2], content: '<!-- page 1 -->\none\n\n<!-- page 2 -->\ntwo', children: [] },
        { title: 'b', page_range: [3, 3], content: '<!-- page 3 -->\nthree', children: [] },
      ] },
    });
    expect([...pt.entries()]).toEqual([[1, 'one'], [2, 'two'], [3, 'three']]);
    const g = groupPages(new Map([[1, 'x'.repeat(50)], [2, 'y'.repeat(50)], [3, 'z'.repeat(500)]]), 3, 150, 100);
    expect(g.map((x) => [x.from, x.to])).toEqual([[1, 2], [3, 3]]);
    expect(g[1]!.text).toContain('[… rest of page 3 omitted]');
  });
});

describe('condensed pages for the tree role', () => {
  it('keeps the top of a long page and only heading-like lines after it', () => {
    const body = 'This paragraph is ordinary body text that goes on and on about results and risks and more. '.repeat(3);
    const page = ['Top line', 'x'.repeat(PAGE_HEAD_CHARS), body, 'Item 7. Management Discussion', body, 'Revenue 1,234 $ 5,678', 'Liquidity and Capital Resources', body].join('\n');
    const c = condensePage(page);
    expect(c).toBe('Top line\n[…]\nItem 7. Management Discussion\n[…]\nLiquidity and Capital Resources\n[…]');
    expect(c).not.toContain('Revenue 1,234');
    expect(c.length).toBeLessThan(page.length / 2);
    expect(condensePage('short page')).toBe('short page');
  });
});

describe('retry-after, cache paths and cost', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    const h = (m: Record<string, string>) => (n: string) => m[n] ?? null;
    expect(retryAfterMs(h({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(h({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(h({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(retryAfterMs(h({}))).toBeNull();
  });
  it('keys cache files by step, content, model and prompt version', () => {
    const k = { step: 'card', model: 'm', prompt_version: 1, content_sha256: 'a'.repeat(64) };
    const p = cacheRelPath(k);
    expect(p).toMatch(/^llm_cache\/card\/[0-9a-f]{2}\/[0-9a-f]{64}\.json$/);
    expect(cacheRelPath({ ...k, prompt_version: 2 })).not.toBe(p);
    expect(cacheRelPath({ ...k, model: 'n' })).not.toBe(p);
    expect(cacheRelPath({ ...k, content_sha256: 'b'.repeat(64) })).not.toBe(p);
  });
  it('estimates cost from tokens, or uses the provider figure', () => {
    const u = { input_tokens: 1_000_000, output_tokens: 100_000, cache_read_tokens: 1_000_000, cache_write_tokens: 0 };
    expect(estimateCostUsd('claude-sonnet-5-5', u)).toBeCloseTo(3 + 1.5 + 0.3, 6);
    expect(estimateCostUsd('x', { ...u, cost_usd: 0.5 })).toBe(0.5);
    expect(estimateCostUsd('mystery-model', u)).toBeNull();
  });
});
