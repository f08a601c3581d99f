import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { evaluate, formatEval, formatFigures, percentile, sectionNodeIds, type EvalReport, type Retriever } from '../src/admin/eval.js';
import { parseQuestions, readQuestions } from '../src/admin/questions.js';
import { chunkBaseline, ChunkBm25 } from '../src/admin/baseline.js';
import { readCatalog } from '../src/store/catalog.js';
import { loadTree } from '../src/retrieve/store-read.js';
import type { TreeNode } from '../src/store/schemas.js';
import { adminStore, ADMIN_FILES, QUESTIONS } from './helpers/admin-store.js';
import { cleanup } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

describe('question files', () => {
  it('parses the FinanceBench format and keeps extra fields', () => {
    const qs = readQuestions(QUESTIONS);
    expect(qs).toHaveLength(10);
    expect(qs[0]).toMatchObject({ id: 'q01', expected: [{ file: 'harbor-2019.pdf', pages: [2] }], answer: '412,000 TEU' });
  });

  it('names the bad line', () => {
    expect(() => parseQuestions('{"id":"a","query":"x","expected":[{"file":"f.pdf","pages":[1]}]}\n{oops}\n')).toThrow(/line 2 is not valid JSON/);
    expect(() => parseQuestions('{"id":"a","query":"x"}\n')).toThrow(/line 1: expected/);
    expect(() => parseQuestions('\n\n')).toThrow(/no questions/);
  });
});

