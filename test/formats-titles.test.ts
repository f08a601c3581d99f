import { describe, it, expect } from 'vitest';
import { clipAtWord, groupTitle, headingLines, isCodeLine, leadTitle, GROUP_TITLE_CHARS } from '../src/ingest/converters/titles.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { foldHeadingRuns, paragraphGroups } from '../src/ingest/converters/html-tree.js';
import { convertDocxBytes } from '../src/ingest/converters/docx.js';
import { htmlConverter } from '../src/ingest/converters/html.js';
import type { ConvertedNode } from '../src/ingest/converters/types.js';
import { convertPlainText, paragraphNodes } from '../src/ingest/converters/text-chunks.js';
import { convertMarkdownText } from '../src/ingest/converters/markdown.js';
import { placedTitle } from '../src/ingest/stages/enrich.js';
import { isRoff } from '../src/ingest/converters/man.js';
import { goodMetaTitle, onlyDate, openingTitle } from '../src/ingest/converters/meta-title.js';
import { metaNamedLine } from '../src/ingest/converters/pdf/card.js';
import { detectType } from '../src/ingest/detect.js';

const EXAMPLE_INBOX = join(import.meta.dirname, '..', 'examples', 'library', 'inbox');
const LONG = 'The first thing we do is to initialize the zlib state for compression using deflateInit() and friends.';

describe('a text\'s first line as its title', () => {
  it('a comment\'s opening mark alone is no title and its marks are no part of one; a banner keeps its frame', () => {
    expect(leadTitle(['/*', ' * History', ' *', ' * $FreeBSD: calendar.history $', ' */'])).toBe('History');
    expect(leadTitle(['# Copyright (C) 2000-2018 Free Software Foundation, Inc.'])).toBe('Copyright (C) 2000-2018 Free Software Foundation, Inc.');
    expect(leadTitle(['*        *', '*  TODO  *'])).toBe('*  TODO  *');
    expect(leadTitle(['*** IMPORTANT ***'])).toBe('*** IMPORTANT ***');
    expect(convertPlainText('/*\n * History\n */\n\n01/01\tCastro expels Cuban President Batista, 1959\n01/11\tMilk delivered in bottles for first time, 1878\n', 'calendar.history').title).toBe('History');
  });
});

describe('titles of headingless stretches (titles.ts)', () => {
  it('cuts a long line at a word boundary, never mid-word', () => {
    const t = clipAtWord(LONG);
    expect(t.length).toBeLessThanOrEqual(GROUP_TITLE_CHARS);
    expect(t).toBe('The first thing we do is to initialize the zlib state for compression using…');
    expect(clipAtWord('short')).toBe('short');
  });

  it('prefers the first prose line over code, comments, table rows, rules and fenced blocks', () => {
    expect(groupTitle(['#if defined(MSDOS) || defined(OS2) || defined(WIN32)', '#  include <fcntl.h>', '#endif', '', 'Set the binary mode on standard input.'])).toBe('Set the binary mode on standard input.');
    expect(groupTitle(['/* allocate inflate state */', 'strm.zalloc = Z_NULL;', 'ret = inflateInit(&strm);', 'Now we read the input.'])).toBe('Now we read the input.');
    expect(groupTitle(['```', 'x = compute(y)', 'print(x)', '```', '| a | b |', '-----', LONG])).toBe(clipAtWord(LONG));
    expect(groupTitle(['* a bullet that is **bold** and `code`'])).toBe('a bullet that is bold and code');
    // an image alone names nothing: the line after it does
    expect(groupTitle(['> [image: _images/bowlweb.gif]', '> From an interview with Open Source Publishing, done at LGM 2007'])).toBe('From an interview with Open Source Publishing, done at LGM 2007');
    expect(groupTitle(['![logo](img/logo.png)', 'Install the package first.'])).toBe('Install the package first.');
  });

  it('names a group by its defined term when it opens with one (`**term**`)', () => {
    expect(groupTitle(["**csv.writer(csvfile, dialect='excel', **fmtparams)**", 'Return a writer object.'])).toBe("csv.writer(csvfile, dialect='excel', **fmtparams)");
  });

  it('falls back to the first line when nothing reads as prose; not to a line of marks, nor to code when the caller has a better name', () => {
    expect(groupTitle(['int main(void) {', '  return 0;', '}'])).toBe('int main(void) {');
    expect(groupTitle(['#if defined(__CYGWIN__)', '#endif'])).toBe('#if defined(__CYGWIN__)');
    expect(groupTitle([');', '', 'CREATE TABLE parent(x PRIMARY KEY);'])).toBe('');
    expect(groupTitle(['```', 'CREATE TABLE parent(x PRIMARY KEY);', '```'], undefined, undefined, false)).toBe('');
    // a comment in words says what the listing does
    expect(groupTitle(['```', '-- raw xml output for creator options for GeoTiff --', 'SELECT 1;', '```'], undefined, undefined, false)).toBe('-- raw xml output for creator options for GeoTiff --');
    expect(isCodeLine('Return a reader object which will iterate over lines.')).toBe(false);
    expect(isCodeLine('ret = deflate(&strm, flush);')).toBe(true);
  });

  it('drops reStructuredText adornment lines from headings', () => {
    expect(headingLines('========\nlighttpd')).toBe('lighttpd');
    const md = convertMarkdownText('========\nlighttpd\n========\n\nabout it\n\nUsage\n-----\n\nrun it\n', 'readme.txt');
    expect(md.title).toBe('lighttpd');
    expect(md.root.children.map((c) => c.title)).toContain('Usage');
  });

  it('leaves inline HTML (a logo link, a superscript) out of Markdown heading titles', () => {
    const text = "# dplyr <a href='https://dplyr.tidyverse.org'><img src='logo.png' align=\"right\" /></a>\n\nA grammar of data manipulation.\n\n## Back<sup>1</sup>ends\n\ndbplyr\n";
    const md = convertMarkdownText(text, 'README.md');
    expect(md.title).toBe('dplyr');
    expect(md.root.children.map((c) => c.title)).toEqual(['Back1ends']);
  });
});

