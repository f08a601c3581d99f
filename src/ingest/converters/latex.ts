/**
 * LaTeX sources (.tex, .ltx, .latex): the outline from the sectioning commands (\part … \paragraph),
 * the title from \title (else the PDF title set in \hypersetup, else the file name), and each
 * section's text as a reader sees it: comments, preamble and layout commands dropped, formatting
 * commands reduced to their words (\emph{x} → x), \item as a bullet, cross-references as their
 * labels, verbatim blocks and math kept as written. Rendering goes line for line, so a node's line
 * range is the source file's and an agent can quote it with `read_source --lines`. The heading tree
 * itself is built by the Markdown converter's (convertMarkdownText) from a skeleton holding only
 * the headings, so long sections are read in paragraph groups the same way.
 */
import { basename, extname } from 'node:path';
import type { PlanDirectives } from '../../model/plan.js';
import { cleanText, leadSummary } from '../tree/summarize.js';
import { convertMarkdownText } from './markdown.js';
import { followPlan, type Capabilities } from './plan-shape.js';
import { PRIORITY_LOOSE, type Converter, type ConverterRegistration, type ConvertResult } from './types.js';
import { decodeNonEmptyText, splitLines } from './text-util.js';

/** Sectioning commands by depth (relative: the shallowest one a document uses becomes level 1). */
const SECTION_DEPTH: Readonly<Record<string, number>> = { part: 1, chapter: 2, section: 3, subsection: 4, subsubsection: 5, paragraph: 6, subparagraph: 7 };
/** `\section*[short]{Title}` at a line's start (after blanks): the command, and where its title's brace opens. */
const SECTION_RE = /^\s*\\(part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?\s*(?:\[[^\]]*\])?\s*\{/;
/** Lines a sectioning command's title may run over (a title with a line break in its braces). */
const TITLE_MAX_LINES = 4;
/** Environments whose lines are shown as written (code, verbatim text). */
const VERBATIM_ENVS = /^(?:verbatim\*?|Verbatim|lstlisting|minted|code|alltt|comment|filecontents\*?)$/;
/** Environments whose body is not text of the document (kept out of the rendered text). */
const HIDDEN_ENVS = /^(?:comment|filecontents\*?)$/;
/**
 * Commands whose arguments are layout, definitions or file names, not words: dropped with their
 * arguments (\usepackage{x}, \vspace{2em}, \includegraphics[..]{f.pdf}, \newcommand{\x}[1]{…}).
 */
const DROPPED_WITH_ARGS = new Set([
  'label', 'index', 'usepackage', 'documentclass', 'vspace', 'hspace', 'setlength', 'addtolength', 'setcounter', 'addtocounter',
  'includegraphics', 'input', 'include', 'bibliographystyle', 'bibliography', 'pagestyle', 'thispagestyle', 'pagenumbering',
  'newcommand', 'renewcommand', 'providecommand', 'newenvironment', 'renewenvironment', 'def', 'let', 'hypersetup', 'pdfbookmark',
  'addcontentsline', 'markboth', 'markright', 'color', 'definecolor', 'newtheorem', 'graphicspath', 'phantomsection', 'linespread',
]);
/** Commands printed as a reference: their argument in brackets (\ref{sec:x} → [sec:x]). */
const REFERENCE_COMMANDS = new Set(['ref', 'eqref', 'pageref', 'autoref', 'cref', 'Cref', 'cite', 'citep', 'citet', 'nameref']);
/** Escaped characters and the character they print. */
const ESCAPES: Readonly<Record<string, string>> = { '&': '&', '%': '%', $: '$', '#': '#', _: '_', '{': '{', '}': '}' };
/** Commands without arguments that print a word or symbol. */
const SYMBOLS: Readonly<Record<string, string>> = { LaTeX: 'LaTeX', TeX: 'TeX', LaTeXe: 'LaTeX2e', ldots: '…', dots: '…', textbackslash: '\\', S: '§', P: '¶', copyright: '©', textasciitilde: '~', textbar: '|', textless: '<', textgreater: '>', quad: ' ', qquad: ' ' };
/**
 * Math commands as the symbol they print: `$\beta$'s` had read "$$'s" and `$1 \times 10^{-6}$` "$1 10^-6$"
 * (ProbABEL's manual), the symbol a question names gone.
 */
const MATH_SYMBOLS: Readonly<Record<string, string>> = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', vartheta: 'ϑ',
  iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', upsilon: 'υ', phi: 'φ',
  varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω', Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ',
  Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω', cdot: '·', times: '×', pm: '±', mp: '∓', div: '÷', le: '≤', leq: '≤', ge: '≥', geq: '≥',
  ne: '≠', neq: '≠', approx: '≈', sim: '∼', simeq: '≃', equiv: '≡', propto: '∝', infty: '∞', sum: '∑', prod: '∏', int: '∫',
  partial: '∂', nabla: '∇', in: '∈', notin: '∉', subset: '⊂', subseteq: '⊆', cup: '∪', cap: '∩', forall: '∀', exists: '∃',
  to: '→', rightarrow: '→', leftarrow: '←', Rightarrow: '⇒', Leftarrow: '⇐', leftrightarrow: '↔', ell: 'ℓ', degree: '°', circ: '∘',
};
/** Expansions of a document's own macros, by name (argument-less \newcommand definitions). */
export type Macros = ReadonlyMap<string, string>;
const NO_MACROS: Macros = new Map();
/** Nested macro expansions followed at most (a macro defined by itself would loop). */
const MACRO_DEPTH = 4;
/** `\newcommand{\GA}{\texttt{GenABEL}}`, `\newcommand*\PA{…}`, `\def\DA{…}`: a macro without arguments, its body's brace. */
const MACRO_DEF = /\\(?:(?:re|provide)?newcommand\*?\s*\{?\\([A-Za-z]+)\}?|def\s*\\([A-Za-z]+))\s*\{/g;

/**
 * A document's argument-less macros (\newcommand{\GA}{\texttt{GenABEL}}): used as "\GA{}", they had
 * printed nothing ("See the R libraries and on how…" for "…GenABEL and DatABEL…"). Definitions taking
 * arguments ("[1]") are left out, as are bodies whose braces do not close on their line.
 */
export function documentMacros(lines: readonly string[]): Macros {
  const out = new Map<string, string>();
  for (const line of lines) {
    for (const m of line.matchAll(MACRO_DEF)) {
      const open = m.index + m[0].length - 1;
      const close = closingBrace(line, open);
      if (close > open) out.set((m[1] ?? m[2])!, line.slice(open + 1, close));
    }
  }
  return out;
}

/** Characters of the first paragraphs read for the card's summary. */
const SUMMARY_SOURCE_CHARS = 1200;

/** Where the brace opened at `open` closes in `s` (-1 when it does not on this text). */
function closingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/** A line without its comment (an unescaped % to the line's end). */
export function stripComment(line: string): string {
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '%') return line.slice(0, i);
  }
  return line;
}

