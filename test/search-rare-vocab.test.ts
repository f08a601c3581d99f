/**
 * Held-out behaviours of the core ranking: rare terms always come back (first in a short query),
 * whatever the thresholds; vocabulary packs are opt-in, found in the store or among the shipped
 * packs, and a missing one is said once; indexed text keeps every word.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepRare, searchStore } from '../src/search/search.js';
import { runSearch } from '../src/retrieve/search-answer.js';
import { queryTermGroups, splitCompounds } from '../src/search/query.js';
import { passageSignal } from '../src/search/signals/passage.js';
import { resetKeywordCache, sourceKeywords } from '../src/search/keyword-index.js';
import { keywordNodesFile } from '../src/model/keyword-format.js';
import { readCatalog } from '../src/store/catalog.js';
import { NO_VOCABULARY, loadVocabulary } from '../src/search/vocabulary.js';
import { loadConfig } from '../src/store/config.js';
import { searchStoreFixture } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';

/** Many look-alike documents; the invented words each occur in one (or two) of them, once, deep in the body. */
function docs(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 12; i++) {
    const body = Array.from({ length: 30 }, (_, j) => `The maintenance schedule for pump ${i} covers valves, seals and bearings in week ${j}.`);
    if (i === 7) body.splice(20, 0, 'During the Hypershow the pump ran a demonstration cycle.');
    if (i === 3 || i === 9) body.splice(25, 0, 'Calibration code xylophone314 applies here.');
    out[`plant/pump-${i}.md`] = `# Pump ${i} maintenance\n\n${body.join('\n')}\n`;
  }
  return out;
}

describe('rare terms', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', { docs: docs() }));
  });
  afterAll(() => cleanup(root));

  it('bring back the one source holding a word found nowhere else, first, above the threshold', async () => {
    const r = await searchStore(root, 'Hypershow');
    expect(r.results[0]?.file).toBe('inbox/plant/pump-7.md');
    expect(r.results[0]!.verdict).not.toBe('none');
    const r2 = await searchStore(root, 'pump maintenance Hypershow valves');
    expect(r2.results[0]?.file).toBe('inbox/plant/pump-7.md');
  });

  it('bring back every source holding a rare code, first', async () => {
    const r = await searchStore(root, 'xylophone314 calibration');
    expect(r.results.slice(0, 2).map((h) => h.file).sort()).toEqual(['inbox/plant/pump-3.md', 'inbox/plant/pump-9.md']);
  });

  it('keep the rare word’s source among the results of a long question', async () => {
    const r = await searchStore(root, 'Which pump ran a demonstration cycle with valves and seals during the Hypershow week?', { k: 5 });
    expect(r.results.map((h) => h.file)).toContain('inbox/plant/pump-7.md');
  });

  it('move a source holding the rare word into the first k in place of one that lacks it, never of one that holds it', () => {
    const order: Array<[string, number]> = [['a', 3.1], ['b', 3.0], ['c', 1.4], ['d', 1.2]];
    const ids = (o: Array<[string, number]>) => o.map(([id]) => id).join('');
    // a, b and d hold it: with k = 2 the first two already do, nothing moves
    expect(ids(keepRare(order, { sources: new Set(['a', 'b', 'd']) }, 2))).toBe('abcd');
    // a and d hold it: d takes b's place, the lowest of the first two lacking it
    expect(ids(keepRare(order, { sources: new Set(['a', 'd']) }, 2))).toBe('adbc');
    expect(ids(keepRare(order, { sources: new Set(['d']) }, 3))).toBe('abdc');
    expect(ids(keepRare(order, null, 2))).toBe('abcd');
  });

  it('find documents by words the old index dropped as stopwords', async () => {
    const r = await searchStore(root, 'during the');
    expect(r.results.length).toBeGreaterThan(0);
  });
});

