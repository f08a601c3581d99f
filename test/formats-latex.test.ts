/** LaTeX sources (issue 14): sectioning commands as the outline, \title as the title, text as a reader sees it, line ranges of the file. */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { latexConverter, latexInline, stripComment } from '../src/ingest/converters/latex.js';
import { detectType } from '../src/ingest/detect.js';
import { ConvertError, type ConvertedNode } from '../src/ingest/converters/types.js';
import type { FileCard } from '../src/store/schemas.js';
import { FIXTURES } from './helpers/temp-store.js';

const source = readFileSync(join(FIXTURES, 'formats', 'latex', 'survey.tex'));
const card = (filename: string): FileCard => ({ id: 'src_0000abcd', filename, original_path: `inbox/${filename}`, type: 'latex', size_kb: 1, sha256: '0'.repeat(64) });
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title} ${JSON.stringify(n.line_range)}`, ...n.children.flatMap((c) => outline(c, d + 1))];
const convert = (name: string, bytes: Buffer) => latexConverter.convert({ absPath: name, card: card(name), bytes, plan: {} as never, options: { maxLeafPages: 5 } });

describe('LaTeX sources', () => {
  it('is detected by name, or by \\documentclass in a file whose name says nothing', () => {
    expect(detectType('survey.tex', source).type).toBe('latex');
    expect(detectType('survey', source).type).toBe('latex');
    expect(detectType('notes', Buffer.from('Meeting notes\nNothing to typeset here.\n')).type).toBe('text');
  });

  it('outlines the sectioning commands with the file\'s line ranges; \\title (not a comment, not the PDF title) is the title', async () => {
    const r = await convert('survey.tex', source);
    expect(r.title).toBe('Field Survey Handbook');
    expect(r.toc_source).toBe('headings');
    expect(outline(r.root)).toEqual([
      'Field Survey Handbook [1,32]',
      '  Planning transects [14,18]',
      '    Weather limits [19,21]',
      '  Recording plots [22,30]',
      '  Checking the data [31,32]',
    ]);
    expect(r.card?.summary).toBe('How the survey team plans transects, records plots and checks its data.');
  });

  it('renders a section as a reader sees it: comments and labels gone, references as labels, items as bullets, verbatim as written', async () => {
    const r = await convert('survey.tex', source);
    const [plan, plots, check] = r.root.children;
    expect(plan!.content).toContain('Each transect runs 200 m from a marked post; see Section [sec:data].\nUse at most 12 transects a day.');
    expect(plan!.content).not.toContain('2024 limit');
    expect(plan!.children[0]!.content).toContain('wind exceeds 30 km/h — wait a day instead.');
    expect(plots!.content).toContain('• Plot size: 10 by 10 m, corners flagged.\n• Species are listed with the flora codes.');
    expect(plots!.content).toContain('plot 17 % not a comment here');
    expect(check!.content).toContain('Run the checks with survey check --all before upload.');
  });

  it('takes the PDF title, then a chapter file\'s one chapter, then the file name', async () => {
    const pdfTitle = Buffer.from('\\documentclass{book}\n\\hypersetup{pdftitle={Gretl Guide}, colorlinks=true}\n\\begin{document}\n\\chapter{One}\ntext\n\\end{document}\n');
    expect((await convert('guide.tex', pdfTitle)).title).toBe('Gretl Guide');
    const chapter = Buffer.from('\\chapter{MIDAS models}\nintro\n\\section{Estimation}\ntext\n\\section{Plots}\nmore\n');
    const r = await convert('midas.tex', chapter);
    expect(r.title).toBe('MIDAS models');
    expect(outline(r.root)).toEqual(['MIDAS models [1,6]', '  Estimation [3,4]', '  Plots [5,6]']);
    expect((await convert('notes.tex', Buffer.from('Some text without sections.\n'))).title).toBe('notes');
  });

  it('keeps the text a run-in heading leads (\\paragraph{Note.} The rest…) in its node', async () => {
    const tex = Buffer.from('\\section{Methods}\nIntro.\n\\paragraph{Sampling.} Plots were drawn at random from the grid.\nMore on sampling.\n');
    const r = await convert('methods.tex', tex);
    const all = (n: ConvertedNode): ConvertedNode[] => [n, ...n.children.flatMap(all)];
    const para = all(r.root).find((n) => n.title === 'Sampling.')!;
    expect(para).toBeDefined();
    expect(para.content).toContain('Sampling. Plots were drawn at random from the grid.\nMore on sampling.');
  });

  it('reduces inline markup to words and keeps escaped characters', () => {
    expect(latexInline('\\textbf{Bold} and \\emph{it}: 50\\% of \\$3, \\verb+a%b+ ``quoted\'\'')).toBe('Bold and it: 50% of $3, a%b "quoted"');
    expect(latexInline('About \\pkg*{thalie}, \\LaTeX{} and \\cite[p.~3]{knuth84}')).toBe('About thalie, LaTeX and [knuth84]');
    expect(stripComment('50\\% done % a comment')).toBe('50\\% done ');
  });

  it('prints math commands as their symbols, a document\'s own macros as what they expand to, and a note running over lines apart from its word', async () => {
    expect(latexInline('values $>1 \\cdot 10^{-16}$, else $\\beta$\'s are nan; $a \\leq b \\times c$')).toBe('values $>1 · 10^-16$, else $β$\'s are nan; $a ≤ b × c$');
    const tex = Buffer.from([
      '\\documentclass{article}', '\\newcommand{\\GA}{\\texttt{GenABEL}}', '\\newcommand*\\PA{\\texttt{ProbABEL}}', '\\newcommand{\\vect}[1]{\\mathbf{#1}}',
      '\\title{Manual for \\PA}', '\\begin{document}', '\\section{Input}', 'See the R libraries \\GA{} and \\PA{} on how to convert files.',
      'The number of columns is seven\\footnote{This means that', '  fewer columns are read.} and no more.', '\\end{document}',
    ].join('\n'));
    const r = await convert('manual.tex', tex);
    expect(r.title).toBe('Manual for ProbABEL');
    const text = JSON.stringify(r.root);
    expect(text).toContain('See the R libraries GenABEL and ProbABEL on how to convert files.');
    expect(text).toContain('seven This means that');
  });

  it('reads a table\'s rows with their cells apart, a spanning cell as its text, and no option of a mark as a word', async () => {
    const tex = Buffer.from([
      '\\documentclass{article}', '\\title{Quad-Double Arithmetic\\footnotemark[1]}', '\\begin{document}', '\\section{Performance}',
      '\\begin{tabular}{|l|c|c|} \\hline', '  Operation & \\begin{tabular}{c}Pentium II \\\\ 400MHz\\end{tabular} & UltraSparc \\\\', '  \\multicolumn{3}{|l|}{{\\em Quad-double}} \\\\',
      '  sqrt & 23.646 & 15.003 \\\\ \\hline', '\\end{tabular}', 'Salt \\& pepper & more.', '\\end{document}',
    ].join('\n'));
    const r = await convert('qd.tex', tex);
    expect(r.title).toBe('Quad-Double Arithmetic');
    const text = [r.root, ...r.root.children].map((n) => n.content ?? '').join('\n');
    expect(text).toContain('Operation | Pentium II 400MHz | UltraSparc');
    expect(text).toContain('\nQuad-double\n');
    expect(text).toContain('sqrt | 23.646 | 15.003');
    // outside a table an ampersand is a word's
    expect(text).toContain('Salt & pepper & more.');
  });

  it('an empty file is a clear error', async () => {
    const err = await convert('empty.tex', Buffer.from('  \n')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvertError);
  });
});

describe('a .tex file indexed as plain text before the LaTeX converter', () => {
  it('is read again once (its name now promises LaTeX); a current entry stays unchanged', async () => {
    const { baseEntry, isUnchanged } = await import('../src/ingest/stages/detect.js');
    const sha = 'a'.repeat(64);
    const asText = baseEntry({ ...card('survey.tex'), type: 'text', sha256: sha }, '2026-01-01T00:00:00.000Z');
    expect(isUnchanged(asText, sha, false)).toBe(false);
    const asLatex = baseEntry({ ...card('survey.tex'), sha256: sha }, '2026-01-01T00:00:00.000Z');
    expect(isUnchanged(asLatex, sha, false)).toBe(true);
    // a plain .txt read as text is current
    expect(isUnchanged(baseEntry({ ...card('notes.txt'), type: 'text', sha256: sha }, '2026-01-01T00:00:00.000Z'), sha, false)).toBe(true);
  });
});

describe('a LaTeX source in a store', () => {
  it('is found by its words, and a passage cites its own lines of the file', async () => {
    const { searchStoreFixture } = await import('./helpers/search-store.js');
    const { runSearch } = await import('../src/retrieve/search-answer.js');
    const { rmSync } = await import('node:fs');
    const long = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the planning notes describes marked posts and daily routes in general terms.`).join('\n');
    const tex = source.toString('utf8').replace('Use at most 12 transects a day.', `${long}\nUse at most 12 transects a day.`);
    const { root } = await searchStoreFixture('none', { docs: { 'survey.tex': tex, 'notes.md': '# Notes\n\nNothing about surveys here.\n' } });
    try {
      const a = await runSearch(root, 'how many transects a day at most', { limit: 3, offset: 0, nodesPerSource: 3, filters: {}, mode: 'keyword', explain: false, maxChars: 4000 });
      const hit = a.results[0]!;
      expect(hit.type).toBe('latex');
      const node = hit.nodes[0]!;
      expect(node.title).toBe('Planning transects');
      const lines = (node.passage as { lines?: [number, number] }).lines!;
      const file = tex.split('\n');
      expect(file.slice(lines[0] - 1, lines[1]).join('\n')).toContain('Use at most 12 transects a day.');
      expect(lines[1] - lines[0]).toBeLessThan(20);
      expect(node.passage!.cite).toContain(`lines ${lines[0]}-${lines[1]}`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