/** The arguments after a command at `at` ([opt] and {arg} groups, blanks between): their text, and where they end. */
function argsAfter(s: string, at: number): { args: string[]; end: number } {
  const args: string[] = [];
  let i = at;
  for (;;) {
    let j = i;
    while (s[j] === ' ') j++;
    if (s[j] === '[') {
      const close = s.indexOf(']', j);
      if (close < 0) break;
      i = close + 1;
      continue;
    }
    if (s[j] !== '{') break;
    const close = closingBrace(s, j);
    if (close < 0) break;
    args.push(s.slice(j + 1, close));
    i = close + 1;
  }
  return { args, end: i };
}

/** Environments laid out in cells (`&` between columns): their rows read as a table's, cells apart. */
const TABLE_ENVS = /^(?:tabular\*?|tabularx|tabulary|longtable\*?|supertabular\*?|xtabular\*?|tabu)$/;
/** Between a table row's cells, as the other converters write table rows. */
export const LATEX_CELL_SEPARATOR = ' | ';
/** Commands whose only argument is an option in brackets, which prints nothing (a footnote's number, a break's urgency). */
const OPTION_ONLY_COMMANDS = new Set(['footnotemark', 'linebreak', 'nolinebreak', 'pagebreak', 'nopagebreak']);
/** Table commands whose last argument is the cell's text (\multicolumn{3}{|l|}{Quad-double}, \multirow{2}{*}{Name}). */
const CELL_SPAN_COMMANDS = new Set(['multicolumn', 'multirow']);

