import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { searchStore } from '../src/search/search.js';
import { rankNodes } from '../src/search/nodes.js';
import { applyFilters } from '../src/search/filters.js';
import { tokenize } from '../src/model/tokenize.js';
import { queryTermGroups } from '../src/search/query.js';
import { readCatalog } from '../src/store/catalog.js';
import { KEYWORD_SOURCES_FILE } from '../src/model/keyword-format.js';
import type { CatalogEntry } from '../src/store/schemas.js';
import { searchStoreFixture } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

describe('tokenizer', () => {
  it('keeps the exact tokens users type and their parts', () => {
    const t = tokenize('FY2018 capex for 3M (10-K), ticker ACME, part ACME-7, 2023Q4, 1,577.5 million');
    for (const want of ['fy2018', '2018', 'capex', '3m', '10k', 'acme', 'acme7', '2023q4', 'q4', '2023', '577.5', 'million']) expect(t).toContain(want);
    expect(t).toContain('for'); // indexed text keeps every word; queries drop stopwords
    expect(queryTermGroups('capex for 3M').flat()).not.toContain('for');
    expect(queryTermGroups('FY2018 revenue')).toEqual([['fy2018', '2018'], ['revenue']]);
  });

  it('joins words at the typeset look-alikes of the hyphen as at "-" (TeX prints p−value with a minus sign)', () => {
    for (const printed of ['p−value', 'p‐value', 'p‑value']) expect(tokenize(`the ${printed} is small`)).toEqual(tokenize('the p-value is small'));
    // Unicode's ligature letters are the letters typed (a PDF's "ﬁle" is found by "file")
    expect(tokenize('the ﬁle is diﬀerent')).toEqual(tokenize('the file is different'));
    // dashes between words are still blanks
    expect(tokenize('2018–2019')).toEqual(['2018', '2019']);
  });

  it('indexes hex pairs apart by colons or hyphens (a MAC address, an OUI) joined too, as registries print them', () => {
    expect(tokenize('starting 08:00:27.')).toEqual(expect.arrayContaining(['080027', '08', '00', '27']));
    expect(tokenize('OUI 08-00-27')).toContain('080027');
    expect(tokenize('00:1b:21:3a:4f:5e')).toContain('001b213a4f5e');
    // the printed form and the typed one meet
    expect(tokenize('MA-L,080027,PCS Systemtechnik GmbH')).toContain('080027');
    // two pairs are a time, a date is a date, and a run ending in a word is no run of pairs
    expect(tokenize('at 10:30')).not.toContain('1030');
    expect(tokenize('2018-12-31')).toEqual(['2018-12-31', '2018']);
    expect(tokenize('08:00:27:zz')).not.toContain('080027');
    // letters joined by hyphens are one word, joined once
    expect(tokenize('DC-A6-32').filter((t) => t === 'dca632')).toHaveLength(1);
    // a query typing the pairs searches them as one term
    expect(queryTermGroups('MAC addresses starting 08:00:27. Which company?')).toContainEqual(['080027']);
    expect(queryTermGroups('MAC addresses starting 08:00:27').flat()).not.toContain('27');
  });

  it('indexes a Greek letter used as a symbol by its name as well, and leaves Greek words alone', () => {
    const t = tokenize('for fixed θ and σ2, Λ(θ) is sparse; the 𝜃 of eq. 3');
    expect(t.filter((x) => x === 'theta')).toHaveLength(3); // θ, θ, and math-italic 𝜃
    for (const want of ['θ', 'sigma', 'σ2', 'lambda', 'λ']) expect(t).toContain(want);
    const words = tokenize('καλημέρα κόσμε');
    expect(words).toEqual(['καλημέρα', 'κόσμε']);
    expect(queryTermGroups('for a fixed theta').flat()).toContain('theta');
  });

  it('searches a month named in a typed date as its number too, as data write it (2015/03/15)', () => {
    expect(queryTermGroups('precipitation on 15 March 2015')).toEqual([['precipitation'], ['15'], ['march', '03'], ['2015-03-15'], ['2015']]);
    expect(queryTermGroups('rain on March 15, 2015').flat()).toContain('2015-03-15');
    expect(queryTermGroups('Sept. 2019 results')).toEqual([['sept', 'september', '09'], ['2019'], ['result']]);
    expect(queryTermGroups('December 3rd')).toEqual([['december', '12'], ['3rd']]);
    // a date written in numbers is one token and its year, however it is written, as the typed date's
    expect(tokenize('2015/03/15')).toEqual(['2015-03-15', '2015']);
    expect(tokenize('3/15/2015')).toEqual(['2015-03-15', '2015']);
    expect(tokenize('2015-3-15')).toEqual(['2015-03-15', '2015']);
    // not its month and day: "Debian 12" is not a row whose dates hold a 12
    expect(tokenize('version: 1.2; released: 1996-12-12')).not.toContain('12');
    // a date typed in numbers is the date and its year, not any one of them; a code with a joined form stays one word
    expect(queryTermGroups('rain 2015/03/15')).toEqual([['rain'], ['2015-03-15'], ['2015']]);
    expect(queryTermGroups('10-K')).toEqual([['10k', '10']]);
    // a month's name with no day or year next to it is a word like any other
    expect(queryTermGroups('march of the penguins')).toEqual([['march'], ['penguin']]);
  });
});

