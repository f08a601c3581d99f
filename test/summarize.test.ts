import { describe, it, expect } from 'vitest';
import { leadSummary, cleanText, splitSentences } from '../src/ingest/tree/summarize.js';

describe('extractive summaries', () => {
  it('keeps decimals and whole sentences within the budget', () => {
    const text = 'The harbor is 14.5 meters deep at mean low water. Revenue was 86.4 million euros in 2023. ' + 'Filler sentence number one follows here. '.repeat(20);
    const s = leadSummary(text, 120);
    expect(s).toBe('The harbor is 14.5 meters deep at mean low water. Revenue was 86.4 million euros in 2023.');
    expect(splitSentences('See e.g. the annex. Then stop.')).toEqual(['See e.g. the annex.', 'Then stop.']);
  });

  it('drops page markers, Markdown syntax and URLs', () => {
    expect(cleanText('<!-- page 3 -->\n## Setup\n\nSee [the guide](https://x.org/a) and ![logo](l.png) **now**.')).toBe('Setup See the guide and logo now .');
  });

  it('a node\'s summary starts after its own heading, without table rules or image stubs (HTML and Word nodes)', () => {
    const node = '### 3.3.2. Spatially enable database\n\n[image: [Note]]\n\n| Feature | Setting |\n| --- | --- |\n| Dal | cv12 |\n\nThis is generally only needed once.';
    expect(leadSummary(node)).toBe('Feature Setting Dal cv12 This is generally only needed once.');
    expect(leadSummary('## Name')).toBe('Name');
    expect(cleanText('Rows\n--- --- ---\nnext')).toBe('Rows next');
  });

  it('cuts a single overlong sentence at a word with an ellipsis', () => {
    const s = leadSummary('word '.repeat(200), 50);
    expect(s.length).toBeLessThanOrEqual(50);
    expect(s.endsWith('…')).toBe(true);
  });
});

describe('a first sentence that repeats the node title', () => {
  it('is left out of the summary (a licence section titled by its run-in heading, a paragraph group by its first sentence)', () => {
    const section = '   4. Conveying Verbatim Copies.\n\n  You may convey verbatim copies of the Program\'s source code as you receive it, in any medium, provided that you conspicuously and appropriately publish on each copy an appropriate copyright notice; keep intact all notices stating that this License applies to the code; keep intact all notices of the absence of any warranty.';
    const s = leadSummary(section, 300, '4. Conveying Verbatim Copies');
    expect(s.startsWith('You may convey verbatim copies')).toBe(true);
    expect(leadSummary(section, 300)).toBe('Conveying Verbatim Copies.');
    // a node holding nothing but its title keeps it
    expect(leadSummary('WARNING: Backward-incompatibility!', 300, 'WARNING: Backward-incompatibility!')).toBe('WARNING: Backward-incompatibility!');
    // another first sentence stays
    expect(leadSummary('Fonts are loaded lazily. Nothing else.', 300, 'Font loading')).toBe('Fonts are loaded lazily. Nothing else.');
  });
});
