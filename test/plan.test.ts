/**
 * Issue 16: the plan is an instruction. The offline planner makes real choices from the sample;
 * converters and the Claude tree step follow the plan's approach, key sections and granularity
 * (two plans → two stores); fields not honoured are in the catalog with why; every fallback is
 * reported once; an unchanged re-ingest makes no request. LLM runs use the fake Messages API.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { TreeFile, type FileCard, type TreeNode } from '../src/store/schemas.js';
import { planOffline } from '../src/ingest/plan/offline-planner.js';
import { takeSample } from '../src/ingest/plan/sample.js';
import { planDirectives } from '../src/ingest/plan/directives.js';
import { anchorKeySections, leafPagesFor, chunkChars } from '../src/ingest/converters/plan-shape.js';
import { useFakeApiSuite, fakeReply } from './llm/fake-api.js';
import { REPORT_PAGES, writeReportPdf } from './llm/docs.js';
import { contents, entry, llmStore } from './llm/store.js';

const FIX = join(import.meta.dirname, 'fixtures');
const NOW = () => new Date('2026-01-01T00:00:00Z');
const FAST = { provider: 'anthropic', model: 'claude-sonnet-5-5', max_retries: 1, timeout_ms: 5000, max_concurrency: 2 };

/** A long flat text: no headings, three parts whose titles are plain lines (1-based lines noted). */
const FLAT_PARTS = ['Overview of the harbour survey', 'Water quality measurements', 'Recommendations for the council'];
function flatText(): { text: string; starts: number[] } {
  const lines: string[] = ['Harbour survey 2024', ''];
  const starts: number[] = [];
  FLAT_PARTS.forEach((title, k) => {
    starts.push(lines.length + 1);
    lines.push(title, '');
    for (let p = 0; p < 6; p++) lines.push(`Paragraph ${p + 1} of part ${k + 1} describes the findings of the survey team in some detail, with figures and dates.`, '');
  });
  return { text: lines.join('\n'), starts };
}

const card = (name: string, type: FileCard['type'], extra: Partial<FileCard> = {}): FileCard => ({ id: 'src_00000000', filename: name, original_path: name, type, size_kb: 1, sha256: '0'.repeat(64), ...extra });
const treeOf = (root: string, id: string) => TreeFile.parse(JSON.parse(readFileSync(join(root, 'tree_index', `${id}.tree.json`), 'utf8')));
const leaves = (n: TreeNode): TreeNode[] => (n.children.length ? n.children.flatMap(leaves) : [n]);

describe('offline planner: real choices from the sample', () => {
  it('PDF with bookmarks → tree from them; no outline → tree from detected headings, structure weak; scanned → ocr', async () => {
    const withOutline = readFileSync(join(FIX, 'foundation', 'with-outline.pdf'));
    const a = await planOffline(takeSample(card('a.pdf', 'pdf'), withOutline, 5));
    expect(a.recommended_approach).toBe('tree_index');
    expect(a.has_structure).toBe(true);
    expect(a.key_sections.length).toBeGreaterThan(0);
    expect(a.estimated_nodes).toBeGreaterThan(0);
    const flat = readFileSync(join(FIX, 'foundation', 'no-outline.pdf'));
    const b = await planOffline(takeSample(card('b.pdf', 'pdf'), flat, 5));
    expect([b.recommended_approach, b.has_structure]).toEqual(['tree_index', false]);
    const scanned = readFileSync(join(FIX, 'formats', 'scanned-letter.pdf'));
    expect((await planOffline(takeSample(card('s.pdf', 'pdf'), scanned, 5))).recommended_approach).toBe('ocr');
  });

  it('long flat text → chunks (estimate from its length); headed text → tree; workbook → schema; code → symbols', async () => {
    const { text } = flatText();
    const t = await planOffline(takeSample(card('t.txt', 'text'), Buffer.from(text)));
    expect([t.recommended_approach, t.has_structure]).toEqual(['chunk_embed', false]);
    expect(t.estimated_nodes).toBe(Math.ceil(text.length / 2500));
    const headed = await planOffline(takeSample(card('h.txt', 'text'), Buffer.from('# One\n\ntext\n\n# Two\n\nmore\n')));
    expect(headed.recommended_approach).toBe('tree_index');
    expect((await planOffline(takeSample(card('s.xlsx', 'xlsx'), Buffer.from('')))).recommended_approach).toBe('schema_index');
    expect((await planOffline(takeSample(card('m.py', 'code', { language: 'python' }), Buffer.from('def f():\n  pass\n')))).recommended_approach).toBe('symbol_index');
  });
});