describe('keyword-only search (no embedding model)', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none'));
  });
  afterAll(() => cleanup(root));

  it('builds the keyword index at ingest and no vector files', () => {
    expect(existsSync(join(root, KEYWORD_SOURCES_FILE))).toBe(true);
    expect(existsSync(join(root, 'vector_store', 'index.faiss'))).toBe(false);
  });

  it('finds the right source first, with its best nodes, and says vectors are missing', async () => {
    const r = await searchStore(root, 'What was the FY2018 capital expenditure of Acme?', { explain: true });
    expect(r.mode).toBe('keyword');
    expect(r.results[0]!.file).toBe('inbox/finance/acme-annual-fy2018.md');
    expect(r.results[0]!.verdict).toBe('strong');
    expect(r.results[0]!.relevance).toBeGreaterThan(0.6);
    expect(r.results[0]!.nodes[0]!.title).toBe('Capital expenditure');
    expect(r.results[0]!.nodes[0]!.line_range).toBeDefined();
    expect(r.results[0]!.explain!['keyword_score']).toBeGreaterThan(0);
    expect(r.warnings.join(' ')).toMatch(/keyword-only.*no vector index/);
  });

  it('matches years inside FY tokens and exact codes', async () => {
    expect((await searchStore(root, 'results 2018')).results[0]!.file).toContain('acme');
    expect((await searchStore(root, 'ACME-7')).results[0]!.file).toContain('acme');
    expect((await searchStore(root, 'cargo workspaces')).results[0]!.file).toContain('rust');
  });

  it('answers "nothing matches" on an off-topic query instead of noise', async () => {
    const r = await searchStore(root, 'chocolate cake baking temperature');
    expect(r.verdict).toBe('none');
    expect(r.results).toEqual([]);
    expect(r.warnings.join(' ')).toMatch(/nothing matches/);
  });

  it('warns when all hits come from one source', async () => {
    const r = await searchStore(root, 'pruning crossing branches orchard', { k: 3 });
    expect(r.results.map((h) => h.file)).toEqual(['inbox/garden/orchard-2021.md']);
    expect(r.warnings.join(' ')).toMatch(/only one source matched/);
  });

  it('warns when the inbox changed since the last ingest (stale index)', async () => {
    const { writeFileSync, rmSync } = await import('node:fs');
    const extra = join(root, 'inbox', 'new-note.md');
    writeFileSync(extra, '# New note\n\nnot yet ingested\n');
    try {
      const r = await searchStore(root, 'orchard');
      expect(r.freshness.stale).toBe(true);
      expect(r.freshness.warning).toMatch(/stale: 1 new in the inbox/);
      // said once: in freshness, not again in warnings
      expect(r.warnings.join(' ')).not.toMatch(/stale/);
    } finally {
      rmSync(extra);
    }
  });

  it('applies filters before ranking', async () => {
    const r = await searchStore(root, 'FY2018 capital expenditure Acme', { filters: { pathGlob: 'inbox/garden/**' } });
    expect(r.results.every((h) => h.file.startsWith('inbox/garden/'))).toBe(true);
    const all = await searchStore(root, 'guide', { filters: { types: ['markdown'] }, includeNone: true, k: 10 });
    expect(all.results.length).toBeGreaterThan(0);
    const none = await searchStore(root, 'guide', { filters: { types: ['pdf'] } });
    expect(none.results).toEqual([]);
  });

  it('rankNodes suggests specific nodes of one source', async () => {
    const id = readCatalog(root).sources.find((e) => e.filename === 'rust-build-guide.md')!.id;
    const nodes = await rankNodes(root, id, 'release profile lto', { k: 2 });
    expect(nodes[0]!.title).toBe('Release profiles');
    expect(nodes.length).toBeLessThanOrEqual(2);
  });

  it('mhub search prints results, --json and --explain, exit 0', () => {
    const r = mhub(['--store', root, 'search', 'orchard', 'watering', '--json', '--explain', '-k', '2']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.results[0].file).toBe('inbox/garden/orchard-2021.md');
    expect(j.results[0].explain.keyword_rank).toBe(1);
    const t = mhub(['--store', root, 'search', 'orchard']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/Orchard notes 2021/);
    expect(t.stderr).toMatch(/warning: keyword-only/);
    const bad = mhub(['--store', root, 'search', 'x', '--since', 'last week']);
    expect(bad.code).toBe(2);
    expect(mhub(['--store', root, 'search', 'x', '--meta', 'nokeyvalue']).code).toBe(2);
    const filtered = mhub(['--store', root, 'search', 'capital expenditure', '--path', 'inbox/code/**', '--type', 'markdown', '--json']);
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(JSON.parse(filtered.stdout).results.every((h: { file: string }) => h.file.startsWith('inbox/code/'))).toBe(true);
    const meta = mhub(['--store', root, 'search', 'orchard', '--meta', 'type=pdf', '--json']);
    expect(JSON.parse(meta.stdout).results).toEqual([]);
  });
});

