/**
 * Outlines an agent reads without detours: a section's own text split into page windows hangs
 * directly under the section (no second node of the same title wrapping them).
 */
import { describe, it, expect } from 'vitest';
import { buildSections, leaves, type Section } from '../src/ingest/converters/pdf/sections.js';

const lineChars = (pages: number, perPage = 40, chars = 80) => Array.from({ length: pages }, () => Array.from({ length: perPage }, () => chars));
const shape = (list: Section[]): unknown[] => list.map((s) => [s.title, s.kind, s.start, s.end, ...(s.children.length ? [shape(s.children)] : [])]);

describe('page windows of a section\'s own text', () => {
  it('are the section\'s children, not wrapped in a node of the section\'s title', () => {
    const top = buildSections(
      [{ title: '2 Examples', level: 1, page: 1, line: 0 }, { title: '2.1 Details', level: 2, page: 9, line: 0 }, { title: '3 Notes', level: 1, page: 11, line: 0 }],
      { pageCount: 12, maxLeafPages: 4, lineChars: lineChars(12), headings: [] },
    );
    expect(shape(top)[0]).toEqual([
      '2 Examples', 'section', 1, 10,
      [['2 Examples', 'page_group', 1, 4], ['2 Examples (continued)', 'page_group', 5, 8], ['2.1 Details', 'section', 9, 10]],
    ]);
    // every page still in a leaf
    const pages = new Set(leaves(top).flatMap((s) => Array.from({ length: s.end - s.start + 1 }, (_, i) => s.start + i)));
    expect(pages.size).toBe(12);
  });
});