/**
 * A piece of LaTeX as plain words: commands rendered or dropped, braces and ties gone. In a table's
 * rows (`cells`), an unescaped `&` parts the cells: "sqrt & 23.646 & 15.003" had read as written.
 */
export function latexInline(text: string, macros: Macros = NO_MACROS, depth = 0, cells = false): string {
  const s = text.replace(/\$\\backslash\$/g, '\\textbackslash{}');
  let out = '';
  let plain = '';
  // typed text gets TeX's ligatures (`` '' --- --); a \verb argument is kept as typed
  const flush = () => {
    out += plain.replace(/``|''/g, '"').replace(/---/g, '—').replace(/--/g, '–');
    plain = '';
  };
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c !== '\\') {
      plain += c === '~' ? ' ' : c === '{' || c === '}' ? '' : cells && c === '&' ? LATEX_CELL_SEPARATOR : c;
      i++;
      continue;
    }
    flush();
    const next = s[i + 1] ?? '';
    if (next in ESCAPES) {
      out += ESCAPES[next];
      i += 2;
      continue;
    }
    if (next === '\\') {
      // a forced line break (with its optional spacing)
      i += 2;
      if (s[i] === '[') i = Math.max(i, s.indexOf(']', i) + 1);
      out += ' ';
      continue;
    }
    const name = /^[A-Za-z@]+/.exec(s.slice(i + 1))?.[0];
    if (!name) {
      // an accent or spacing command (\' \" \, \ ): the letter after it stays
      i += 2;
      if (next === ' ' || next === ',') out += ' ';
      continue;
    }
    i += 1 + name.length;
    // a starred form (\section*, \pkg*) reads as the command
    if (s[i] === '*' && name !== 'verb') i++;
    if (name === 'verb') {
      const delim = s[i];
      const close = delim ? s.indexOf(delim, i + 1) : -1;
      if (close > i) {
        out += s.slice(i + 1, close);
        i = close + 1;
      }
      continue;
    }
    const { args, end } = argsAfter(s, i);
    if (DROPPED_WITH_ARGS.has(name)) {
      i = end;
      continue;
    }
    if (CELL_SPAN_COMMANDS.has(name) && args.length) {
      out += latexInline(args[args.length - 1]!, macros, depth);
      i = end;
      continue;
    }
    if (REFERENCE_COMMANDS.has(name)) {
      out += args.length ? `[${args[args.length - 1]}]` : '';
      i = end;
      continue;
    }
    if (name === 'footnote') {
      // a note running on over the next lines: its words at least stand apart from the one it is set on ("seven" / "This means…")
      out += args.length ? ` (${latexInline(args[args.length - 1]!, macros, depth)})` : ' ';
      i = end;
      continue;
    }
    if (macros.has(name) && depth < MACRO_DEPTH) {
      out += latexInline(macros.get(name)!, macros, depth + 1);
      // "\GA{}": the empty group only ends the name
      if (s.startsWith('{}', i)) i += 2;
      continue;
    }
    if (name === 'item') {
      // a description list's term (\item[Plot size]) opens its entry
      const close = s[i] === '[' ? s.indexOf(']', i) : -1;
      const term = close > i ? latexInline(s.slice(i + 1, close), macros, depth).trim() : '';
      if (close > i) i = close + 1;
      out += term ? `• ${term}${/[.:;,!?]$/.test(term) ? '' : ':'}` : '•';
      continue;
    }
    if (name in SYMBOLS || name in MATH_SYMBOLS) {
      out += SYMBOLS[name] ?? MATH_SYMBOLS[name];
      if (s[i] === '{' && s[i + 1] === '}') i += 2;
      continue;
    }
    // any other command: its arguments' words (\emph{x}, \textbf{x}, \url{x}, \cmd{pkg}); none: nothing. A mark's
    // option is no word either ("\footnotemark[1]" had titled a paper "…Arithmetic[1]"); after another command
    // brackets may be the text's own (PARI's "$\Z[x]$")
    if (args.length) {
      out += args.map((a) => latexInline(a, macros, depth)).join(' ');
      i = end;
    } else if (s[i] === '[' && OPTION_ONLY_COMMANDS.has(name)) i = end;
  }
  flush();
  return out.replace(/[ \t]{2,}/g, ' ');
}

interface Heading {
  line: number;
  depth: number;
  title: string;
  /** text after the title on its own line (a run-in heading's paragraph: "\\paragraph{Note.} The rest…") */
  rest: string;
}

