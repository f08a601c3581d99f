/**
 * Paragraph groups of plain text (text-chunks.ts): a full group ends at a wider gap among its later
 * paragraphs (a FAQ's blank lines between questions) rather than between a question and its answer.
 */
import { describe, it, expect } from 'vitest';
import { GROUP_MIN_SHARE, GROUP_TARGET_CHARS, MAX_PARAGRAPH_CHARS, continuesSentence, convertPlainText, groupParagraphs, paragraphNodes } from '../src/ingest/converters/text-chunks.js';

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

describe('a sentence going on over a page break', () => {
  // paged text (a groff guidebook, its running heads blanked): a page's blank run falls inside a sentence
  const PAGE_BREAK = ['', '', '', '', '', '', '', ''];
  const TEXT = [
    'Strength affects how hard you hit and how much you can carry around.', '',
    'Intelligence affects your ability to cast spells, to learn them and read', ...PAGE_BREAK,
    'spellbooks. It also affects what you learn.', '',
    'Wisdom comes from your practical experience with magic.', '',
    'Charisma is how others react to you when you trade with them.',
  ];
  it('the blank run inside a sentence is no gap: a group neither ends nor opens there (whole text and line by line alike)', () => {
    expect(continuesSentence('to cast spells and read', 'spellbooks. It also')).toBe(true);
    expect(continuesSentence('to cast spells.', 'spellbooks.')).toBe(false);
    expect(continuesSentence('(default', 'Off).')).toBe(false);
    const titles = convertPlainText(TEXT.join('\n'), 'guide.txt', 120).root.children.map((c) => c.title);
    expect(titles).toEqual(['Strength affects how hard you hit and how much you can carry around.', 'Intelligence affects your ability to cast spells, to learn them and read', 'Wisdom comes from your practical experience with magic.']);
    expect(paragraphNodes(TEXT, 120).map((c) => c.title)).toEqual(titles);
    // without the rule the widest gap (the page break) ends the first group, and the next is titled by the sentence's tail
    const ended = TEXT.map((l) => (l === 'spellbooks. It also affects what you learn.' ? 'Spellbooks. It also affects what you learn.' : l));
    expect(paragraphNodes(ended, 120).map((c) => c.title)[2]).toMatch(/^Spellbooks/);
  });
});

describe('text without blank lines', () => {
  it('a run of lines over MAX_PARAGRAPH_CHARS is cut at line ends, whole text and line by line alike', () => {
    const lines = Array.from({ length: 1200 }, (_, i) => `  * changelog line ${i} fixes one more thing in the parser`);
    const text = `pkg (1.0-1) unstable\n\n${lines.join('\n')}\n`;
    expect(lines.join('\n').length).toBeGreaterThan(MAX_PARAGRAPH_CHARS);
    const whole = convertPlainText(text, 'changelog');
    const kids = whole.root.children;
    expect(kids.length).toBeGreaterThan(10);
    for (const k of kids) expect((k.content ?? '').length).toBeLessThanOrEqual(GROUP_TARGET_CHARS + 100);
    // contiguous, every line once
    for (let i = 1; i < kids.length; i++) expect(kids[i]!.line_range![0]).toBeGreaterThan(kids[i - 1]!.line_range![1]);
    expect(kids[kids.length - 1]!.line_range![1]).toBe(1202);
    const byLines = paragraphNodes(text.split('\n').slice(0, -1), GROUP_TARGET_CHARS);
    expect(byLines.map((n) => n.line_range)).toEqual(kids.map((n) => n.line_range));
  });
  it('titles a group by its first words however deeply it is indented, and never leaves a title empty', () => {
    const deep = ['Heading line for the file.', '', `${' '.repeat(9000)}- item deep inside`, `${' '.repeat(9002)}- item deeper still`, '', 'Closing words here.'].join('\n');
    const titles = convertPlainText(deep, 'deep.txt', 30).root.children.map((c) => c.title);
    expect(titles).toContain('item deep inside');
    // a group of comment lines only has no title line of its own: it is named by its lines
    expect(paragraphNodes(['<!-- generated -->', '<!-- do not edit -->'], 10_000).map((n) => n.title)).toEqual(['lines 1–2']);
  });
});
