/**
 * Tier-2 keyword scoring counts each query word once (nodes.ts scoringGroups, keywordNodeScores):
 * a word indexed as several terms ("p-value" → pvalue, value) or searched as several variants of a
 * word the source lacks adds its best term's BM25, not the sum of its terms'.
 */
import { describe, it, expect } from 'vitest';
import { keywordNodeScores, rankNodesIn, scoringGroups } from '../src/search/nodes.js';
import { recordField } from '../src/search/bm25.js';
import type { NodeKeywords } from '../src/search/keyword-index.js';
import type { NodeRow } from '../src/model/keyword-format.js';

/** An in-memory node index: per node its title and text terms (postings built from them). */
function nodeIndex(nodes: Array<{ title: string; text: string[] }>): NodeKeywords {
  const rows: NodeRow[] = nodes.map((n, i) => [String(i).padStart(4, '0'), n.title, 'p', i + 1, i + 1]);
  const posting = (docs: string[][]) => {
    const out: Record<string, number[]> = {};
    docs.forEach((terms, d) => {
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) (out[t] ??= []).push(d, f);
    });
    return out;
  };
  const titles = nodes.map((n) => n.title.toLowerCase().split(' '));
  const texts = nodes.map((n) => n.text);
  const lexicon = [...new Set(texts.flat())].sort();
  return {
    id: 'src_test', nodes: rows,
    header: { format: 1, tokenizer: 1, id: 'src_test', input_sha: '', nodes: rows, len: texts.map((t) => t.length), title_len: titles.map((t) => t.length), opening: {} },
    fields: { title: recordField(posting(titles), titles.map((t) => t.length)), text: recordField(posting(texts), texts.map((t) => t.length)) },
    termsStartingWith: (prefix, limit) => lexicon.filter((t) => t.startsWith(prefix)).slice(0, limit),
  };
}

const FILLER = ['the', 'of', 'a', 'in', 'is'];
const ix = nodeIndex([
  { title: 'Guide', text: [] },
  // one typed word ("p-value") in both its indexed forms, twice
  { title: 'Tests', text: [...FILLER, 'pvalue', 'value', 'pvalue', 'value'] },
  // both typed words, the second in one form
  { title: 'Models', text: [...FILLER, 'genotype', 'genotype', 'value'] },
  { title: 'Other', text: [...FILLER, 'data', 'plot'] },
]);
const eligible = new Uint8Array([0, 1, 1, 1]);

describe('tier-2 keyword scoring by query word', () => {
  it('a node holding both words of the question beats one holding one word in two forms', () => {
    const groups = scoringGroups(ix, { terms: ['genotype', 'pvalue', 'value'], groups: [['genotype'], ['pvalue', 'value']], k: 3, maxPages: 5 });
    expect(groups.map((g) => [...g.keys()])).toEqual([['genotype'], ['pvalue', 'value']]);
    const kw = keywordNodeScores(ix, groups, eligible);
    expect(kw.get(2)!).toBeGreaterThan(kw.get(1)!);
    // summing the forms (each its own group) put the one-word node first
    const summed = keywordNodeScores(ix, [new Map([['genotype', 1]]), new Map([['pvalue', 1]]), new Map([['value', 1]])], eligible);
    expect(summed.get(1)!).toBeGreaterThan(summed.get(2)!);
    const hits = rankNodesIn(ix, { terms: ['genotype', 'pvalue', 'value'], groups: [['genotype'], ['pvalue', 'value']], k: 3, maxPages: 5 });
    expect(hits[0]!.title).toBe('Models');
  });

  it('puts the variants of a word the source lacks in that word\'s group, and a term no group names in its own', () => {
    const v = nodeIndex([
      { title: 'Guide', text: [] },
      { title: 'Methods', text: [...FILLER, 'computation', 'computational', 'computed'] },
      { title: 'Ties', text: [...FILLER, 'tie', 'tie'] },
      { title: 'Other', text: [...FILLER, 'data'] },
    ]);
    const groups = scoringGroups(v, { terms: ['computing', 'tie', 'data'], groups: [['computing'], ['tie']], k: 3, maxPages: 5 });
    expect(groups.map((g) => [...g.keys()].sort())).toEqual([['computation', 'computational', 'computed', 'computing'], ['tie'], ['data']]);
    const kw = keywordNodeScores(v, groups, eligible);
    // three variants of "computing" count as one word, as much as "tie" (same idf, one more occurrence)
    expect(kw.get(1)!).toBeLessThan(kw.get(2)!);
  });
});
