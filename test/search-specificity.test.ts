/**
 * Library specificity of query words (specificity.ts): a word every source uses weighs
 * SPECIFICITY_FLOOR, one a single source uses weighs 1; too small a library leaves words at 1;
 * tier 2 then ranks the node holding the specific word above the one holding a generic word.
 */
import { describe, it, expect } from 'vitest';
import { SPECIFICITY_FLOOR, SPECIFICITY_MIN_SOURCES, librarySpecificity } from '../src/search/specificity.js';
import { rankNodesIn } from '../src/search/nodes.js';
import type { PostingField } from '../src/search/bm25.js';
import { KeywordShardError, type SourceKeywords } from '../src/search/keyword-index.js';
import { memoryNodeIndex, pageRows } from './helpers/node-index.js';

/** A source index of `n` sources where term t is held (in the body field) by sources[t]. */
function library(n: number, holders: Record<string, number[]>, broken: string[] = []): SourceKeywords {
  const empty: PostingField = { lengths: new Array(n).fill(10), avgLength: 10, postings: () => undefined };
  const body: PostingField = {
    lengths: new Array(n).fill(10), avgLength: 10,
    postings: (t) => {
      if (broken.includes(t)) throw new KeywordShardError('shard missing');
      return holders[t]?.flatMap((d) => [d, 1]);
    },
  };
  return { ids: Array.from({ length: n }, (_, i) => `src_${i}`), field: (f) => (f === 'body' ? body : empty) };
}

describe('library specificity', () => {
  const n = SPECIFICITY_MIN_SOURCES + 10;
  const all = Array.from({ length: n }, (_, i) => i);
  const spec = librarySpecificity(library(n, { entry: all, shakuhachi: [3], half: all.slice(0, n / 2) }, ['lost']))!;

  it('runs from the floor for a word every source uses to 1 for a word one source uses', () => {
    expect(spec('entry')).toBeCloseTo(SPECIFICITY_FLOOR, 1);
    expect(spec('shakuhachi')).toBe(1);
    expect(spec('nowhere')).toBe(1);
    expect(spec('half')).toBeGreaterThan(spec('entry'));
    expect(spec('half')).toBeLessThan(1);
  });

  it('leaves a word whose shard cannot be read at 1, and a small library unweighted', () => {
    expect(spec('lost')).toBe(1);
    expect(librarySpecificity(library(SPECIFICITY_MIN_SOURCES - 1, { entry: [0] }))).toBeNull();
    expect(librarySpecificity(null)).toBeNull();
  });
});

describe('tier 2 with specificity', () => {
  const texts = [[], ['entry', 'list', 'of', 'works'], ['shakuhachi', 'list', 'of', 'works']];
  const ix = memoryNodeIndex(pageRows(['Essay', 'Catalogue', 'Flutes']), [[], [], []], texts);
  const input = { terms: ['entry', 'shakuhachi'], groups: [['entry'], ['shakuhachi']], k: 2, maxPages: 5 };

  it('puts the node holding the library-specific word first where BM25 ties', () => {
    const plain = rankNodesIn(ix, input);
    expect(plain[0]!.score).toBe(plain[1]!.score);
    expect(plain[0]!.title).toBe('Catalogue');
    const weighted = rankNodesIn(ix, { ...input, specificity: (t) => (t === 'entry' ? SPECIFICITY_FLOOR : 1) });
    expect(weighted.map((h) => h.title)).toEqual(['Flutes', 'Catalogue']);
  });

  it('weighs a word by the forms the source prints: "FY2023" in a filing that writes only "2023" weighs as 2023', async () => {
    const { scoringGroups } = await import('../src/search/nodes.js');
    const filing = memoryNodeIndex(pageRows(['Filing', 'Segments', 'Acquisitions']), [[], [], []], [[], ['2023', '2023', 'sales'], ['acquisition', '2023']]);
    const specificity = (t: string) => (t === 'fy2023' || t === 'acquisition' ? 1 : SPECIFICITY_FLOOR);
    const groups = scoringGroups(filing, { terms: ['acquisition', 'fy2023', '2023'], groups: [['acquisition'], ['fy2023', '2023']], k: 2, maxPages: 5, specificity });
    expect(groups.map((g) => [...g.values()])).toEqual([[1], [SPECIFICITY_FLOOR, SPECIFICITY_FLOOR]]);
    // a source that prints "FY2023" gives the word that form's weight
    const other = memoryNodeIndex(pageRows(['Filing', 'Results']), [[], []], [[], ['fy2023', '2023']]);
    expect([...scoringGroups(other, { terms: ['fy2023', '2023'], groups: [['fy2023', '2023']], k: 2, maxPages: 5, specificity })[0]!.values()]).toEqual([1, 1]);
  });
});
