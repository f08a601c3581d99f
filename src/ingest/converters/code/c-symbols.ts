/**
 * C and C++ symbols from the tree-sitter-c / tree-sitter-cpp grammars: functions and prototypes,
 * structs, unions, enums, classes (with their methods), namespaces, typedefs, macros and globals,
 * each with its signature, leading comment and line range. Preprocessor conditionals, include
 * guards and `extern "C" { … }` blocks are walked through, so a header reads as its declarations.
 */
import { cleanDoc, collapseSignature, type CodeImport, type CodeSymbol, type SymbolKind } from './symbols.js';

type TSNode = import('web-tree-sitter').Node;

/** Nodes walked through as if their children were at the enclosing level. */
const TRANSPARENT = new Set(['preproc_ifdef', 'preproc_if', 'preproc_else', 'preproc_elif', 'preproc_elifdef', 'linkage_specification', 'declaration_list', 'template_declaration', 'export_declaration']);
const RECORDS: Record<string, SymbolKind> = { struct_specifier: 'struct', union_specifier: 'struct', enum_specifier: 'enum', class_specifier: 'class' };
const BODIES = new Set(['field_declaration_list', 'enumerator_list']);

function line(n: TSNode, end = false): number {
  if (!end) return n.startPosition.row + 1;
  const { row, column } = n.endPosition;
  return column === 0 && row > n.startPosition.row ? row : row + 1;
}

/**
 * A comment's own text: from the source itself, not from the parsed copy, where maskMacros blanked
 * the all-caps words before a name ("the name of the RNG for this chain" read "of the     for").
 */
function commentText(c: TSNode, text: string): string {
  return text.slice(c.startIndex, c.endIndex);
}

/** The comment block right above a node (C headers document with `/* … *\/` as well as `/** … *\/` and `//`). */
function leadingDoc(node: TSNode, text: string): { doc: string; start: number } {
  const parts: string[] = [];
  let start = line(node);
  let prev = node.previousNamedSibling;
  let expect = start - 1;
  while (prev && prev.type === 'comment' && line(prev, true) === expect && !isTrailingOf(prev)) {
    parts.unshift(commentText(prev, text));
    start = line(prev);
    expect = start - 1;
    prev = prev.previousNamedSibling;
  }
  return { doc: parts.length ? cleanDoc(parts.join('\n')) : '', start };
}

/**
 * A comment that documents the declaration above it: it follows that declaration directly and does
 * not sit directly on the next one (a Doxygen block between two methods with no blank line,
 * `bool clearMonitor(…);` / `/** @short Dumps the state … *\/` / `bool dumpState(…);`, documents the
 * method below it, as trailingDoc agrees).
 */
function isTrailingOf(comment: TSNode): boolean {
  const before = comment.previousNamedSibling;
  if (!before || before.type === 'comment' || line(comment) !== line(before, true) + 1 || line(before) === line(comment)) return false;
  const after = comment.nextNamedSibling;
  return !(after && after.type !== 'comment' && line(after) === line(comment, true) + 1);
}

/** The declared name inside a declarator chain (`*name`, `name[3]`, `(*name)(…)`, `ns::name`). */
function declaredName(d: TSNode | null): string {
  let cur = d;
  for (let i = 0; cur && i < 12; i++) {
    if (['identifier', 'field_identifier', 'type_identifier', 'destructor_name', 'operator_name', 'qualified_identifier'].includes(cur.type)) return cur.text;
    cur = cur.childForFieldName('declarator') ?? cur.namedChildren.find((c) => c && /declarator|identifier|destructor_name|operator_name/.test(c.type)) ?? null;
  }
  return '';
}

function hasFunctionDeclarator(d: TSNode | null): boolean {
  for (let cur = d, i = 0; cur && i < 12; i++) {
    if (cur.type === 'function_declarator') return true;
    cur = cur.childForFieldName('declarator') ?? null;
  }
  return false;
}

