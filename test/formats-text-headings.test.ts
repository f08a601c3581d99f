import { describe, it, expect } from 'vitest';
import { markTextHeadings, textHeadings } from '../src/ingest/converters/text-headings.js';
import { convertTextByPlan } from '../src/ingest/converters/plain-text.js';
import { convertMarkdownText } from '../src/ingest/converters/markdown.js';
import type { PlanDirectives } from '../src/model/plan.js';
import type { ConvertedNode } from '../src/ingest/converters/types.js';

const plan: PlanDirectives = { approach: 'tree_index', keySections: [], tablesAsRows: false, twoColumns: false, plaintext: false, targetNodes: null };
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title} ${n.line_range?.join('-')}`, ...n.children.flatMap((c) => outline(c, d + 1))];

const GNU = `  Copyright (C) 2022 Free Software Foundation, Inc.

README:

This is GNU Awk. It is upwardly compatible.

INSTALLATION:

Check out the INSTALL file.

PRINTING THE MANUAL

Use make dvi.
WARNING: a line in capitals inside a paragraph is not a heading
`;

const RST = `.. _sortinghowto:

Sorting HOW TO
**************

Lists have a sort method.

Sorting Basics
==============

A simple ascending sort.

Key Functions
=============

Both take a key.

Nested
------

deeper
`;

describe('plain-text headings Markdown does not see (text-headings.ts)', () => {
  it('finds lines in capitals standing alone, not inside paragraphs', () => {
    expect(textHeadings(GNU.split('\n')).map((h) => h.title)).toEqual(['README:', 'INSTALLATION:', 'PRINTING THE MANUAL']);
  });

  it('reads reStructuredText titles with any adornment; a style used once first is the title', () => {
    const r = convertTextByPlan(RST, 'sorting.txt', plan);
    expect(outline(r.root)).toEqual(['Sorting HOW TO 1-21', '  Sorting Basics 8-12', '  Key Functions 13-17', '    Nested 18-21']);
    // node text is the file's own lines (adornments and all), not the marked copy
    expect(r.root.children[0]!.content).toBe('Sorting Basics\n==============\n\nA simple ascending sort.\n');
  });

  it('a style used for every section leaves the title to the file name', () => {
    const r = convertTextByPlan(GNU, 'gawk-readme.txt', plan);
    expect(r.root.title).toBe('gawk-readme');
    expect(r.root.children.map((c) => c.title)).toEqual(['README:', 'INSTALLATION:', 'PRINTING THE MANUAL']);
    expect(r.root.children[2]!.line_range).toEqual([11, 14]);
  });

  it('keeps the line count, and gives up below the minimum of headings', () => {
    const marked = markTextHeadings(RST.split('\n'), 2)!;
    expect(marked.split('\n').length).toBe(RST.split('\n').length);
    expect(marked).toContain('## Sorting Basics');
    expect(markTextHeadings('one\n\nTITLE ONLY\n\ntext\n'.split('\n'), 2)).toBeNull();
  });

  it('a single H1 after a short label line still stands for the whole document', () => {
    const md = convertMarkdownText('<!-- badge -->\n\n# Tool\n\n## Use\n\nrun\n\n## Build\n\nmake\n', 'tool.md');
    expect(md.root.title).toBe('Tool');
    expect(md.root.children.map((c) => c.title)).toEqual(['Use', 'Build']);
  });
});
