import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readCatalog, writeCatalog } from '../src/store/catalog.js';
import { libraryOverview, formatOverview } from '../src/retrieve/library-overview.js';
import { adminStore } from './helpers/admin-store.js';
import { cleanup } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

/** Curated tags as the LLM curation step would write them (offline ingest writes none). */
const TAGS: Record<string, string[]> = {
  'harbor-2019.pdf': ['finance', 'port', 'annual'],
  'orchard-2021.pdf': ['agriculture', 'finance'],
  'library-2022.pdf': ['culture', 'strategy'],
  'with-outline.pdf': ['lab', 'procedures'],
  'no-outline.pdf': ['lab'],
  'guide.md': ['engineering', 'procedures'],
  'notes.txt': ['engineering'],
};

function listFiles(root: string, args: string[]): string[] {
  const r = mhub(['--store', root, 'list', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout).sources as Array<{ filename: string }>).map((s) => s.filename).sort();
}

describe('filters end to end (mhub list, mhub search)', () => {
  let root: string;
  let indexed: string[];
  beforeAll(async () => {
    root = await adminStore();
    const entries = readCatalog(root).sources.map((e) => ({ ...e, tags: TAGS[e.filename] ?? [] }));
    writeCatalog(root, entries);
    indexed = entries.filter((e) => e.status === 'indexed').map((e) => e.filename).sort();
  });
  afterAll(() => cleanup(root));

  it('lists every indexed source without filters', () => {
    expect(listFiles(root, [])).toEqual(indexed);
    expect(indexed.length).toBeGreaterThanOrEqual(6);
  });

  it('filters by type, path glob, tags (any / all), meta, document and indexed dates', () => {
    const only = (names: string[]) => names.filter((n) => indexed.includes(n)).sort();
    expect(listFiles(root, ['--type', 'markdown,text'])).toEqual(['guide.md', 'notes.txt']);
    expect(listFiles(root, ['--path', 'inbox/*-20??.pdf'])).toEqual(only(['harbor-2019.pdf', 'library-2022.pdf', 'orchard-2021.pdf']));
    expect(listFiles(root, ['--tag', 'lab', '--tag', 'culture'])).toEqual(only(['library-2022.pdf', 'no-outline.pdf', 'with-outline.pdf']));
    expect(listFiles(root, ['--all-tags', 'finance,annual'])).toEqual(only(['harbor-2019.pdf']));
    expect(listFiles(root, ['--tag', 'finance'])).toEqual(only(['harbor-2019.pdf', 'orchard-2021.pdf']));
    expect(listFiles(root, ['--tag', 'procedures', '--type', 'pdf'])).toEqual(only(['with-outline.pdf']));
    expect(listFiles(root, ['--meta', 'filename=guide.md'])).toEqual(['guide.md']);
    expect(listFiles(root, ['--since', '2019', '--until', '2019-12'])).toEqual(only(['harbor-2019.pdf']));
    expect(listFiles(root, ['--indexed-since', '2000-01-01'])).toEqual(indexed);
    expect(listFiles(root, ['--indexed-until', '2000'])).toEqual([]);
  });

  it('rejects malformed filter values with exit code 2 and the expected form', () => {
    const r = mhub(['--store', root, 'list', '--since', 'last-year']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('YYYY');
    const m = mhub(['--store', root, 'list', '--meta', 'novalue']);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain('key=value');
  });

  it('applies the same filters before ranking in search', () => {
    const r = mhub(['--store', root, 'search', 'euros budget', '--json', '--mode', 'keyword', '--tag', 'finance']);
    expect(r.code, r.stderr).toBe(0);
    const files = (JSON.parse(r.stdout).results as Array<{ file: string }>).map((h) => h.file);
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(['inbox/harbor-2019.pdf', 'inbox/orchard-2021.pdf']).toContain(f);
    const md = JSON.parse(mhub(['--store', root, 'search', 'rollback', '--json', '--type', 'markdown']).stdout);
    expect(md.results.map((h: { file: string }) => h.file)).toEqual(['inbox/guide.md']);
  });

  it('answers an off-topic query with the none verdict and no results', () => {
    const r = mhub(['--store', root, 'search', 'quantum chromodynamics gluon lattice simulation', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.verdict).toBe('none');
    expect(out.results).toEqual([]);
    expect(out.warnings.join(' ')).toMatch(/nothing matches/);
    // …while an on-topic one clears the threshold
    const on = JSON.parse(mhub(['--store', root, 'search', 'barcode label freezer samples', '--json']).stdout);
    expect(on.verdict).not.toBe('none');
    for (const h of on.results) {
      expect(h.relevance).toBeGreaterThanOrEqual(0);
      expect(h.relevance).toBeLessThanOrEqual(1);
    }
  });
});

describe('library overview (mhub catalog)', () => {
  let root: string;
  beforeAll(async () => {
    root = await adminStore();
  });
  afterAll(() => cleanup(root));

  it('puts every indexed source on exactly one shelf, offline (types, folders, doc types)', () => {
    const o = libraryOverview(root);
    const ids = o.shelves.flatMap((s) => s.ids).sort();
    expect(ids).toEqual(readCatalog(root).sources.filter((e) => e.status === 'indexed').map((e) => e.id).sort());
    expect(formatOverview(o).split('\n').length).toBeLessThanOrEqual(30);
  });

  it('shelves offline by the kind of label that partitions the library (card doc types here)', () => {
    const base = readCatalog(root).sources;
    const docType = (f: string) => (f.endsWith('.pdf') ? 'report' : 'working notes');
    writeCatalog(root, base.map((e) => ({ ...e, doc_type: docType(e.filename) })));
    const o = libraryOverview(root);
    const indexed = base.filter((e) => e.status === 'indexed');
    const pdfs = indexed.filter((e) => e.filename.endsWith('.pdf')).length;
    expect(o.shelves.map((s) => [`${s.basis}:${s.name}`, s.count])).toEqual([['doc_type:report', pdfs], ['doc_type:working notes', indexed.length - pdfs]]);
    expect(o.shelves.every((s) => s.series.length === 0)).toBe(true); // no repeating file-name series here
    writeCatalog(root, base);
  });

  it('builds shelves from curated tags, and uses the LLM shelf field when present', () => {
    const base = readCatalog(root).sources;
    writeCatalog(root, base.map((e) => ({ ...e, tags: TAGS[e.filename] ?? [] })));
    const byTags = libraryOverview(root);
    const names = byTags.shelves.map((s) => `${s.basis}:${s.name}`);
    expect(names).toContain('tag:finance');
    expect(names.some((n) => n === 'tag:lab' || n === 'tag:procedures' || n === 'tag:engineering')).toBe(true);
    const finance = byTags.shelves.find((s) => s.name === 'finance')!;
    expect(finance.tags).toContain('annual');
    expect(finance.period).toMatch(/2019/);

    const shelf = (f: string) => (f.endsWith('.pdf') && /20\d\d/.test(f) ? 'Public reports' : 'Operations');
    writeCatalog(root, base.map((e) => ({ ...e, shelf: shelf(e.filename) })));
    const cli = mhub(['--store', root, 'catalog', '--json']);
    expect(cli.code).toBe(0);
    const o = JSON.parse(cli.stdout);
    expect(o.shelves.map((s: { name: string; basis: string }) => `${s.basis}:${s.name}`).sort()).toEqual(['shelf:Operations', 'shelf:Public reports']);
    const text = mhub(['--store', root, 'catalog']).stdout;
    expect(text).toContain('Public reports');
    expect(text).toContain('Harbor Authority Annual Report 2019');
  });
});
