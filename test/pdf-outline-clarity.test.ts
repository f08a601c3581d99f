/**
 * Outlines an agent reads without detours: a section's own text split into page windows hangs
 * directly under the section (no second node of the same title wrapping them); a parent holding
 * text of its own is summarised by that text, and a parent's list of children never repeats its own
 * title or "(continued)" parts; bookmark titles lose TeX markup; a source title read from a first page
 * whose words run together ends where its contents listing begins, and keeps its word spaces.
 */
import { headingOf } from '../src/model/place-labels.js';
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSections, leaves, type Section } from '../src/ingest/converters/pdf/sections.js';
import { convertPdfBytes } from '../src/ingest/converters/pdf/convert.js';
import type { ConvertedNode } from '../src/ingest/converters/types.js';
import { childList } from '../src/ingest/tree/materialize.js';
import type { TreeNode } from '../src/store/schemas.js';
import { FIXTURES } from './helpers/temp-store.js';
import { cleanTexMarkup, tidyOutlineTitle } from '../src/ingest/converters/pdf/titles.js';
import { buildCard, printedMetaTitle, splitJoinedInitial, runningHeads } from '../src/ingest/converters/pdf/card.js';
import { buildPage } from '../src/ingest/converters/pdf/lines.js';
import type { Line, PageLayout } from '../src/ingest/converters/pdf/layout-types.js';

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
      [['2 Examples (beginning)', 'page_group', 1, 4], ['2 Examples (continued)', 'page_group', 5, 8], ['2.1 Details', 'section', 9, 10]],
    ]);
    // every page still in a leaf
    const pages = new Set(leaves(top).flatMap((s) => Array.from({ length: s.end - s.start + 1 }, (_, i) => s.start + i)));
    expect(pages.size).toBe(12);
  });

  it('a child holding its parent\'s own text is named for where it sits; indexes read the heading alone', () => {
    expect(headingOf('Close Book (introduction)')).toBe('Close Book');
    expect(headingOf('2.2 Examples (beginning)')).toBe('2.2 Examples');
    expect(headingOf('Notes on the introduction')).toBe('Notes on the introduction');
    expect(headingOf('2.2 Examples (continued)')).toBe('2.2 Examples (continued)');
  });

  it('a bookmark for the printed contents is a contents node (never suggested), whatever pages it covers', () => {
    const top = buildSections(
      [{ title: 'Table of Contents', level: 1, page: 1, line: 0 }, { title: '1 Options', level: 1, page: 2, line: 0 }, { title: 'Contents of the box', level: 1, page: 3, line: 0 }],
      { pageCount: 4, maxLeafPages: 4, lineChars: lineChars(4), headings: [] },
    );
    expect(shape(top)).toEqual([['Table of Contents', 'contents', 1, 1], ['1 Options', 'section', 2, 2], ['Contents of the box', 'section', 3, 4]]);
  });
});

describe('parent summaries', () => {
  const all = (n: ConvertedNode): ConvertedNode[] => [n, ...n.children.flatMap(all)];

  it('a section whose own text is in page windows says what the text holds, its sub-sections as sub-headings', async () => {
    const r = await convertPdfBytes(readFileSync(join(FIXTURES, 'pdf', 'field-study.pdf')), { maxLeafPages: 1, fallbackTitle: 'x' });
    const method = all(r.root).find((n) => n.title === '2 Method')!;
    expect(method.children.map((c) => c.kind)).toContain('page_group');
    expect(method.summary).toMatch(/transect method/);
    expect(method.summary).toContain('Sub-headings: 2.1 Sampling.');
    expect(method.summary).not.toMatch(/\(continued\)|2 Method;/);
  });

  it('a listed parent names its children, never its own title again or its "(continued)" parts', () => {
    const node = (title: string, summary = ''): TreeNode => ({ node_id: '0001', title, summary, content_ref: null, children: [] });
    expect(childList('4 Models', [node('4 Models'), node('4 Models (continued)'), node('4.1 Linear models'), node('4.2 Cox models')])).toBe('4.1 Linear models; 4.2 Cox models');
    // only parts of its own text: the first one's summary
    expect(childList('Contents', [node('Contents', 'Printed table of contents (pages 5–9).'), node('Contents (continued) (pages 10–14)')])).toBe('Printed table of contents (pages 5–9).');
  });
});