function signatureOf(node: TSNode, text: string): string {
  const body = node.childForFieldName('body');
  const end = body ? body.startIndex : node.endIndex;
  return collapseSignature(text.slice(node.startIndex, end).replace(/[{;]\s*$/, ''));
}

/**
 * The comment right below a declaration when none is above it (zlib.h and many C headers document
 * a prototype underneath it), unless the comment sits directly on the next declaration.
 */
function trailingDoc(node: TSNode, text: string): { doc: string; end: number } | null {
  const next = node.nextNamedSibling;
  if (!next || next.type !== 'comment' || line(next) > line(node, true) + 1) return null;
  const after = next.nextNamedSibling;
  if (after && after.type !== 'comment' && line(after) === line(next, true) + 1) return null;
  return { doc: cleanDoc(commentText(next, text)), end: line(next, true) };
}

function symbol(kind: SymbolKind, name: string, node: TSNode, text: string, children: CodeSymbol[] = []): CodeSymbol {
  const lead = leadingDoc(node, text);
  const trail = lead.doc ? null : trailingDoc(node, text);
  const doc = lead.doc || trail?.doc || '';
  const start = lead.start;
  if (trail) return { kind, name, signature: signatureOf(node, text), doc, start, end: trail.end, ...(exportedFlag(node, name) ? { exported: true } : {}), children };
  return { kind, name, signature: signatureOf(node, text), doc, start, end: line(node, true), ...(exportedFlag(node, name) ? { exported: true } : {}), children };
}

/** Visible outside its file: not `static`, not a reserved `_name`. */
function exportedFlag(node: TSNode, name: string): boolean {
  return !/^\s*static\b/.test(node.text) && !name.startsWith('_');
}

function record(node: TSNode, text: string, outer: TSNode, typedefName = ''): CodeSymbol | null {
  const kind = RECORDS[node.type]!;
  const body = node.namedChildren.find((c) => c && BODIES.has(c.type));
  const name = node.childForFieldName('name')?.text ?? typedefName;
  if (!body && !typedefName) return null; // `struct foo;` forward declaration or a use of the type
  const members = body && kind === 'class' ? walk(body.namedChildren, text, true, []) : body && node.type !== 'enum_specifier' ? walk(body.namedChildren, text, true, []) : [];
  return symbol(kind, name || '(anonymous)', outer, text, members);
}

function walk(nodes: (TSNode | null)[], text: string, inRecord: boolean, imports: CodeImport[]): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  for (const node of nodes) {
    if (!node) continue;
    const t = node.type;
    if (TRANSPARENT.has(t)) {
      const skip = node.childForFieldName('name') ?? node.childForFieldName('condition');
      out.push(...walk(node.namedChildren.filter((c) => c !== null && c.id !== skip?.id), text, inRecord, imports));
      continue;
    }
    if (t === 'preproc_include') {
      const path = node.childForFieldName('path')?.text ?? '';
      if (path) imports.push({ module: path.replace(/^[<"]|[>"]$/g, ''), line: line(node), endLine: line(node, true) });
      continue;
    }
    if (t === 'preproc_def') {
      // a macro without a value is an include guard or a feature flag, not an API
      if (node.childForFieldName('value')) out.push(symbol('constant', node.childForFieldName('name')?.text ?? '?', node, text));
      continue;
    }
    if (t === 'preproc_function_def') {
      out.push(symbol('function', node.childForFieldName('name')?.text ?? '?', node, text));
      continue;
    }
    if (t === 'namespace_definition') {
      const body = node.childForFieldName('body');
      out.push(symbol('namespace', node.childForFieldName('name')?.text ?? '(anonymous)', node, text, body ? walk(body.namedChildren, text, false, imports) : []));
      continue;
    }
    if (t === 'function_definition') {
      out.push(symbol(inRecord ? 'method' : 'function', declaredName(node.childForFieldName('declarator')) || '?', node, text));
      continue;
    }
    if (RECORDS[t]) {
      const r = record(node, text, node);
      if (r) out.push(r);
      continue;
    }
    if (t === 'type_definition') {
      const name = declaredName(node.childForFieldName('declarator'));
      const type = node.childForFieldName('type');
      const r = type && RECORDS[type.type] ? record(type, text, node, name) : null;
      out.push(r ? { ...r, name: name || r.name } : symbol('type', name || '?', node, text));
      continue;
    }
    if (t === 'declaration' || t === 'field_declaration') out.push(...declarationSymbols(node, text, inRecord));
  }
  return out;
}

