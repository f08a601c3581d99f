/**
 * Tier-2 scoring on in-memory node indexes: keyword scoring counts each query word once (nodes.ts
 * scoringGroups, keywordNodeScores): a word indexed as several terms ("p-value" → pvalue, value) or
 * searched as several variants of a word the source lacks adds its best term's BM25, not the sum
 * of its terms'; and the first suggestion's verdict keeps a clear keyword margin that vector
 * similarity narrows without changing the first node (firstLead).
 */
import { describe, it, expect } from 'vitest';
import { keywordNodeScores, rankNodesIn, scoringGroups } from '../src/search/nodes.js';
import type { NodeKeywords } from '../src/search/keyword-index.js';
import { memoryNodeIndex, pageRows } from './helpers/node-index.js';
import type { NodeVectors } from '../src/search/vectors.js';
import { NODE_SURE_LEAD } from '../src/search/node-confidence.js';

/** An in-memory node index: per node its title and text terms (postings built from them). */
function nodeIndex(nodes: Array<{ title: string; text: string[] }>): NodeKeywords {
  return memoryNodeIndex(pageRows(nodes.map((n) => n.title)), nodes.map((n) => n.title.toLowerCase().split(' ')), nodes.map((n) => n.text));
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

  it('finds a short verb form the source lacks by its root ("beeping" → beep, "stopped" → stop), not by any longer word', () => {
    // (titles as the index holds them: tokenized, plural s stemmed)
    const titles = [['guide'], ['entering', 'illegal', 'move'], ['how', 'do', 'i', 'stop', 'the', 'annoying', 'beep'], ['other']];
    const texts = [[], [...FILLER, 'illegal', 'move', 'enter'], [...FILLER, 'beep', 'sound', 'illegal', 'input'], [...FILLER, 'beepmode', 'data']];
    const v = memoryNodeIndex(pageRows(['Guide', 'Entering illegal moves', 'How do I stop the annoying beeps?', 'Other']), titles, texts);
    const query = { terms: ['stopped', 'beeping', 'illegal'], groups: [['stopped'], ['beeping'], ['illegal']], k: 3, maxPages: 5 };
    // ("beepmode" shares the prefix, and is no form of the word)
    expect(scoringGroups(v, query).map((g) => [...g.keys()].sort())).toEqual([['stop', 'stopped'], ['beep', 'beeping'], ['illegal']]);
    expect(rankNodesIn(v, query)[0]!.title).toBe('How do I stop the annoying beeps?');
    // without the roots only "illegal" counts, and the other section comes first
    const typedOnly = keywordNodeScores(v, [new Map([['stopped', 1]]), new Map([['beeping', 1]]), new Map([['illegal', 1]])], new Uint8Array([0, 1, 1, 1]));
    expect(typedOnly.get(1)!).toBeGreaterThan(typedOnly.get(2)!);
  });
});

describe('words of the source\'s own title', () => {
  // the root node is titled by the document; "panel" names it, and one section too
  const v = nodeIndex([
    { title: 'Panel data econometrics the plm package', text: [] },
    { title: 'Introduction', text: [...FILLER, 'econometrics', 'field'] },
    { title: 'Unbalanced panels', text: [...FILLER, 'panel', 'unbalanced', 'measure'] },
    { title: 'Estimation', text: [...FILLER, 'model', 'estimator'] },
  ]);

  it('are left out when other words of the question tell the nodes apart', () => {
    const groups = scoringGroups(v, { terms: ['panel', 'estimator'], k: 3, maxPages: 5 });
    expect(groups.map((g) => [...g.keys()])).toEqual([['estimator']]);
  });

  it('rank the nodes when none of the other words is in the source in any form ("quantify the imbalance of a panel")', () => {
    const query = { terms: ['quantify', 'imbalance', 'panel'], k: 3, maxPages: 5 };
    expect(scoringGroups(v, query).map((g) => [...g.keys()])).toEqual([['quantify'], ['imbalance'], ['panel']]);
    expect(rankNodesIn(v, query)[0]!.title).toBe('Unbalanced panels');
  });
});

/** Node vectors of a 2-d space where node i (1-based row order) has cosine cos[i] with the query [1, 0]. */
function vectors(ix: NodeKeywords, cos: number[]): NodeVectors {
  const rows = ix.nodes.map((r) => [ix.id, r[0]]);
  const data = new Float32Array(cos.flatMap((c) => [c, Math.sqrt(1 - c * c)]));
  return {
    model: { name: 'test', dims: 2, fingerprint: '0' }, dims: 2,
    rowsOf: () => ({ rows: rows.map((_, i) => i), nodeIds: rows.map((r) => r[1]!), data }),
  };
}

describe('the first suggestion\'s lead', () => {
  const T = { strong: 0.6, weak: 0.3 };
  const input = (nv: NodeVectors) => ({ terms: ['robin'], groups: [['robin']], k: 3, maxPages: 5, thresholds: T, query: new Float32Array([1, 0]), nodeVectors: nv });

  it('stays sure when vectors narrow a clear keyword margin but agree on the first node', () => {
    const ix = nodeIndex([
      { title: 'Guide', text: [] },
      { title: 'Robins', text: ['robin', 'robin', 'robin', 'nest', 'egg'] },
      { title: 'Gardens', text: ['robin', 'lawn', 'rain', 'worm', 'soil'] },
      { title: 'Feeders', text: ['seed', 'finch', 'tit', 'water', 'clean'] },
    ]);
    const hits = rankNodesIn(ix, input(vectors(ix, [0.5, 0.2, 0.9, 0.25])));
    expect(hits[0]!.title).toBe('Robins');
    // fused: 1 + 0 vs 0.64 + 0.2: under the sure lead; the keyword margin (0.36) is above it
    expect((hits[0]!.score - hits[1]!.score) / hits[0]!.score).toBeLessThan(NODE_SURE_LEAD);
    expect(hits[0]!.verdict).toBe('strong');
  });

  it('is the fused lead when vectors put another node first', () => {
    const ix = nodeIndex([
      { title: 'Guide', text: [] },
      { title: 'Robins', text: ['robin', 'robin', 'robin', 'nest', 'egg'] },
      { title: 'Gardens', text: ['robin', 'robin', 'rain', 'worm', 'soil'] },
      { title: 'Feeders', text: ['seed', 'finch', 'tit', 'water', 'clean'] },
    ]);
    const hits = rankNodesIn(ix, input(vectors(ix, [0.5, 0.2, 0.9, 0.25])));
    expect(hits[0]!.title).toBe('Gardens');
    expect(hits[0]!.verdict).not.toBe('strong');
  });
});
