import { describe, it, expect, afterEach } from 'vitest';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { TreeFile, type TreeNode } from '../src/store/schemas.js';
import { tempStore, snapshot, cleanup, FIXTURES } from './helpers/temp-store.js';

const F = (n: string) => join(FIXTURES, 'foundation', n);
const roots: string[] = [];
const store = (files: Record<string, string>) => {
  const r = tempStore(files);
  roots.push(r);
  return r;
};
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

function loadTree(root: string, id: string): TreeFile {
  return TreeFile.parse(JSON.parse(readFileSync(join(root, 'tree_index', `${id}.tree.json`), 'utf8')));
}
function flat(n: TreeNode): TreeNode[] {
  return [n, ...n.children.flatMap(flat)];
}
function entryFor(root: string, filename: string) {
  const e = readCatalog(root).sources.find((s) => s.filename === filename);
  if (!e) throw new Error(`no entry for ${filename}`);
  return e;
}

describe('ingest: markdown', () => {
  it('builds the heading tree; fenced code is not a heading; setext headings count', async () => {
    const root = store({ 'guide.md': F('guide.md') });
    const r = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r.counts.failed).toBe(0);
    const e = entryFor(root, 'guide.md');
    expect(e.status).toBe('indexed');
    expect(e.id).toMatch(/^src_[0-9a-f]{8}$/);
    expect(e.strategy?.recommended_approach).toBe('tree_index');
    const t = loadTree(root, e.id);
    expect(t.title).toBe('Deployment Guide');
    expect(t.root.children.map((c) => c.title)).toEqual(['Prerequisites', 'Rollout', 'Rollback']);
    const prereq = t.root.children[0]!;
    expect(prereq.children.map((c) => c.title)).toEqual(['Network']);
    const rollout = t.root.children[1]!;
    expect(rollout.children.map((c) => c.title)).toEqual(['Canary Stage', 'Full Stage']);
    const titles = flat(t.root).map((n) => n.title);
    expect(titles.some((x) => x.includes('shell comment'))).toBe(false);
    // the code block stays inside Prerequisites' own content
    const body = readFileSync(join(root, prereq.content_ref!), 'utf8');
    expect(body).toContain('# this line is a shell comment');
    // a parent's line range covers its children
    for (const n of flat(t.root)) for (const c of n.children) {
      expect(c.line_range![0]).toBeGreaterThanOrEqual(n.line_range![0]);
      expect(c.line_range![1]).toBeLessThanOrEqual(n.line_range![1]);
    }
    expect(prereq.line_range).toEqual([6, 18]);
    expect(rollout.line_range).toEqual([19, 31]);
  });
});

describe('ingest: text and PDF', () => {
  it('groups plain text paragraphs with line ranges and extractive summaries', async () => {
    const root = store({ 'notes.txt': F('notes.txt') });
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = entryFor(root, 'notes.txt');
    const t = loadTree(root, e.id);
    expect(t.toc_source).toBe('paragraphs');
    expect(t.root.line_range).toEqual([1, 14]);
    expect(t.root.summary.length).toBeGreaterThan(20);
    expect(t.root.summary.length).toBeLessThanOrEqual(300);
    expect(e.summary).toContain('Meeting notes');
  });

  it('uses the PDF outline when present, with 1-based page ranges covering the document', async () => {
    const root = store({ 'with-outline.pdf': F('with-outline.pdf') });
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = entryFor(root, 'with-outline.pdf');
    expect(e.pages).toBe(3);
    const t = loadTree(root, e.id);
    expect(t.toc_source).toBe('bookmarks');
    expect(t.root.page_range).toEqual([1, 3]);
    const all = flat(t.root);
    const sampling = all.find((n) => n.title === 'Sample Logging');
    const failures = all.find((n) => n.title === 'Equipment Failures');
    expect(sampling?.page_range?.[0]).toBe(2);
    expect(failures?.page_range).toEqual([3, 3]);
    const leafText = readFileSync(join(root, all.find((n) => n.children.length === 0 && n.page_range?.[0] === 3)!.content_ref!), 'utf8');
    expect(leafText).toContain('<!-- page 3 -->');
    expect(leafText).toContain('extension 4417');
  });

  it('falls back to page groups when the PDF has no outline', async () => {
    const root = store({ 'no-outline.pdf': F('no-outline.pdf') });
    await ingest(root, { paths: [join(root, 'inbox')] });
    const e = entryFor(root, 'no-outline.pdf');
    const t = loadTree(root, e.id);
    expect(['pages', 'detected']).toContain(t.toc_source);
    expect(t.root.page_range).toEqual([1, 2]);
    const leaves = flat(t.root).filter((n) => n.children.length === 0);
    const covered = leaves.flatMap((l) => Array.from({ length: l.page_range![1] - l.page_range![0] + 1 }, (_, i) => l.page_range![0] + i)).sort();
    expect(covered).toEqual([1, 2]);
  });
});