describe('the skill\'s --limit', () => {
  let root: string;
  beforeAll(async () => {
    const docs: Record<string, string> = {};
    for (let i = 0; i < 6; i++) docs[`reports/region-${i}.md`] = `# Regional revenue report ${i}\n\n${Array.from({ length: 8 }, (_, j) => `Revenue by region in 2022: the northern region was weakest in quarter ${j}, the southern region strongest.`).join('\n')}\n`;
    docs['misc/garden.md'] = `# Garden notes\n\n${Array.from({ length: 30 }, (_, j) => `Water the roses in bed ${j} and prune the hedges.`).join('\n')}\nThe zorblat sprinkler broke once.\n`;
    ({ root } = await searchStoreFixture('none', { docs }));
  });
  afterAll(() => cleanup(root));

  it('does not change which results come first', async () => {
    // a rare word in an unrelated source: kept among the first k sources, so with k = 1 it would come first
    const q = 'weakest region revenue 2022 zorblat';
    expect((await searchStore(root, q, { k: 1 })).results[0]?.file).toBe('inbox/misc/garden.md');
    const req = { offset: 0, nodesPerSource: 3, filters: {}, mode: 'auto' as const, explain: false, maxChars: 8000 };
    const five = await runSearch(root, q, { ...req, limit: 5 });
    expect(five.results[0]?.file).toMatch(/^inbox\/reports\//);
    for (const limit of [1, 2]) {
      const few = await runSearch(root, q, { ...req, limit });
      expect(few.results.map((h) => h.id)).toEqual(five.results.slice(0, limit).map((h) => h.id));
      expect(few.next_offset).toBe(limit);
    }
  });
});

describe('vocabulary packs', () => {
  let root: string;
  const setVocab = (v: unknown) => {
    const cfg = JSON.parse(readFileSync(join(root, 'config.json'), 'utf8'));
    writeFileSync(join(root, 'config.json'), JSON.stringify({ ...cfg, vocabularies: v }, null, 2) + '\n');
  };
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', { docs: docs() }));
  });
  afterAll(() => cleanup(root));

  it('say once that a configured pack is missing, and search without it', async () => {
    setVocab(['no-such-field']);
    const r = await searchStore(root, 'Hypershow');
    expect(r.warnings.filter((w) => /no-such-field/.test(w))).toHaveLength(1);
    expect(r.results[0]?.file).toBe('inbox/plant/pump-7.md');
  });

  it('load a user pack from the store’s vocabularies/ folder (query stopwords apply)', async () => {
    mkdirSync(join(root, 'vocabularies'), { recursive: true });
    writeFileSync(join(root, 'vocabularies', 'plant.json'), JSON.stringify({ name: 'plant', format: 1, query_stopwords: 'maintenance schedule' }));
    setVocab(['plant', 'finance']);
    const r = await searchStore(root, 'maintenance schedule Hypershow', { explain: true });
    expect(r.warnings.join(' ')).not.toMatch(/vocabulary/);
    expect(String(r.results[0]!.explain!['matched_terms'])).toBe('hypershow');
  });

  it('give passages the words a pack prints for what was typed, below the typed words', async () => {
    const { termWeights, PASSAGE_EXPANSION_WEIGHT } = await import('../src/retrieve/snippets.js');
    const cash = { 'cash.md': '# Cash flows\n\n## Operating\n\nNet income and depreciation.\n\n## Investing\n\nPurchases of property, plant and equipment | (1,577)\n\n## Financing\n\nDividends paid | (3,193)\n' };
    const { root: r2 } = await searchStoreFixture('none', { docs: cash });
    try {
      const id = readCatalog(r2).sources[0]!.id;
      const cfg = JSON.parse(readFileSync(join(r2, 'config.json'), 'utf8'));
      const q = 'How much was spent on capital expenditures in investing?';
      writeFileSync(join(r2, 'config.json'), JSON.stringify({ ...cfg, vocabularies: ['!finance'] }, null, 2) + '\n');
      expect(termWeights(r2, id, q, undefined, '').has('purchase')).toBe(false);
      writeFileSync(join(r2, 'config.json'), JSON.stringify({ ...cfg, vocabularies: ['finance'] }, null, 2) + '\n');
      const w = termWeights(r2, id, q, undefined, '');
      expect(w.get('purchase')).toBeGreaterThan(0);
      expect(w.get('purchase')!).toBeLessThanOrEqual(PASSAGE_EXPANSION_WEIGHT * Math.max(...[...w.values()]) + 1e-9);
    } finally {
      cleanup(r2);
    }
  });

  it('report a broken pack file, naming it', async () => {
    writeFileSync(join(root, 'vocabularies', 'broken.json'), '{"name": "broken", "format": 7}');
    setVocab(['broken']);
    const r = await searchStore(root, 'Hypershow');
    expect(r.warnings.join(' ')).toMatch(/broken\.json is unusable/);
  });

  it('apply a pack inside the sources of the doc types it declares, unless excluded with "!name"', () => {
    writeFileSync(join(root, 'vocabularies', 'pumps.json'), JSON.stringify({ name: 'pumps', format: 1, applies_to: { doc_types: ['Pump Manual'] }, query_stopwords: 'schedule' }));
    const config = (v: string[]) => ({ ...loadConfig(root), vocabularies: v });
    const inManual = loadVocabulary(root, config([]), 'pump manual');
    expect(inManual.names).toEqual(['pumps']);
    expect(inManual.stopwords.has('schedule')).toBe(true);
    expect(loadVocabulary(root, config([]), 'letter').names).toEqual([]);
    expect(loadVocabulary(root, config([]), '')).toBe(NO_VOCABULARY);
    expect(loadVocabulary(root, config(['!pumps']), 'pump manual').names).toEqual([]);
    expect(loadVocabulary(root, config([]), '10-K').names).toEqual(['finance']);
    expect(loadVocabulary(root, config(['!finance']), '10-K').names).toEqual([]);
  });
});