describe('mhub eval', () => {
  let root: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    root = await adminStore();
    ids = Object.fromEntries(readCatalog(root).sources.map((e) => [e.filename, e.id]));
  });
  afterAll(() => cleanup(root));

  it('computes hit@1, hit@k, MRR and tier-2 hit@1/hit@3 exactly', async () => {
    const qs = parseQuestions(
      [
        { id: 'a', query: 'qa', expected: [{ file: 'harbor-2019.pdf', pages: [2] }] },
        { id: 'b', query: 'qb', expected: [{ file: 'orchard-2021.pdf', pages: [3] }] },
        { id: 'c', query: 'qc', expected: [{ file: 'library-2022.pdf', pages: [4] }] },
        { id: 'd', query: 'qd', expected: [{ file: 'guide.md', pages: [] }, { file: 'with-outline.pdf', pages: [3] }] },
      ].map((q) => JSON.stringify(q)).join('\n'),
    );
    const src = (f: string) => ({ id: ids[f]!, file: `inbox/${f}`, score: 1 });
    const ranked: Record<string, ReturnType<typeof src>[]> = {
      qa: [src('harbor-2019.pdf'), src('guide.md')], // rank 1
      qb: [src('guide.md'), src('notes.txt'), src('orchard-2021.pdf')], // rank 3
      qc: [src('guide.md')], // miss
      qd: [src('notes.txt'), src('with-outline.pdf')], // rank 2 (second expected file)
    };
    const node = (a: number, b: number) => ({ node_id: `n${a}`, title: 't', page_range: [a, b] as [number, number], score: 1 });
    const suggestions: Record<string, ReturnType<typeof node>[]> = {
      qa: [node(2, 2), node(3, 3)], // tier-2 rank 1
      qb: [node(1, 1), node(2, 2), node(3, 4)], // rank 3
      qc: [node(1, 3), node(5, 6)], // miss (page 4 not covered)
      qd: [node(1, 1), node(2, 3)], // rank 2 inside with-outline.pdf
    };
    const fake: Retriever = {
      name: 'fake',
      searchSources: async (q, k) => ranked[q]!.slice(0, k),
      suggest: async (_id, q, k) => suggestions[q]!.slice(0, k),
    };
    const r = await evaluate(root, qs, fake, 5);
    expect(r.figures.tier1).toEqual({ hit1: 0.25, hitk: 0.75, mrr: Math.round(((1 + 1 / 3 + 0 + 1 / 2) / 4) * 1000) / 1000 });
    expect(r.figures.tier2).toEqual({ hit1: 0.25, hit3: 0.75, questions: 4 });
    expect(r.outcomes.map((o) => [o.rank, o.node_rank])).toEqual([[1, 1], [3, 3], [null, null], [2, 2]]);
    const k2 = await evaluate(root, qs, fake, 2);
    expect(k2.figures.tier1.hitk).toBe(0.5);
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
  });

  it('counts a source read from the expected archive as that file (an archive member is a source of its own)', async () => {
    const qs = parseQuestions(
      [
        { id: 'z1', query: 'q1', expected: [{ file: 'docs.tar.gz' }] },
        { id: 'z2', query: 'q2', expected: [{ file: 'sounds.txt' }] },
      ].map((q) => JSON.stringify(q)).join('\n'),
    );
    const fake: Retriever = {
      name: 'fake',
      searchSources: async (q) => [
        { id: 'x', file: q === 'q1' ? 'inbox/other.tar.gz!/docs/sounds.txt' : 'inbox/notes.txt', score: 1 },
        { id: 'y', file: 'inbox/docs.tar.gz!/docs/sounds.txt', score: 0.5 },
      ],
      suggest: async () => [],
    };
    const r = await evaluate(root, qs, fake, 5);
    // q1: the first member is another archive's; q2 names the member itself
    expect(r.outcomes.map((o) => o.rank)).toEqual([2, 2]);
  });

  it('scores text sources by the lines a node covers (expected lines instead of pages)', async () => {
    const qs = parseQuestions(
      [
        { id: 'l1', query: 'q1', expected: [{ file: 'notes.txt', pages: [], lines: [12] }] },
        { id: 'l2', query: 'q2', expected: [{ file: 'notes.txt', lines: [40] }] },
      ].map((q) => JSON.stringify(q)).join('\n'),
    );
    const lines = (a: number, b: number) => ({ node_id: `l${a}`, title: 't', line_range: [a, b] as [number, number], score: 1 });
    const fake: Retriever = {
      name: 'fake',
      searchSources: async () => [{ id: ids['notes.txt']!, file: 'inbox/notes.txt', score: 1 }],
      suggest: async (_id, q) => (q === 'q1' ? [lines(1, 5), lines(10, 14)] : [lines(1, 20), lines(21, 30)]),
    };
    const r = await evaluate(root, qs, fake, 5);
    expect(r.outcomes.map((o) => o.node_rank)).toEqual([2, null]);
    expect(r.figures.tier2).toEqual({ hit1: 0, hit3: 0.5, questions: 2 });
  });

  it('scores spreadsheets by the data rows a row hit covers (expected rows)', async () => {
    const qs = parseQuestions(
      [
        { id: 'r1', query: 'q1', expected: [{ file: 'notes.txt', rows: [2] }] },
        { id: 'r2', query: 'q2', expected: [{ file: 'notes.txt', rows: [9] }] },
      ].map((q) => JSON.stringify(q)).join('\n'),
    );
    const row = (a: number) => ({ node_id: '0000', title: `sheet row ${a}`, row_range: [a, a] as [number, number], score: 1 });
    const fake: Retriever = {
      name: 'fake',
      searchSources: async () => [{ id: ids['notes.txt']!, file: 'inbox/notes.txt', score: 1 }],
      suggest: async () => [row(2), row(1), row(3)],
    };
    const r = await evaluate(root, qs, fake, 5);
    expect(r.outcomes.map((o) => [o.node_rank, o.tier2_scored])).toEqual([[1, true], [null, true]]);
    expect(r.figures.tier2).toEqual({ hit1: 0.5, hit3: 0.5, questions: 2 });
  });

  it('leaves out of tier 2 a question naming its file but no place in it (not a miss); a file not in the store stays a miss', async () => {
    const qs = parseQuestions(
      [
        { id: 'p1', query: 'q1', expected: [{ file: 'notes.txt', lines: [12] }] },
        { id: 'p2', query: 'q2', expected: [{ file: 'notes.txt', pages: [] }] },
        { id: 'p3', query: 'q3', expected: [{ file: 'not-in-store.pdf', pages: [2] }] },
      ].map((q) => JSON.stringify(q)).join('\n'),
    );
    const fake: Retriever = {
      name: 'fake',
      searchSources: async () => [{ id: ids['notes.txt']!, file: 'inbox/notes.txt', score: 1 }],
      suggest: async () => [{ node_id: 'l10', title: 't', line_range: [10, 14], score: 1 }],
    };
    const r = await evaluate(root, qs, fake, 5);
    expect(r.outcomes.map((o) => [o.node_rank, o.tier2_scored])).toEqual([[1, true], [null, false], [null, true]]);
    expect(r.figures.tier2).toEqual({ hit1: 0.5, hit3: 0.5, questions: 2 });
    expect(formatFigures(r)).toContain('(2 scored)');
    expect(formatEval([r], false)).not.toMatch(/^p2 \(/m);
  });

  it('scores pages without lines (HTML) by named sections: the section node or any node under it', async () => {
    const tree = loadTree(root, readCatalog(root).sources.find((e) => e.filename === 'guide.md')!);
    const flat = (n: TreeNode): TreeNode[] => [n, ...n.children.flatMap(flat)];
    const byTitle = (t: string) => flat(tree.root).find((n) => n.title === t)!;
    const prereq = byTitle('Prerequisites');
    const under = sectionNodeIds(tree.root, ['  prerequisites ']);
    expect([...under].sort()).toEqual(flat(prereq).map((n) => n.node_id).sort());
    expect(under.has(byTitle('Rollback').node_id)).toBe(false);
    // a page's root is named by its own heading too, without the manual its title names
    const page = { ...tree.root, title: `${tree.root.title} — Operations Manual` };
    expect(sectionNodeIds(page, [tree.root.title]).size).toBe(flat(tree.root).length);
    expect(sectionNodeIds(page, ['Operations Manual']).size).toBe(0);
    const qs = parseQuestions(JSON.stringify({ id: 's1', query: 'q', expected: [{ file: 'guide.md', sections: ['Prerequisites'] }] }));
    const child = prereq.children[0] ?? prereq;
    const fake: Retriever = {
      name: 'fake',
      searchSources: async () => [{ id: ids['guide.md']!, file: 'inbox/guide.md', score: 1 }],
      suggest: async () => [{ node_id: byTitle('Rollback').node_id, title: 'Rollback', score: 2 }, { node_id: child.node_id, title: child.title, score: 1 }],
    };
    const r = await evaluate(root, qs, fake, 5);
    expect(r.outcomes[0]!.node_rank).toBe(2);
  });

  it('gives the baseline chunks of text sources line ranges and the nodes they come from', async () => {
    const ix = ChunkBm25.build(root);
    const notes = ix.ids.indexOf(ids['notes.txt']!);
    const chunks = ix.chunks.filter((c) => c.source === notes);
    expect(chunks[0]!.firstLine).toBe(1);
    expect(Math.max(...chunks.map((c) => c.lastLine))).toBeLessThanOrEqual(readFileSync(ADMIN_FILES['notes.txt']!, 'utf8').split('\n').length);
    expect(chunks[0]!.nodes.length).toBeGreaterThan(0);
    const s = await chunkBaseline(root).suggest(ids['guide.md']!, 'rollback', 1);
    expect(s[0]!.line_range?.[0]).toBeGreaterThan(0);
    expect(s[0]!.within?.length).toBeGreaterThan(0);
  });

  it('builds ~512-token chunks with page ranges for the baseline', () => {
    const ix = ChunkBm25.build(root);
    const harbor = ix.ids.indexOf(ids['harbor-2019.pdf']!);
    const chunks = ix.chunks.filter((c) => c.source === harbor);
    expect(chunks.length).toBeGreaterThanOrEqual(1);
    expect(chunks[0]!.first).toBe(1);
    expect(Math.max(...chunks.map((c) => c.last))).toBe(4);
    const top = ix.topChunks('dredged outer channel depth', 1)[0]!;
    expect(ix.ids[ix.chunks[top[0]]!.source]).toBe(ids['harbor-2019.pdf']);
  });

  it('measures the fixture question set from the CLI, next to the BM25-chunk baseline', async () => {
    const r = mhub(['--store', root, 'eval', QUESTIONS, '--json', '--baseline', '-k', '5']);
    expect(r.code, r.stderr).toBe(0);
    const [main, base] = JSON.parse(r.stdout) as EvalReport[];
    expect(main!.method).toMatch(/^mhub (hybrid|keyword)/);
    expect(base!.method).toBe('bm25-512-token-chunks');
    for (const rep of [main!, base!]) {
      const n = rep.outcomes.length;
      expect(n).toBe(10);
      // figures agree with the per-question outcomes
      expect(rep.figures.tier1.hit1).toBeCloseTo(rep.outcomes.filter((o) => o.rank === 1).length / n, 3);
      expect(rep.figures.tier1.hitk).toBeCloseTo(rep.outcomes.filter((o) => o.rank !== null).length / n, 3);
      expect(rep.figures.tier2.hit3).toBeCloseTo(rep.outcomes.filter((o) => o.node_rank !== null).length / n, 3);
    }
    // Each fixture document has its own vocabulary: both methods find the files and the pages.
    expect(base!.figures.tier1.hitk).toBe(1);
    expect(base!.figures.tier2.hit3).toBeGreaterThanOrEqual(0.9);
    expect(main!.figures.tier2.hit3).toBeGreaterThanOrEqual(0.8);
    expect(main!.figures.tier1.hitk).toBeGreaterThanOrEqual(0.6);

    const text = mhub(['--store', root, 'eval', QUESTIONS, '--explain']).stdout;
    expect(text).toContain('q01');
    expect(text).toMatch(/tier-1 hit@1 \d\.\d{3}\s+hit@5 \d\.\d{3}\s+MRR \d\.\d{3} \| tier-2 hit@1 \d\.\d{3}\s+hit@3/);
    expect(text).toContain('expected: harbor-2019.pdf p2');
  });

  it('reports a question whose file is not in the store as a miss with a note', async () => {
    const qs = parseQuestions(JSON.stringify({ id: 'x', query: 'anything', expected: [{ file: 'absent.pdf', pages: [1] }] }));
    const r = await evaluate(root, qs, chunkBaseline(root), 5);
    expect(r.outcomes[0]!.rank).toBeNull();
    expect(r.outcomes[0]!.note).toMatch(/not indexed/);
    expect(readFileSync(QUESTIONS, 'utf8')).toContain('harbor-2019.pdf');
  });
});