describe('bookmark titles written by TeX', () => {
  // a PDF string reads "\f", "\t", "\b" as escapes: TeX's "{\fam \ttfam \tentt parfor}" arrives with a form feed and tabs
  const lost = (s: string) => s.replace(/\\f/g, '\f').replace(/\\t/g, '\t').replace(/\\b/g, '\b');

  it('lose their font switches, underscore macro and control characters where bookmarks are read', () => {
    // bookmarks.ts and the planner's preview clean a bookmark title once, then tidy it as any title
    const bookmark = (raw: string) => tidyOutlineTitle(cleanTexMarkup(raw));
    expect(bookmark(lost('2.3 Using {\\fam \\ttfam \\tentt parfor} and {\\fam \\ttfam \\tentt parforprime}'))).toBe('2.3 Using parfor and parforprime');
    expect(cleanTexMarkup(lost('2.3 Using {\\fam \\ttfam \\tentt parfor}'))).toBe('2.3 Using parfor');
    // backslashes kept (a hex string) read the same
    expect(bookmark('2.3 Using {\\fam \\ttfam \\tentt parfor}')).toBe('2.3 Using parfor');
    expect(bookmark(lost('1.8 Constructors called by {\\fam \\ttfam \\tentt pariunhbox voidb@x kern .06em vbox {hrule width.3em}init} functions'))).toBe('1.8 Constructors called by pari_init functions');
    expect(bookmark(lost('1.4 ${\\fam \\bffam \\tenbf F}_{l^2}$ field'))).toBe('1.4 F_{l^2} field');
    // ligature codes of a TeX font without a Unicode map
    expect(cleanTexMarkup('2.5 In\u001duence matrix')).toBe('2.5 Influence matrix');
    // ordinary titles are left alone
    expect(bookmark('Set {x} and {y}')).toBe('Set {x} and {y}');
    // any title or table label (page text too) drops control characters
    expect(tidyOutlineTitle('sup \u0000√')).toBe('sup √');
    // troff font switches a groff document left in its bookmarks, with or without their backslashes
    expect(tidyOutlineTitle('3.1. Using F[C]pdfmarkF[] Macros with the F[C]msF[] Macro Package')).toBe('3.1. Using pdfmark Macros with the ms Macro Package');
    expect(tidyOutlineTitle('The \\fBXN\\fP Macro')).toBe('The XN Macro');
    expect(tidyOutlineTitle('Ideals of F[X] and f[i]')).toBe('Ideals of F[X] and f[i]');
  });
});

