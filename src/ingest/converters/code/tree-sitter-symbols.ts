/**
 * Python, Go, Rust and Java symbols via web-tree-sitter and the wasm grammars shipped in the
 * `tree-sitter-wasms` npm package (no native build, nothing downloaded). Grammars load lazily, once.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cleanDoc, collapseSignature, type CodeImport, type CodeSymbol, type FileSymbols, type SymbolKind } from './symbols.js';

type TSNode = import('web-tree-sitter').Node;
type TSLanguage = import('web-tree-sitter').Language;
type TSParserClass = typeof import('web-tree-sitter').Parser;

export const TREE_SITTER_LANGUAGES = ['python', 'go', 'rust', 'java', 'c', 'cpp'] as const;
export type TreeSitterLanguage = (typeof TREE_SITTER_LANGUAGES)[number];

interface Spec {
  imports: Set<string>;
  /** node type → kind, for nodes whose body holds members */
  containers: Record<string, SymbolKind>;
  /** node type → kind, for leaf symbols */
  leaves: Record<string, SymbolKind>;
  /** body node types walked for members */
  bodies: Set<string>;
  /** the member kind for functions inside a container */
  methodKind: SymbolKind;
}

/** Languages walked by the generic spec walker (C and C++ have their own, ./c-symbols.ts). */
type SpecLanguage = Exclude<TreeSitterLanguage, 'c' | 'cpp'>;

const SPECS: Record<SpecLanguage, Spec> = {
  python: {
    imports: new Set(['import_statement', 'import_from_statement', 'future_import_statement']),
    containers: { class_definition: 'class' },
    leaves: { function_definition: 'function' },
    bodies: new Set(['block']),
    methodKind: 'method',
  },
  go: {
    imports: new Set(['import_declaration']),
    containers: {},
    leaves: { function_declaration: 'function', method_declaration: 'method' },
    bodies: new Set(),
    methodKind: 'method',
  },
  rust: {
    imports: new Set(['use_declaration', 'extern_crate_declaration']),
    containers: { impl_item: 'impl', trait_item: 'trait', mod_item: 'module' },
    leaves: { function_item: 'function', function_signature_item: 'function', struct_item: 'struct', enum_item: 'enum', type_item: 'type', const_item: 'constant', static_item: 'constant', macro_definition: 'function', union_item: 'struct' },
    bodies: new Set(['declaration_list']),
    methodKind: 'method',
  },
  java: {
    imports: new Set(['import_declaration']),
    containers: { class_declaration: 'class', interface_declaration: 'interface', enum_declaration: 'enum', record_declaration: 'record', annotation_type_declaration: 'interface' },
    leaves: { method_declaration: 'method', constructor_declaration: 'constructor', compact_constructor_declaration: 'constructor' },
    bodies: new Set(['class_body', 'interface_body', 'enum_body', 'enum_body_declarations', 'record_body', 'annotation_type_body']),
    methodKind: 'method',
  },
};

let parserReady: Promise<TSParserClass> | null = null;
const languages = new Map<string, Promise<TSLanguage>>();

function wasmDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
}

/** Grammar loads, chained so that they never overlap. */
let loadQueue: Promise<unknown> = Promise.resolve();

async function loadLanguage(lang: TreeSitterLanguage): Promise<{ Parser: TSParserClass; language: TSLanguage }> {
  const mod = await import('web-tree-sitter');
  if (!parserReady) parserReady = mod.Parser.init().then(() => mod.Parser);
  const Parser = await parserReady;
  if (!languages.has(lang)) {
    // one load at a time: web-tree-sitter links each grammar's wasm into shared state, and two loads
    // in flight mix up their exports ("bad export type for 'tree_sitter_python_external_scanner_create'")
    const load = loadQueue.then(() => mod.Language.load(join(wasmDir(), `tree-sitter-${lang}.wasm`)));
    loadQueue = load.catch(() => undefined);
    languages.set(lang, load);
  }
  return { Parser, language: await languages.get(lang)! };
}

function line(n: TSNode, end = false): number {
  if (!end) return n.startPosition.row + 1;
  // a node that ends at column 0 (a line comment including its newline) ends on the previous line
  const { row, column } = n.endPosition;
  return column === 0 && row > n.startPosition.row ? row : row + 1;
}

