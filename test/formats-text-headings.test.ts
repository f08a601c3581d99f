import { describe, it, expect } from 'vitest';
import { markTextHeadings, textHeadings } from '../src/ingest/converters/text-headings.js';
import { commentRunsAsText, convertTextByPlan, TEXT_HEADINGS_MAX_CHARS } from '../src/ingest/converters/plain-text.js';
import { convertMarkdownText, headingSkeleton } from '../src/ingest/converters/markdown.js';
import type { PlanDirectives } from '../src/model/plan.js';
import type { ConvertedNode } from '../src/ingest/converters/types.js';
import type { FileCard } from '../src/store/schemas.js';
import { takeSample } from '../src/ingest/plan/sample.js';

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

  it('a first line in the chapters\' style titles the document when the chapters are numbered; a comment in an example is text', () => {
    const policy = [
      'Debian Policy Manual', '********************', '', 'This manual describes the policy requirements.', '',
      '1. About this manual', '********************', '', 'Scope of the manual.', '',
      '1.1. Scope', '==========', '', 'An example:', '', '   # Command "sudo", with arguments "-nE"', "   export DEB_GAIN_ROOT_CMD='sudo -nE --'", '',
      '2. The Debian Archive', '*********************', '', 'Areas of the archive.', '',
    ].join('\n');
    const r = convertTextByPlan(policy, 'policy.txt', plan);
    expect(r.root.title).toBe('Debian Policy Manual');
    expect(outline(r.root).map((l) => l.replace(/ [\d-]+$/, ''))).toEqual(['Debian Policy Manual', '  1. About this manual', '    1.1. Scope', '  2. The Debian Archive']);
    // unnumbered sections of one style, the first on the first line: none of them is the title
    const readme = 'about\n-----\n\nsocat is a relay.\n\npackages\n--------\n\nDebian has it.\n\ninstall\n-------\n\nmake\n';
    const s = convertTextByPlan(readme, 'socat-readme.txt', plan);
    expect(s.root.title).toBe('socat-readme');
    expect(s.root.children.map((c) => c.title)).toEqual(['about', 'packages', 'install']);
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

  it('a NEWS file of release headings is titled by its file name, not by its newest release', () => {
    const news = convertMarkdownText('# openxlsx 4.2.5\n\n## Fixes\n\n* read.xlsx() keeps the seed\n\n# openxlsx 4.2.4\n\n## Fixes\n\n* dates\n', 'openxlsx-NEWS.md');
    expect(news.root.title).toBe('openxlsx-NEWS');
    expect(news.root.children.map((c) => c.title)).toEqual(['openxlsx 4.2.5', 'openxlsx 4.2.4']);
    // top-level sections of other names: the first still titles the document
    expect(convertMarkdownText('# Project 2\n\nIntro.\n\n# Install 3\n\nmake\n', 'README.md').root.title).toBe('Project 2');
  });
});

  it('YAML and TOML front matter is metadata, not a section; its title stands in when there is no H1', () => {
    const rmd = convertMarkdownText('---\n:xtitle: Programming Interface\ndate: 27-aug-2022\noutput:\n  html_document:\n   toc: true\n---\n\n# Programming interface\n\nCopyright.\n\n## Steps\n\ncall\n\n## Files\n\nopen\n', 'swephprg.md');
    expect(rmd.root.title).toBe('Programming interface');
    expect(outline(rmd.root)).toEqual(['Programming interface 1-19', '  Steps 13-16', '  Files 17-19']);
    expect(rmd.root.content).toContain('date: 27-aug-2022');
    const hugo = convertMarkdownText('+++\ntitle = "Porting Guide"\nweight = 3\n+++\n\n## Before you start\n\nread\n\n## Steps\n\ndo\n', 'porting.md');
    expect(hugo.root.title).toBe('Porting Guide');
    expect(hugo.root.children.map((c) => c.title)).toEqual(['Before you start', 'Steps']);
    // R Markdown (CRLF lines): the front matter's title and subtitle outrank a first H1 that is a section; Pandoc's {#id} is no part of a title
    const rmdVignette = convertMarkdownText('---\r\noutput: rmarkdown::html_vignette\r\ntitle: \'Panel data econometrics in R:\'\r\nsubtitle: \'the plm package\'\r\n---\r\n\r\n# Introduction\r\n\r\nPanel data.\r\n\r\n# The linear panel model{#linear-panel-model}\r\n\r\nModels.\r\n', 'plm.md');
    expect(rmdVignette.root.title).toBe('Panel data econometrics in R: the plm package');
    expect(rmdVignette.root.children.map((c) => c.title)).toEqual(['Introduction', 'The linear panel model']);
    // a rule, then a paragraph and a setext underline: no front matter (no "key:" line after the opening rule)
    const ruled = convertMarkdownText('---\nIntro text here\n---\n\nmore\n', 'ruled.md');
    expect(ruled.root.children.map((c) => c.title)).toEqual(['Intro text here']);
  });