describe('plan directives and shapes', () => {
  it('special_handling notes become directives; notes no step reads are returned as unread', () => {
    const { directives, unread } = planDirectives({
      doc_nature: 'x', has_structure: false, recommended_approach: 'tree_index', convert_to_plaintext: true, key_sections: [' Part  A '],
      estimated_nodes: 9, special_handling: ['Tables as rows with header', 'two-column pages', 'watch the footnotes'], summary: '', planner: 'offline',
    });
    expect(directives).toEqual({ approach: 'tree_index', keySections: ['Part A'], tablesAsRows: true, twoColumns: true, plaintext: true, targetNodes: 9 });
    expect(unread).toEqual(['watch the footnotes']);
  });

  it('key sections anchor at their lines, skipping a contents block that lists them first', () => {
    const lines = ['Contents', 'Intro 1', 'Methods 2', 'Intro', 'Intro', 'text', 'Methods', 'more'];
    // "Intro 1" / "Methods 2" are contents entries (a page number after the title)
    expect(anchorKeySections(['Intro', 'Methods'], lines).anchors.map((a) => a.index)).toEqual([3, 6]);
    const toc = ['Alpha', 'Beta', 'Gamma', 'body', 'Alpha', 'x', 'Beta', 'y', 'Gamma'];
    expect(anchorKeySections(['Alpha', 'Beta', 'Gamma'], toc).anchors.map((a) => a.index)).toEqual([4, 6, 8]);
    expect(anchorKeySections(['Nowhere'], toc).missing).toEqual(['Nowhere']);
  });

  it('estimated_nodes refines granularity within max_leaf_pages and never coarsens it', () => {
    expect(leafPagesFor(100, null, 5)).toBe(5);
    expect(leafPagesFor(100, 20, 5)).toBe(5); // the default's count: unchanged
    expect(leafPagesFor(100, 50, 5)).toBe(2);
    expect(leafPagesFor(100, 5, 5)).toBe(5); // fewer nodes than max_leaf_pages allows: still ≤ 5 pages
    expect(chunkChars(10_000, 4, 2500)).toBe(2500);
    expect(chunkChars(10_000, 10, 2500)).toBe(1000);
  });
});

const api = useFakeApiSuite();
const roots: string[] = [];

afterEach(() => {
  while (roots.length) rmSync(roots.pop()!, { recursive: true, force: true });
});

/** The sampler answers `plan` (merged over the fake's usual reply); the other roles answer as usual. */
function samplerSays(plan: Record<string, unknown>): void {
  api.script = (req) => (req.role === 'sampling' ? { kind: 'text', text: JSON.stringify({ ...(fakeReply('sampling', req.input) as object), ...plan }) } : { kind: 'ok' });
}

const run = (root: string, extra: { llm?: string; plans?: string } = {}) => ingest(root, { paths: [join(root, 'inbox')], now: NOW, log: () => {}, ...extra });

async function storeWith(files: (inbox: string) => Promise<void> | void, llm: Record<string, unknown> = FAST): Promise<string> {
  const root = llmStore(llm);
  roots.push(root);
  await files(join(root, 'inbox'));
  return root;
}

const PARTS = ['Part Alpha Operations', 'Part Beta Finances', 'Part Gamma Outlook'];
const partPages = PARTS.map((p) => REPORT_PAGES.findIndex((lines) => lines[0] === p) + 1);