describe('spreadsheet rows and code symbols', () => {
  let root: string;
  beforeAll(async () => {
    const csv = ['part,supplier,city', 'P-100,Brightwater Ltd,Oslo', 'P-200,Quillfeather GmbH,Graz', 'P-300,Northwind,Lyon'].join('\n') + '\n';
    const py = ['def compute_zanzibar_total(items):', '    """Sum the items."""', '    return sum(items)', '', 'class LedgerBook:', '    pass', ''].join('\n');
    const news = ['# quokkaxl 4.2.5', '', '## Fixes', '', '* read_quokka() no longer changes the random seed.', '', '# quokkaxl 4.2.4', '', '## Fixes', '', '* Writing dates keeps their time zone.', ''].join('\n');
    ({ root } = await searchStoreFixture('none', { docs: { ...docs(), 'parts/suppliers.csv': csv, 'code/ledger.py': py, 'notes/NEWS.md': news } }));
  });
  afterAll(() => cleanup(root));

  it('a node whose title the source repeats ("Fixes" under each release) is listed with its place', async () => {
    const a = await runSearch(root, 'read_quokka random seed', { limit: 2, offset: 0, nodesPerSource: 3, filters: {}, mode: 'keyword', explain: false, maxChars: 8000 });
    const node = a.results[0]!.nodes[0]!;
    expect(node.title).toBe('Fixes');
    expect(node.path).toEqual(['quokkaxl 4.2.5']);
  });

  it('find a CSV by a cell value and cite the row, in data rows and as the sheet numbers it', async () => {
    const r = await searchStore(root, 'Quillfeather');
    expect(r.results[0]?.file).toBe('inbox/parts/suppliers.csv');
    const { deepRetrieve } = await import('../src/retrieve/deep.js');
    const d = await deepRetrieve(root, r.results[0]!.id, { query: 'Quillfeather supplier' });
    const s = d.suggestions[0]!;
    expect(s.row_range).toEqual([2, 2]);
    expect(s.excel_rows).toEqual([3, 3]); // header on row 1: data row 2 is row 3
    expect(s.passage?.text).toBe('row 2: part: P-200; supplier: Quillfeather GmbH; city: Graz');
  });

  it('a row hit\'s passage shows the row\'s cells by column, not the sheet\'s schema', async () => {
    const { runSearch } = await import('../src/retrieve/search-answer.js');
    const a = await runSearch(root, 'Which supplier is in Graz?', { limit: 2, offset: 0, nodesPerSource: 3, filters: {}, mode: 'keyword', explain: false, maxChars: 8000 });
    expect(a.results[0]?.file).toBe('inbox/parts/suppliers.csv');
    const row = a.results[0]!.nodes.find((n) => n.row_range?.[0] === 2);
    expect(row?.passage?.text).toBe('row 2: part: P-200; supplier: Quillfeather GmbH; city: Graz');
  });

  it('find code by a symbol name', async () => {
    const r = await searchStore(root, 'compute_zanzibar_total');
    expect(r.results[0]?.file).toBe('inbox/code/ledger.py');
    const r2 = await searchStore(root, 'LedgerBook');
    expect(r2.results[0]?.file).toBe('inbox/code/ledger.py');
  });
});