const ADOC = `= Harbour Crane Operations Guide
Port Authority <ops@example.org>

This guide covers daily crane operations.

== Daily checks

Before the first lift, the operator walks the crane.

=== Wind limits

Stop lifting when the wind exceeds 20 m/s.

== Maintenance

[source,shell]
----
crane-log --export
----

=== Lubrication

Grease the slewing ring every 250 hours.
`;

const ORG = `#+TITLE: Field Notes 2024
#+AUTHOR: R. Ito
* Site A
Observed 14 nests along the ridge.
** Weather
Cold, wind from the north.
* Site B
No nests found.
`;

describe('numbered titles run into their paragraphs (a licence\'s or contract\'s sections)', () => {
  const para = (head: string) => [head, ...Array.from({ length: 8 }, (_, k) => `   the clause goes on with its terms and conditions, line ${k + 1} of it.`), ''];
  it('"2. Grant of Copyright License. Subject to…" titles its section when such titles run in sequence (Apache 2.0)', () => {
    const lines = ['   1. Definitions.', '', ...para('   2. Grant of Copyright License. Subject to the terms and conditions of'), ...para('   3. Grant of Patent License. Subject to the terms and conditions of'), ...para('   4. Redistribution. You may reproduce and distribute copies of the'), ...para('   5. Submission of Contributions. Unless You explicitly state otherwise,')];
    expect(textHeadings(lines).map((h) => h.title)).toEqual(['1. Definitions', '2. Grant of Copyright License', '3. Grant of Patent License', '4. Redistribution', '5. Submission of Contributions']);
  });

  it('a list\'s steps opening with a sentence are no titles ("2. Remove the cover. Then…"), nor are run-in titles out of sequence', () => {
    const steps = [...para('1. Open the box. Take out the parts and lay them'), ...para('2. Remove the cover. Then unscrew the four screws of'), ...para('3. Fit the new board. Press it down until it clicks in')];
    expect(textHeadings(steps)).toEqual([]);
    const scattered = [...para('4. Redistribution. You may reproduce and distribute copies of the'), ...para('9. Trademarks. This License does not grant permission to use the')];
    expect(textHeadings(scattered)).toEqual([]);
  });
});