describe('the converters use the shared title', () => {
  const code = ['#if defined(MSDOS) || defined(OS2) || defined(WIN32) || defined(__CYGWIN__)', '#  include <io.h>', '#endif', LONG];

  it('HTML paragraph groups', () => {
    expect(paragraphGroups(['```\n' + code.slice(0, 3).join('\n') + '\n```', LONG])[0]!.title).toBe(clipAtWord(LONG));
  });

  it('HTML paragraph groups of code alone: their section and place, not a listing\'s first line (sqlite\'s ");")', () => {
    const listing = (first: string) => '```\n' + first + '\n' + 'INSERT INTO t VALUES(1);\n'.repeat(120) + '```';
    const groups = paragraphGroups([LONG, listing(');'), listing('CREATE TABLE parent(x PRIMARY KEY);')], '4.3. ON DELETE and ON UPDATE Actions');
    expect(groups.map((g) => g.title)).toEqual([clipAtWord(LONG), '4.3. ON DELETE and ON UPDATE Actions (part 2 of 3)', '4.3. ON DELETE and ON UPDATE Actions (part 3 of 3)']);
  });

  it('HTML and Word paragraph groups of tables: titled by the first row the groups do not share, by its cells (a test procedure\'s banner atop every table)', () => {
    const big = (rows: string[]) => rows.join('\n') + '\n' + '| filler | ' + 'x'.repeat(3000) + ' |';
    const table = (banner: string, header: string, step: string) => big([`| THIS TABLE IS UNCLASSIFIED ${banner}`, '| --- | --- | --- |', header, `| ${step} | Examine it. | It shows. |`]);
    const groups = paragraphGroups([
      table('| | |', '| Step | Input/Action | Expected Result/Action |', 'CCA 1-1 Basic Interface Verification'),
      table('| | | |', '| Step | Input / Action | Expected Result/Action |', 'CCA 1-2 Batch File Coordinate Conversion'),
    ]);
    expect(groups.map((g) => g.title)).toEqual(['CCA 1-1 Basic Interface Verification; Examine it.; It shows.', 'CCA 1-2 Batch File Coordinate Conversion; Examine it.; It shows.']);
    expect(paragraphGroups([big(['| Test ID: | CCA-1 | Test Name: | Coordinate Conversion |', '| --- | --- | --- | --- |'])])[0]!.title).toBe('Test ID: CCA-1; Test Name: Coordinate Conversion');
  });

  it('plain-text groups, whole-file and over a line range', () => {
    const text = ['Title line', '', ...code, ''].join('\n');
    const r = convertPlainText(text, 'notes.txt', 40);
    expect(r.root.children.map((c) => c.title)).toEqual(['Title line', clipAtWord(LONG)]);
    expect(paragraphNodes(code, 10_000)[0]!.title).toBe(clipAtWord(LONG));
  });

  it('a plain-text document title skips adornment lines', () => {
    expect(convertPlainText('=====\nlighttpd\n=====\n\ntext\n', 'x.txt').title).toBe('lighttpd');
  });

  it('a table\'s header row is no title: the file name and its columns are', () => {
    const data = 'week    observed state\r\n199001\t1\t  0\r\n199002\t0\t  0\r\n199003\t5\t  0\r\n';
    expect(convertPlainText(data, 'salmonella.agona.txt').title).toBe('salmonella.agona: columns week, observed, state');
    // a first line with wide gaps over prose is still the title
    expect(convertPlainText('Release notes    2024\n\nThe parser is faster.\n', 'notes.txt').title).toBe('Release notes    2024');
  });
});