interface Parsed {
  /** the text as a reader sees it, line for line with the source */
  rendered: string[];
  headings: Heading[];
  title: string | null;
  abstract: string;
}

/** A sectioning command opening line i: its title (read over up to TITLE_MAX_LINES lines) and depth. */
function headingAt(lines: readonly string[], i: number, macros: Macros): Heading | null {
  const m = SECTION_RE.exec(lines[i]!);
  if (!m) return null;
  const text = lines.slice(i, i + TITLE_MAX_LINES).join(' ');
  const open = text.indexOf('{', m[0].length - 1);
  const close = closingBrace(text, open);
  if (close < 0) return null;
  const title = latexInline(text.slice(open + 1, close), macros).replace(/\s+/g, ' ').trim();
  // (a title closing on its own line may have text after it; one running over lines is kept whole)
  const rest = close < lines[i]!.length ? latexInline(lines[i]!.slice(close + 1), macros).trim() : '';
  return title ? { line: i + 1, depth: SECTION_DEPTH[m[1]!]!, title, rest } : null;
}

/** The document title: \title{…} before the first section, else the PDF title given to hyperref. */
function titleOf(preamble: string, macros: Macros): string | null {
  const m = /\\title\s*(?:\[[^\]]*\])?\s*\{/.exec(preamble);
  if (m) {
    const close = closingBrace(preamble, m.index + m[0].length - 1);
    if (close > 0) {
      const t = latexInline(preamble.slice(m.index + m[0].length, close).replace(/\\(?:thanks|footnote)\s*\{[^}]*\}/g, ''), macros).replace(/\s+/g, ' ').trim();
      if (t) return t;
    }
  }
  const pdf = /pdftitle\s*=\s*\{([^{}]*)\}/.exec(preamble) ?? /pdftitle\s*=\s*([^,}\n]+)/.exec(preamble);
  const t = pdf ? latexInline(pdf[1]!, macros).trim() : '';
  return t || null;
}

/**
 * A chapter file without a document around it (a book's chapters kept one a file, \input by a main
 * file): its one top-level heading is its title ("MIDAS models" for midas.tex).
 */
function chapterTitle(headings: Heading[], fragment: boolean): string | null {
  if (!fragment || headings.length === 0) return null;
  const top = Math.min(...headings.map((h) => h.depth));
  const tops = headings.filter((h) => h.depth === top);
  return tops.length === 1 && tops[0] === headings[0] ? tops[0]!.title : null;
}

/** Renders the source line by line; finds the sections, the title and the abstract. */
export function parseLatex(source: string): Parsed {
  const original = splitLines(source);
  const raw = original.map(stripComment);
  const begin = raw.findIndex((l) => /\\begin\s*\{document\}/.test(l));
  const bodyFrom = begin < 0 ? 0 : begin + 1;
  const rendered: string[] = raw.map(() => '');
  const macros = documentMacros(raw);
  const headings: Heading[] = [];
  const abstract: string[] = [];
  let verbatim: string | null = null;
  let inAbstract = false;
  /** tables open around this line (a table inside a cell opens another) */
  let tableDepth = 0;
  for (let i = bodyFrom; i < raw.length; i++) {
    const line = raw[i]!;
    if (verbatim !== null) {
      if (new RegExp(`\\\\end\\s*\\{${verbatim.replace('*', '\\*')}\\}`).test(line)) verbatim = null;
      else if (!HIDDEN_ENVS.test(verbatim)) rendered[i] = original[i]!;
      continue;
    }
    if (/\\end\s*\{document\}/.test(line)) break;
    const env = /^\s*\\begin\s*\{([^}]+)\}/.exec(line)?.[1];
    if (env && VERBATIM_ENVS.test(env)) {
      verbatim = env;
      continue;
    }
    if (env === 'abstract') inAbstract = true;
    if (/\\end\s*\{abstract\}/.test(line)) inAbstract = false;
    const tableOpens = [...line.matchAll(/\\begin\s*\{([^}]+)\}/g)].filter((m) => TABLE_ENVS.test(m[1]!)).length;
    tableDepth += tableOpens;
    const h = headingAt(raw, i, macros);
    if (h) {
      headings.push(h);
      rendered[i] = h.rest ? `${h.title} ${h.rest}` : h.title;
      continue;
    }
    // \begin{…} and \end{…} print nothing (the environment's body does)
    const text = latexInline(line.replace(/\\(?:begin|end)\s*\{[^}]*\}(?:\{[^}]*\}|\[[^\]]*\])*/g, ''), macros, 0, tableDepth > 0).trim();
    rendered[i] = text;
    tableDepth = Math.max(0, tableDepth - [...line.matchAll(/\\end\s*\{([^}]+)\}/g)].filter((m) => TABLE_ENVS.test(m[1]!)).length);
    if (inAbstract && text) abstract.push(text);
  }
  // \title may be set in the preamble or after \begin{document}, before \maketitle
  const front = raw.slice(0, (headings[0]?.line ?? raw.length + 1) - 1).join('\n');
  return { rendered, headings, title: titleOf(front, macros) ?? chapterTitle(headings, begin < 0), abstract: abstract.join(' ') };
}

