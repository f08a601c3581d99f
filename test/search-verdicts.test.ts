/**
 * Verdict rules (confidence.ts sourceVerdict) and the passages search shows under its nodes
 * (retrieve/snippets.ts bestPassage).
 */
import { describe, it, expect } from 'vitest';
import { sourceConflict, sourceVerdict, SOURCE_SURE_LEAD, PERIOD_CONFLICT_GAP } from '../src/search/confidence.js';
import { nodeVerdictsUnder } from '../src/search/search.js';
import { EXCERPT_GAP, bestPassage, columnHeaderBefore, spanningRowOfShownHeader, densestSpan, phraseSpan, sentenceEnd, sentenceStart, labelStart, PASSAGE_LABEL_MAX_CHARS, PASSAGE_CHARS, PASSAGE_FIRST_CHARS, PASSAGE_LEAD, PASSAGE_MORE_MIN, PASSAGE_SENTENCE_BACK, PASSAGE_SENTENCE_EXTRA, WHOLE_NODE_PASSAGE_CHARS, WHOLE_TABLE_PASSAGE_CHARS, matchingRows, placeOf } from '../src/retrieve/snippets.js';
import type { TreeNode } from '../src/store/schemas.js';

const WEAK = 0.3;

describe('source verdicts', () => {
  it('makes only a first source that clearly leads strong', () => {
    expect(sourceVerdict({ rank: 1, relevance: 0.5, lead: SOURCE_SURE_LEAD }, WEAK)).toBe('strong');
    expect(sourceVerdict({ rank: 1, relevance: 0.9, lead: SOURCE_SURE_LEAD / 2 }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 2, relevance: 0.95, lead: 1 }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 1, relevance: WEAK - 0.01, lead: 1 }, WEAK)).toBe('none');
  });

  it('does not call a first source strong when the second holds as much of the query (MrBayes vs JAGS for a BUGS model)', () => {
    expect(sourceVerdict({ rank: 1, relevance: 0.552, lead: 0.2, next: 0.552 }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 1, relevance: 0.552, lead: 0.2, next: 0.6 }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 1, relevance: 0.552, lead: 0.2, next: 0.4 }, WEAK)).toBe('strong');
  });

  it('calls a clearly leading first source strong when the second, however relevant, is of another period or name (3M 2018 vs its 2015 10-K)', () => {
    expect(sourceVerdict({ rank: 1, relevance: 0.718, lead: 0.2, next: 0.724, nextConflicts: true }, WEAK)).toBe('strong');
    expect(sourceVerdict({ rank: 1, relevance: 0.718, lead: 0.2, next: 0.724, nextConflicts: false }, WEAK)).toBe('weak');
    // still not when it leads by too little, or conflicts itself
    expect(sourceVerdict({ rank: 1, relevance: 0.718, lead: SOURCE_SURE_LEAD / 2, next: 0.724, nextConflicts: true }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 1, relevance: 0.718, lead: 0.2, next: 0.724, nextConflicts: true, period: { own: -1, best: -1 } }, WEAK)).toBe('weak');
  });

  it('never calls a source of another period or another name strong', () => {
    // a 10-K for the year before when the quarter asked about is in the store
    expect(sourceConflict({ period: { own: 0.6, best: 1 } })).toBe('period');
    expect(sourceConflict({ period: { own: 1 - PERIOD_CONFLICT_GAP / 2, best: 1 } })).toBeNull();
    expect(sourceConflict({ period: { own: -0.5, best: -0.5 } })).toBe('period');
    // another company's filing: it holds none of the query's naming words another source holds
    expect(sourceConflict({ identity: { own: 0, best: 1 } })).toBe('identity');
    expect(sourceConflict({ identity: { own: 1, best: 1 } })).toBeNull();
    expect(sourceVerdict({ rank: 1, relevance: 0.9, lead: 0.5, period: { own: -1, best: -1 } }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 1, relevance: 0.9, lead: 0.5, identity: { own: 0, best: 1 } }, WEAK)).toBe('weak');
    expect(sourceVerdict({ rank: 1, relevance: 0.9, lead: 0.5, period: { own: 1, best: 1 }, identity: { own: 1, best: 1 } }, WEAK)).toBe('strong');
  });
});