describe('query words as typed', () => {
  it('drop a possessive "’s", so a name ending in a digit is not searched as a rarer spelling', () => {
    expect(queryTermGroups("lme4's theory")).toEqual([['lme4', 'lme'], ['theory']]);
    expect(queryTermGroups('Rcpp’s modules')).toEqual([['rcpp'], ['module']]);
    expect(queryTermGroups('FY2018 10-K')).toEqual([['fy2018', '2018'], ['10k', '10']]);
    expect(queryTermGroups("LME4'S theory")).toEqual([['lme4', 'lme'], ['theory']]);
  });

  it('search a name typed with its version ("GPLv3") also by the name, as texts write it apart from the version', () => {
    expect(queryTermGroups('GPLv3 firmware')).toEqual([['gplv3', 'gplv', 'gpl'], ['firmware']]);
    expect(queryTermGroups('SSLv3')[0]).toContain('ssl');
    // a name shorter than three letters ("IPv6" is not about "ip"), a word ending in digits without a "v" version
    expect(queryTermGroups('IPv6')[0]).not.toContain('ip');
    expect(queryTermGroups('python3')).toEqual([['python3', 'python']]);
  });

  it('search a camel-case identifier also by its words when choosing sources, never when ranking nodes', () => {
    expect(queryTermGroups('what does vcovHAC adjust')).toEqual([['vcovhac'], ['adjust']]);
    expect(queryTermGroups('what does vcovHAC adjust', undefined, true)).toEqual([['vcovhac', 'vcov', 'hac'], ['adjust']]);
    // parts shorter than three letters are not words of their own; all-capital and lower-case words have none
    expect(queryTermGroups('PepsiCo JPMorgan TRUE LaTeX xylophone314', undefined, true)).toEqual([['pepsico', 'pepsi'], ['jpmorgan', 'morgan'], ['true'], ['latex'], ['xylophone314', 'xylophone', '314']]);
  });
});

describe('passage signal', () => {
  it('a section holding every query word outranks one whose heading names one of them', async () => {
    const filler = (i: number) => Array.from({ length: 12 }, (_, j) => `Routine inspection note ${i}.${j} on the site logbook.`).join('\n');
    const d: Record<string, string> = {};
    for (let i = 0; i < 6; i++) d[`site/log-${i}.md`] = `# Site log ${i}\n\n## Inspections\n\n${filler(i)}\n`;
    d['site/log-1.md'] += '\n## Flange\n\nThe flange was repainted.\n';
    d['site/log-4.md'] += '\n## Week 30\n\nWe tightened each flange gasket bolt to the torque the vendor gives, then checked the gasket again.\n';
    const { root } = await searchStoreFixture('none', { docs: d });
    try {
      const cat = readCatalog(root).sources;
      const id = (f: string) => cat.find((e) => e.original_path.endsWith(f))!.id;
      const p = passageSignal(root, ['flange', 'gasket', 'bolt', 'torque'], [id('log-1.md'), id('log-4.md')]);
      expect(p.get(id('log-4.md'))!).toBeGreaterThan(3 * p.get(id('log-1.md'))!);
    } finally {
      cleanup(root);
    }
  });

  it('weighs words by the passages compared: a word every section of a family uses tells its members apart less than words few sections hold', async () => {
    // four "zorp" documents, each section naming zorp; other documents use merge and cbind in
    // passing, so over whole sources zorp is the rarest query word, over the sections compared the commonest
    const d: Record<string, string> = {};
    const section = (t: string, body: string) => `## ${t}\n\n${body}\n`;
    for (let i = 0; i < 4; i++) {
      const parts = [0, 1, 2, 3].map((j) => section(`Part ${j}`, `The zorp series ${i} holds observation ${j} of the zorp library.`));
      d[`zorp/zorp-${i}.md`] = `# Zorp note ${i}\n\n${parts.join('\n')}`;
    }
    d['zorp/zorp-1.md'] += section('Joining', 'To join two zorp objects, merge one zorp into the other zorp.');
    d['zorp/zorp-2.md'] += section('Columns', 'Use merge rather than cbind: cbind gives worse column names.');
    for (let i = 0; i < 6; i++) d[`misc/table-${i}.md`] = `# Table ${i}\n\nRows are joined with merge or cbind in table ${i}.\n`;
    const { root } = await searchStoreFixture('none', { docs: d });
    try {
      const cat = readCatalog(root).sources;
      const id = (f: string) => cat.find((e) => e.original_path.endsWith(f))!.id;
      const p = passageSignal(root, ['zorp', 'merge', 'cbind'], ['zorp-0.md', 'zorp-1.md', 'zorp-2.md', 'zorp-3.md'].map(id));
      expect(p.get(id('zorp-2.md'))!).toBeGreaterThan(p.get(id('zorp-1.md'))!);
    } finally {
      cleanup(root);
    }
  });

  it('finds a query word a source never writes in the forms it does write ("regressing" as regression)', async () => {
    const d: Record<string, string> = {
      'farm/a.md': '# Farm A\n\n## Fit\n\nA regression of yield on rainfall.\n\n## Other\n\nSheep and fences.\n',
      'farm/b.md': '# Farm B\n\n## Notes\n\nYield and rainfall were recorded daily, the yield by hand.\n\n## Other\n\nGoats and gates.\n',
    };
    const { root } = await searchStoreFixture('none', { docs: d });
    try {
      const cat = readCatalog(root).sources;
      const id = (f: string) => cat.find((e) => e.original_path.endsWith(f))!.id;
      const p = passageSignal(root, ['regressing', 'yield', 'rainfall'], [id('a.md'), id('b.md')]);
      expect(p.get(id('a.md'))!).toBeGreaterThan(p.get(id('b.md'))!);
    } finally {
      cleanup(root);
    }
  });

  it('never takes a printed contents page (not_suggested in the node file) as a source\'s best passage', async () => {
    const d: Record<string, string> = {
      'guide/a.md': '# Guide A\n\n## Contents\n\nValve torque gasket flange bolt\n\n## Valves\n\nThe valve is opened by hand.\n',
      'guide/b.md': '# Guide B\n\n## Notes\n\nNothing about fittings here.\n',
    };
    const { root } = await searchStoreFixture('none', { docs: d });
    try {
      const e = readCatalog(root).sources.find((x) => x.original_path.endsWith('a.md'))!;
      const terms = ['torque', 'gasket', 'flange', 'bolt'];
      expect(passageSignal(root, terms, [e.id]).get(e.id)).toBeGreaterThan(0);
      const file = join(root, keywordNodesFile(e.id));
      const text = readFileSync(file, 'utf8');
      const nl = text.indexOf('\n');
      const header = JSON.parse(text.slice(0, nl));
      header.not_suggested = [header.nodes.findIndex((r: unknown[]) => r[1] === 'Contents')];
      writeFileSync(file, JSON.stringify(header) + text.slice(nl));
      resetKeywordCache();
      expect(passageSignal(root, terms, [e.id]).has(e.id)).toBe(false);
    } finally {
      cleanup(root);
    }
  });
});

