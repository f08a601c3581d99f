/**
 * Source code: a symbol tree per file (imports, classes, functions/methods with signatures, doc
 * comments, line ranges). TS/JS via the TypeScript compiler API; Python, Go, Rust, Java, C, C++ via
 * tree-sitter wasm grammars; any other language falls back to a line-window tree.
 */
import { extname } from 'node:path';
import type { Converter, ConvertedNode, ConvertResult } from '../types.js';
import { ConvertError, PRIORITY_SPECIFIC, type ConverterRegistration } from '../types.js';
import { decodeText, splitLines } from '../text-util.js';
import { symbolResult, type FileSymbols } from './symbols.js';
import { TREE_SITTER_LANGUAGES, type TreeSitterLanguage } from './tree-sitter-symbols.js';
import type { Approach } from '../../../store/schemas.js';
import type { PlanDirectives } from '../../../model/plan.js';
import { approachFor, declined, type Capabilities } from '../plan-shape.js';

/** Lines per window for languages without a parser. */
export const LINE_WINDOW = 60;
/** A window may end early at a blank line within this many lines of its target end. */
export const WINDOW_SLACK = 15;

const TS_LANGUAGES = new Set(['typescript', 'javascript']);

function languageOf(language: string | undefined, filename: string): string {
  if (language) return language;
  const ext = extname(filename).toLowerCase();
  return ext ? ext.slice(1) : 'text';
}

/** C++ constructs a C header never holds: namespaces, classes with access sections, templates, `::` scopes. */
const CPP_MARKERS = /^\s*(?:namespace\s+[\w:]*\s*\{|template\s*<|class\s+\w+[^;]*\{|(?:public|private|protected)\s*:)|\w::\w/m;

/** A `.h` file is C unless it holds C++ (then the C grammar would read `namespace x {` as a function). */
export function headerLanguage(language: string, filename: string, text: string): string {
  return language === 'c' && extname(filename).toLowerCase() === '.h' && CPP_MARKERS.test(text) ? 'cpp' : language;
}

/** Windows of about LINE_WINDOW lines, cut at blank lines where possible. */
export function lineWindows(originalPath: string, language: string, lines: string[], window = LINE_WINDOW): ConvertResult {
  const children: ConvertedNode[] = [];
  let start = 1;
  while (start <= lines.length) {
    let end = Math.min(lines.length, start + window - 1);
    if (end < lines.length) {
      for (let e = end; e >= end - WINDOW_SLACK && e > start; e--) {
        if (lines[e - 1]!.trim() === '') {
          end = e;
          break;
        }
      }
    }
    const body = lines.slice(start - 1, end);
    const first = body.find((l) => l.trim())?.trim() ?? '';
    children.push({ title: `lines ${start}–${end}${first ? `: ${first.slice(0, 60)}` : ''}`, kind: 'lines', line_range: [start, end], content: body.join('\n'), children: [] });
    start = end + 1;
  }
  const name = originalPath.split('/').pop()!;
  const folder = originalPath.includes('/') ? originalPath.slice(0, originalPath.lastIndexOf('/')) : '.';
  const root: ConvertedNode = { title: name, kind: 'file', line_range: [1, Math.max(1, lines.length)], children };
  if (children.length === 1) {
    root.content = children[0]!.content;
    root.children = [];
  }
  return {
    title: name,
    toc_source: 'paragraphs',
    approach: 'chunk_embed',
    root,
    line_count: lines.length,
    card: { doc_type: `${language} source` },
    meta: { language, folder, parser: 'line-windows' },
  };
}

export async function codeSymbols(text: string, filename: string, language: string): Promise<FileSymbols | null> {
  if (TS_LANGUAGES.has(language)) return (await import('./ts-symbols.js')).tsSymbols(text, filename);
  if ((TREE_SITTER_LANGUAGES as readonly string[]).includes(language)) {
    return (await import('./tree-sitter-symbols.js')).treeSitterSymbols(text, language as TreeSitterLanguage);
  }
  return null;
}

/** Lines per window are kept within these bounds when the plan's estimated_nodes sets the window. */
export const MIN_LINE_WINDOW = 20;
export const MAX_LINE_WINDOW = 400;

/** Window size meeting the plan's estimated_nodes, or the default. */
function windowFor(lineCount: number, plan: PlanDirectives | undefined): number {
  if (!plan?.targetNodes) return LINE_WINDOW;
  return Math.min(MAX_LINE_WINDOW, Math.max(MIN_LINE_WINDOW, Math.ceil(lineCount / plan.targetNodes)));
}

function codeCaps(parsable: boolean, approach: Approach): Capabilities {
  return {
    approaches: parsable ? ['symbol_index', 'chunk_embed'] : ['chunk_embed'],
    keySections: 'code is indexed by its symbols or line windows, not by section titles',
    tablesAsRows: 'source code has no tables',
    twoColumns: 'source code has no page layout',
    plaintext: { native: null, reason: '' },
    estimatedNodes: approach === 'symbol_index' ? 'a symbol tree follows the code\'s declarations' : null,
  };
}

export const codeConverter: Converter = {
  name: 'code',
  version: 7,
  async convert({ bytes, card, options }) {
    const text = decodeText(bytes);
    if (text.trim().length === 0) throw new ConvertError('The source file is empty.', 'Add content or remove the file from the inbox.');
    const language = headerLanguage(languageOf(card.language, card.filename), card.filename, text);
    const lines = splitLines(text);
    const parsable = TS_LANGUAGES.has(language) || (TREE_SITTER_LANGUAGES as readonly string[]).includes(language);
    const plan = options.plan;
    const approach = approachFor(plan, codeCaps(parsable, plan?.approach ?? 'symbol_index'));
    let symbols: FileSymbols | null = null;
    const warnings: string[] = [];
    try {
      if (approach === 'symbol_index') symbols = await codeSymbols(text, card.filename, language);
    } catch (err) {
      warnings.push(`symbol parser failed (${err instanceof Error ? err.message : String(err)}); indexed as line windows`);
    }
    const result = symbols ? symbolResult(card.original_path, language, text, lines, symbols) : lineWindows(card.original_path, language, lines, windowFor(lines.length, plan));
    if (warnings.length) result.warnings = warnings;
    const notes = declined(plan, codeCaps(parsable, approach), `${language} code`);
    if (notes.length) result.plan_notes = notes;
    return result;
  },
};

/** Source code by extension, with its language; a text file opening with a shebang is a shell script. */
export const CODE_LANGUAGES: Readonly<Record<string, string>> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.c': 'c', '.h': 'c',
  '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.cs': 'csharp', '.rb': 'ruby', '.php': 'php',
  '.kt': 'kotlin', '.swift': 'swift', '.scala': 'scala', '.sh': 'shell', '.bash': 'shell',
  '.sql': 'sql', '.lua': 'lua', '.r': 'r', '.pl': 'perl', '.css': 'css', '.scss': 'css',
};

export const codeRegistration: ConverterRegistration = {
  converter: codeConverter,
  formats: [
    {
      type: 'code', extensions: Object.keys(CODE_LANGUAGES), languages: CODE_LANGUAGES,
      sniffText: (s) => s.startsWith('#!'), sniffedLanguage: 'shell', priority: PRIORITY_SPECIFIC,
    },
  ],
};