describe('node verdicts under their source', () => {
  const nodes = (...v: Array<'strong' | 'weak' | 'none'>) => v.map((verdict, i) => ({ node_id: `000${i}`, title: 't', score: 1 - i / 10, verdict }));
  it('are never stronger than the source, and the first node of a strong source is never none', () => {
    const weak = { verdict: 'weak' as const, nodes: nodes('strong', 'none') };
    nodeVerdictsUnder(weak);
    expect(weak.nodes.map((n) => n.verdict)).toEqual(['weak', 'none']);
    const strong = { verdict: 'strong' as const, nodes: nodes('none', 'none') };
    nodeVerdictsUnder(strong);
    expect(strong.nodes.map((n) => n.verdict)).toEqual(['weak', 'none']);
  });
});

describe('node passages', () => {
  const weights = new Map([['dredging', 2], ['sediment', 3], ['cubic', 1]]);
  const filler = 'The port authority met twice and discussed the budget for the coming year at length. '.repeat(12);

  it('shows where the query words are densest, with the page it is on', () => {
    const text = `<!-- page 4 -->\n${filler}Dredging was mentioned once.\n<!-- page 5 -->\n${filler}The dredging campaign removed 412,000 cubic meters of sediment from the berths.\n${filler}`;
    const p = bestPassage(text, weights, 4)!;
    expect(p.page).toBe(5);
    expect(p.text).toMatch(/412,000 cubic meters of sediment/);
    // it opens at a sentence's start (at most PASSAGE_SENTENCE_BACK characters back), so without "…"
    expect(p.text).toMatch(/^The port authority/);
    expect(p.text.length).toBeLessThanOrEqual(PASSAGE_CHARS + 90 + PASSAGE_SENTENCE_BACK);
    expect(p.text).not.toMatch(/<!--/);
  });

  it('opens with the short label line its text belongs to (an option\'s name above its description)', () => {
    const w = new Map([['keepalive', 3], ['seconds', 1]]);
    const text = `${filler}\nout of resources.\nhold time number\nTime in seconds to wait for a Keepalive message from the other side.\n${filler}`;
    expect(labelStart(text, text.indexOf('Time in'))).toBe(text.indexOf('hold time'));
    // the passage opening at the description's line (its sentence start) takes the label with it
    const line = 'The time to wait, counted from the moment that the very last message of the peer arrived and measured in whole seconds, before a Keepalive is due.';
    expect(bestPassage(`${filler}\nhold time number\n${line}\n${filler}`, w)!.text).toMatch(/^hold time number The time to wait/);
    // a line closing a sentence, a long wrapped line or a page mark is no label
    for (const above of ['out of resources.', 'x'.repeat(PASSAGE_LABEL_MAX_CHARS + 1), '<!-- page 3 -->']) {
      const t = `${filler}\n${above}\nTime in seconds to wait for a Keepalive message.\n`;
      expect(labelStart(t, t.indexOf('Time in'))).toBe(t.indexOf('Time in'));
    }
  });

  it('names both pages of a passage that runs over a page break, and cites them', () => {
    const text = `<!-- page 2 -->\n${filler}The dredging campaign began in March.\n<!-- page 3 -->\nIt removed 412,000 cubic meters of sediment from the berths by June.\n${filler}`;
    const p = bestPassage(text, weights, 2)!;
    // the page break is marked where it falls, so the sentence cited can be put on its page
    expect(p.text).toMatch(/began in March\. <!-- page 3 --> It removed 412,000/);
    expect(p.pages).toEqual([2, 3]);
    // a break at the passage's end is no page of it: neither shown nor cited
    const atEnd = bestPassage(`<!-- page 2 -->\nThe dredging campaign removed 412,000 cubic meters.\n<!-- page 3 -->\n`, weights, 2)!;
    expect(atEnd.text).not.toMatch(/<!--/);
    expect(atEnd.pages).toBeUndefined();
    const one = bestPassage(`<!-- page 4 -->\n${filler}The dredging campaign removed 412,000 cubic meters of sediment.\n${filler}`, weights, 4)!;
    expect(one.pages).toBeUndefined();
  });

  it('a first passage shows a second excerpt where the query\'s words it leaves out are; next to it, one longer excerpt', () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `Filler sentence ${i} says nothing of note here.`).join(' ');
    const text = `${filler(5)} The PDFOUTLINE.FOLDLEVEL register sets the outline levels shown expanded. ${filler(60)} Its default value is ten thousand, every level expanded. ${filler(5)}`;
    const w = new Map([['pdfoutline', 3], ['foldlevel', 3], ['register', 1], ['default', 2], ['value', 1]]);
    const first = bestPassage(text, w, undefined, PASSAGE_FIRST_CHARS)!;
    expect(first.text).toContain('FOLDLEVEL register');
    expect(first.text).toContain(EXCERPT_GAP);
    expect(first.text.indexOf('FOLDLEVEL')).toBeLessThan(first.text.indexOf('default value is ten thousand'));
    // a later suggestion's short passage: one excerpt
    expect(bestPassage(text, w, undefined, PASSAGE_CHARS)!.text).not.toContain(EXCERPT_GAP);
    // the words it leaves out weigh little: one excerpt
    expect(bestPassage(text, new Map([['pdfoutline', 3], ['foldlevel', 3], ['register', 3], ['default', 0.5]]), undefined, PASSAGE_FIRST_CHARS)!.text).not.toContain(EXCERPT_GAP);
    // right after the first, the second widens it
    const near = `${filler(5)} The PDFOUTLINE.FOLDLEVEL register sets the outline levels shown expanded. ${filler(16)} Its default value is ten thousand. ${filler(30)}`;
    const one = bestPassage(near, w, undefined, PASSAGE_FIRST_CHARS)!;
    expect(one.text).not.toContain(EXCERPT_GAP);
    expect(one.text).toContain('default value is ten thousand');
  });

  it('cites, of a row hit\'s block, the rows holding the query\'s weightiest words', () => {
    const lines = ['row 26899: Assignment: F44C7F; Organization Name: HUAWEI', 'row 26900: Assignment: 28A24B; Organization Name: Juniper Networks', 'row 26901: Assignment: 080027; Organization Name: PCS Systemtechnik GmbH'];
    const w = new Map([['080027', 8], ['network', 1.5], ['company', 2.6]]);
    expect(matchingRows(lines, w, 26899)).toEqual([26901, 26901]);
    expect(matchingRows(lines, new Map([['organization', 1]]), 26899)).toEqual([26899, 26901]);
    expect(matchingRows(lines, new Map([['penguin', 1]]), 26899)).toBeNull();
  });

  it('is the whole node, nothing cut, for a first suggestion whose node is short', () => {
    const mid = 'The port authority met twice and discussed the budget at length. '.repeat(8);
    const text = `<!-- page 4 -->\nThe harbour board met in spring. ${mid}The dredging campaign removed 412,000 cubic meters of sediment. ${mid}It ends with the budget for next year.`;
    expect(text.length).toBeLessThanOrEqual(WHOLE_NODE_PASSAGE_CHARS);
    const first = bestPassage(text, weights, 4, PASSAGE_FIRST_CHARS)!;
    expect(first.text).toMatch(/^The harbour board met in spring\./);
    expect(first.text).toMatch(/budget for next year\.$/);
    expect(first.more).toBeUndefined();
    // the other suggestions' passages stay short
    expect(bestPassage(text, weights, 4)!.text.length).toBeLessThan(text.length - 100);
  });

  it('is the whole node for a first suggestion that is a statement\'s table a little longer than that: the row an agent needs is often far from the words asked (FinanceBench agent test)', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `Line item number ${i} of the statement | ${1000 + i} | ${900 + i}`);
    rows[3] = 'Dredging campaign sediment removed | 412,000 | 398,000';
    const table = `<!-- page 4 -->\n${rows.join('\n')}\nTotal current liabilities | 12,345 | 11,002`;
    expect(table.length).toBeGreaterThan(WHOLE_NODE_PASSAGE_CHARS);
    expect(table.length).toBeLessThanOrEqual(WHOLE_TABLE_PASSAGE_CHARS);
    const first = bestPassage(table, weights, 4, PASSAGE_FIRST_CHARS)!;
    expect(first.text).toContain('Total current liabilities | 12,345');
    expect(first.more).toBeUndefined();
    // prose as long is cut to the words asked
    const prose = `<!-- page 4 -->\n${'The port authority met twice and discussed the budget at length. '.repeat(20)}The dredging campaign removed 412,000 cubic meters of sediment. ${'It ends with the budget for next year. '.repeat(20)}`;
    expect(prose.length).toBeGreaterThan(WHOLE_NODE_PASSAGE_CHARS);
    expect(bestPassage(prose, weights, 4, PASSAGE_FIRST_CHARS)!.more).toBeGreaterThan(0);
  });

  it('says how much of the node follows the passage, and is longer when asked for the first node', () => {
    const text = `<!-- page 4 -->\n${filler}The dredging campaign removed 412,000 cubic meters of sediment from the berths.\n${filler}`;
    const p = bestPassage(text, weights, 4)!;
    expect(p.more).toBeGreaterThan(PASSAGE_MORE_MIN);
    expect(p.more).toBeLessThan(text.length - text.indexOf('412,000'));
    const long = bestPassage(text, weights, 4, PASSAGE_FIRST_CHARS)!;
    expect(long.text.length).toBeGreaterThan(p.text.length + (PASSAGE_FIRST_CHARS - PASSAGE_CHARS) / 2);
    expect(long.more).toBeLessThan(p.more!);
    // a passage reaching the end of the node says nothing more follows
    expect(bestPassage('The dredging campaign removed sediment.', weights)!.more).toBeUndefined();
  });

  it('opens a passage inside a table with the table\'s column header', () => {
    const rows = Array.from({ length: 12 }, (_, i) => `Line item ${i} | ${1000 + i} | ${900 + i} | ${800 + i}`).join('\n');
    const text = `Consolidated Statement of Cash Flows\n(Millions) | 2018 | 2017 | 2016\nCash flows from operating activities\n${rows}\nPurchases of property, plant and equipment | (1,577) | (1,373) | (1,420)\nOther | 1 | 2 | 3\n`;
    const w = new Map([['purchases', 2], ['property', 1], ['equipment', 1]]);
    const p = bestPassage(text, w)!;
    expect(p.text.startsWith('[(Millions) | 2018 | 2017 | 2016] ')).toBe(true);
    expect(p.text).toContain('Purchases of property, plant and equipment | (1,577)');
    // rows of amounts, a label without cells and prose are not headers; none above: nothing added
    expect(columnHeaderBefore(text, text.indexOf('Line item 3'))).toBe('(Millions) | 2018 | 2017 | 2016');
    expect(columnHeaderBefore('Net income | 5,363 | 4,869\nTotal | 1 | 2\n', 20)).toBeNull();
    expect(bestPassage(`${filler}The dredging campaign removed sediment.`, weights)!.text.startsWith('[')).toBe(false);
    // a row spanning the columns above the header names them too (the quarter's columns and the year's)
    const two = 'Three months ended | Twelve months ended\nDecember 31, | December 31, | December 31, | December 31,\n2022 | 2021 | 2022 | 2021\nNet revenues | 3,591 | 2,940 | 13,127 | 9,680\n';
    expect(columnHeaderBefore(two, two.indexOf('Net revenues'))).toBe('Three months ended | Twelve months ended / 2022 | 2021 | 2022 | 2021');
    // a header of years alone, with the phrase leading into it; a phrase not left open is not read with it
    const years = 'BALANCE SHEETS\nAs of December 31,\n2017 | 2016\nAssets\nCash | $2,822 | $1,467\nTotal current liabilities | 5,466 | 4,586\n';
    expect(columnHeaderBefore(years, years.indexOf('Total current'))).toBe('As of December 31, / 2017 | 2016');
    const closed = 'In thousands\n2017 | 2016\nCash | $2,822 | $1,467\n';
    expect(columnHeaderBefore(closed, closed.indexOf('Cash'))).toBe('2017 | 2016');
    expect(columnHeaderBefore('Cash | 2017 | 2,822\nDebt | 1 | 2\n', 22)).toBeNull();
    // a row of repeated labels, or one as wide as the header, is not a spanning row
    const flat = 'December 31, | December 31, | December 31, | December 31,\n2022 | 2021 | 2022 | 2021\nNet revenues | 1 | 2 | 3 | 4\n';
    expect(columnHeaderBefore(flat, flat.indexOf('Net revenues'))).toBe('2022 | 2021 | 2022 | 2021');
    // a passage showing the column header itself still gets the row spanning its columns, once
    const shown = 'For the Three Months Ended June 30, | For the Six Months Ended June 30,\nIncrease | Increase\n2023 | 2022 | (Decrease) | 2023 | 2022 | (Decrease)\nIn-game net bookings | $1,562 | $1,197 | $365 | $2,851 | $2,208 | $643\n';
    const at = shown.indexOf('Increase');
    expect(spanningRowOfShownHeader(shown, at, shown.length)).toBe('For the Three Months Ended June 30, | For the Six Months Ended June 30,');
    expect(spanningRowOfShownHeader(shown, 0, shown.length)).toBeNull();
  });

  it('matches plural and singular forms, drops dot leaders, and gives nothing when no word occurs', () => {
    const p = bestPassage('Sediments ........................ | 12 | 14\nnothing else', weights)!;
    expect(p.text).toBe('Sediments | 12 | 14 nothing else');
    expect(p.page).toBeUndefined();
    expect(bestPassage(filler, weights)).toBeNull();
  });

  it('shows more of what follows the words than of what comes before them, and fills a side the text lacks', () => {
    const text = `${filler}The dredging campaign removed sediment because the berths had silted up over three winters, so ships ran aground. ${filler}`;
    const at = text.indexOf('dredging');
    const span = densestSpan(text, weights, PASSAGE_CHARS, PASSAGE_LEAD)!;
    expect(at - span.from).toBeLessThan(span.to - at);
    expect(text.slice(span.from, span.to)).toMatch(/because the berths had silted up/);
    // near the end of the text the padding goes before the words
    const tail = `${filler}The dredging campaign removed sediment.`;
    const t = densestSpan(tail, weights, PASSAGE_CHARS, PASSAGE_LEAD)!;
    expect(t.to).toBe(tail.length);
    expect(t.to - t.from).toBeGreaterThanOrEqual(PASSAGE_CHARS);
  });

  it('finds words as written ("as.ts") where their parts taken one by one would land elsewhere', () => {
    const text = `${filler}as the ts class has it, as ts objects are regular as ts series. ${filler}Coerce with as.ts(z), which fills\nthe gaps with NA. ${filler}`;
    const span = phraseSpan(text, 'as.ts', 200, 0.25)!;
    expect(text.slice(span.from, span.to)).toMatch(/as\.ts\(z\), which fills/);
    expect(text.slice(phraseSpan(text, 'which   FILLS the', 120)!.at)).toMatch(/^which fills\nthe/);
    expect(phraseSpan(text, 'as.tsx', 200)).toBeNull();
  });

  it('finds a phrase typed with capitals in that case first (a statement row, not the heading line above it), else in any case', () => {
    const text = `${filler}Adjustments to reconcile net income to net cash provided by operating activities:\nDepreciation | 339,473\n${filler}Net cash provided by operating activities | 1,469,502\n${filler}`;
    const row = phraseSpan(text, 'Net cash provided by operating activities', 80)!;
    expect(row.cased).toBe(true);
    expect(text.slice(row.at)).toMatch(/^Net cash provided by operating activities \| 1,469,502/);
    // typed in lower case: the first place, whatever its case
    expect(text.slice(phraseSpan(text, 'net cash provided by operating activities', 80)!.at)).toMatch(/^net cash provided by operating activities:/);
    // no place in the case typed: found in another
    const other = phraseSpan(text, 'Depreciation | 339,473'.toUpperCase(), 80)!;
    expect(other.cased).toBe(false);
    expect(text.slice(other.at)).toMatch(/^Depreciation \| 339,473/);
  });

  it('finds a phrase typed with other blanks around its punctuation ("mfinit([1,12],1)")', () => {
    const text = `${filler}The cuspidal space: mf = mfinit([1, 12], 1); mfbasis(mf). ${filler}`;
    const span = phraseSpan(text, 'mfinit([1,12],1)', 100, 0.25)!;
    expect(text.slice(span.at)).toMatch(/^mfinit\(\[1, 12\], 1\)/);
    expect(phraseSpan(text, 'mfinit([1,13],1)', 100)).toBeNull();
  });

  it('finds words typed apart that the text writes as one ("web site" in "websites", "set up" in "set-up"), after any place written apart', () => {
    const text = `${filler}Do not cite entire websites in the reference list; give a footnote. ${filler}Run the set-up script once. ${filler}`;
    const web = phraseSpan(text, 'web site', 80)!;
    expect(web.joined).toBe(true);
    expect(text.slice(web.at)).toMatch(/^websites in the reference/);
    expect(text.slice(phraseSpan(text, 'set up', 80)!.at)).toMatch(/^set-up script/);
    const apart = `${text}A web site is a set of pages. ${filler}`;
    expect(apart.slice(phraseSpan(apart, 'web site', 80)!.at)).toMatch(/^web site is/);
    // one word is found as written or not at all
    expect(phraseSpan(text, 'webs', 80)?.joined).toBe(false);
    expect(phraseSpan(text, 'web sited', 80)).toBeNull();
  });

  it('finds a phrase whose dashes and quotes were typeset as look-alikes ("p-value" in TeX\'s "p−value")', () => {
    const text = `${filler}Figure 24: the p−value of the “step‐down” test is 0.008. ${filler}`;
    expect(text.slice(phraseSpan(text, 'p-value', 60)!.at)).toMatch(/^p−value of/);
    expect(text.slice(phraseSpan(text, '"step-down"', 60)!.at)).toMatch(/^“step‐down” test/);
    expect(phraseSpan(text, 'p-values', 60)).toBeNull();
    // an underscore the PDF's text lost (the Ada manual prints Fine_Delta, its text reads "Fine Delta")
    const ada = `${filler}Fine Delta is the smallest delay that can be represented. ${filler}`;
    expect(ada.slice(phraseSpan(ada, 'Fine_Delta is', 60)!.at)).toMatch(/^Fine Delta is the smallest/);
  });

  it('never shows a page marker cut in half by its ends', () => {
    const text = `intro <!-- page 7 -->\nDredging removed sediment. <!-- page 8 -->\nmore`;
    for (const w of [new Map([['dredging', 1]]), new Map([['sediment', 1]])]) {
      const p = bestPassage(text, w, 6)!;
      expect(p.text.replace(/<!-- page \d+ -->/g, '')).not.toMatch(/<!--|-->|page \d/);
      expect(p.page).toBe(7);
    }
  });
});