describe('source titles from the first page', () => {
  const line = (text: string, size: number, y: number): Line => ({ cells: [text], text, x: 72, x2: 72 + text.length * 5, y, size, font: 'f', gapAbove: 1.2 });
  const page = (n: number, lines: Line[]): PageLayout => ({ page: n, width: 612, height: 792, lines, twoColumn: false });
  const titleOf = (first: PageLayout, metaTitle = '', fallbackTitle = 'x') => buildCard({ layouts: [first], metaTitle, fallbackTitle, topTitles: [] }).title;
  const gap = (l: Line, g: number): Line => ({ ...l, gapAbove: g });

  it('a protocol\'s five-line title is read whole, its broken compound joined, and the protocol number that tells it apart is kept after the clipped title', () => {
    const first = page(1, [
      line('CLINICAL STUDY PROTOCOL', 13, 661),
      line('A Phase 2, Randomized, Double-Blind, Placebo-', 17, 633),
      line('Controlled, Parallel-Group Study to Evaluate the', 17, 614),
      line('Efficacy and Safety of Tarvocitinib (HLX-207) as', 17, 594),
      line('Induction Therapy in Adults with Moderately to', 17, 574),
      line('Severely Active Ulcerative Colitis', 17, 554),
      { ...line('Protocol number:', 10, 491), cells: ['Protocol number:', 'HLX-207-201'], text: 'Protocol number: HLX-207-201' },
      line('Body text of the protocol starts here and goes on for a while.', 10, 400),
    ]);
    const title = titleOf(first);
    expect(title).toContain('Placebo-Controlled, Parallel-Group');
    expect(title).toContain('Tarvocitinib (HLX-207)');
    expect(title).toMatch(/ — HLX-207-201$/);
  });

  it('an author\'s name set largest over their e-mail address is no title, nor a line of music glyphs; a title over an address is', () => {
    const first = page(1, [
      line('Repository of music-notation mistakes', 17, 792),
      line('Essay on the true art of music engraving', 14.5, 710),
      line('Jean-Pierre Coulon', 25, 663),
      line('coulon@obs-nic .fr', 12, 636),
      line('intended for users of music-typesetting software packages and developers of such packages.', 12, 514),
      line('G ˇ ˇ ˇˇ G > ˇ ˇ ˇˇ', 20, 113),
      line('ĽĽ ĽĽ', 20, 129),
    ]);
    const letters = new Set('abcdefghijklmnopqrstuvwxyzˇ');
    expect(buildCard({ layouts: [first], metaTitle: 'sottieng.dvi', fallbackTitle: 'x', topTitles: [], letters }).title).toBe('Repository of music-notation mistakes');
    const rubik = page(1, [line('The rubikcube package', 17, 615), line('RWD Nickalls (dick@nickalls.org)', 12, 587), line('Body text of the package documentation goes here.', 9, 400)]);
    expect(titleOf(rubik)).toBe('The rubikcube package');
  });

  it('a manuscript printed all in one size is titled by its first block: not its running head (furniture) nor the author two lines below (APA sample)', () => {
    const first = page(1, [
      gap(line('SAMPLE DOCUMENT 1', 12, 746), Infinity),
      gap(line('Sample APA-Style Document Using the apa7 Package', 12, 585), 13.6),
      gap(line('Daniel A. Weiss', 12, 537), 4),
      gap(line('A University Somewhere', 12, 513), 2),
      gap(line('Author Note', 12, 167), 28.8),
    ]);
    const card = (furniture?: Set<number>) => buildCard({ layouts: [first], firstPageFurniture: furniture, metaTitle: '', fallbackTitle: 'apa7-longsample', topTitles: [] }).title;
    expect(card(new Set([0]))).toBe('Sample APA-Style Document Using the apa7 Package');
    // a banner repeated atop every page in headline print is the title all the same (elsarticle's manual)
    const banner = page(1, [gap(line('elsarticle.cls: a better way to format', 18, 791), Infinity), ...first.lines.slice(1).map((l) => ({ ...l, size: 10 }))]);
    expect(buildCard({ layouts: [banner], firstPageFurniture: new Set([0]), metaTitle: '', fallbackTitle: 'x', topTitles: [] }).title).toBe('elsarticle.cls: a better way to format');
  });

  it('a journal\'s masthead over the title is no title when the next block names the paper\'s own running head (JSS); a report whose running head is its title keeps it', () => {
    const first = page(1, [
      line('JSS Journal of Statistical Software', 28, 724),
      line('August 2010, Volume 36, Issue 3. http://www.jstatsoft.org/', 10, 704),
      gap(line('Conducting Meta-Analyses in R with the metafor', 17, 608), 4),
      line('Package', 17, 586),
      gap(line('Wolfgang Viechtbauer', 12, 543), 3),
      line('The metafor package provides functions for conducting meta-analyses in R.', 10, 463),
    ]);
    const later = (n: number, head: string) => page(n, [line(`${n} ${head}`, 10, 770), line('Body text of the paper on this page, long enough to be text.', 10, 700)]);
    const layouts = [first, later(2, 'metafor: Conducting Meta-Analyses in R'), later(3, 'Journal of Statistical Software'), later(4, 'metafor: Conducting Meta-Analyses in R'), later(5, 'Journal of Statistical Software')];
    const furniture = layouts.map((_, i) => new Set(i === 0 ? [] : [0]));
    const card = (ls: PageLayout[]) => buildCard({ layouts: ls, firstPageFurniture: new Set(), runningHeads: runningHeads(ls, furniture), metaTitle: 'CMR10', fallbackTitle: 'x', topTitles: [] }).title;
    expect(card(layouts)).toBe('Conducting Meta-Analyses in R with the metafor Package');
    // without the paper's own running head there is nothing to tell the masthead by
    expect(card([first, later(2, 'Journal of Statistical Software'), later(3, 'Journal of Statistical Software')])).toBe('JSS Journal of Statistical Software');
    const report = page(1, [line('Gpredict User Manual', 28, 700), line('Version 2.2', 17, 650), line('This manual describes the satellite tracking program.', 10, 600)]);
    expect(card([report, later(2, 'Gpredict User Manual'), later(3, 'Gpredict User Manual')])).toBe('Gpredict User Manual');
  });

  it('the name of a part of a document (metadata "Contents", headline "Table of Contents") is never the source title: the file name is', () => {
    const first = page(1, [line('Table of Contents', 14, 700), line('Introduction', 10, 650), line('Starting xfig', 10, 630), line('Main Menus', 10, 610)]);
    expect(titleOf(first, 'Contents', 'xfig-reference')).toBe('xfig-reference');
    expect(titleOf(first, 'Xfig User Manual', 'xfig-reference')).toBe('Xfig User Manual');
    for (const t of ['Index', 'PREFACE', 'Appendix B', 'Chapter 3', 'Acknowledgments', '1 Front Matter']) expect(titleOf(first, t, 'file')).toBe('file');
    // a title that only begins with a part's name is a title
    expect(titleOf(first, 'Introduction to Partial Differential Equations', 'f')).toBe('Introduction to Partial Differential Equations');
  });

  it('a sentence naming the document on a first page all in one print is no title: the metadata title is (UFO:AI\'s licence page)', () => {
    const licence = page(1, [line('Permission is granted to copy, distribute and/or modify this document under the terms', 11, 737), line('While UFO:AI and its manual are pure free software projects, any pictures, symbols, graphics', 11, 682), line('etc appearing are subject to the copyright of their respective owners.', 11, 669)]);
    expect(titleOf(licence, 'UFO:AI Manual', 'ufo-manual')).toBe('UFO:AI Manual');
  });

  it('a numbered part\'s heading run into its text is no title; the opening line above it is (an OCR\'d paper\'s "IMPROVED AUDITORY MASKING MODELS")', () => {
    const scanned = page(1, [line('IMPROVED AUDITORY MASKING MODELS', 12, 740), line('M. R. Flax, E. Ambikairajah, W. H. Holmes', 12, 725), line('Abstract', 12, 700), line('Hybrid masking models are defined and are informally judged to be improved.', 12, 690), line('1 INTRODUCTION Definition of perceptually relevant information in audio signals', 13.4, 600), line('is currently frequency threshold based. Masking thresholds are found', 13.4, 588)]);
    expect(titleOf(scanned, '', 'flax-2000')).toBe('IMPROVED AUDITORY MASKING MODELS');
    // an opening line that is itself a sentence or a part's name leaves the file name
    const plain = page(1, [line('This paper describes masking models for audio coding.', 12, 740), line('1 INTRODUCTION Definition of perceptually relevant information', 13.4, 600), line('is currently frequency threshold based.', 13.4, 588)]);
    expect(titleOf(plain, '', 'flax-2000')).toBe('flax-2000');
  });

  it('a headline that is a name alone is read with the title block around it (horoscop\'s cover); a logo glyph or the author below is not part of it', () => {
    const first = page(1, [
      gap(line('TYPESETTING', 20, 700), Infinity),
      gap(line('ASTROLOGY', 20, 679), 2.1),
      gap(line('with', 17, 660), 2.2),
      gap(line('horoscop', 22.5, 640), 1.8),
      gap(line('s', 23.5, 615), 2.6),
      gap(line('MATTHEW SKALA', 11.5, 350), 22.5),
      line('Body text of the manual starts here and goes on for a while.', 10, 300),
    ]);
    expect(titleOf(first)).toBe('TYPESETTING ASTROLOGY with horoscop');
    // a name alone with nothing of its size around it stays the name
    const alone = page(1, [line('horoscop', 22.5, 640), gap(line('Body text of the manual starts here and goes on for a while.', 10, 300), 20)]);
    expect(titleOf(alone)).toBe('horoscop');
    // a headline naming only the kind of document takes the name printed above it, however far (InVesalius's cover)
    const guide = page(1, [gap(line('InVesalius', 30, 691), Infinity), gap(line('User Guide', 33.5, 487), 6.1), gap(line('About InVesalius', 12, 420), 2), line('Body text of the manual starts here and goes on for a while.', 10, 300)]);
    expect(titleOf(guide)).toBe('InVesalius User Guide');
    const named = page(1, [gap(line('InVesalius', 30, 691), Infinity), gap(line('Surgeons and Scans', 33.5, 487), 6.1), line('Body text of the manual starts here and goes on for a while.', 10, 300)]);
    expect(titleOf(named)).toBe('Surgeons and Scans');
    // a metadata title written as a file's stem, printed on the cover, is the title with its words apart (a Keynote deck)
    const cover = page(1, [line('CYCLING TRAINING', 68, 495), line('SOFTWARE USER SURVEY', 68, 402), line('Used software and hardware, reasons for software choice.', 32, 333)]);
    expect(titleOf(cover, 'Cycling_Training_Software_User_Survey', 'f')).toBe('Cycling Training Software User Survey');
    // a section label set apart under it (a refentry's "Name", indented) is not part of its block
    const refentry = page(1, [{ ...line('fonts-conf', 13.5, 756), x: 96, x2: 160 }, gap({ ...line('Name', 12, 727), x: 143, x2: 176 }, 2.1), line('fonts.conf — Font configuration files', 10, 710)]);
    expect(titleOf(refentry)).toBe('fonts-conf');
  });

  it('end where a contents listing run together with them begins', () => {
    const first = page(1, [
      line('DocBook XSL Stylesheets: Reference DocumentationTable of ContentsDocBook XSL Stylesheets User Reference: Parame-', 10, 700),
      line('tersPart I. HTML Parameter ReferenceAdmonitionsadmon.graphics.extension', 10, 688),
    ]);
    expect(titleOf(first)).toBe('DocBook XSL Stylesheets: Reference Documentation');
  });

  it('never take a path or a tool file name from the metadata title; keep a title with slashes between words', () => {
    const plain = page(1, [line('Example formatting, glosses, and reference', 10, 700), line('Some body text follows here.', 8, 680)]);
    const title = (metaTitle: string) => titleOf(plain, metaTitle, 'expex');
    for (const bad of ['C:/USERS/JOHN/LING/TEX/EXPEX/MAN/0.dvi', '/home/ann/thesis/main.tex', 'D:\\Reports\\Q3 draft', 'chapter3.ps', 'build/out/manual']) expect(title(bad)).not.toBe(bad);
    expect(title('C:/USERS/JOHN/LING/TEX/EXPEX/MAN/0.dvi')).toBe('Example formatting, glosses, and reference');
    expect(title('Input/Output and Files in C')).toBe('Input/Output and Files in C');
  });

  it('never take the stem of the file a document was saved from (RasMol\'s "manualA4") unless the first page prints it', () => {
    const cover = page(1, [line('Manual', 10, 720), line('RasMol 2.7.5', 10, 700), line('Molecular Graphics Visualisation Tool', 10, 680)]);
    const title = (metaTitle: string) => titleOf(cover, metaTitle, 'rasmol');
    for (const stem of ['manualA4', 'report_final', 'thesis-v2']) expect(title(stem)).not.toBe(stem);
    expect(title('manualA4')).toMatch(/Manual|RasMol/);
    // a joined name the cover prints is the document's name
    const printed = page(1, [line('LaTeX2e', 10, 720), line('for class and package writers', 10, 700)]);
    expect(titleOf(printed, 'LaTeX2e', 'clsguide')).toBe('LaTeX2e');
  });

  it('take the metadata title when the first page prints it, over a larger banner or a margin line number (dccpaper, aomsample)', () => {
    const first = page(1, [
      line('IJDC | General Article', 20, 740),
      line('The dccpaper bundle: Classes for', 16.5, 700),
      line('submissions to IJDC and IDCC', 16.5, 680),
      line('Body text of the paper starts here and goes on.', 10, 640),
    ]);
    const title = (metaTitle: string) => titleOf(first, metaTitle);
    expect(title('The dccpaper bundle: Classes for submissions to IJDC and IDCC')).toBe('The dccpaper bundle: Classes for submissions to IJDC and IDCC');
    // a metadata title the page does not print (a template's, a file name) does not replace the page's
    expect(title('Paper template for the journal')).toBe('IJDC | General Article');
    expect(printedMetaTitle('General Article', first)).toBe(false);
  });

  it('drop footnote references from titles, keeping the words around them apart', () => {
    expect(tidyOutlineTitle('A Lego System for Conditional Inference[∗]')).toBe('A Lego System for Conditional Inference');
    expect(tidyOutlineTitle('Preliminary documentation for gb4e.sty[∗]and cgloss4e.sty')).toBe('Preliminary documentation for gb4e.sty and cgloss4e.sty');
    expect(tidyOutlineTitle('14. General[8]')).toBe('14. General');
    expect(tidyOutlineTitle('Arrays and a[i] indexing')).toBe('Arrays and a[i] indexing');
  });

  it('keep the word space between a large initial and its word ("R FAQ"), not small capitals ("RESORTS")', () => {
    expect(splitJoinedInitial('RFAQ', () => 'The R FAQ answers questions. See the R FAQ.')).toBe('R FAQ');
    expect(splitJoinedInitial('MGM RESORTS', () => 'MGM Resorts operates resorts.')).toBe('MGM RESORTS');
    const item = (str: string, x: number, size: number, w: number) => ({ str, transform: [size, 0, 0, size, x, 700], width: w, fontName: 'f1' });
    // a lone capital before an acronym at its own size: two words
    expect(buildPage(1, 612, 792, [item('the', 76, 10, 14), item('R', 93, 10, 7), item('API.', 102.5, 10, 20)]).lines[0]!.text).toBe('the R API.');
  });

  it('read a power of ten\'s raised exponent as "10^6", and a raised mark after any other number apart from it', () => {
    const at = (str: string, x: number, y: number, size: number, w: number) => ({ str, transform: [size, 0, 0, size, x, y], width: w, fontName: 'f1' });
    expect(buildPage(1, 612, 792, [at('Meg | Mega | 10', 100, 700, 10, 70), at('6', 170.5, 704, 7, 4)]).lines[0]!.text).toBe('Meg | Mega | 10^6');
    expect(buildPage(1, 612, 792, [at('a tolerance of 10', 100, 700, 10, 80), at('−5', 180.5, 704, 7, 8), at('is used', 192, 700, 10, 30)]).lines[0]!.text).toBe('a tolerance of 10^-5 is used');
    // a year with a note mark is no power
    expect(buildPage(1, 612, 792, [at('in 2010', 100, 700, 10, 35), at('3', 135.5, 704, 7, 4)]).lines[0]!.text).toBe('in 2010 3');
  });

  it('read a number raised over a symbol as its power ("σ^2", "0.269m^0.928", "2^28"), not after a word, a longer number or a bracket', () => {
    const at = (str: string, x: number, y: number, size: number, w: number) => ({ str, transform: [size, 0, 0, size, x, y], width: w, fontName: 'f1' });
    const line = (base: string, w: number, exp: string) => buildPage(1, 612, 792, [at(base, 100, 700, 10, w), at(exp, 100 + w + 0.5, 704, 7, 4 * exp.length)]).lines[0]!.text;
    expect(line('the ML estimate of σ', 90, '2')).toBe('the ML estimate of σ^2');
    expect(line('Cm = 0.269m', 50, '0.928')).toBe('Cm = 0.269m^0.928');
    expect(line('between 0 and 2', 70, '28')).toBe('between 0 and 2^28');
    expect(line('CV = 1/a', 40, '1/2')).toBe('CV = 1/a^1/2');
    // after a word it is a footnote reference; after a longer number or a bracket it stays apart
    expect(line('environments', 60, '4')).toBe('environments[4]');
    expect(line('revenue of 45,123', 80, '1')).toBe('revenue of 45,123 1');
    expect(line('Adjusted EBITDA (non-GAAP)', 120, '2')).toBe('Adjusted EBITDA (non-GAAP)[2]');
    // a short word is no symbol ("deemed by" + a note mark), and a digit before a raised fraction is a mixed number
    expect(line('was deemed by', 60, '5')).toBe('was deemed by 5');
    expect(buildPage(1, 612, 792, [at('par value 1', 100, 700, 10, 50), at('2/3', 152, 704, 7, 12), at('¢ per share', 165, 700, 10, 50)]).lines[0]!.text).toBe('par value 1 2/3¢ per share');
    expect(buildPage(1, 612, 792, [at('par value 1', 100, 700, 10, 50), at('2', 152, 704, 7, 4), at('/3', 156, 700, 10, 8), at('¢ per share', 165, 700, 10, 50)]).lines[0]!.text).not.toContain('^');
  });

  it('part the LaTeX logo from the word the reader glued to it, not from its own endings', () => {
    const at = (str: string, x: number, y: number, size: number, w: number) => ({ str, transform: [size, 0, 0, size, x, y], width: w, fontName: 'f1' });
    const logo = (tail: string) => buildPage(1, 612, 792, [at('Chess in L', 100, 700, 17, 70), at('A', 170.5, 703, 12, 8), at(tail, 177, 700, 17, 90)]).lines[0]!.text;
    expect(logo('TEXwith the skak Package')).toBe('Chess in LATEX with the skak Package');
    expect(logo('TEXing a document')).toBe('Chess in LATEXing a document');
    // no raised A before it: a name written so (TeXworks) is left alone
    expect(buildPage(1, 612, 792, [at('Open TEXworks now', 100, 700, 12, 90)]).lines[0]!.text).toBe('Open TEXworks now');
  });
});
