/**
 * Retrieval-quality methods: period matching (asked fiscal year / quarter vs a source's period),
 * the finance vocabulary pack (statements for node titles, instruction words), query stopwords,
 * and their effect on ranking in a real ingested store.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { periodMatch, queryPeriod, sourcePeriod, yearsIn, PERIOD_SCORES, FILE_NAME_PERIOD_WEIGHT } from '../src/search/period.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenize } from '../src/model/tokenize.js';
import { expansionText, queryKinds, titleKind, TITLE_MATCH } from '../src/search/sections.js';
import { readVocabularyFile, type Vocabulary } from '../src/search/vocabulary.js';

const FINANCE: Vocabulary = { ...readVocabularyFile(join(import.meta.dirname, '..', 'vocabularies', 'finance.json')), names: ['finance'], warnings: [] };
const queryStatements = (q: string) => queryKinds(FINANCE, q);
const titleStatement = (t: string) => {
  const k = titleKind(FINANCE, t);
  return k ? { statement: k.kind, strength: k.strength } : null;
};
import { queryTerms, queryTermGroups } from '../src/search/query.js';
import { searchStore } from '../src/search/search.js';
import { rankNodes } from '../src/search/nodes.js';
import { searchStoreFixture } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';

const src = (filename: string, extra: Partial<{ title: string; period: string; date: string; doc_type: string }> = {}) =>
  sourcePeriod({ filename, title: extra.title ?? '', period: extra.period ?? '', date: extra.date ?? '', doc_type: extra.doc_type ?? '' });

describe('period matching', () => {
  it('reads years and quarters the way users type them', () => {
    expect(queryPeriod('What is the FY2018 capex?')).toEqual({ years: [2018], quarter: null, partial: false });
    expect(queryPeriod('revenue in fiscal 2022 and FY21')).toMatchObject({ years: [2021, 2022], quarter: null });
    expect(queryPeriod('cash between FY 2023 and Q2 of FY2024')).toMatchObject({ years: [2023, 2024], quarter: 2, partial: true });
    expect(queryPeriod('segments in 2021 Q1')).toMatchObject({ years: [2021], quarter: 1 });
    expect(queryPeriod('third quarter results')).toMatchObject({ years: [], quarter: 3 });
    expect(queryPeriod('what industry is it in')).toEqual({ years: [], quarter: null, partial: false });
  });

  it('reads quarter and half codes with two-digit years, and fiscal years across two calendar years', () => {
    expect(queryPeriod('3Q22 revenue')).toEqual({ years: [2022], quarter: 3, partial: true });
    expect(queryPeriod('2Q 2023 sales')).toEqual({ years: [2023], quarter: 2, partial: true });
    expect(queryPeriod("margin in Q3'22")).toEqual({ years: [2022], quarter: 3, partial: true });
    expect(queryPeriod('Q4-21 results')).toEqual({ years: [2021], quarter: 4, partial: true });
    expect(queryPeriod('third-quarter 2021 results')).toMatchObject({ years: [2021], quarter: 3 });
    expect(queryPeriod("capex in fiscal '22")).toEqual({ years: [2022], quarter: null, partial: false });
    expect(queryPeriod('1H22 revenue')).toEqual({ years: [2022], quarter: null, partial: true });
    expect(queryPeriod('budget for FY 2022-23').years).toEqual([2022, 2023]);
    expect(queryPeriod('the 2019/20 annual report').years).toEqual([2019, 2020]);
    // not periods: a form number after "fiscal", a date, page ranges, an hour
    expect(queryPeriod('the fiscal 10-K filing').years).toEqual([]);
    expect(queryPeriod('as of 2022-12-31').years).toEqual([2022]);
    expect(queryPeriod('see pages 22-23').years).toEqual([]);
    expect(queryPeriod('a timeout of 1h')).toEqual({ years: [], quarter: null, partial: false });
  });

  it('reads a source period from its file name, period text, date and type', () => {
    expect(src('ACME_2018_10K.pdf', { doc_type: '10-K', period: 'fiscal year ended December 31, 2018', date: '2018-12-31' }))
      .toEqual({ years: [2018], quarter: null, annual: true, partial: false, date: '2018-12-31' });
    expect(src('ACME_2023Q1_EARNINGS.pdf', { period: 'first quarter 2023' })).toMatchObject({ quarter: 1, annual: false, partial: true });
    expect(src('ACME_2023Q4_EARNINGS.pdf')).toMatchObject({ years: [2023], quarter: 4, annual: true, partial: false });
    expect(src('acme-10q.pdf', { doc_type: '10-Q', date: '2021-06-30' })).toMatchObject({ years: [2021], partial: true });
  });

  it('takes a fiscal label read from the text over the end date and the file name (issue 18)', () => {
    // neutral file names: the period is what the report calls it
    const q2 = src('doc07.pdf', { doc_type: '10-Q', period: 'quarter ended July 29, 2023; Q2 fiscal 2024', title: 'Best Buy — Form 10-Q (quarter ended July 29, 2023; Q2 fiscal 2024)', date: '2023-07-29' });
    expect(q2).toMatchObject({ years: [2024], quarter: 2, partial: true });
    expect(periodMatch(queryPeriod('stores at the end of Q2 fiscal 2024'), q2)).toBe(PERIOD_SCORES.latest);
    const jnj = src('doc11.pdf', { doc_type: '10-K', period: 'fiscal year ended January 1, 2023; fiscal 2022', date: '2023-01-01' });
    expect(jnj).toMatchObject({ years: [2022], annual: true });
    expect(periodMatch(queryPeriod('gross margin in FY2022'), jnj)).toBe(PERIOD_SCORES.latest);
    expect(src('doc12.pdf', { doc_type: '10-Q', period: 'quarter ended March 31, 2021; Q1 2021' })).toMatchObject({ years: [2021], quarter: 1 });
  });

  it('takes the end date a query names as the period itself, whatever the fiscal label says', () => {
    expect(queryPeriod('fiscal 2015 (year ended January 3, 2016)').dates).toEqual(['2016-01-03']);
    expect(queryPeriod('as of Jan. 3 2016, 3 January 2016 or 2016-01-03').dates).toEqual(['2016-01-03']);
    expect(queryPeriod('in 3 quarters 2016 or March 40, 2016').dates).toBeUndefined();
    const kraft = src('doc13.pdf', { doc_type: '10-K', period: 'fiscal year ended January 3, 2016; fiscal 2015', date: '2016-01-03' });
    const other = src('doc14.pdf', { doc_type: '10-K', period: 'fiscal year ended December 31, 2016', date: '2016-12-31' });
    const q = queryPeriod('integration costs in fiscal 2015 (year ended January 3, 2016)');
    // without the date, the label's 2015 is only one of the two years asked, and 2016 the latest
    expect(periodMatch({ ...q, dates: undefined }, kraft)).toBe(PERIOD_SCORES.asked);
    expect(periodMatch(q, kraft)).toBe(PERIOD_SCORES.latest);
    expect(periodMatch(q, other)).toBe(PERIOD_SCORES.latest);
    expect(periodMatch(queryPeriod('integration costs in fiscal 2016'), kraft)).toBeLessThan(PERIOD_SCORES.asked);
  });

  it('prefers the asked year, demotes comparatives, penalises contradictions and partial years', () => {
    const annual2023 = src('ACME_2023_10K.pdf', { doc_type: '10-K', title: 'Acme annual report 2023' });
    const annual2021 = src('ACME_2021_10K.pdf', { doc_type: '10-K', title: 'Acme annual report 2021' });
    const annual2019 = src('ACME_2019_10K.pdf', { doc_type: '10-K', title: 'Acme annual report 2019' });
    const q = queryPeriod('acquisitions in FY2023, FY2022 and FY2021');
    expect(periodMatch(q, annual2023)).toBe(PERIOD_SCORES.latest);
    expect(periodMatch(q, annual2021)).toBe(PERIOD_SCORES.asked);
    expect(periodMatch(q, annual2019)).toBe(PERIOD_SCORES.contradicts);
    expect(periodMatch(queryPeriod('FY2021 revenue'), annual2023)).toBe(PERIOD_SCORES.comparative);
    expect(periodMatch(queryPeriod('FY2024 revenue'), annual2023)).toBe(PERIOD_SCORES.contradicts);
    // a whole year asked: the Q4 / full-year release beats the Q1 one
    const whole = queryPeriod('SG&A as a percent of net sales in FY2023');
    expect(periodMatch(whole, src('ACME_2023Q4_EARNINGS.pdf'))).toBeGreaterThan(periodMatch(whole, src('ACME_2023Q1_EARNINGS.pdf')));
    // a quarter asked: the other quarter loses
    const q1 = queryPeriod('segment revenue in 2021 Q1');
    expect(periodMatch(q1, src('ACME_2021Q1_10Q.pdf', { doc_type: '10-Q' }))).toBeGreaterThan(periodMatch(q1, src('ACME_2021Q2_10Q.pdf', { doc_type: '10-Q' })));
    expect(periodMatch(queryPeriod('no year here'), annual2023)).toBe(0);
  });

  it('takes a period read from the file name alone as a weak hint', () => {
    const byName = src('ACME_2023_10K.pdf', { doc_type: '10-K' });
    expect(byName.nameOnly).toBe(true);
    expect(periodMatch(queryPeriod('FY2023 revenue'), byName)).toBe(PERIOD_SCORES.latest * FILE_NAME_PERIOD_WEIGHT);
    expect(periodMatch(queryPeriod('FY2023 revenue'), src('ACME_10K.pdf', { title: 'Acme annual report 2023' }))).toBe(PERIOD_SCORES.latest);
  });

  it('reads no year from port numbers or far-future numbers, and FY99 as 1999', () => {
    expect(queryPeriod('NFS on port 2049 keeps timing out').years).toEqual([]);
    expect(queryPeriod('the 2049 setting').years).toEqual([]);
    expect(queryPeriod('results for FY99').years).toEqual([1999]);
    expect(queryPeriod('results for FY18').years).toEqual([2018]);
    expect(yearsIn('see page 2019 of issue #2021 and report 2019')).toEqual([2019]);
  });
});

describe('finance vocabulary pack (vocabularies/finance.json)', () => {
  it('maps statement synonyms and metrics in queries to statements', () => {
    expect([...queryStatements('using the statement of financial position')]).toEqual(['balance']);
    expect([...queryStatements('What is the FY2018 capital expenditure amount?')]).toEqual(['cash_flow']);
    expect([...queryStatements('shown in the statement of operations')]).toEqual(['income']);
    expect(queryStatements('days payable outstanding (DPO)')).toEqual(new Set(['income', 'balance']));
    expect(queryStatements('what is the quick ratio')).toEqual(new Set(['balance']));
    expect(queryStatements('which industry does it operate in').size).toBe(0);
  });

  it('classifies node titles, telling the primary statement from notes mentioning it', () => {
    expect(titleStatement('Consolidated Statements of Operations')).toEqual({ statement: 'income', strength: TITLE_MATCH.qualified });
    expect(titleStatement('d) Condensed Consolidated Statements of Cash Flows')).toEqual({ statement: 'cash_flow', strength: TITLE_MATCH.qualified });
    expect(titleStatement('CONSOLIDATED STATEMENT OF FINANCIAL POSITION')).toEqual({ statement: 'balance', strength: TITLE_MATCH.qualified });
    expect(titleStatement('Balance Sheet')).toEqual({ statement: 'balance', strength: TITLE_MATCH.bare });
    expect(titleStatement('Note 7. Supplemental Balance Sheet Information')).toEqual({ statement: 'balance', strength: TITLE_MATCH.mention });
    expect(titleStatement('Consolidated Statements of Comprehensive Income')?.statement).toBe('comprehensive_income');
    expect(titleStatement('Item 7. Management’s Discussion and Analysis')).toBeNull();
  });

  it('expands metrics into the line items filings print for them', () => {
    expect(expansionText(FINANCE, 'FY2018 capex for Acme')).toContain('purchases of property plant and equipment');
    expect(expansionText(FINANCE, 'what is the net PPNE')).toContain('property plant and equipment net');
    expect(expansionText(FINANCE, 'DPO for FY2018')).toContain('accounts payable');
    expect(expansionText(FINANCE, 'which industry does it operate in')).toBe('');
  });

  it('reads a metric in the plural as in the singular', () => {
    expect(expansionText(FINANCE, 'are gross margins improving')).toContain('gross profit');
    expect(expansionText(FINANCE, 'operating margins by year')).toContain('operating income');
    expect(expansionText(FINANCE, 'current ratios of both years')).toContain('total current assets');
    expect([...queryKinds(FINANCE, 'are gross margins improving')]).toContain('income');
    expect([...queryKinds(FINANCE, 'net losses in 2022')]).toContain('income');
  });

  it('calls for no consolidated statement when the question names a part of the company (a segment, region, category)', () => {
    expect([...queryKinds(FINANCE, 'what operating margin did the company earn in fiscal 2015')]).toContain('income');
    expect([...queryKinds(FINANCE, 'what operating margin did the walmart u.s. segment earn in fiscal 2015')]).toEqual([]);
    expect([...queryKinds(FINANCE, 'which region had the worst revenue')]).toEqual([]);
    expect([...queryKinds(FINANCE, 'net sales by product category')]).toEqual([]);
  });

  it('expands a user\'s words for legal, credit and acquisition matters into the captions filings use', () => {
    expect(expansionText(FINANCE, 'Is PepsiCo involved in any material lawsuits?')).toContain('legal proceedings');
    expect(expansionText(FINANCE, 'any ongoing legal battles')).toContain('legal proceedings');
    expect(expansionText(FINANCE, 'how much did it enlarge its revolving credit facility')).toContain('revolving credit agreement');
    expect(expansionText(FINANCE, 'Which companies did Amcor acquire in 2021?')).toContain('acquisitions');
    // a legal entity or a credit rating is not a lawsuit or a credit line
    expect(expansionText(FINANCE, 'what is the legal entity name and credit rating')).toBe('');
  });
});

describe('query stopwords', () => {
  const Q = 'Answer in USD millions, rounded to two decimal places: what is the FY2018 capital expenditure amount for Acme?';
  it('drops general English stopwords from queries, never field words, without a pack', () => {
    const t = queryTerms(Q);
    expect(t).toEqual(expect.arrayContaining(['fy2018', '2018', 'capital', 'expenditure', 'acme', 'usd', 'amount', 'answer']));
    for (const w of ['what', 'is', 'the', 'for', 'in']) expect(t).not.toContain(w);
  });
  it('drops a pack’s instruction vocabulary too when the store uses it', () => {
    const t = queryTerms(Q, FINANCE.stopwords);
    expect(t).toEqual(expect.arrayContaining(['fy2018', '2018', 'capital', 'expenditure', 'acme']));
    for (const w of ['usd', 'million', 'answer', 'amount', 'decimal']) expect(t).not.toContain(w);
    expect(queryTermGroups('USD millions', FINANCE.stopwords).flat()).toEqual(['usd', 'million']); // nothing else: kept
    expect(queryTermGroups('what is it').flat()).toEqual(['what', 'is', 'it']);
  });
  it('keeps every word in the index', () => {
    expect(tokenize('The answer is shown here')).toEqual(['the', 'answer', 'is', 'shown', 'here']);
  });
});

const MDNA = Array.from({ length: 12 }, (_, i) =>
  `In fiscal year ${2018} the Acme amount in USD millions changed; management discusses the financial position, the amount of millions spent and plans for year ${i}.`).join('\n');

const annual = (year: number): string => [
  `# Acme Corp annual report FY${year}`,
  '',
  `Acme Corp reports fiscal year ${year} results in USD millions, including its capital expenditures.`,
  '',
  '## Management discussion',
  '',
  MDNA.replaceAll('2018', String(year)),
  '',
  '## Consolidated Statements of Cash Flows',
  '',
  `Purchases of property, plant and equipment (1,577) for ${year}. Net cash provided by operating activities 6,439.`,
  '',
  '## Consolidated Balance Sheets',
  '',
  'Property, plant and equipment, net 8,738. Total current liabilities 7,244.',
  '',
  '## Notes to the financial statements',
  '',
  'Leases, pensions and contingencies are described below.',
  '',
  '## Condensed Consolidated Balance Sheets of the parent company',
  '',
  'Investment in subsidiaries; property, plant and equipment, net 12; property, plant and equipment at cost 20.',
  '',
].join('\n');

/** Another company's short note that repeats a question's topic words. */
const BETA = [
  '# Beta Industries capital expenditure review 2018',
  '',
  'Beta Industries capital expenditure in fiscal 2018: capital expenditure rose; capital expenditure plans for 2019; capital expenditure versus peers.',
  '',
].join('\n');

