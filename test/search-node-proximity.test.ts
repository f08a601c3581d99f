/**
 * Tier 2's proximity signal (proximity.ts, term-window.ts): among nodes BM25 cannot tell apart, the
 * one whose text holds the query's words in one short span comes first; a typed word's forms count
 * once in a span; a query of one word has no proximity to measure.
 */
import { describe, it, expect } from 'vitest';
import { rankNodesIn } from '../src/search/nodes.js';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROXIMITY_SCAN_CHARS, proximityScores, storeNodeText } from '../src/search/proximity.js';
import { nodeTextPath } from '../src/store/layout.js';
import { DENSE_WINDOW_CHARS, bestWindow, termHits } from '../src/search/term-window.js';
import type { NodeKeywords } from '../src/search/keyword-index.js';
import type { NodeRow } from '../src/model/keyword-format.js';
import { memoryNodeIndex, pageRows } from './helpers/node-index.js';

/** An in-memory node index over the nodes' titles and texts (lower-case words). */
function nodeIndex(nodes: Array<{ title: string; text: string }>): NodeKeywords {
  const words = (t: string) => t.toLowerCase().match(/[a-z]+/g) ?? [];
  return memoryNodeIndex(pageRows(nodes.map((n) => n.title)), nodes.map((n) => words(n.title)), nodes.map((n) => words(n.text)));
}

const PAD = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua '.repeat(3);
const nodes = [
  { title: 'Manual', text: '' },
  // the two words a paragraph apart
  { title: 'Tuning', text: `The cache is on disk. ${PAD} Eviction happens at night.` },
  // the same words, as often, in one sentence
  { title: 'Limits', text: `${PAD} The cache eviction runs hourly. ${'x '.repeat(4)}` },
  { title: 'Other', text: 'Nothing to see here at all.' },
];
const ix = nodeIndex(nodes);
const reader = (id: string) => nodes[Number(id)]!.text || null;
const groups = [new Map([['cache', 1]]), new Map([['eviction', 1]])];

describe('term windows', () => {
  it('count a word once per span, and forms of one word once together', () => {
    const weights = new Map([['computing', 2], ['computation', 2], ['eviction', 1]]);
    const text = 'Computing computation, computing eviction.';
    const hits = termHits(text, weights);
    expect(hits.map((h) => h.terms)).toEqual([['computing'], ['computation'], ['computing'], ['eviction']]);
    expect(bestWindow(hits, weights, DENSE_WINDOW_CHARS)!.score).toBe(5);
    const one = (t: string) => (t.startsWith('comput') ? 'comput' : t);
    expect(bestWindow(hits, weights, DENSE_WINDOW_CHARS, one)!.score).toBe(3);
  });

  it('keep to the width asked for', () => {
    const weights = new Map([['cache', 1], ['eviction', 1]]);
    const hits = termHits(`cache ${'y '.repeat(50)}eviction`, weights);
    expect(bestWindow(hits, weights, 20)!.score).toBe(1);
    expect(bestWindow(hits, weights, 200)!.score).toBe(2);
  });
});

describe('tier-2 proximity', () => {
  it('gives the node holding both words in one sentence the whole query, the other one word', () => {
    const p = proximityScores(ix, groups, [1, 2, 3], reader);
    expect(p.get(2)).toBeCloseTo(1);
    expect(p.get(1)!).toBeGreaterThan(0);
    expect(p.get(1)!).toBeLessThan(1);
    expect(p.get(3)).toBe(0);
  });

  it('has nothing to say about a one-word query', () => {
    expect(proximityScores(ix, [groups[0]!], [1, 2], reader).size).toBe(0);
  });

  it('puts the node with the words together first where BM25 ties', () => {
    const input = { terms: ['cache', 'eviction'], groups: [['cache'], ['eviction']], k: 3, maxPages: 5 };
    const without = rankNodesIn(ix, input);
    expect(without[0]!.score).toBe(without[1]!.score);
    expect(without[0]!.title).toBe('Tuning');
    const withText = rankNodesIn(ix, { ...input, nodeText: reader });
    expect(withText.map((h) => h.title).slice(0, 2)).toEqual(['Limits', 'Tuning']);
  });
});

describe('node texts for proximity', () => {
  it('reads the first PROXIMITY_SCAN_CHARS characters of a node file, null for a node without one', () => {
    const root = mkdtempSync(join(tmpdir(), 'mhub-prox-'));
    const file = join(root, nodeTextPath('src_a', '0001'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'é'.repeat(PROXIMITY_SCAN_CHARS + 500));
    const read = storeNodeText(root, 'src_a');
    expect(read('0001')).toBe('é'.repeat(PROXIMITY_SCAN_CHARS));
    expect(read('0002')).toBeNull();
  });
});

describe('proximity of spreadsheet rows', () => {
  it('gives a row the share its record holds, in its cells or the labels it is shown with; its sheet\'s file is not the row', () => {
    const rows: NodeRow[] = [
      ['0000', 'gapminder', 'r', 1, 2], ['0001', 'country', '', 0, 0], ['0002', 'lifeExp', '', 0, 0],
      ['0000', 'gapminder row 1', 'r', 1, 1], ['0000', 'gapminder row 2', 'r', 2, 2],
    ];
    const texts = [['gapminder', 'algeria', 'angola'], ['country', 'algeria', 'angola'], ['lifeexp', '43.077', '30.015'], ['algeria', '43.077'], ['angola', '30.015']];
    const sheet = memoryNodeIndex(rows, rows.map(() => []), texts, 'src_csv');
    // the sheet's file holds every word together: read for a row, it gave every row the whole query
    const read = (id: string) => (id === '0000' ? 'gapminder: Algeria 43.077, Angola 30.015, lifeExp' : null);
    const p = proximityScores(sheet, [new Map([['angola', 1]]), new Map([['lifeexp', 1]])], [2, 3, 4], read);
    expect(p.get(4)).toBeCloseTo(1);
    expect(p.get(3)!).toBeLessThan(0.9);
    expect(p.get(3)!).toBeGreaterThan(0);
    expect(p.get(2)).toBe(0);
  });
});