describe('mhub eval over a gzipped text (an archive of one file)', () => {
  let root: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mhub-gz-'));
    const text = ['Guide to the caves', '', ...Array.from({ length: 40 }, (_, i) => `Line ${i + 3} of the guide tells of cave number ${i + 3}.`)].join('\n');
    writeFileSync(join(dir, 'caves.txt.gz'), gzipSync(Buffer.from(text)));
    root = await adminStore({ 'caves.txt.gz': join(dir, 'caves.txt.gz'), 'notes.txt': ADMIN_FILES['notes.txt']! });
  });
  afterAll(() => {
    cleanup(root);
    rmSync(dir, { recursive: true, force: true });
  });

  it('scores the expected lines in the archive\'s one member, whose text holds them, not in the archive\'s listing', async () => {
    const entries = readCatalog(root).sources;
    const member = entries.find((e) => e.original_path.endsWith('caves.txt.gz!/caves.txt'))!;
    const archive = entries.find((e) => e.original_path.endsWith('caves.txt.gz'))!;
    expect(member && archive).toBeTruthy();
    const asked: string[] = [];
    const fake: Retriever = {
      name: 'fake',
      searchSources: async () => [{ id: member.id, file: member.original_path, score: 1 }],
      suggest: async (id) => {
        asked.push(id);
        return [{ node_id: 'n1', title: 't', line_range: [20, 30] as [number, number], score: 1 }];
      },
    };
    const qs = parseQuestions(JSON.stringify({ id: 'g1', query: 'cave 25', expected: [{ file: 'caves.txt.gz', lines: [25] }] }));
    const r = await evaluate(root, qs, fake, 5);
    expect(asked).toEqual([member.id]);
    expect(r.outcomes.map((o) => [o.rank, o.node_rank])).toEqual([[1, 1]]);
  });
});