describe('AsciiDoc and Org-mode headings', () => {
  it('AsciiDoc: "=" titles by depth, the document title first; a listing\'s "----" is no underline of the line above', () => {
    const r = convertTextByPlan(ADOC, 'guide.adoc', plan);
    expect(r.title).toBe('Harbour Crane Operations Guide');
    expect(outline(r.root)).toEqual(['Harbour Crane Operations Guide 1-23', '  Daily checks 6-9', '    Wind limits 10-13', '  Maintenance 14-20', '    Lubrication 21-23']);
  });

  it('AsciiDoc marks take one space after them: a column of symbols set off by several ("=    A ring.") is text', () => {
    const symbols = ['NetHack map symbols', '', '          ?    A scroll.', '', '          =    A ring.', '', '          !    A potion.', ''].join('\n');
    expect(textHeadings(symbols.split('\n').map((l) => l.trim() ? l.slice(10) : l))).toEqual([]);
    expect(textHeadings(['', '= A ring', ''])).toHaveLength(1);
  });

  it('Org: "*" headings by depth and the #+TITLE line, only in a file with Org keywords (elsewhere "* item" is a bullet)', () => {
    const r = convertTextByPlan(ORG, 'notes.org', plan);
    expect(r.title).toBe('Field Notes 2024');
    expect(outline(r.root)).toEqual(['Field Notes 2024 1-8', '  Site A 3-4', '    Weather 5-6', '  Site B 7-8']);
    const bullets = '* Site A\nObserved nests.\n* Site B\nNo nests.\n';
    expect(textHeadings(bullets.split('\n'))).toEqual([]);
  });

  it('the planner sample counts them (Org ones once an Org keyword line was seen)', () => {
    const card: FileCard = { id: 'src_0000abcd', filename: 'x', original_path: 'inbox/x', type: 'text', size_kb: 1, sha256: '0'.repeat(64) };
    // (5 titles; the sample also counts the listing's "----" as a setext underline, which the converter drops)
    expect(takeSample(card, new TextEncoder().encode(ADOC)).heading_count).toBeGreaterThanOrEqual(5);
    expect(takeSample(card, new TextEncoder().encode(ORG)).heading_count).toBe(3);
    expect(takeSample(card, new TextEncoder().encode('* one\n* two\n* three\n')).heading_count).toBe(0);
  });
});

describe('the planner sample counts plain-text headings for text files only', () => {
  const card = (type: FileCard['type']): FileCard => ({ id: 'src_0000abcd', filename: 'x', original_path: 'inbox/x', type, size_kb: 1, sha256: '0'.repeat(64) });
  const bytes = new TextEncoder().encode(`intro\n${RST}\n\nPRINTING THE MANUAL\n\nUse make dvi.\n`);

  it('text: reStructuredText adornments and capitals count; markdown: only its own headings', () => {
    expect(takeSample(card('text'), bytes).heading_count).toBe(5); // **** once, ==== twice, ---- once, capitals once
    expect(takeSample(card('markdown'), bytes).heading_count).toBe(3);
  });
});

describe('long sections of text and Markdown', () => {
  it('keep their heading and read their own lines in paragraph groups; short ones stay whole', () => {
    const para = (i: number) => `${i}. Clause ${i}. ${'Words of the clause go on here. '.repeat(30)}`;
    const body = Array.from({ length: 12 }, (_, i) => para(i + 1)).join('\n\n');
    const md = convertMarkdownText(`# Licence\n\n## TERMS\n\n${body}\n\n## END\n\nshort\n`, 'l.md');
    const terms = md.root.children.find((c) => c.title === 'TERMS')!;
    expect(terms.content).toBe('## TERMS');
    expect(terms.children.length).toBeGreaterThan(1);
    expect(terms.children[0]!.title).toBe('1. Clause 1.');
    expect(terms.children[0]!.line_range![0]).toBe(5);
    expect(md.root.children.find((c) => c.title === 'END')!.children).toEqual([]);
  });
});