describe('manual pages behind a long licence comment', () => {
  const licence = Array.from({ length: 30 }, (_, i) => `.\\" line ${i} of the copyright and licence text of this page`).join('\n');
  const page = `${licence}\n.TH TCPDUMP 8 "30 July 2022"\n.SH NAME\ntcpdump \\- dump traffic\n`;

  it('are roff although .TH lies past the sniffed bytes', () => {
    expect(isRoff(page.slice(0, 512))).toBe(true);
    expect(detectType('tcpdump.8', new TextEncoder().encode(page)).type).toBe('man');
  });

  it('are roff when the page defines its own macros before .TH (SoX\'s sox.1)', () => {
    const macros = `'\\" t\n'\\" Separate paragraphs\n.de SP\n.if t .sp .5\n.if n .sp\n..\n.ie n .ds m " - \n.el .ds m \\(em\n.ds RA \\(->\n.de EX\n.SP\n.nf\n.ft CW\n..\n`.repeat(4);
    const sox = `${macros}.TH SoX 1 "December 31, 2014"\n.SH NAME\nSoX \\- Sound eXchange\n`;
    expect(isRoff(sox.slice(0, 512))).toBe(true);
    expect(detectType('sox.1', new TextEncoder().encode(sox)).type).toBe('man');
    // rst2man's macros print text lines ("level \\n[an-margin]") inside their definitions: not text of the page
    const rst = `.\\" Man page generated from reStructuredText.\n.\n.nr rst2man-indent-level 0\n.\n.de1 rstReportMargin\n\\\\$1 \\\\n[an-margin]\nlevel \\\\n[rst2man-indent-level]\n-\n..\n`.repeat(6);
    const cs2cs = `${rst}.TH "CS2CS" "1" "Dec 1st, 2022"\n.SH NAME\ncs2cs \\- filter\n`;
    expect(cs2cs.indexOf('.TH')).toBeGreaterThan(512);
    expect(isRoff(cs2cs.slice(0, 512))).toBe(true);
    expect(detectType('cs2cs.1', new TextEncoder().encode(cs2cs)).type).toBe('man');
    // text after a definition's end is judged again: prose there is no roff
    expect(isRoff('.\\" note\n.de X\nbody\n..\nJust some prose here.\nmore\n')).toBe(false);
    // a list of dot-files is no roff: it opens with no roff comment
    expect(isRoff('.bashrc\n.profile\n.vimrc\n.gitconfig\n')).toBe(false);
  });

  it('a page an earlier version read as plain text is read again as a manual page, once', async () => {
    const { tempStore, cleanup } = await import('./helpers/temp-store.js');
    const { ingest } = await import('../src/ingest/pipeline.js');
    const { converterTagFor } = await import('../src/ingest/converters/index.js');
    const { writeFileSync } = await import('node:fs');
    const macros = `'\\" t\n.de SP\n.if t .sp .5\n.if n .sp\n..\n.de EX\n.SP\n.nf\n.ft CW\n..\n`.repeat(8);
    const root = tempStore();
    try {
      writeFileSync(join(root, 'inbox', 'sox.1'), `${macros}.TH SoX 1\n.SH NAME\nSoX \\- Sound eXchange\n.SH DESCRIPTION\nSoX reads audio.\n`);
      await ingest(root, { paths: [join(root, 'inbox')] });
      const catalogFile = join(root, 'catalog.json');
      const read = () => JSON.parse(readFileSync(catalogFile, 'utf8')) as { sources: Array<{ filename: string; type: string; converter: string }> };
      expect(read().sources.find((e) => e.filename === 'sox.1')!.type).toBe('man');
      // as an earlier version left it: read as text
      const before = read();
      const entry = before.sources.find((e) => e.filename === 'sox.1')!;
      Object.assign(entry, { type: 'text', converter: converterTagFor('text') });
      writeFileSync(catalogFile, JSON.stringify(before));
      const again = await ingest(root, { paths: [join(root, 'inbox')] });
      expect(again.counts.updated).toBe(1);
      expect(read().sources.find((e) => e.filename === 'sox.1')!.type).toBe('man');
      expect((await ingest(root, { paths: [join(root, 'inbox')] })).counts.unchanged).toBe(1);
    } finally {
      cleanup(root);
    }
  });

  it('plain text that merely mentions a roff comment is not roff', () => {
    expect(isRoff('Some notes\n.\\" looks like roff\nmore text\n')).toBe(false);
    expect(detectType('notes.8', new TextEncoder().encode('Release notes for 8\n\nNothing here.\n')).type).toBe('text');
  });
});