describe('with Claude: the same file under two plans gives two stores, as the plans say', () => {
  it('a PDF: chunk_embed → flat page groups and no tree request; tree_index + key sections → the tree step gets them, parts at their pages', async () => {
    samplerSays({ recommended_approach: 'chunk_embed', has_structure: false, key_sections: [], estimated_nodes: 4 });
    const a = await storeWith((inbox) => writeReportPdf(join(inbox, 'report.pdf')));
    await run(a);
    expect(api.requests.filter((r) => r.role === 'tree').length).toBe(0);
    const ea = entry(a, 'report.pdf');
    expect([ea.strategy?.recommended_approach, ea.toc_source]).toEqual(['chunk_embed', 'pages']);
    const ta = treeOf(a, ea.id);
    expect(ta.strategy).toBe('chunk_embed');
    // 8 pages, about 4 nodes → leaves of 2 pages (within max_leaf_pages 5)
    expect(leaves(ta.root).map((l) => l.page_range)).toEqual([[1, 2], [3, 4], [5, 6], [7, 8]]);

    api.requests.length = 0;
    samplerSays({ recommended_approach: 'tree_index', has_structure: false, key_sections: PARTS, estimated_nodes: 4 });
    const b = await storeWith((inbox) => writeReportPdf(join(inbox, 'report.pdf')));
    await run(b);
    const treeReqs = api.requests.filter((r) => r.role === 'tree');
    expect(treeReqs.length).toBe(1);
    expect(treeReqs[0]!.input).toContain(`Key sections (top level, from the plan): ${PARTS.join(' | ')}`);
    expect(treeReqs[0]!.input).toContain('Expected sections in the whole document: about 4');
    const eb = entry(b, 'report.pdf');
    expect([eb.strategy?.recommended_approach, eb.toc_source]).toEqual(['tree_index', 'llm']);
    const top = treeOf(b, eb.id).root.children.filter((c) => PARTS.includes(c.title));
    expect(top.map((c) => [c.title, c.page_range![0]])).toEqual(PARTS.map((p, i) => [p, partPages[i]]));
    const llmTree = treeOf(b, eb.id).root.meta?.['llm_tree'] as { key_sections: { proposed: number; added: number; missing: number } };
    // the fake reply proposes Alpha and Beta (Beta one page off, fixed) and Gamma; none missing
    expect(llmTree.key_sections.missing).toBe(0);
    expect(contents(a, ['tree_index'])).not.toEqual(contents(b, ['tree_index']));
  });

  it('a flat text: tree_index + key sections → top-level nodes at the lines where they start; chunk_embed → paragraph groups', async () => {
    const { text, starts } = flatText();
    samplerSays({ recommended_approach: 'tree_index', has_structure: false, key_sections: FLAT_PARTS, estimated_nodes: 3 });
    const a = await storeWith((inbox) => writeFileSync(join(inbox, 'survey.txt'), text));
    await run(a);
    const ea = entry(a, 'survey.txt');
    expect([ea.strategy?.recommended_approach, ea.toc_source]).toEqual(['tree_index', 'plan']);
    const ta = treeOf(a, ea.id);
    expect(ta.root.children.map((c) => [c.title, c.line_range![0]])).toEqual(FLAT_PARTS.map((p, i) => [p, starts[i]]));

    samplerSays({ recommended_approach: 'chunk_embed', has_structure: false, key_sections: [], estimated_nodes: 6 });
    const b = await storeWith((inbox) => writeFileSync(join(inbox, 'survey.txt'), text));
    await run(b);
    const eb = entry(b, 'survey.txt');
    expect([eb.strategy?.recommended_approach, eb.toc_source]).toEqual(['chunk_embed', 'paragraphs']);
    const tb = treeOf(b, eb.id);
    expect(tb.root.children.every((c) => c.kind === 'paragraphs')).toBe(true);
    expect(tb.root.children.length).toBeGreaterThanOrEqual(3); // ~2,400 characters: one group at the default size
  });

  it('fields a converter cannot honour are in the catalog with why, sorted; unread notes too', async () => {
    samplerSays({ recommended_approach: 'schema_index', key_sections: [], special_handling: ['tables as rows with header', 'zzz custom note'], convert_to_plaintext: false });
    const root = await storeWith((inbox) => writeReportPdf(join(inbox, 'report.pdf')));
    await run(root);
    const e = entry(root, 'report.pdf');
    expect(e.strategy?.recommended_approach).toBe('tree_index');
    const fields = e.plan_notes!.map((n) => n.field);
    expect(fields).toEqual([...fields].sort());
    expect(e.plan_notes!.find((n) => n.field === 'recommended_approach')!.reason).toMatch(/^schema_index: a PDF is converted as tree_index/);
    expect(e.plan_notes!.some((n) => n.field === 'convert_to_plaintext')).toBe(true);
    expect(e.plan_notes!.some((n) => n.reason.startsWith('tables as rows with header'))).toBe(true);
    expect(e.plan_notes!.some((n) => n.reason.includes('"zzz custom note": no converter step reads this note'))).toBe(true);
  });
});