describe('passages end with their sentence', () => {
  const weights = new Map([['dredging', 2], ['sediment', 3]]);
  const filler = 'The port authority met twice and discussed the budget for the coming year at length. '.repeat(6);

  it('goes on to the end of a sentence cut near its end, and says nothing is cut', () => {
    const tail = 'The dredging campaign removed sediment from the berths, and after long discussions of the costs, of the weather windows and of the contractors available in the region, the authority decided that the next campaign would start only once the survey of the outer channel, the turning basin and the approach to the container terminal was complete. Later work followed.';
    const text = `${filler}${tail} ${filler}`;
    const p = bestPassage(text, weights)!;
    expect(p.text).toMatch(/container terminal was complete\.$/);
    expect(p.text.length).toBeLessThanOrEqual(PASSAGE_CHARS + 80 + PASSAGE_SENTENCE_EXTRA + 2);
  });

  it('stops at a sentence end, a blank line or a page mark, never past the extra characters', () => {
    const text = 'alpha beta gamma delta e.g. the epsilon. Zeta follows here.';
    expect(sentenceEnd(text, 11, 160)).toBe(text.indexOf('epsilon.') + 'epsilon.'.length);
    expect(sentenceEnd('one two three\n\nFour', 4, 160)).toBe(13);
    expect(sentenceEnd('one two three <!-- page 2 --> four.', 4, 160)).toBe(4);
    expect(sentenceEnd(`one two ${'x '.repeat(100)}end.`, 4, 20)).toBe(4);
    expect(sentenceEnd('It ends here. Next one.', 13, 160)).toBe(13);
    // a line of code or a table row has no sentence mark: it runs to its line's end
    const code = 'z <- read.zoo(text = Lines, header = TRUE, index = 1:2, FUN = chron)\nprint(z)';
    expect(sentenceEnd(code, 20, 160)).toBe(code.indexOf('\n'));
    expect(sentenceEnd('a | 1 | 2 <!-- page 3 -->\nb | 3', 3, 160)).toBe(3);
  });

  it('opens with "…" at an item of a list whose earlier items are on the lines above, not after a closed sentence', () => {
    const w = new Map([['africa', 3], ['asia', 2]]);
    const items = ['1) Frito-Lay North America, which includes our branded convenient food businesses in the United States and Canada;', '2) Quaker Foods North America;', '3) PepsiCo Beverages North America;', '4) Latin America;', '5) Europe, which includes all of our beverage and convenient food businesses in Europe;'];
    const list = `${items.join('\n')}\n6) Africa, Middle East and South Asia (AMESA), which includes our businesses in Africa, the Middle East and South Asia; and\n7) Asia Pacific.`;
    const p = bestPassage(`${filler}\n\n${list}`, w, undefined, 120)!;
    expect(p.text).toMatch(/^…[56]\) /);
    expect(p.text).toContain('6) Africa, Middle East and South Asia');
    // after a closed sentence the passage starts anew
    const fresh = bestPassage(`${filler}\nThe divisions are listed below.\nAfrica, Middle East and South Asia (AMESA) is the seventh division, run from Dubai.\n${filler}`, w, undefined, 80)!;
    expect(fresh.text).not.toMatch(/^…/);
    expect(fresh.text).toContain('Africa, Middle East and South Asia (AMESA) is the seventh division');
  });

  it('starts at its sentence\'s or line\'s beginning when that is near, never across a page mark', () => {
    const text = 'Options of the package follow.\ndistribution-method = periodic | Determines how the electrons are placed. Periodic distributes them by period.';
    expect(sentenceStart(text, text.indexOf('periodic |'), 80)).toBe(text.indexOf('distribution-method'));
    expect(sentenceStart(text, text.indexOf('distributes them'), 80)).toBe(text.indexOf('Periodic distributes'));
    expect(sentenceStart(text, text.indexOf('of the package'), 80)).toBe(0);
    expect(sentenceStart('one line\nsecond line here', 16, 80)).toBe(9);
    expect(sentenceStart(`Start. ${'word '.repeat(40)}here`, 200, 80)).toBe(200);
    expect(sentenceStart('Before. <!-- page 4 -->\nafter the mark here', 35, 80)).toBe(35);
    // a passage shown from there opens without "…"
    const weights = new Map([['periodic', 1], ['electrons', 1]]);
    expect(bestPassage(`${'Filler text goes on. '.repeat(30)}\n${text}`, weights, undefined, 60)!.text).toMatch(/^distribution-method = periodic/);
  });
});