describe('first sentences and numbers', () => {
  it('a long line whose first sentence fits is titled by that sentence; its number is kept', () => {
    expect(clipAtWord('3. Grant of Patent License. Subject to the terms and conditions of this License, each Contributor hereby grants')).toBe('3. Grant of Patent License.');
    expect(groupTitle(['2. Second step of a numbered list that is long enough to need cutting somewhere after here'])).toMatch(/^2\. Second step/);
  });
});

describe('empty same-level headings in a row (title-page author lines)', () => {
  const sec = (title: string, content: string | null): ConvertedNode => ({ title, kind: 'section', meta: { level: 3 }, content: content ?? `### ${title}`, children: [] });

  it('are folded into their parent as text lines, with the text of the heading that closes the run', () => {
    const f = foldHeadingRuns([sec('Joey Hess', null), sec('Colin Watson', null), sec('David Mandelberg', '### David Mandelberg\n\nCopyright © 2005'), sec('Scope', '### Scope\n\ntext')]);
    expect(f.children.map((c) => c.title)).toEqual(['Scope']);
    expect(f.text).toEqual(['Joey Hess\nColin Watson\nDavid Mandelberg\n\nCopyright © 2005']);
  });

  it('a single empty heading before a sibling stays a section', () => {
    const f = foldHeadingRuns([sec('Overview', null), sec('Details', '### Details\n\ntext')]);
    expect(f.children.map((c) => c.title)).toEqual(['Overview', 'Details']);
    expect(f.text).toEqual([]);
  });

  it('in a Word file made by LibreOffice from DocBook: no author nodes, one node per user/group entry', async () => {
    const r = await convertDocxBytes(readFileSync(join(EXAMPLE_INBOX, 'debian-users-and-groups.docx')), 'debian-users-and-groups.docx');
    const titles = (n: ConvertedNode): string[] => [n.title, ...n.children.flatMap(titles)];
    expect(titles(r.root)).not.toContain('Joey Hess');
    const ch2 = r.root.children.find((c) => c.title === 'Chapter 2. Users and Groups')!;
    expect(ch2.children.slice(0, 4).map((c) => c.title)).toEqual(['root', 'daemon', 'bin', 'sys']);
    expect(ch2.children.map((c) => c.title)).toContain('nobody, nogroup');
  });
});

describe('a group line that runs past its first sentence', () => {
  it('is titled by the first sentence', () => {
    expect(groupTitle(['3. Grant of Patent License. Subject to the terms and conditions of', 'this License, each Contributor'])).toBe('3. Grant of Patent License.');
    expect(groupTitle(['Q: What is the clue of socat?'])).toBe('Q: What is the clue of socat?');
  });
});

describe('consecutive <dl> elements (Sphinx: one per function)', () => {
  const fn = (name: string) => `<dl class="py function"><dt id="m.${name}">m.${name}(a, b)</dt><dd><p>${`The ${name} function does its work on a and b. `.repeat(12)}</p></dd></dl>\n`;

  it('are read as one definition list: one node per function', async () => {
    const html = `<html><head><title>m</title></head><body><h1>m</h1><h2>Functions</h2>${['alpha', 'beta', 'gamma', 'delta'].map(fn).join('')}<h2>Examples</h2><p>Use it.</p></body></html>`;
    const r = await htmlConverter.convert({ bytes: new TextEncoder().encode(html), card: { filename: 'm.html' }, options: {} } as never);
    const fns = r.root.children.find((c) => c.title === 'Functions')!;
    expect(fns.children.map((c) => c.title)).toEqual(['m.alpha(a, b)', 'm.beta(a, b)', 'm.gamma(a, b)', 'm.delta(a, b)']);
  });

  it('a paragraph between two short lists keeps them apart (text, not nodes)', async () => {
    const html = `<html><body><h1>m</h1><h2>Functions</h2>${fn('alpha')}${fn('beta')}<p>Then:</p>${fn('gamma')}${fn('delta')}<h2>End</h2><p>x</p></body></html>`;
    const r = await htmlConverter.convert({ bytes: new TextEncoder().encode(html), card: { filename: 'm.html' }, options: {} } as never);
    const fns = r.root.children.find((c) => c.title === 'Functions')!;
    expect(fns.children).toEqual([]);
    expect(fns.content).toContain('**m.gamma(a, b)**');
  });
});