describe('fallbacks are reported once, with why; re-ingest makes no request', () => {
  it('a planner failure: the offline plan is used and the report says so (also in --json); unchanged re-ingest: 0 requests', async () => {
    api.script = (req) => (req.role === 'sampling' ? { kind: 'status', status: 500 } : { kind: 'ok' });
    const root = await storeWith((inbox) => {
      writeFileSync(join(inbox, 'a.txt'), flatText().text);
      writeFileSync(join(inbox, 'b.md'), '# Notes\n\nSome notes.\n');
    });
    const report = await run(root);
    const w = report.warnings.filter((x) => x.startsWith('planner'));
    expect(w.length).toBe(1);
    expect(w[0]).toMatch(/^planner \(llm:claude-sonnet-5-5\) failed for 2 source\(s\) \(first: inbox\/a\.txt: .*500.*\); the offline result was used instead$/);
    expect(JSON.parse(JSON.stringify(report)).warnings).toContain(w[0]);
    expect(entry(root, 'a.txt').strategy?.planner).toBe('offline');
    expect(entry(root, 'a.txt').llm?.fallbacks.some((f) => /500/.test(f))).toBe(true);

    api.requests.length = 0;
    api.script = () => ({ kind: 'ok' });
    const again = await run(root);
    expect(again.counts.unchanged).toBe(2);
    expect(api.requests.length).toBe(0);
  });

  it('tree, card and curation failures are each reported once with their reason', async () => {
    api.script = (req) => (['tree', 'card', 'curation'].includes(req.role) ? { kind: 'text', text: 'not json at all' } : { kind: 'ok' });
    const root = await storeWith((inbox) => writeReportPdf(join(inbox, 'report.pdf')));
    const report = await run(root);
    const kinds = report.warnings.map((w) => w.split(' failed for ')[0]);
    expect(kinds).toEqual(expect.arrayContaining(['enricher llm-tree', 'enricher llm-card', 'curation (llm-curation)']));
    for (const k of ['enricher llm-tree', 'enricher llm-card', 'curation (llm-curation)']) expect(kinds.filter((x) => x === k).length).toBe(1);
  });
});

describe('recorded plans (--plans) without an LLM', () => {
  it('key sections of a flat PDF become top-level nodes at their pages; the default run is unchanged by the file\'s absence', async () => {
    const plans = join(mkdtempSync(join(tmpdir(), 'mhub-plans-')), 'plans.json');
    roots.push(plans.replace(/\/plans\.json$/, ''));
    writeFileSync(plans, JSON.stringify({ plans: { 'report.pdf': { recommended_approach: 'tree_index', has_structure: false, key_sections: PARTS } } }));
    const a = await storeWith((inbox) => writeReportPdf(join(inbox, 'report.pdf')), { provider: 'none' });
    await run(a, { llm: 'none', plans });
    const e = entry(a, 'report.pdf');
    expect(e.strategy?.planner).toBe('recorded:plans.json');
    expect(e.toc_source).toBe('plan');
    const top = treeOf(a, e.id).root.children.filter((c) => PARTS.includes(c.title));
    expect(top.map((c) => [c.title, c.page_range![0]])).toEqual(PARTS.map((p, i) => [p, partPages[i]]));

    const b = await storeWith((inbox) => writeReportPdf(join(inbox, 'report.pdf')), { provider: 'none' });
    await run(b, { llm: 'none' });
    expect(entry(b, 'report.pdf').toc_source).not.toBe('plan');
    expect(api.requests.length).toBe(0);
  });

  it('a bad plans file is a clear error naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-plans-'));
    roots.push(dir);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ plans: { 'x.pdf': { recommended_approach: 'magic' } } }));
    const root = await storeWith((inbox) => copyFileSync(join(FIX, 'foundation', 'notes.txt'), join(inbox, 'notes.txt')), { provider: 'none' });
    await expect(run(root, { llm: 'none', plans: join(dir, 'bad.json') })).rejects.toThrow(/plans file .*bad\.json is not valid at plans\.x\.pdf\.recommended_approach/);
  });
});