describe('a FAQ in plain text (Q:/A: entries)', () => {
  const FAQ = `\nQ: What is the clue of socat?\n\nA: It has none.\n\n\nQ: When I specify a dual address on\nthe command line, I get "event not found".\n\nA: Say "set +H".\n\n\nQ: A socat process run in background is\nstopped after five minutes.\nA: Clear TOSTOP with stty -tostop.\n`;
  const cardOf = (type: FileCard['type']): FileCard => ({ id: 'src_0000abcd', filename: 'faq.txt', original_path: 'inbox/faq.txt', type, size_kb: 1, sha256: '0'.repeat(64) });

  it('gives one node per question, titled by the whole question, answers inside', () => {
    const r = convertTextByPlan(FAQ, 'faq.txt', plan);
    expect(r.toc_source).toBe('headings');
    expect(r.root.children.map((c) => c.title)).toEqual([
      'Q: What is the clue of socat?',
      'Q: When I specify a dual address on the command line, I get "event not found".',
      'Q: A socat process run in background is stopped after five minutes.',
    ]);
    expect(r.root.children[2]!.line_range).toEqual([13, 15]);
  });

  it('numbered questions on lines of their own are entries, sub-questions under their question (the SIL OFL FAQ)', () => {
    const faq = ['OFL FAQ - Frequently Asked Questions about the SIL Open Font License (OFL)', 'Version 1.1-update6 - December 2020', '', '1  USING THE FONTS', '', '1.1  Can I use the fonts for a book or other print publication?', 'Yes. You are very welcome to do so.', '',
      '1.1.1  Does that restrict the license or distribution of that artwork?', 'No. You remain the author.', '', '1.2  Can the fonts be included with software collections?', 'Yes!', '',
      '2  WEB FONTS', '', '2.1  Can I make webpages using these fonts?', 'Yes! Go ahead!', ''].join('\n');
    const r = convertTextByPlan(faq, 'OFL-FAQ.txt', plan);
    const titles = (n: ConvertedNode, d = 0): string[] => n.children.flatMap((c) => [`${'  '.repeat(d)}${c.title}`, ...titles(c, d + 1)]);
    // titled by its first line, not its file name: no heading titles it
    expect(r.title).toBe('OFL FAQ - Frequently Asked Questions about the SIL Open Font License (OFL)');
    expect(titles(r.root)).toEqual([
      '1 USING THE FONTS',
      '  1.1 Can I use the fonts for a book or other print publication?',
      '    1.1.1 Does that restrict the license or distribution of that artwork?',
      '  1.2 Can the fonts be included with software collections?',
      '2 WEB FONTS',
      '  2.1 Can I make webpages using these fonts?',
    ]);
    // the planner counts the four questions and the two numbered titles
    expect(takeSample(cardOf('text'), new TextEncoder().encode(faq)).heading_count).toBe(6);
  });

  it('one question is a remark, not a FAQ; a question inside a paragraph is no entry', () => {
    expect(textHeadings(['', 'Q: Why?', '', 'A: Because.'])).toEqual([]);
    expect(textHeadings(['Some text', 'Q: inline?', '', 'Q: real one?', '', 'Q: and two?']).map((h) => h.line)).toEqual([3, 5]);
  });

  it('the planner counts the questions, so a FAQ is planned as a tree', () => {
    expect(takeSample(cardOf('text'), new TextEncoder().encode(FAQ)).heading_count).toBe(3);
  });
});