/** A declaration's symbols: a record declared inline, then the declared function or variable (fields stay in their record's text). */
function declarationSymbols(node: TSNode, text: string, inRecord: boolean): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  const decl = node.childForFieldName('declarator');
  const type = node.childForFieldName('type');
  if (type && RECORDS[type.type]) {
    const r = record(type, text, node);
    if (r) out.push(r);
  }
  const name = decl ? declaredName(decl) : '';
  if (!decl || !name) return out;
  if (hasFunctionDeclarator(decl)) out.push(symbol(inRecord ? 'method' : 'function', name, node, text));
  else if (inRecord) return out;
  else if (!/^\s*extern\b/.test(node.text) || /\bconst\b/.test(node.text)) out.push(symbol(/\bconst\b/.test(node.text) ? 'constant' : 'variable', name, node, text));
  else out.push(symbol('variable', name, node, text));
  return out;
}

const CAPS_BEFORE_NAME = /\b([A-Z_][A-Z0-9_]{2,})(?=[ \t]+(?:[a-z_]\w*|const|unsigned|signed|struct|union|enum)\b)/g;
const CAPS_WRAPPER = /\b[A-Z_][A-Z0-9_]{1,}\(\(/g;

/**
 * What the parser reads: export/linkage macros defined in other headers (`ZEXTERN int ZEXPORT
 * deflate OF((z_streamp strm, int flush));`) blanked out with spaces — an all-caps word right before a
 * type or a lower-case name, and an all-caps wrapper around a parenthesised parameter list — so the
 * declaration parses. Same length and lines, so positions still point into the real text.
 */
export function maskMacros(text: string): string {
  let t = text
    .split('\n')
    .map((ln) => (/^\s*#/.test(ln) ? ln : ln.replace(CAPS_BEFORE_NAME, (m) => ' '.repeat(m.length))))
    .join('\n');
  CAPS_WRAPPER.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = CAPS_WRAPPER.exec(t))) {
    const lineStart = t.lastIndexOf('\n', m.index) + 1;
    if (/^\s*#/.test(t.slice(lineStart, m.index + 1))) continue;
    const open = m.index + m[0].length - 1; // the inner "(" stays
    let depth = 1;
    let close = -1;
    for (let i = open + 1; i < t.length && close < 0; i++) {
      if (t[i] === '(') depth++;
      else if (t[i] === ')' && --depth === 0) close = i;
    }
    if (close < 0 || t[close + 1] !== ')') continue;
    t = t.slice(0, m.index) + ' '.repeat(open - m.index) + t.slice(open, close + 1) + ' ' + t.slice(close + 2);
  }
  return t;
}

/** Consecutive `#define` constants at most this many lines apart form one node. */
export const MACRO_GROUP_GAP = 2;
/** Names listed in a macro group's title before "…". */
const MACRO_GROUP_NAMES = 4;

/** Runs of value macros (`#define Z_NO_FLUSH 0` …) become one node listing their names. */
function groupMacros(symbols: CodeSymbol[]): CodeSymbol[] {
  const out: CodeSymbol[] = [];
  let run: CodeSymbol[] = [];
  const flush = () => {
    if (run.length === 1) out.push(run[0]!);
    else if (run.length > 1) {
      const names = run.map((r) => r.name);
      const shown = names.length > MACRO_GROUP_NAMES ? `${names.slice(0, MACRO_GROUP_NAMES - 1).join(', ')}, … ${names[names.length - 1]}` : names.join(', ');
      out.push({ kind: 'constant', name: shown, signature: collapseSignature(names.join(' ')), doc: run.map((r) => r.doc).filter(Boolean).join('\n'), start: run[0]!.start, end: run[run.length - 1]!.end, exported: true, children: [] });
    }
    run = [];
  };
  for (const s of symbols) {
    const isMacro = s.kind === 'constant' && s.signature.startsWith('#define');
    const prev = run[run.length - 1];
    if (isMacro && (!prev || s.start - prev.end <= MACRO_GROUP_GAP)) run.push(s);
    else {
      flush();
      if (isMacro) run.push(s);
      else out.push({ ...s, children: groupMacros(s.children) });
    }
  }
  flush();
  return out;
}

/** Symbols and includes of a C or C++ translation unit (tree already parsed). */
export function cSymbolsOf(root: TSNode, text: string): { symbols: CodeSymbol[]; imports: CodeImport[] } {
  const imports: CodeImport[] = [];
  const symbols = groupMacros(walk(root.namedChildren, text, false, imports));
  return { symbols, imports };
}
