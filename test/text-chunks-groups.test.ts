/**
 * Paragraph groups of plain text (text-chunks.ts): a full group ends at a wider gap among its later
 * paragraphs (a FAQ's blank lines between questions) rather than between a question and its answer.
 */
import { describe, it, expect } from 'vitest';
import { GROUP_MIN_SHARE, convertPlainText, groupParagraphs, paragraphNodes } from '../src/ingest/converters/text-chunks.js';

const P = (n: number) => `${'word '.repeat(n).trim()}.`;
// 60-character intro, two blank lines, a 30-character question, one blank line, its 30-character answer
const FAQ = [P(12).slice(0, 60), '', '', `Q: ${P(5).slice(0, 27)}`, '', `A: ${P(5).slice(0, 27)}`, '', '', `Q: ${P(5).slice(0, 27)}`, '', `A: ${P(5).slice(0, 27)}`].join('\n');
const TARGET = 100;

describe('paragraph groups', () => {
  it('closes a full group at the wider gap before a question, not between the question and its answer', () => {
    const ranges = convertPlainText(FAQ, 'faq.txt', TARGET).root.children.map((c) => c.line_range);
    expect(ranges).toEqual([[1, 1], [4, 6], [9, 11]]);
    const lines = FAQ.split('\n');
    expect(paragraphNodes(lines, TARGET).map((c) => c.line_range)).toEqual(ranges);
  });

  it('keeps a full group whole when the wider gap would leave it under the minimum share', () => {
    const paras = [{ size: 10, gap: 0 }, { size: 60, gap: 2 }, { size: 40, gap: 1 }];
    expect(10).toBeLessThan(GROUP_MIN_SHARE * TARGET);
    expect(groupParagraphs(paras, TARGET).map((g) => g.length)).toEqual([2, 1]);
    const wide = [{ size: 60, gap: 0 }, { size: 30, gap: 2 }, { size: 30, gap: 1 }];
    expect(groupParagraphs(wide, TARGET).map((g) => g.length)).toEqual([1, 2]);
    // no wider gap: the group ends where it is full
    const even = [{ size: 60, gap: 0 }, { size: 30, gap: 1 }, { size: 30, gap: 1 }];
    expect(groupParagraphs(even, TARGET).map((g) => g.length)).toEqual([2, 1]);
  });
});