describe('headings that do not structure the text', () => {
  const entry = (i: number) => `pkg (1.${i}-1) unstable; urgency=medium\n  * Fix bug number ${i} in the parser.\n  * Update the translations of release ${i}.\n -- Jane Doe <jane@example.org>  Mon, 0${i % 9 + 1} Jan 2024 10:00:00 +0000\n`;
  const body = Array.from({ length: 200 }, (_, i) => entry(i)).join('\n');

  it('a long text whose only Markdown-looking headings come at its end is read in paragraph groups, titled by its first line', () => {
    const text = `${body}\nOlder entries have been removed\n-------------------------------\nSee the archive\n---------------\n`;
    const r = convertTextByPlan(text, 'changelog.Debian', plan);
    expect(r.toc_source).toBe('paragraphs');
    expect(r.root.title).toBe('pkg (1.0-1) unstable; urgency=medium');
    expect(r.root.children.length).toBeGreaterThan(5);
    expect(r.plan_notes?.some((n) => n.field === 'recommended_approach')).toBe(true);
  });

  it('"#" comment lines of a data file are text; a comment box names its section (the GNU units database)', () => {
    const box = (name: string) => ['#', `# ${name}`, '#', ''];
    const units = (name: string, i: number) => [...box(name), `unit${i}a        ${i} m   # what it measures`, `unit${i}b        ${i + 1} m  # another, noted`, ''];
    const text = [
      '#', '# This file is the units database for use with GNU units, a units conversion', '# program by A. Author', '#',
      '# This program is free software; you can redistribute it and/or modify', '# it under the terms of the GNU General Public License.', '',
      '###########################', '#                         #', '# Prefixes (longer first)  #', '#                         #', '###########################', '',
      'yotta-  1e24', 'zetta-  1e21', '',
      ...units('Units derived the human body', 1), ...units('Cooking measures', 2), ...units('A primitive non-SI unit', 3),
      'smoot   5 ft + 7 in # Created as part of an MIT fraternity prank.', '',
    ].join('\n');
    const r = convertTextByPlan(text, 'definitions.units', plan);
    const titles = outline(r.root).map((l) => l.trim().replace(/ [\d-]+$/, ''));
    expect(titles).toEqual(expect.arrayContaining(['Prefixes (longer first)', 'Units derived the human body', 'Cooking measures', 'A primitive non-SI unit']));
    // neither bare "#" lines nor the licence's lines are headings; the title is the file's first line, not a section far into it
    expect(titles.some((t) => t.startsWith('(untitled') || t.startsWith('it under the terms'))).toBe(false);
    expect(r.root.title).toBe('This file is the units database for use with GNU units, a units conversion');
    // line numbers hold: the last section runs to the smoot line
    expect(r.root.children.find((c) => c.title === 'A primitive non-SI unit')!.line_range![1]).toBeGreaterThanOrEqual(text.split('\n').indexOf('smoot   5 ft + 7 in # Created as part of an MIT fraternity prank.') + 1);
    // a README in Markdown keeps its "# Title" headings
    expect(commentRunsAsText(['# Usage', '', 'Run it.', '', '# Options', '', 'None.'])).toEqual(['# Usage', '', 'Run it.', '', '# Options', '', 'None.']);
  });

  it('a "#" line going on with the line above, lower case first, is text; the heading opening the file titles it (abc2midi\'s guide)', () => {
    const para = (n: number) => Array.from({ length: 6 }, (_, i) => `Line ${i} of paragraph ${n} tells what the fields of a tune header do.`);
    const text = [
      'Guide to writing abc for abc2midi - minor revision 2021-05-24', '--------------------------------------------------------------', '',
      ...para(1), '', 'The K: is made up of a base note A-G possibly followed by b for flat or', '# for sharp. This specifies a major key.', ...para(2), '',
      'The Body of the Tune', '--------------------', '', ...para(3), '', 'Part Notation', '-------------', '', ...para(4), '',
    ];
    const r = convertTextByPlan(text.join('\n'), 'abc-guide.txt', plan);
    const titles = outline(r.root).map((l) => l.trim().replace(/ [\d-]+$/, ''));
    expect(titles.some((t) => t.startsWith('for sharp'))).toBe(false);
    expect(r.title).toBe('Guide to writing abc for abc2midi - minor revision 2021-05-24');
    expect(commentRunsAsText(['going on with b for flat or', '# for sharp.'])).toEqual(['going on with b for flat or', '\\# for sharp.']);
    // after a blank line, or in capitals, it stays the heading Markdown makes of it
    expect(commentRunsAsText(['Some text.', '', '# for sharp'])).toEqual(['Some text.', '', '# for sharp']);
    expect(commentRunsAsText(['Some text', '# Options'])).toEqual(['Some text', '# Options']);
  });

  it('a heading opening an item of a list is a section, as a reader sees it (Stockfish lists its options as "  * #### SyzygyPath")', () => {
    const md = ['## Options', '', 'The options are:', '', '  * #### Threads', '    The number of threads.', '', '  * #### SyzygyPath', '    Folders of the tablebases, apart by ":" on Unix.', '', '  * plain item', '', '## Terms', '', 'GPL.'].join('\n');
    const r = convertMarkdownText(md, 'README.md');
    const opts = r.root.children[0]!;
    expect(opts.children.map((c) => c.title)).toEqual(['Threads', 'SyzygyPath']);
    expect(opts.children[1]!.line_range).toEqual([8, 12]);
    expect(opts.children[1]!.content).toContain('Folders of the tablebases');
    expect(r.root.children.map((c) => c.title)).toEqual(['Options', 'Terms']);
  });

  it('a Markdown file with a long text before its first heading reads that text in paragraph groups', () => {
    const r = convertMarkdownText(`${body}\n# Appendix\n\nShort.\n\n# Index\n\nShorter.\n`, 'notes.md');
    expect(r.root.content).toBeUndefined();
    expect(r.root.children.filter((c) => c.kind === 'paragraphs').length).toBeGreaterThan(1);
    expect(r.root.children.slice(-2).map((c) => c.title)).toEqual(['Appendix', 'Index']);
  });

  it('a text over a megabyte is parsed for its headings only, finding the same ones', () => {
    const md = '# Title\n\nSome *prose* here that opens the document with enough words to be read as its summary.\n\n```sh\n# a comment, not a heading\n```\n\nSetext title\n------------\n\n- a list item\n\n## Part two\n\ntext\n';
    const sk = headingSkeleton(md);
    // every kept line stays on its line
    expect(sk.split('\n').indexOf('## Part two')).toBe(md.split('\n').indexOf('## Part two'));
    expect(sk.split('\n').filter(Boolean)).toEqual(['# Title', '```sh', '# a comment, not a heading', '```', 'Setext title', '------------', '## Part two']);
    const big = `${md}${'Filler paragraph of plain words, repeated to pass the parse limit.\n\n'.repeat(16_000)}# Last\n\nEnd.\n`;
    const r = convertMarkdownText(big, 'big.md');
    expect(r.root.children.map((c) => c.title)).toEqual(['Title', 'Last']);
    expect(r.root.children[0]!.children.map((c) => c.title)).toEqual(['Setext title', 'Part two']);
    expect(r.root.title).toBe('Title');
    expect(r.card?.summary).toMatch(/^Some prose here that opens/);
  });
});