describe('ingest: failures are isolated', () => {
  it('records corrupt, empty and mislabelled files as failed and indexes the rest', async () => {
    const root = store({ 'guide.md': F('guide.md'), 'corrupt.pdf': F('corrupt.pdf'), 'notes.txt': F('notes.txt') });
    writeFileSync(join(root, 'inbox', 'empty.md'), '');
    writeFileSync(join(root, 'inbox', 'fake.pdf'), 'this is not a pdf at all\n');
    const r = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r.counts).toMatchObject({ indexed: 2, failed: 3 });
    expect(entryFor(root, 'corrupt.pdf').error).toMatch(/could not be parsed|corrupt/i);
    expect(entryFor(root, 'empty.md').error).toMatch(/empty/i);
    expect(entryFor(root, 'fake.pdf').error).toMatch(/signature/i);
    expect(entryFor(root, 'fake.pdf').tree_path).toBeNull();
    expect(entryFor(root, 'guide.md').status).toBe('indexed');
  });
});

describe('ingest: scanning', () => {
  it('skips files matching config.json ingest.exclude globs', async () => {
    const root = store({ 'guide.md': F('guide.md') });
    const cfgPath = join(root, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
    cfg.ingest.exclude = ['**/drafts/**'];
    writeFileSync(cfgPath, JSON.stringify(cfg));
    mkdirSync(join(root, 'inbox', 'drafts'));
    writeFileSync(join(root, 'inbox', 'drafts', 'wip.md'), '# Work in progress\n\nNot ready.\n');
    const r = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r.sources.map((x) => x.file)).toEqual(['inbox/guide.md']);
  });
});

describe('ingest: incremental', () => {
  it('changes no byte on a second run over unchanged input', async () => {
    const root = store({ 'guide.md': F('guide.md'), 'notes.txt': F('notes.txt'), 'with-outline.pdf': F('with-outline.pdf'), 'corrupt.pdf': F('corrupt.pdf') });
    await ingest(root, { paths: [join(root, 'inbox')] });
    const before = snapshot(root);
    const r2 = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r2.counts.unchanged).toBe(4);
    expect(snapshot(root)).toEqual(before);
    // and again with the stat cache gone (a fresh clone): hashes decide, still no change
    rmSync(join(root, '.mhub'), { recursive: true, force: true });
    const r3 = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r3.counts.unchanged).toBe(4);
    expect(snapshot(root)).toEqual(before);
  });

  it('redoes a changed file under the same id and removes deleted sources with their files', async () => {
    const root = store({ 'guide.md': F('guide.md'), 'notes.txt': F('notes.txt') });
    await ingest(root, { paths: [join(root, 'inbox')] });
    const guide = entryFor(root, 'guide.md');
    const notes = entryFor(root, 'notes.txt');
    appendFileSync(join(root, 'inbox', 'guide.md'), '\n## Monitoring\n\nDashboards live in the ops folder.\n');
    rmSync(join(root, 'inbox', 'notes.txt'));
    const r = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r.counts).toMatchObject({ updated: 1, removed: 1 });
    const g2 = entryFor(root, 'guide.md');
    expect(g2.id).toBe(guide.id);
    expect(g2.sha256).not.toBe(guide.sha256);
    expect(loadTree(root, g2.id).root.children.map((c) => c.title)).toContain('Monitoring');
    expect(readCatalog(root).sources.find((s) => s.id === notes.id)).toBeUndefined();
    expect(existsSync(join(root, 'tree_index', `${notes.id}.tree.json`))).toBe(false);
    expect(existsSync(join(root, 'converted', notes.id))).toBe(false);
  });
});
