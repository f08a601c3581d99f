/**
 * Tier-2 node ranking: score fusion of keyword BM25 and node vectors (fusion.ts fuseNodeScores),
 * and verdicts that say how sure the first suggestion is (node-confidence.ts nodeVerdict), on their
 * own and through rankNodes in an ingested store.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { fuseNodeScores, NODE_VECTOR_WEIGHT } from '../src/search/fusion.js';
import { nodeVerdict, NODE_SURE_LEAD, NODE_TIE_LEAD, NODE_WEAK_SHARE } from '../src/search/node-confidence.js';
import { coversParts, distinctPlaces, rankNodes } from '../src/search/nodes.js';
import { readCatalog } from '../src/store/catalog.js';
import { searchStoreFixture } from './helpers/search-store.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildNodesIndex } from '../src/indexing/keyword-builder.js';
import { keywordNodesFile, serializeNodesIndex } from '../src/model/keyword-format.js';
import { resetKeywordCache } from '../src/search/keyword-index.js';
import { TreeFile, type TreeNode } from '../src/store/schemas.js';
import type { IndexBuildContext } from '../src/model/stages.js';
import { cleanup } from './helpers/temp-store.js';

const T = { strong: 0.6, weak: 0.3 };
const WEAK = NODE_WEAK_SHARE * T.weak;

describe('fuseNodeScores', () => {
  it('scales keyword scores by the best, adds min-max scaled vector similarity and the bonus', () => {
    const kw = new Map([[1, 10], [2, 5]]);
    const vec = new Map([[1, 0.3], [2, 0.5], [3, 0.4]]);
    const fused = fuseNodeScores(kw, vec, new Map([[2, 0.6]]));
    expect(fused.get(1)).toBeCloseTo(1 + 0);
    expect(fused.get(2)).toBeCloseTo(0.5 + NODE_VECTOR_WEIGHT * 1 + 0.6);
    expect(fused.get(3)).toBeCloseTo(NODE_VECTOR_WEIGHT * 0.5);
  });

  it('keeps a clear keyword margin that a vector ranking disagrees with (ranks would not)', () => {
    // node 1 holds the query's words four times better; the vectors prefer nodes 2 and 3
    const kw = new Map([[1, 40], [2, 10], [3, 9]]);
    const vec = new Map([[1, 0.2], [2, 0.7], [3, 0.69]]);
    const fused = fuseNodeScores(kw, vec, new Map());
    const order = [...fused.entries()].sort((a, b) => b[1] - a[1]).map(([i]) => i);
    expect(order[0]).toBe(1);
    expect((fused.get(1)! - fused.get(2)!) / fused.get(1)!).toBeGreaterThan(NODE_SURE_LEAD);
  });
});

describe('nodeVerdict', () => {
  it('is strong only for a first suggestion clearly ahead that holds the query’s words', () => {
    expect(nodeVerdict(0.5, 1, NODE_SURE_LEAD, T)).toBe('strong');
    expect(nodeVerdict(WEAK, 1, 0.9, T)).toBe('strong');
    // high relevance but a near-tie with the second: a guess, not sure
    expect(nodeVerdict(0.9, 1, 0.02, T)).toBe('weak');
    // clearly ahead but holding few of the query's words
    expect(nodeVerdict(WEAK / 2, 1, 0.5, T)).toBe('weak');
  });

  it('never calls a lower-ranked node strong; none when it holds too few of the query’s words', () => {
    expect(nodeVerdict(0.9, 2, 1, T)).toBe('weak');
    expect(nodeVerdict(WEAK / 2, 2, 1, T)).toBe('none');
    expect(nodeVerdict(WEAK / 2, 1, NODE_TIE_LEAD / 2, T)).toBe('none');
    expect(nodeVerdict(WEAK / 2, 1, NODE_TIE_LEAD, T)).toBe('weak');
  });
});

const GUIDE = [
  '# Field guide to garden birds',
  '',
  'Notes on birds seen in the garden through the year.',
  '',
  '## Robins',
  '',
  'Robins sing through winter; the robin defends a feeding territory and nests in ivy.',
  'Robin eggs are pale blue with red speckles; a robin pair raises two broods.',
  '',
  '## Blackbirds',
  '',
  'Blackbirds feed on lawns after rain. Males are black with an orange bill.',
  '',
  '## Feeders',
  '',
  'Feeders with seed draw finches and tits; clean feeders weekly. Birds in winter need water too.',
  '',
  '## Nest boxes',
  '',
  'Nest boxes face north-east; birds in winter roost in them. Clean nest boxes in autumn.',
  '',
].join('\n');

describe('rankNodes verdicts in an ingested store', () => {
  let root: string;
  let id: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', { docs: { 'birds.md': GUIDE } }));
    id = readCatalog(root).sources[0]!.id;
  });
  afterAll(() => cleanup(root));

  it('a question one section answers clearly gets a strong first suggestion, scores spread', async () => {
    const nodes = await rankNodes(root, id, 'What colour are robin eggs and how many broods?', { k: 3, vectors: false });
    expect(nodes[0]!.title).toBe('Robins');
    expect(nodes[0]!.verdict).toBe('strong');
    expect(nodes.slice(1).every((n) => n.verdict !== 'strong')).toBe(true);
  });

  it('a question two sections match equally is not strong', async () => {
    const nodes = await rankNodes(root, id, 'Where do birds go in winter?', { k: 3, vectors: false });
    const titles = nodes.slice(0, 2).map((n) => n.title).sort();
    expect(titles).toEqual(['Feeders', 'Nest boxes']);
    expect(nodes[0]!.verdict).not.toBe('strong');
  });

  it('searches a word the source lacks as the source\'s forms of it ("territorial" → territory), not a word it holds', async () => {
    const nodes = await rankNodes(root, id, 'Which birds are territorial?', { k: 3, vectors: false });
    expect(nodes[0]!.title).toBe('Robins');
    // "feeding" is in the source (Robins): not widened to "feeders"
    const feeding = await rankNodes(root, id, 'feeding', { k: 3, vectors: false });
    expect(feeding.map((n) => n.title)).toEqual(['Robins']);
  });

  it('never suggests a printed contents page (tree node kind contents), and writes the list only when there is one', async () => {
    const e = readCatalog(root).sources[0]!;
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')));
    const ctx = { root, loadTree: () => tree } as unknown as IndexBuildContext;
    expect(serializeNodesIndex(buildNodesIndex(ctx, e, 'sha'))).not.toContain('not_suggested');
    const feeders = tree.root.children.find((c: TreeNode) => c.title === 'Feeders')!;
    feeders.kind = 'contents';
    const ix = buildNodesIndex(ctx, e, 'sha');
    expect(ix.not_suggested).toEqual([ix.nodes.findIndex((r) => r[1] === 'Feeders')]);
    writeFileSync(join(root, keywordNodesFile(e.id)), serializeNodesIndex(ix));
    resetKeywordCache();
    const nodes = await rankNodes(root, id, 'Where do birds go in winter?', { k: 3, vectors: false });
    expect(nodes[0]!.title).toBe('Nest boxes');
    expect(nodes.map((n) => n.title)).not.toContain('Feeders');
  });

  it('never suggests a title page alone (an opening of a few words), but does an opening with text', async () => {
    const e = readCatalog(root).sources[0]!;
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')));
    const ctx = { root, loadTree: () => tree } as unknown as IndexBuildContext;
    const long = join(root, 'converted', e.id, 'opening.md');
    writeFileSync(long, `Backyard Birds\n${'Garden birds feed, nest and sing through the seasons in many ways. '.repeat(5)}\n`);
    const feeders = tree.root.children.find((c: TreeNode) => c.title === 'Feeders')!;
    feeders.kind = 'preface';
    feeders.content_ref = `converted/${e.id}/opening.md`;
    // an opening with text of its own: still suggested
    expect(buildNodesIndex(ctx, e, 'sha').not_suggested).toBeUndefined();
    writeFileSync(join(root, 'converted', e.id, 'title-page.md'), 'Backyard Birds\nRelease 2.1\nThe Garden Society\n');
    feeders.content_ref = `converted/${e.id}/title-page.md`;
    const ix = buildNodesIndex(ctx, e, 'sha');
    expect(ix.not_suggested).toEqual([ix.nodes.findIndex((r) => r[1] === 'Feeders')]);
  });

  it('lists no node beside its ancestor or descendant: they point to the same place', async () => {
    const e = readCatalog(root).sources[0]!;
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')));
    const ctx = { root, loadTree: () => tree } as unknown as IndexBuildContext;
    const title = (ix: { nodes: Array<[string, string, string, number, number]> }, i: number) => (i < 0 ? null : ix.nodes[i]![1]);
    const flat = buildNodesIndex(ctx, e, 'sha');
    expect(flat.parent!.map((p) => title(flat, p))).toEqual([null, ...flat.nodes.slice(1).map(() => flat.nodes[0]![1])]);
    // "Nest boxes" moved under "Feeders": both hold "birds in winter"; only the better of the two is listed
    const top = tree.root.children;
    const feeders = top.find((c: TreeNode) => c.title === 'Feeders')!;
    feeders.children.push(top.splice(top.findIndex((c: TreeNode) => c.title === 'Nest boxes'), 1)[0]!);
    const ix = buildNodesIndex(ctx, e, 'sha');
    expect(title(ix, ix.parent![ix.nodes.findIndex((r) => r[1] === 'Nest boxes')]!)).toBe('Feeders');
    writeFileSync(join(root, keywordNodesFile(e.id)), serializeNodesIndex(ix));
    resetKeywordCache();
    const nodes = await rankNodes(root, id, 'Where do birds go in winter?', { k: 3, vectors: false });
    const titles = nodes.map((n) => n.title);
    expect(titles.filter((t) => t === 'Feeders' || t === 'Nest boxes')).toHaveLength(1);
  });

  it('suggests the window of a keyed table whose entries take in a number the query names', async () => {
    const e = readCatalog(root).sources[0]!;
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')));
    const ctx = { root, loadTree: () => tree } as unknown as IndexBuildContext;
    const [a, b] = tree.root.children;
    a!.title = 'Sightings (entries 1–30)';
    b!.title = 'Sightings (entries 31–60)';
    writeFileSync(join(root, keywordNodesFile(e.id)), serializeNodesIndex(buildNodesIndex(ctx, e, 'sha')));
    resetKeywordCache();
    // neither window prints 42: only its keys take it in
    expect((await rankNodes(root, id, 'sighting 42', { k: 3, vectors: false }))[0]!.title).toBe('Sightings (entries 31–60)');
    expect((await rankNodes(root, id, 'sighting 7', { k: 3, vectors: false }))[0]!.title).toBe('Sightings (entries 1–30)');
  });
});

describe('coversParts', () => {
  it('a page range holds its parts; a page-less section does when it and its parts are short, not when read whole it is long', () => {
    // 0 root; 1 › 2, 3 (a long page-less section: 300 + 1,500 + 900 words); 4 › 5 (short); 6 › 7 (pages)
    const nodes = [['0000', 'Doc', 'l', 1, 90], ['0001', 'Rules', 'l', 1, 60], ['0002', 'Moves', 'l', 2, 30], ['0003', 'Drops', 'l', 31, 60], ['0004', 'Notes', 'l', 61, 80], ['0005', 'Tips', 'l', 70, 80], ['0006', 'Part', 'p', 1, 3], ['0007', 'Part 1', 'p', 2, 3]] as Array<[string, string, string, number, number]>;
    const covers = coversParts({ nodes, header: { parent: [-1, 0, 1, 1, 0, 4, 0, 6], len: [50, 300, 1500, 900, 100, 200, 3000, 3000] } } as never);
    expect([1, 4, 6].map(covers)).toEqual([false, true, true]);
  });
});

describe('distinctPlaces', () => {
  it('keeps the ranking, leaving out a node whose ancestor or descendant is ranked above it', () => {
    // 0 root; 1 › 2, 3 (children of 1); 4 › 5
    const parent = [-1, 0, 1, 1, 0, 4];
    const order: Array<[number, number]> = [[2, 0.9], [1, 0.8], [3, 0.7], [5, 0.6], [4, 0.5]];
    expect(distinctPlaces(order, parent, 3).map(([i]) => i)).toEqual([2, 3, 5]);
    expect(distinctPlaces([[1, 1], [2, 0.9], [4, 0.5]], parent, 3).map(([i]) => i)).toEqual([1, 4]);
    // an index without parents: the ranking as it is
    expect(distinctPlaces(order, undefined, 2)).toEqual(order.slice(0, 2));
    // an ancestor whose place does not hold its parts (a page-less section read whole: GNU Shogi's rules) leaves them listed
    expect(distinctPlaces([[1, 1], [2, 0.9], [4, 0.5]], parent, 3, (a) => a !== 1).map(([i]) => i)).toEqual([1, 2, 4]);
  });
});