/** Markdown-special characters of a title escaped, so the skeleton's heading reads back as typed. */
function escapeMarkdown(title: string): string {
  return title.replace(/[\\`*_[\]<>#!|]/g, (c) => `\\${c}`);
}

/** Only the headings, as Markdown headings on their own lines (levels relative to the shallowest used). */
function skeleton(parsed: Parsed, lineCount: number): string {
  const top = Math.min(...parsed.headings.map((h) => h.depth));
  const out: string[] = new Array<string>(lineCount).fill('');
  for (const h of parsed.headings) out[h.line - 1] = `${'#'.repeat(Math.min(6, h.depth - top + 1))} ${escapeMarkdown(h.title)}`;
  return out.join('\n');
}

/** The card's summary: the abstract, else the first paragraphs of the document's text. */
function summaryOf(parsed: Parsed): string {
  if (parsed.abstract) return leadSummary(parsed.abstract);
  const headingLines = new Set(parsed.headings.map((h) => h.line - 1));
  const first = parsed.headings[0]?.line ?? 1;
  const words = parsed.rendered.slice(first).filter((l, i) => l.trim() && !headingLines.has(first + i)).join(' ').slice(0, SUMMARY_SOURCE_CHARS);
  return words ? leadSummary(cleanText(words)) : '';
}

/** What the LaTeX converter does with each plan field (see ./plan-shape.ts). */
const LATEX_CAPS: Capabilities = {
  approaches: ['tree_index', 'chunk_embed'],
  keySections: 'a LaTeX source is split at its own sectioning commands',
  tablesAsRows: 'LaTeX tables are kept as their source lines',
  twoColumns: 'a LaTeX source has no page layout',
  plaintext: { native: null, reason: '' },
  estimatedNodes: 'a LaTeX tree follows its sectioning commands',
};

/** A LaTeX source as a heading tree (see the file comment). */
export function convertLatexText(source: string, filename: string, plan?: PlanDirectives): ConvertResult {
  const parsed = parseLatex(source);
  const lineCount = parsed.rendered.length;
  const text = parsed.rendered.join('\n');
  const tree = parsed.headings.length ? convertMarkdownText(skeleton(parsed, lineCount), filename, text) : convertMarkdownText(text, filename);
  const title = parsed.title ?? basename(filename, extname(filename));
  tree.root.title = title;
  const summary = summaryOf(parsed);
  const result: ConvertResult = {
    ...tree,
    title,
    toc_source: parsed.headings.length ? 'headings' : 'paragraphs',
    card: { ...tree.card, title, ...(summary ? { summary } : {}) },
  };
  return followPlan(result, plan, LATEX_CAPS, 'a LaTeX source');
}

export const latexConverter: Converter = {
  name: 'latex',
  version: 5,
  async convert({ bytes, card, options }) {
    const text = decodeNonEmptyText(bytes);
    return convertLatexText(text, card.filename, options.plan);
  },
};

/** A LaTeX document by its name, or a text file whose head declares one (\documentclass). */
export const latexRegistration: ConverterRegistration = {
  converter: latexConverter,
  formats: [
    { type: 'latex', mime: 'application/x-tex', extensions: ['.tex', '.ltx', '.latex'], sniffText: (s) => /^\s*\\documentclass\s*[[{]/m.test(s), priority: PRIORITY_LOOSE },
  ],
};