describe('applyFilters', () => {
  const base = (over: Partial<CatalogEntry>): CatalogEntry => ({
    id: 'src_00000000', filename: 'a.pdf', original_path: 'inbox/a.pdf', type: 'pdf', size_kb: 1, sha256: '0'.repeat(64),
    status: 'indexed', error: null, strategy: null, title: 'A', summary: '', doc_type: '10-K', period: '', date: '',
    key_topics: [], sections_overview: [], tags: [], tree_path: null, converted_path: null, node_count: 0, converter: null,
    indexed_from_sha256: null, indexed_at: '2026-01-02T00:00:00.000Z', ...over,
  });
  const entries = [
    base({ id: 'src_00000001', original_path: 'inbox/fin/acme-2018.pdf', tags: ['finance', 'annual'], period: 'fiscal year 2018', date: '2018-12-31', meta: { company: 'Acme' } }),
    base({ id: 'src_00000002', original_path: 'inbox/fin/acme-2021.pdf', tags: ['finance'], date: '2021-06-30', indexed_at: '2026-03-01T00:00:00.000Z' }),
    base({ id: 'src_00000003', original_path: 'inbox/notes/todo.md', type: 'markdown', doc_type: '', tags: ['notes'], period: 'FY2019-FY2020' }),
    base({ id: 'src_00000004', original_path: 'inbox/broken.pdf', status: 'failed' }),
  ];
  const ids = (f: Parameters<typeof applyFilters>[1]) => applyFilters(entries, f).map((e) => e.id.slice(-1));

  it('type, tags any/all, dates, indexed dates, path glob, meta', () => {
    expect(ids({})).toEqual(['1', '2', '3']);
    expect(ids({ types: ['markdown'] })).toEqual(['3']);
    expect(ids({ types: ['10-K'] })).toEqual(['1', '2']);
    expect(ids({ tagsAny: ['notes', 'annual'] })).toEqual(['1', '3']);
    expect(ids({ tagsAll: ['finance', 'annual'] })).toEqual(['1']);
    expect(ids({ since: '2019' })).toEqual(['2', '3']);
    expect(ids({ until: '2019-06' })).toEqual(['1', '3']);
    expect(ids({ since: '2020', until: '2020' })).toEqual(['3']);
    expect(ids({ indexedSince: '2026-02' })).toEqual(['2']);
    expect(ids({ indexedUntil: '2026-01-31' })).toEqual(['1', '3']);
    expect(ids({ pathGlob: 'inbox/fin/**' })).toEqual(['1', '2']);
    expect(ids({ pathGlob: '*.md' })).toEqual(['3']);
    expect(ids({ meta: { company: 'acme' } })).toEqual(['1']);
    expect(ids({ meta: { doc_type: '10-K' } })).toEqual(['1', '2']);
  });
});

describe('a source the query names', () => {
  let root: string;
  const report = (year: number, growth: string) => [
    `# Zephyr Ltd annual report ${year}`, '', `Zephyr Ltd reports fiscal year ${year}.`, '', '## Revenue', '', `Net sales ${growth} in ${year}.`, '',
  ].join('\n');
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', {
      docs: {
        'zephyr-2019.md': report(2019, 'grew 2 percent'),
        'zephyr-2020.md': report(2020, 'grew 9 percent'),
        // "zephyr" in four sources: not a rare word (signals/rare.ts), still a name (two titles hold it)
        'supplier-notes.md': '# Supplier notes\n\nOur largest customer is Zephyr; orders rose.\n',
        'freight-log.md': '# Freight log\n\nPallets shipped to Zephyr each week by road.\n',
        'garden.md': '# Orchard notes\n\nPrune apple trees in late winter.\n',
      },
    }));
  });
  afterAll(() => cleanup(root));

  it('is listed when the question\'s other words are nowhere in it, not "nothing matches"', async () => {
    const q = 'Is Zephyr growing fast, judging by its 2020 quokka flamingo results?';
    const all = await searchStore(root, q, { includeNone: true, explain: true });
    expect(all.results[0]!.file).toBe('inbox/zephyr-2020.md');
    expect(all.results[0]!.explain!['identity_score']).toBe(1);
    expect(all.results[0]!.explain!['rare_term']).toBeUndefined();
    expect(all.results[0]!.explain!['keyword_relevance']).toBeLessThan(0.3);
    const r = await searchStore(root, q);
    expect(r.results[0]!.file).toBe('inbox/zephyr-2020.md');
    expect(r.results[0]!.verdict).not.toBe('none');
    expect(r.results.map((h) => h.file)).not.toContain('inbox/garden.md');
    expect(r.warnings.join(' ')).not.toMatch(/nothing matches/);
  });
});