describe('ranking in an ingested store', () => {
  let root: string;
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', { docs: { 'acme_2018_annual.md': annual(2018), 'acme_2020_annual.md': annual(2020), 'garden/orchard.md': '# Orchard\n\nApple trees and pruning.\n', 'beta_2018_capex_review.md': BETA } }));
    const cfg = JSON.parse(readFileSync(join(root, 'config.json'), 'utf8'));
    writeFileSync(join(root, 'config.json'), JSON.stringify({ ...cfg, vocabularies: ['finance'] }, null, 2) + '\n');
  });
  afterAll(() => cleanup(root));

  it('puts the filing of the asked fiscal year first among same-company filings', async () => {
    for (const year of [2018, 2020]) {
      const r = await searchStore(root, `What was Acme's FY${year} capital expenditure in USD millions?`, { explain: true, nodesPerSource: 0 });
      expect(r.results[0]!.file).toBe(`inbox/acme_${year}_annual.md`);
      expect(r.results[0]!.explain!['period_score']).toBe(PERIOD_SCORES.latest);
    }
  });

  it('puts the named company’s filing above another source repeating the topic words; topic words in a title are not names', async () => {
    const r = await searchStore(root, 'What was Acme Corp FY2018 capital expenditure?', { explain: true, nodesPerSource: 0 });
    expect(r.results[0]!.file).toBe('inbox/acme_2018_annual.md');
    const beta = r.results.find((h) => h.file === 'inbox/beta_2018_capex_review.md');
    expect(r.results[0]!.explain!['identity_score']).toBe(1);
    // "capital expenditure" in Beta's title is also in other bodies: a topic, not a name
    expect(beta!.explain!['identity_score']).toBe(0);
  });

  it('suggests the statement a metric lives in, not the wordy section repeating the question', async () => {
    const r = await searchStore(root, 'What is the FY2018 capital expenditure amount (in USD millions) for Acme?', { nodesPerSource: 0 });
    const id = r.results[0]!.id;
    const nodes = await rankNodes(root, id, 'What is the FY2018 capital expenditure amount (in USD millions) for Acme?', { k: 3, vectors: false });
    expect(nodes[0]!.title).toBe('Consolidated Statements of Cash Flows');
    const bs = await rankNodes(root, id, 'Using the statement of financial position, what is Acme’s net PPNE?', { k: 3, vectors: false });
    // the filer's own statement comes before a later copy (parent-only) that repeats the words more
    expect(bs[0]!.title).toBe('Consolidated Balance Sheets');
    expect(bs.map((n) => n.title)).toContain('Condensed Consolidated Balance Sheets of the parent company');
  });
});