describe('the place of a listed node whose title repeats', () => {
  const n = (title: string, children: TreeNode[] = [], id = title): TreeNode => ({ node_id: id, title, children } as TreeNode);
  const table = (role: string) => n('Presentation Context Table', [], `${role}-pct`);
  const role = (r: string) => n(r, [n('Association Acceptance Policy', [n('Real-World Activity', [table(r)], `${r}-rwa`)], `${r}-aap`)], r);
  const root = n('DICOMscope', [n('AE Specifications', [role('Store SCP'), role('Print SCP')])]);
  const pathTo = (id: string): TreeNode[] => {
    const walk = (x: TreeNode, up: TreeNode[]): TreeNode[] | null => (x.node_id === id ? [...up, x] : x.children.map((c) => walk(c, [...up, x])).find(Boolean) ?? null);
    return walk(root, [])!;
  };
  it('goes up past the nearest ancestors until it tells the node from the others of its title', () => {
    expect(placeOf(root, pathTo('Print SCP-pct'))).toEqual(['Print SCP', 'Association Acceptance Policy', 'Real-World Activity']);
    // the nearest two are enough when they differ
    const other = n('Root', [n('A', [n('X', [n('Fixes', [], 'f1')])]), n('B', [n('Y', [n('Fixes', [], 'f2')])])]);
    const p = [other, other.children[0]!, other.children[0]!.children[0]!, other.children[0]!.children[0]!.children[0]!];
    expect(placeOf(other, p)).toEqual(['A', 'X']);
  });
});
