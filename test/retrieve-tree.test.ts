/** Bounded tree views and deep_retrieve answers. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { viewTree, type ViewNode } from '../src/retrieve/tree-view.js';
import { deepRetrieve } from '../src/retrieve/deep.js';
import { renderDeepText, SUGGESTION_PATH_DEPTH } from '../src/retrieve/render.js';
import type { TreeFile, TreeNode } from '../src/store/schemas.js';
import { skillStore } from './helpers/skill-store.js';
import { keywordNodesFile } from '../src/model/keyword-format.js';

/** A tree of `fan` children per node, `levels` deep, ids in pre-order like the store's. */
function synthetic(fan: number, levels: number): TreeFile {
  let next = 0;
  const make = (level: number): TreeNode => {
    const id = String(next++).padStart(4, '0');
    const children = level < levels ? Array.from({ length: fan }, () => make(level + 1)) : [];
    return { node_id: id, title: `Section ${id}`, summary: `Summary of section ${id} `.repeat(20), page_range: [1, 1], content_ref: null, children };
  };
  const root = make(0);
  return { schema_version: 1, id: 'src_00000000', file: 'x.pdf', type: 'pdf', title: 'X', toc_source: 'detected', strategy: 'tree_index', node_count: next, root };
}

function count(v: ViewNode): { shown: number; hidden: number } {
  let shown = 1;
  let hidden = v.hidden_descendants ?? 0;
  for (const c of v.children ?? []) {
    const r = count(c);
    shown += r.shown;
    hidden += r.hidden;
  }
  return { shown, hidden };
}

describe('viewTree', () => {
  const tree = synthetic(4, 3); // 1 + 4 + 16 + 64 = 85 nodes

  it('cuts at a depth and counts what is hidden', () => {
    const v = viewTree(tree, { depth: 0 });
    expect(v.root.children).toBeUndefined();
    expect(v.root.hidden_descendants).toBe(84);
    const v2 = viewTree(tree, { depth: 2 });
    expect(v2.shown).toBe(21);
    expect(v2.truncated).toBe(true);
    expect(v2.root.children![0]!.children![0]!.hidden_descendants).toBe(4);
    const c = count(v2.root);
    expect(c.shown + c.hidden).toBe(85);
  });

  it('fills a node budget breadth first, so the top of the document always shows', () => {
    const v = viewTree(tree, { depth: 10, maxNodes: 10 });
    expect(v.shown).toBe(10);
    expect(v.root.children!.length).toBe(4);
    const c = count(v.root);
    expect(c.shown).toBe(10);
    expect(c.shown + c.hidden).toBe(85);
  });

  it('starts at a node, clips summaries and can leave them out', () => {
    const v = viewTree(tree, { fromNode: '0001', depth: 1, summaryChars: 40 });
    expect(v.root.node_id).toBe('0001');
    expect(v.root.children!.map((c) => c.node_id)).toEqual(['0002', '0007', '0012', '0017']);
    expect(v.root.summary!.length).toBeLessThanOrEqual(40);
    expect(viewTree(tree, { summaries: false }).root.summary).toBeUndefined();
    expect(() => viewTree(tree, { fromNode: '9999' })).toThrow(/no node "9999"/);
  });

  it('shows a node\'s pages once: not beside a title that states them ("… (continued) (pages 11–14)")', async () => {
    const { renderTreeText, rangeBeside } = await import('../src/retrieve/tree-view.js');
    const part: ViewNode = { node_id: '0003', title: 'Item 1. Business (continued) (pages 11–14)', page_range: [11, 14] };
    const plain: ViewNode = { node_id: '0004', title: 'Item 1A. Risk Factors', page_range: [15, 22] };
    expect(rangeBeside(part)).toBe('');
    expect(rangeBeside(plain)).toBe('pp. 15-22');
    const text = renderTreeText({ node_id: '0000', title: 'Form 10-K', children: [part, plain] });
    expect(text).toContain('0003  Item 1. Business (continued) (pages 11–14)\n');
    expect(text).toContain('0004  Item 1A. Risk Factors  (pp. 15-22)');
  });

  it('shows the whole tree when depth and budget allow', () => {
    const v = viewTree(tree, { depth: 100, maxNodes: 1000 });
    expect(v.truncated).toBe(false);
    expect(count(v.root)).toEqual({ shown: 85, hidden: 0 });
  });
});