describe('a group that opens with a hard-wrapped sentence (NEWS, README, Markdown lists)', () => {
  it('is titled by the sentence, not by where the editor wrapped its first line', () => {
    expect(groupTitle(['- CVE-2026-1 (MEDIUM): Receiver metadata application followed a symlink out of', '  the destination tree. Fixed.'])).toBe('CVE-2026-1 (MEDIUM): Receiver metadata application followed a symlink out…');
    expect(groupTitle(['A summary line is printed showing the number of chunks,', 'packets and bytes.'])).toBe('A summary line is printed showing the number of chunks, packets and bytes.');
    // a short line, a line ending a sentence or a colon, and a new list item stop the title
    expect(groupTitle(['README:', 'This is GNU Awk, the version of awk that follows POSIX rules.'])).toBe('README:');
    expect(groupTitle(['Added the --append option that makes rsync append data onto files.', 'Second sentence.'])).toBe('Added the --append option that makes rsync append data onto files.');
    expect(groupTitle(['- Added a new --info option that allows a fine-grained control over', '- Added a second item'])).toBe('Added a new --info option that allows a fine-grained control over');
  });

  it('a cut title does not end on function words before its ellipsis', () => {
    expect(clipAtWord('Receiver ACL/xattr metadata application followed a symlink out of the destination tree and more')).toBe('Receiver ACL/xattr metadata application followed a symlink out…');
  });
});

describe('a title that is only a conventional file name', () => {
  it('names the folder the file sits in (two projects\' README.md without a heading were both "README")', () => {
    expect(placedTitle('README', 'inbox/alpha/README.md')).toBe('README — alpha');
    expect(placedTitle('README', 'external/docs/beta/README.md')).toBe('README — beta');
    expect(placedTitle('NEWS', 'inbox/pkg/NEWS')).toBe('NEWS — pkg');
    // at the top of the folder ingested no folder names it; a title of its own, or a name that is no convention, stays
    expect(placedTitle('README', 'inbox/README.md')).toBe('README');
    expect(placedTitle('README', 'external/docs/README.md')).toBe('README');
    expect(placedTitle('Alpha: fast log parsing', 'inbox/alpha/README.md')).toBe('Alpha: fast log parsing');
    expect(placedTitle('q3-report', 'inbox/finance/q3-report.pdf')).toBe('q3-report');
  });
});

describe('document titles that are no titles (stop 46)', () => {
  it('a date alone is no title, from the metadata or atop a cover', () => {
    for (const d of ['29th October 2006', 'June 28, 2026', '6/4/2018', '2006-10-29', 'APRIL 2020']) {
      expect(onlyDate(d)).toBe(true);
      expect(goodMetaTitle(d)).toBe(false);
    }
    expect(goodMetaTitle('Report 2006')).toBe(true);
    expect(onlyDate('October Revolution 1917')).toBe(false);
  });

  it('the line of the largest print the metadata title names wins over an issuer\'s name set in that size', () => {
    const line = (text: string, size: number) => ({ text, cells: [text], x: 90, x2: 300, y: 700, size, font: 'f', gapAbove: 2 });
    const page = { page: 1, width: 612, height: 792, twoColumn: false, lines: [line('EDF R&D', 12), line('Single Phase Thermal-Hydraulics Group', 7), line('Code Saturne documentation', 12), line('Code Saturne Theory Guide', 12)] };
    expect(metaNamedLine("CodeSaturne Theory and Programmer's Guide", page, 'EDF R&D')).toBe('Code Saturne Theory Guide');
    // the headline shares its words: it stands
    expect(metaNamedLine('EDF R&D annual review', page, 'EDF R&D')).toBeNull();
    expect(metaNamedLine('29th October 2006', page, 'EDF R&D')).toBeNull();
  });

  it('a word-processor file titled by its opening lines when its first heading is only a part\'s name', () => {
    expect(openingTitle("User's manual for\n[image: logo]\nWriter2LaTeX, Writer2BibTeX, Writer2xhtml and Calc2xhtml\nversion 1.4\nTable of Contents")).toBe("User's manual for Writer2LaTeX, Writer2BibTeX, Writer2xhtml and Calc2xhtml");
    // the contents' entries are no title
    expect(openingTitle('Table of Contents\n1 Introduction 3')).toBe('');
    expect(openingTitle('x'.repeat(200))).toBe('');
  });
});