describe('numbered titles standing alone (a licence\'s sections)', () => {
  const para = (n: number) => Array.from({ length: 9 }, (_, k) => `  Text of section ${n}, line ${k + 1}: the terms that apply to the covered work go on here.`).join('\n');
  const licence = `                    GNU GENERAL PUBLIC LICENSE
                       Version 3, 29 June 2007

                            Preamble

${para(99)}

                       TERMS AND CONDITIONS

  0. Definitions.

${para(0)}

  1. Source Code.

${para(1)}

  2. Basic Permissions.

${para(2)}

  8. Termination.

${para(8)}

  9. Acceptance Not Required for Having Copies.

${para(9)}

                     END OF TERMS AND CONDITIONS
`;

  it('reads them as sections under the heading above them when they run in sequence, far apart; a masthead titles the text', () => {
    const lines = licence.split('\n');
    const hs = textHeadings(lines);
    expect(hs.map((h) => h.title)).toEqual(['TERMS AND CONDITIONS', '0. Definitions', '1. Source Code', '2. Basic Permissions', '8. Termination', '9. Acceptance Not Required for Having Copies', 'END OF TERMS AND CONDITIONS']);
    const md = convertMarkdownText(markTextHeadings(lines, 3)!, 'GPL-3', licence);
    const terms = md.root.children.find((c) => c.title === 'TERMS AND CONDITIONS')!;
    expect(terms.children.map((c) => c.title)).toContain('8. Termination');
    // its centred first line titles it, not the file name
    expect(md.root.title).toBe('GNU GENERAL PUBLIC LICENSE');
  });

  it('takes a longer title numbered between two of the run\'s, and an appendix lettered after the sections', () => {
    const p = (w: string) => Array.from({ length: 5 }, (_, i) => `   ${w} sentence ${i} of the body, long enough to read as text.`).join('\n');
    const text = [
      '1. Introduction', p('a'), '  1.1. Scope', p('b'), '2. Members', p('c'), '  2.1. Powers', p('d'),
      '3. The Members by way of General Resolution or by election', p('e'), '  3.1. Powers', p('f'), '4. Leader', p('g'),
      '  4.1. Powers', p('h'), '5. Secretary', p('l'), '6. Delegates', p('m'), 'A. Standard Resolution Procedure', p('i'), '  A.1. Discussion and Amendment', p('j'), '  A.2. Voting procedure', p('k'),
    ].join('\n\n');
    const titles = textHeadings(text.split('\n')).map((h) => `${h.style} ${h.title}`);
    expect(titles).toContain('numbered1 3. The Members by way of General Resolution or by election');
    expect(titles).toContain('numbered1 A. Standard Resolution Procedure');
    expect(titles).toContain('numbered2 A.1. Discussion and Amendment');
    // a long numbered line not between two of the run's titles is a list item; letters before a section number are a list's
    const list = [...text.split('\n\n').slice(0, 4), 'A. First choice of a list, quite long enough', p('x'), 'B. Second choice', p('y'), ...text.split('\n\n').slice(4, 20),
      '9. A list item that is long and numbered far beyond the run here', p('z')].join('\n\n');
    const got = textHeadings(list.split('\n')).map((h) => h.title);
    expect(got).not.toContain('A. First choice of a list, quite long enough');
    expect(got).not.toContain('9. A list item that is long and numbered far beyond the run here');
    expect(got).toContain('4. Leader');
  });

  it('a short list of numbered steps is no outline', () => {
    const steps = 'Install\n\n1. Download the archive.\n\n2. Unpack it.\n\n3. Run make.\n\n4. Run make install.\n';
    expect(textHeadings(steps.split('\n'))).toEqual([]);
  });
});