describe('deepRetrieve', () => {
  let root = '';
  beforeAll(async () => {
    root = await skillStore('none');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('returns the outline, toc source and keyword suggestions of at most a few pages', async () => {
    const a = await deepRetrieve(root, 'harbor-report.pdf', { query: 'pilotage fees and port dues revenue' });
    expect(a.toc_source).toBe('bookmarks');
    expect(a.page_count).toBe(4);
    expect(a.suggestions[0]!.title).toBe('Financial Results');
    expect(a.suggestions[0]!.page_range).toEqual([4, 4]);
    expect(a.suggestions[0]!.path.length).toBeGreaterThan(0);
    for (const s of a.suggestions) if (s.page_range) expect(s.page_range[1] - s.page_range[0] + 1).toBeLessThanOrEqual(5);
    expect(a.freshness.stale).toBe(false);
    // with suggestions the outline shows its top level only, unless a depth is asked for
    expect(a.depth).toBe(1);
    expect((await deepRetrieve(root, 'harbor-report.pdf', {})).depth).toBe(2);
    expect((await deepRetrieve(root, 'harbor-report.pdf', { query: 'pilotage fees', depth: 3 })).depth).toBe(3);
  });

  it('prints each suggestion with its score, verdict and the sections it sits in (--text)', async () => {
    const a = await deepRetrieve(root, 'harbor-report.pdf', { query: 'pilotage fees and port dues revenue' });
    const text = renderDeepText(a);
    const s = a.suggestions[0]!;
    expect(text).toContain(`${s.node_id}  ${s.title}  (p. 4)  score ${s.score.toFixed(2)} · ${s.verdict} (relevance ${s.relevance})`);
    // a section directly under the root: no "in:" line
    expect(s.path).toEqual([a.title]);
    expect(text).not.toContain('in: ');
    // nested deeper: the nearest ancestors, the root left out
    const nested = renderDeepText({ ...a, suggestions: [{ ...s, path: [a.title, 'Part II', 'Item 8', 'Notes'] }] });
    expect(SUGGESTION_PATH_DEPTH).toBe(2);
    expect(nested).toContain(`score ${s.score.toFixed(2)}`);
    expect(nested).toContain('        in: Item 8 › Notes\n');
  });

  it('stays within --max-chars by trimming summaries and nodes', async () => {
    const full = await deepRetrieve(root, 'spare-parts-inventory.xlsx', {});
    const small = await deepRetrieve(root, 'spare-parts-inventory.xlsx', { maxChars: 1500 });
    expect(JSON.stringify(full).length).toBeGreaterThan(1500);
    expect(JSON.stringify(small).length).toBeLessThanOrEqual(1500);
    expect(small.root.title).toBe(full.root.title);
  });

  it('says so when no node matches', async () => {
    const a = await deepRetrieve(root, 'release-runbook.md', { query: 'zebra giraffe' });
    expect(a.suggestions).toEqual([]);
    expect(a.warnings.join(' ')).toMatch(/no node of this source matches/);
  });

  it('says the node index must be rebuilt when it is missing, and still shows the outline', async () => {
    const e = await deepRetrieve(root, 'release-runbook.md', {});
    rmSync(join(root, keywordNodesFile(e.id)));
    const a = await deepRetrieve(root, 'release-runbook.md', { query: 'metrics exporter port' });
    expect(a.suggestions).toEqual([]);
    expect(a.warnings.join(' ')).toMatch(/node index .* missing or from an older version.*mhub ingest/);
    expect(a.root.children!.length).toBeGreaterThan(0);
  });
});
