/**
 * Definition lists in print (issue 14: outlines an agent can choose from): a long section of
 * options or terms, each a short line with its description indented under it, is split into its
 * entries instead of page windows; prose above an indented display of code, an index and a table
 * whose wrapped rows look like terms are not.
 */
import { describe, it, expect } from 'vitest';
import type { Line } from '../src/ingest/converters/pdf/layout-types.js';
import { definitionTerms, TERM_MIN_ENTRIES } from '../src/ingest/converters/pdf/terms.js';
import { buildSections, pos, type Section } from '../src/ingest/converters/pdf/sections.js';

const BODY = { size: 11, font: 'roman' };
const line = (text: string, o: Partial<Line> = {}): Line => ({ cells: [text], text, x: 90, x2: 522, y: 500, size: 11, font: 'roman', gapAbove: 1.2, ...o });
const term = (text: string) => line(text, { font: 'tt', x2: 90 + text.length * 6, gapAbove: 1.8 });
const described = (n: number) => Array.from({ length: n }, (_, i) => line(`Description line ${i} of the option, in the words of the manual, long enough.`, { x: 148 }));
/** one page of option entries: term, then `n` description lines indented 58 pt */
const options = (names: string[], n = 3): Line[] => names.flatMap((t) => [term(t), ...described(n)]);
const titles = (list: Section[]): string[] => list.flatMap((s) => [s.title, ...titles(s.children)]);

describe('definition terms (pdf/terms.ts)', () => {
  it('finds a column of terms with their descriptions indented under them', () => {
    const pages = [
      [line('Command line options are used as follows.'), ...options(['-p partno', '-b baudrate', '-B bitclock'])],
      options(['-c programmer-id', '-C config-file', '-U memtype:op:filename']),
    ];
    const found = definitionTerms(pages, BODY);
    expect(found.map((t) => t.title)).toEqual(['-p partno', '-b baudrate', '-B bitclock', '-c programmer-id', '-C config-file', '-U memtype:op:filename']);
    expect(found[0]!.at).toBe(pos(1, 1));
    expect(found[3]!.at).toBe(pos(2, 0));
  });

  it('a column needs TERM_MIN_ENTRIES entries', () => {
    const names = Array.from({ length: TERM_MIN_ENTRIES - 1 }, (_, i) => `--flag-${i}`);
    expect(definitionTerms([options(names)], BODY)).toEqual([]);
  });

  it('does not take the last line of a paragraph above an indented display of code, index entries or wrapped sentences', () => {
    const code = (t: string) => line(t, { x: 148, font: 'tt', x2: 300 });
    const display = Array.from({ length: 6 }, (_, i) => [
      line(`be a torsion point ${i} and indeed typing`, { x2: 300 }), code('? ellinit([0,0,0,-1,0])'), code('? elltors(e)'),
    ]).flat();
    const index = Array.from({ length: 6 }, (_, i) => [term(`besj${i}, 38`), ...described(2)]).flat();
    const sentences = Array.from({ length: 6 }, (_, i) => [line(`The first point ${i} is made here.`, { x2: 300, gapAbove: 1.8 }), ...described(2)]).flat();
    // no block opens at the line: the gap above it is the paragraph's own
    const tight = Array.from({ length: 6 }, (_, i) => [line(`a short line ${i}`, { x2: 200 }), ...described(2)]).flat();
    expect(definitionTerms([display, index, sentences, tight], BODY)).toEqual([]);
  });
});

describe('a long section of entries is split into them', () => {
  const lineChars = (pages: number, perPage = 40, chars = 80) => Array.from({ length: pages }, () => Array.from({ length: perPage }, () => chars));
  const terms = (n: number, perPage: number, from = 2) => Array.from({ length: n }, (_, i) => ({ at: pos(from + Math.floor(i / perPage), (i % perPage) * Math.floor(40 / perPage)), title: `-opt${i}` }));

  it('one node per entry, the text before the first its introduction, instead of page windows', () => {
    const [s] = buildSections([{ title: '2.1 Option Descriptions', level: 1, page: 1 }], { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8, 40, 20), headings: [], terms: terms(28, 4) });
    expect(titles(s!.children)).toEqual(['2.1 Option Descriptions (introduction)', ...Array.from({ length: 28 }, (_, i) => `-opt${i}`)]);
    expect(s!.children[1]!.kind).toBe('term');
    expect([s!.children[1]!.from, s!.children[1]!.to]).toEqual([pos(2, 0), pos(2, 10)]);
    // without the terms: page windows
    const [w] = buildSections([{ title: '2.1 Option Descriptions', level: 1, page: 1 }], { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8, 40, 20), headings: [] });
    expect(w!.children.map((c) => c.kind)).toEqual(['page_group', 'page_group']);
  });

  it('a few terms pages apart are not the entries of the section: page windows, not misleading titles', () => {
    const sparse = [{ at: pos(2, 5), title: 'Car and truck expenses' }, { at: pos(4, 5), title: 'Office expenses' }, { at: pos(6, 5), title: 'Labor hired' }, { at: pos(7, 5), title: 'Interest income' }];
    const [s] = buildSections([{ title: 'Tax Form \\ TXF Code', level: 1, page: 1 }], { pageCount: 8, maxLeafPages: 5, lineChars: lineChars(8), headings: [], terms: sparse });
    expect(s!.children.map((c) => c.kind)).toEqual(['page_group', 'page_group']);
  });

  it('a section short enough to be one node stays one', () => {
    const [s] = buildSections([{ title: 'Options', level: 1, page: 1 }], { pageCount: 2, maxLeafPages: 5, lineChars: lineChars(2, 40, 20), headings: [], terms: terms(8, 8, 1) });
    expect(s!.children).toEqual([]);
  });
});