describe('plain text laid out in pages (groff output, RFCs)', () => {
  const M = ' '.repeat(10);
  const body = (words: string) => Array.from({ length: 6 }, (_, i) => `${M}${words} line ${i} of a paragraph that runs on for a while here.`).join('\n');
  const page = (n: number, lines: string) => `${M}Widget Guide${' '.repeat(40)}${n}\n\n\n${lines}\n\n\n${M}Widget 2.0${' '.repeat(30)}March 8, 2020\n\n`;
  const TEXT = [
    `\n${M}                 A Guide to Widgets\n\n`,
    page(1, `${M}1.  Introduction\n\n${body('Intro')}\n\n${M}2.  What is a widget for?\n\n${body('Purpose')}`),
    page(2, `${body('More purpose')}\n\n${M}2.1.  Kinds of widgets\n\n${body('Kinds')}\n\n${M}0    A list item numbered zero.\n\n${body('Listing')}`),
    page(3, `${M}3.  Using widgets\n\n${body('Using')}\n\n${M}3.1.  Starting\n\n${body('Starting')}`),
    page(4, `${M}3.2.  Stopping\n\n${body('Stopping')}\n\n${M}4.  Credits\n\n${body('Credits')}`),
  ].join('');
  it('reads numbered titles past the text\'s margin; running heads and feet are neither titles nor node text', () => {
    const r = convertTextByPlan(TEXT, 'widgets.txt', plan);
    const lines = outline(r.root);
    expect(lines.map((l) => l.replace(/ [\d-]+$/, '').trim())).toEqual(['A Guide to Widgets', '1. Introduction', '2. What is a widget for?', '2.1. Kinds of widgets', '3. Using widgets', '3.1. Starting', '3.2. Stopping', '4. Credits']);
    const text = (n: ConvertedNode): string => [n.content ?? '', ...n.children.map(text)].join('\n');
    expect(text(r.root)).not.toMatch(/Widget Guide|March 8, 2020/);
    expect(text(r.root)).toContain('A list item numbered zero.');
    // the planner sees them too, so the text is planned as a tree
    const card: FileCard = { id: 'src_0000abcd', filename: 'widgets.txt', original_path: 'inbox/widgets.txt', type: 'text', size_kb: 4, sha256: '0'.repeat(64) };
    expect(takeSample(card, new TextEncoder().encode(TEXT)).heading_count).toBeGreaterThanOrEqual(7);
    // every line keeps its number, the blank ones closing the file too
    expect(r.root.line_range).toEqual([1, TEXT.split('\n').length - 1]);
    const credits = lines.find((l) => l.includes('4. Credits'))!;
    expect(Number(/ (\d+)-\d+$/.exec(credits)![1])).toBe(TEXT.split('\n').findIndex((l) => l.includes('4.  Credits')) + 1);
  });
  it('a text too large to mark its plain-text headings is read in paragraph groups, and says why (issue 12: 200 MB peaked at 1.87 GB)', () => {
    const LINE = 'Words of a paragraph that runs on for the length of a line.\n';
    const sections = (n: number, lines: number) => Array.from({ length: n }, (_, i) => `${i + 1}.  Section title ${i}\n\n${LINE.repeat(lines)}`).join('\n');
    // 99 numbered sections in sequence, over the limit
    const big = sections(99, Math.ceil(TEXT_HEADINGS_MAX_CHARS / 99 / LINE.length) + 1);
    const r = convertTextByPlan(big, 'report.txt', plan);
    expect(r.approach).toBe('chunk_embed');
    expect(r.plan_notes?.map((n) => n.reason).join(' ')).toContain(`plain-text headings are read in texts up to ${TEXT_HEADINGS_MAX_CHARS / 1_000_000} MB`);
    // the same text below the limit has its sections
    expect(convertTextByPlan(sections(6, 18), 'report.txt', plan).approach).toBe('tree_index');
  });
  it('a line repeated a few times in a long text is text, not a running line', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${body(`Part ${i}`)}\n\nTotal      ${i * 3}\n`).join('\n');
    const r = convertTextByPlan(rows, 'totals.txt', plan);
    const text = (n: ConvertedNode): string => [n.content ?? '', ...n.children.map(text)].join('\n');
    expect(text(r.root).match(/Total {6}\d+/g)).toHaveLength(40);
  });
});

describe('a part of a long section in search results', () => {
  it('is listed with its section (its title is its first sentence, not a heading)', async () => {
    const { searchStoreFixture } = await import('./helpers/search-store.js');
    const { runSearch } = await import('../src/retrieve/search-answer.js');
    const { rmSync } = await import('node:fs');
    const para = (i: number) => `Paragraph ${i} of the notes describes drainage direction grids and flow accumulation in general terms, ${'with more words about terrain. '.repeat(8)}`;
    const body = Array.from({ length: 30 }, (_, i) => para(i + 1)).join('\n\n');
    const md = `# Watershed tool\n\n## Notes\n\n${body}\n\nMultiplying positive direction values by 45 gives degrees counterclockwise from east.\n\n## Examples\n\nRun it.\n`;
    const { root } = await searchStoreFixture('none', { docs: { 'watershed.md': md, 'other.md': '# Other\n\nNothing about it.\n' } });
    try {
      const a = await runSearch(root, 'multiplying direction values by 45 degrees', { limit: 2, offset: 0, nodesPerSource: 3, filters: {}, mode: 'keyword', explain: false, maxChars: 4000 });
      const node = a.results[0]!.nodes[0]!;
      expect(node.title).not.toBe('Notes');
      expect(node.path).toEqual(['Notes']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