describe('identity read from content', () => {
  it('indexes a source’s file name as a weak hint (card field), its title as its identity', async () => {
    const { root } = await searchStoreFixture('none', {
      docs: { 'notes/zorbex_q3_draft.md': '# Pump maintenance handbook\n\nValves, seals and bearings.\n', 'notes/other.md': '# Orchard notes\n\nApple trees.\n' },
    });
    try {
      const kix = sourceKeywords(root)!;
      const row = kix.ids.indexOf(readCatalog(root).sources.find((e) => e.filename === 'zorbex_q3_draft.md')!.id);
      const rows = (f: 'identity' | 'card', t: string) => { const p = kix.field(f).postings(t) ?? []; return Array.from(p).filter((_, i) => i % 2 === 0); };
      expect(rows('identity', 'zorbex')).toEqual([]);
      expect(rows('card', 'zorbex')).toEqual([row]);
      expect(rows('identity', 'handbook')).toEqual([row]);
      const r = await searchStore(root, 'zorbex', { explain: true, nodesPerSource: 0 });
      expect(r.results[0]?.file).toBe('inbox/notes/zorbex_q3_draft.md');
    } finally {
      cleanup(root);
    }
  });
});

describe('a name typed as one word', () => {
  let root: string;
  beforeAll(async () => {
    const docs: Record<string, string> = {
      'data/palmer-penguins-measurements.md': '# Palmer penguins measurements\n\nFlipper lengths by island and year.\n',
      'data/penguin-colonies.md': '# Penguin colonies\n\nColony counts along the coast.\n',
      'data/palmer-station.md': '# Palmer station logistics\n\nSupply ships and schedules.\n',
    };
    for (let i = 0; i < 9; i++) docs[`data/survey-${i}.md`] = `# Survey ${i}\n\nThe birds measured this week; birds measured again in week ${i}.\n`;
    ({ root } = await searchStoreFixture('none', { docs }));
  });
  afterAll(() => cleanup(root));

  it('is searched as its parts when no source holds it and one source is named by both ("palmerpenguins")', async () => {
    const r = await searchStore(root, 'birds measured in palmerpenguins');
    expect(r.results[0]?.file).toBe('inbox/data/palmer-penguins-measurements.md');
  });

  it('is left whole when the library holds it, or when no one source is named by both parts', () => {
    const groups = [['palmerpenguin'], ['mass']];
    const named = (a: string, b: string) => a === 'palmer' && b === 'penguin';
    expect(splitCompounds(groups, () => false, named)).toEqual([['palmer'], ['penguin'], ['mass']]);
    expect(splitCompounds(groups, (t) => t === 'palmerpenguin', named)).toEqual(groups);
    // any two words the library holds are not enough: "donated" is no "don" and "ated"
    expect(splitCompounds([['donated']], () => false, () => false)).toEqual([['donated']]);
  });
});
