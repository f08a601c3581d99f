import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { searchStore } from '../src/search/search.js';
import { searchStoreFixture } from './helpers/search-store.js';
import { cleanup } from './helpers/temp-store.js';
import { LATEST_IN_SERIES, latestInSeries, periodSignal, seriesKey } from '../src/search/signals/metadata.js';
import { PERIOD_CONFLICT_GAP } from '../src/search/confidence.js';

type Entry = { filename: string; title: string; period?: string; date?: string; doc_type?: string };
const entries: Record<string, Entry> = {
  k19: { filename: 'a.pdf', title: 'Amcor PLC — Form 10-K (fiscal year ended June 30, 2019)', date: '2019-06-30', doc_type: '10-K' },
  k23: { filename: 'b.pdf', title: 'Amcor PLC — Form 10-K (fiscal year ended June 30, 2023)', date: '2023-06-30', doc_type: '10-K' },
  k21: { filename: 'c.pdf', title: 'Amcor PLC — Form 10-K (fiscal year ended June 30, 2021)', date: '2021-06-30', doc_type: '10-K' },
  e8k: { filename: 'd.pdf', title: 'Amcor PLC — Form 8-K (2023-09-01)', date: '2023-09-01', doc_type: '8-K' },
  man: { filename: 'e.pdf', title: 'LilyPond Learning Manual' },
};
const source = (id: string) => (entries[id] as never) ?? null;

describe('a series of editions: the newest when the query names no period', () => {
  it('reads what editions share from their titles: dates, years and fiscal labels out, form numbers kept', () => {
    expect(seriesKey(entries.k19!.title)).toBe(seriesKey(entries.k23!.title));
    expect(seriesKey(entries.k19!.title)).not.toBe(seriesKey(entries.e8k!.title));
    expect(seriesKey('OPM Annual Performance Report FY2015')).toBe(seriesKey('OPM Annual Performance Report, Fiscal Year 2016'));
    expect(seriesKey('LilyPond 2.24 Learning Manual')).not.toBe(seriesKey('LilyPond Learning Manual'));
  });

  it('gives the newest 10-K the bonus, not a newer filing of another form or a lone document', () => {
    const s = latestInSeries(['k19', 'k23', 'k21', 'e8k', 'man'], source);
    expect([...s]).toEqual([['k23', LATEST_IN_SERIES]]);
    // periodSignal judges only a query that names a year
    expect(periodSignal('What industry does Amcor operate in?', ['k19', 'k23'], source).size).toBe(0);
    expect(LATEST_IN_SERIES).toBeLessThan(PERIOD_CONFLICT_GAP);
  });

  it('leaves the period to the query when it names one', () => {
    const s = periodSignal('What was Amcor revenue in fiscal 2019?', ['k19', 'k23', 'k21'], source);
    expect(s.get('k19')!).toBeGreaterThan(s.get('k23') ?? 0);
  });
});

describe('the newest-edition rule in search', () => {
  const report = (year: number) => `# Acme Annual Report ${year}\n\nAcme makes widgets for the packaging industry in ${year}.\n\n## Results\n\nSales grew.\n`;
  let root = '';
  beforeAll(async () => {
    ({ root } = await searchStoreFixture('none', { docs: { 'acme-a.md': report(2019), 'acme-b.md': report(2023), 'acme-c.md': report(2021) } }));
  });
  afterAll(() => cleanup(root));

  it('puts the newest report of a series first when the question names no year, the asked one when it names one', async () => {
    const none = await searchStore(root, 'Which industry does Acme work in?');
    expect(none.results[0]!.file).toMatch(/acme-b\.md$/);
    // the three reports say the same: only the rule sets the newest apart (without it they tie)
    expect(none.results[0]!.score).toBeGreaterThan(none.results[1]!.score);
    const asked = await searchStore(root, 'Which industry did Acme work in during 2019?');
    expect(asked.results[0]!.file).toMatch(/acme-a\.md$/);
  });
});