/** Contiguous comment siblings right above a node (Go `//`, Rust `///`, Java `/** *\/`). */
function leadingComments(node: TSNode, lang: TreeSitterLanguage): { doc: string; start: number } {
  const parts: string[] = [];
  let start = line(node);
  let prev = node.previousNamedSibling;
  let expect = line(node) - 1;
  // Rust attributes (#[derive(…)]) sit between an item and its doc comment: they belong to the item
  while (prev && prev.type === 'attribute_item' && line(prev, true) === expect) {
    start = line(prev);
    expect = start - 1;
    prev = prev.previousNamedSibling;
  }
  while (prev && /comment/.test(prev.type) && line(prev, true) === expect) {
    const t = prev.text;
    const isDoc = lang === 'java' ? t.startsWith('/**') : lang === 'rust' ? t.startsWith('///') || t.startsWith('/**') : t.startsWith('//') || t.startsWith('/*');
    if (!isDoc) break;
    parts.unshift(t);
    start = line(prev);
    expect = line(prev) - 1;
    prev = prev.previousNamedSibling;
  }
  return { doc: parts.length ? cleanDoc(parts.join('\n')) : '', start };
}

function pythonDocstring(node: TSNode): string {
  const body = node.childForFieldName('body');
  const first = body?.namedChildren[0];
  if (first?.type === 'expression_statement' && first.namedChildren[0]?.type === 'string') {
    const s = first.namedChildren[0].text;
    return cleanDoc(s.replace(/^[rRbBuU]*("""|'''|"|')/, '').replace(/("""|'''|"|')$/, ''));
  }
  return '';
}

function signatureOf(node: TSNode, text: string): string {
  const body = node.childForFieldName('body');
  const end = body ? body.startIndex : node.text.indexOf('\n') >= 0 ? node.startIndex + node.text.indexOf('\n') : node.endIndex;
  return collapseSignature(text.slice(node.startIndex, end).replace(/[:{]\s*$/, ''));
}

function nameOf(node: TSNode, lang: TreeSitterLanguage): string {
  if (lang === 'rust' && node.type === 'impl_item') {
    const trait = node.childForFieldName('trait')?.text;
    const type = node.childForFieldName('type')?.text ?? '?';
    return trait ? `${trait} for ${type}` : type;
  }
  if (lang === 'go' && node.type === 'method_declaration') {
    const recv = node.childForFieldName('receiver')?.text.replace(/[()*]/g, ' ').trim().split(/\s+/).pop() ?? '';
    return `${recv ? `${recv}.` : ''}${node.childForFieldName('name')?.text ?? '?'}`;
  }
  return node.childForFieldName('name')?.text ?? '?';
}

function importModule(node: TSNode, lang: TreeSitterLanguage): string[] {
  if (lang === 'go') {
    const specs = node.descendantsOfType('import_spec');
    return specs.map((s) => (s?.childForFieldName('path')?.text ?? s?.text ?? '').replace(/^"|"$/g, ''));
  }
  if (lang === 'python') {
    if (node.type === 'future_import_statement') return ['__future__'];
    const mod = node.childForFieldName('module_name')?.text;
    if (mod) return [mod];
    return node.namedChildren.filter((c) => c && (c.type === 'dotted_name' || c.type === 'aliased_import')).map((c) => (c!.type === 'aliased_import' ? c!.childForFieldName('name')?.text ?? c!.text : c!.text));
  }
  if (lang === 'java') return [node.text.replace(/^import\s+(static\s+)?/, '').replace(/;\s*$/, '').trim()];
  return [node.text.replace(/^(pub(\([^)]*\))?\s+)?(use|extern crate)\s+/, '').replace(/;\s*$/, '').trim()];
}

function goTypeSymbols(node: TSNode, text: string): CodeSymbol[] {
  const { doc, start } = leadingComments(node, 'go');
  return node.namedChildren
    .filter((c): c is TSNode => !!c && c.type === 'type_spec')
    .map((spec) => {
      const t = spec.childForFieldName('type')?.type;
      const kind: SymbolKind = t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type';
      const name = spec.childForFieldName('name')?.text ?? '?';
      const sigEnd = text.indexOf('{', spec.startIndex);
      const sig = sigEnd > 0 && sigEnd < spec.endIndex ? text.slice(spec.startIndex, sigEnd) : spec.text.split('\n')[0]!;
      return { kind, name, signature: collapseSignature(`type ${sig}`), doc, start, end: line(node, true), exported: /^[A-Z]/.test(name) || undefined, children: [] } as CodeSymbol;
    });
}

interface WalkContext {
  lang: TreeSitterLanguage;
  spec: (typeof SPECS)[SpecLanguage];
  text: string;
  imports: CodeImport[];
}

/** Whether a symbol is part of the file's public surface, by each language's convention. */
function isExportedSymbol(lang: TreeSitterLanguage, node: TSNode, name: string): boolean {
  if (lang === 'go') return /^[A-Z]/.test(name.split('.').pop() ?? '');
  if (lang === 'rust') return /^pub\b/.test(node.text);
  if (lang === 'java') return /\bpublic\b/.test(node.childForFieldName('modifiers')?.text ?? node.namedChildren.find((c) => c?.type === 'modifiers')?.text ?? '');
  return !name.startsWith('_');
}

/** The symbol one top-level or member node defines (imports are collected on the way), or none. */
function nodeSymbols(ctx: WalkContext, raw: TSNode, inContainer: boolean): CodeSymbol[] {
  const { lang, spec, text } = ctx;
  // Python decorators wrap the definition: the symbol spans the decorators too
  const node = lang === 'python' && raw.type === 'decorated_definition' ? raw.childForFieldName('definition') ?? raw : raw;
  if (spec.imports.has(node.type)) {
    for (const m of importModule(node, lang)) ctx.imports.push({ module: m, line: line(node), endLine: line(node, true) });
    return [];
  }
  if (lang === 'go' && node.type === 'type_declaration') return goTypeSymbols(node, text);
  const containerKind = spec.containers[node.type];
  const leafKind = spec.leaves[node.type];
  if (!containerKind && !leafKind) return [];
  const docInfo = lang === 'python' ? { doc: pythonDocstring(node), start: line(raw) } : leadingComments(raw, lang);
  const name = nameOf(node, lang);
  let kind: SymbolKind = containerKind ?? leafKind!;
  if (inContainer && kind === 'function') kind = spec.methodKind;
  if (lang === 'python' && kind === 'method' && name === '__init__') kind = 'constructor';
  const accessor = lang === 'python' && raw !== node ? pythonAccessor(raw, name) : null;
  if (accessor) kind = 'property';
  let children: CodeSymbol[] = [];
  const body = containerKind ? node.childForFieldName('body') ?? node.namedChildren.find((c) => c && spec.bodies.has(c.type)) ?? null : null;
  if (body) children = walkSymbols(ctx, body.namedChildren.flatMap((c) => (c && spec.bodies.has(c.type) ? c.namedChildren : [c])), true);
  const exported = isExportedSymbol(lang, node, name);
  return [{ kind, name: accessor ?? name, signature: signatureOf(node, text), doc: docInfo.doc, start: docInfo.start, end: line(raw, true), ...(exported ? { exported: true } : {}), children }];
}

/**
 * A Python property's accessor named for what it does: `@property` → "alignment", `@alignment.setter`
 * → "alignment (setter)", `.deleter` likewise; null for other decorators. Getter and setter were two
 * nodes titled "method alignment" (python-docx's table.py had 16 such pairs).
 */
function pythonAccessor(decorated: TSNode, name: string): string | null {
  for (const d of decorated.namedChildren) {
    if (d?.type !== 'decorator') continue;
    const t = d.text.replace(/^@\s*/, '').trim();
    if (t === 'property' || t === 'cached_property' || t.endsWith('.cached_property')) return name;
    const m = /^(\w+)\.(setter|deleter|getter)$/.exec(t);
    if (m && m[1] === name) return `${name} (${m[2]})`;
  }
  return null;
}

function walkSymbols(ctx: WalkContext, nodes: (TSNode | null)[], inContainer: boolean): CodeSymbol[] {
  return nodes.flatMap((n) => (n ? nodeSymbols(ctx, n, inContainer) : []));
}

export async function treeSitterSymbols(text: string, lang: TreeSitterLanguage): Promise<FileSymbols> {
  const { Parser, language } = await loadLanguage(lang);
  const parser = new Parser();
  parser.setLanguage(language);
  const c = lang === 'c' || lang === 'cpp' ? await import('./c-symbols.js') : null;
  const tree = parser.parse(c ? c.maskMacros(text) : text);
  if (!tree) throw new Error(`tree-sitter could not parse the ${lang} source`);
  if (c) {
    const { cSymbolsOf } = c;
    const out = cSymbolsOf(tree.rootNode, text);
    tree.delete();
    parser.delete();
    return { ...out, parser: `tree-sitter-${lang}` };
  }
  const ctx: WalkContext = { lang, spec: SPECS[lang as SpecLanguage], text, imports: [] };
  let symbols = walkSymbols(ctx, tree.rootNode.namedChildren, false);
  if (lang === 'go') symbols = nestGoMethods(symbols);
  tree.delete();
  parser.delete();
  return { imports: ctx.imports, symbols, parser: `tree-sitter-${lang}` };
}

/** Go declares methods at top level: show them under their receiver type when it is in the same file. */
function nestGoMethods(symbols: CodeSymbol[]): CodeSymbol[] {
  const types = new Map(symbols.filter((s) => ['struct', 'interface', 'type'].includes(s.kind)).map((s) => [s.name, s]));
  const out: CodeSymbol[] = [];
  for (const s of symbols) {
    const recv = s.kind === 'method' ? s.name.split('.')[0] : undefined;
    const owner = recv ? types.get(recv) : undefined;
    if (owner) owner.children.push({ ...s, name: s.name.slice(recv!.length + 1) });
    else out.push(s);
  }
  // a type's range widens to cover its methods only in the tree (parents cover children); keep own lines exact
  return out;
}
