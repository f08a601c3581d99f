/** The language-neutral symbol model and how a file's symbols become its tree. */
import { dirname, basename } from 'node:path';
import type { ConvertedNode, ConvertResult } from '../types.js';

/** Longest signature kept (collapsed whitespace). */
export const MAX_SIGNATURE_CHARS = 240;
/** Longest doc comment kept in a node's meta. */
export const MAX_DOC_CHARS = 1200;

export type SymbolKind =
  | 'class' | 'interface' | 'struct' | 'enum' | 'trait' | 'impl' | 'type' | 'module' | 'namespace' | 'record'
  | 'function' | 'method' | 'constructor' | 'property' | 'constant' | 'variable';

export interface CodeSymbol {
  kind: SymbolKind;
  name: string;
  signature: string;
  doc: string;
  /** 1-based inclusive lines (doc comment included) */
  start: number;
  end: number;
  exported?: boolean;
  children: CodeSymbol[];
}

export interface CodeImport {
  /** the module / package / path imported */
  module: string;
  line: number;
  endLine: number;
}

export interface FileSymbols {
  imports: CodeImport[];
  symbols: CodeSymbol[];
  parser: string;
}

export function collapseSignature(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_SIGNATURE_CHARS ? one.slice(0, MAX_SIGNATURE_CHARS - 1) + '…' : one;
}

/** Doxygen lines that restate the declaration or file it into a group (`\fn void f(int);`, `@ingroup transform`). */
const DOXYGEN_RESTATED = /^\s*[\\@](?:fn|var|def|typedef|struct|class|ingroup|addtogroup|file|internal)\b.*$/;
/** Doxygen commands before text, read as labels (`\brief` goes, `\param x` reads "x:", `@return` "Returns:"). */
function doxygenLabels(l: string): string {
  return l
    .replace(/[\\@](?:brief|short|details)\s+/g, '')
    .replace(/[\\@]param(?:\[[a-z, ]+\])?\s+(\w+)/g, '$1:')
    .replace(/[\\@](?:returns?|retval)\b/g, 'Returns:')
    .replace(/[\\@](?:sa|see)\b/g, 'See:');
}

/**
 * Strip comment markers from a doc comment block (/** *\/, /*! *\/, ///, //!, //, #, """), and the
 * Doxygen commands that restate the declaration (libnova's `/*! \fn void ln_get_hrz_from_equ(…);
 * \brief Calculate horizontal coordinates… \ingroup transform *\/` reads "Calculate horizontal coordinates…").
 */
export function cleanDoc(raw: string): string {
  const text = raw
    .replace(/^\s*\/\*[*!]?/, '')
    .replace(/\*\/\s*$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*(\*(?!\/)|\/\/[/!]?|#)\s?/, '').trimEnd())
    .filter((l) => !DOXYGEN_RESTATED.test(l))
    .map(doxygenLabels)
    .join('\n')
    .replace(/^\s*("""|''')/, '')
    .replace(/("""|''')\s*$/, '')
    .trim();
  return text.length > MAX_DOC_CHARS ? text.slice(0, MAX_DOC_CHARS - 1) + '…' : text;
}

const CONTAINER_KINDS = new Set<SymbolKind>(['class', 'interface', 'struct', 'enum', 'trait', 'impl', 'module', 'namespace', 'record']);

function countKinds(symbols: CodeSymbol[], acc: Map<string, number>): Map<string, number> {
  for (const s of symbols) {
    acc.set(s.kind, (acc.get(s.kind) ?? 0) + 1);
    countKinds(s.children, acc);
  }
  return acc;
}

/** Own text of a range: its lines minus the children's lines (children carry their own text). */
function ownText(lines: string[], start: number, end: number, children: { start: number; end: number }[]): string {
  const out: string[] = [];
  let gap = false;
  for (let ln = start; ln <= end; ln++) {
    if (children.some((c) => ln >= c.start && ln <= c.end)) {
      if (!gap) out.push('  // …');
      gap = true;
      continue;
    }
    gap = false;
    out.push(lines[ln - 1] ?? '');
  }
  return out.join('\n');
}

function symbolNode(lines: string[], s: CodeSymbol): ConvertedNode {
  const docFirst = s.doc.split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ').trim();
  return {
    title: `${s.kind} ${s.name}`,
    kind: s.kind,
    summary: docFirst ? `${s.signature} — ${docFirst}`.slice(0, 300) : s.signature,
    line_range: [s.start, s.end],
    content: s.children.length ? ownText(lines, s.start, s.end, s.children) : lines.slice(s.start - 1, s.end).join('\n'),
    meta: { name: s.name, signature: s.signature, ...(s.doc ? { doc: s.doc } : {}), ...(s.exported ? { exported: true } : {}) },
    children: s.children.map((c) => symbolNode(lines, c)),
  };
}

export function symbolResult(originalPath: string, language: string, _text: string, lines: string[], fs: FileSymbols): ConvertResult {
  const name = basename(originalPath);
  const folder = dirname(originalPath) === '.' ? '' : dirname(originalPath).replace(/!$/, '!/');
  const children: ConvertedNode[] = [];
  const covered: { start: number; end: number }[] = [];
  if (fs.imports.length) {
    const first = Math.min(...fs.imports.map((i) => i.line));
    const last = Math.max(...fs.imports.map((i) => i.endLine));
    const modules = [...new Set(fs.imports.map((i) => i.module))];
    children.push({
      title: 'imports',
      kind: 'imports',
      summary: `${modules.length} imports: ${modules.slice(0, 12).join(', ')}${modules.length > 12 ? ', …' : ''}`,
      line_range: [first, last],
      content: fs.imports.map((i) => lines.slice(i.line - 1, i.endLine).join('\n')).join('\n'),
      meta: { modules },
      children: [],
    });
    for (const i of fs.imports) covered.push({ start: i.line, end: i.endLine });
  }
  for (const s of fs.symbols) {
    children.push(symbolNode(lines, s));
    covered.push({ start: s.start, end: s.end });
  }
  const counts = countKinds(fs.symbols, new Map());
  const containers = [...counts.entries()].filter(([k]) => CONTAINER_KINDS.has(k as SymbolKind)).reduce((n, [, v]) => n + v, 0);
  const functions = (counts.get('function') ?? 0) + (counts.get('method') ?? 0) + (counts.get('constructor') ?? 0);
  const rootOwn = ownText(lines, 1, lines.length, covered)
    .split('\n')
    .filter((l) => l !== '  // …')
    .join('\n');
  const topNames = fs.symbols.map((s) => s.name);
  const summary = `${language} source${folder ? ` in ${folder}/` : ''}: ${fs.symbols.length} top-level symbols${topNames.length ? ` (${topNames.slice(0, 10).join(', ')}${topNames.length > 10 ? ', …' : ''})` : ''}; ${fs.imports.length} imports.`;
  const meta: Record<string, string> = {
    language,
    folder: folder || '.',
    parser: fs.parser,
    imports: String(fs.imports.length),
    classes: String(containers),
    functions: String(functions),
    symbols: String([...counts.values()].reduce((a, b) => a + b, 0)),
  };
  return {
    title: name,
    toc_source: 'symbols',
    approach: 'symbol_index',
    root: { title: name, kind: 'file', summary, line_range: [1, Math.max(1, lines.length)], ...(rootOwn.trim() ? { content: rootOwn } : {}), meta: { ...meta }, children },
    line_count: lines.length,
    card: {
      summary,
      key_topics: topNames.slice(0, 20),
      sections_overview: children.map((c) => c.title).slice(0, 20),
      doc_type: `${language} source`,
    },
    meta,
  };
}
