/** TypeScript / JavaScript symbols via the TypeScript compiler API (syntax only, no type checking). */
import { cleanDoc, collapseSignature, type CodeImport, type CodeSymbol, type FileSymbols, type SymbolKind } from './symbols.js';

type TS = typeof import('typescript');
type Node = import('typescript').Node;
type SourceFile = import('typescript').SourceFile;

function scriptKind(ts: TS, filename: string): import('typescript').ScriptKind {
  const f = filename.toLowerCase();
  if (f.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (f.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.(js|mjs|cjs)$/.test(f)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

export async function tsSymbols(text: string, filename: string): Promise<FileSymbols> {
  const ts = (await import('typescript')).default;
  const sf = ts.createSourceFile(filename, text, ts.ScriptTarget.Latest, true, scriptKind(ts, filename));
  const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;

  const docOf = (node: Node): { doc: string; start: number } => {
    const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
    const jsdoc = [...ranges].reverse().find((r) => text.startsWith('/**', r.pos));
    if (!jsdoc) return { doc: '', start: line(node.getStart(sf)) };
    return { doc: cleanDoc(text.slice(jsdoc.pos, jsdoc.end)), start: line(jsdoc.pos) };
  };
  const isExported = (node: Node): boolean => {
    const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
    return !!mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword);
  };
  /** Text from the declaration's start (after its doc comment) to its body. */
  const signature = (node: Node, body: Node | undefined): string => {
    const start = node.getStart(sf);
    const end = body ? body.getStart(sf) : Math.min(node.getEnd(), text.indexOf('\n', start) === -1 ? node.getEnd() : text.indexOf('\n', start));
    return collapseSignature(text.slice(start, end).replace(/\s*(=>)?\s*$/, (m) => (m.includes('=>') ? ' =>' : '')));
  };
  const make = (kind: SymbolKind, name: string, node: Node, body: Node | undefined, children: CodeSymbol[] = []): CodeSymbol => {
    const { doc, start } = docOf(node);
    return { kind, name, signature: signature(node, body), doc, start, end: line(node.getEnd()), ...(isExported(node) ? { exported: true } : {}), children };
  };
  const nameOf = (n: { name?: import('typescript').Node | undefined }): string => (n.name ? n.name.getText(sf) : 'default');

  const classMembers = (members: import('typescript').NodeArray<import('typescript').ClassElement | import('typescript').TypeElement>): CodeSymbol[] => {
    const out: CodeSymbol[] = [];
    for (const m of members) {
      if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) out.push(make('method', nameOf(m), m, ts.isMethodDeclaration(m) ? m.body : undefined));
      else if (ts.isConstructorDeclaration(m)) out.push(make('constructor', 'constructor', m, m.body));
      else if (ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) out.push(make('method', `${ts.isGetAccessor(m) ? 'get' : 'set'} ${nameOf(m)}`, m, m.body));
      else if (ts.isPropertyDeclaration(m) && m.initializer && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer))) {
        out.push(make('method', nameOf(m), m, m.initializer.body));
      }
    }
    return out;
  };

  const imports: CodeImport[] = [];
  const visitStatements = (statements: import('typescript').NodeArray<import('typescript').Statement>): CodeSymbol[] => {
    const out: CodeSymbol[] = [];
    for (const s of statements) {
      if (ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier)) {
        const spec = s.moduleSpecifier;
        imports.push({ module: spec && ts.isStringLiteral(spec) ? spec.text : spec?.getText(sf) ?? '', line: line(s.getStart(sf)), endLine: line(s.getEnd()) });
      } else if (ts.isImportEqualsDeclaration(s)) {
        imports.push({ module: s.moduleReference.getText(sf).replace(/^require\((['"])(.*)\1\)$/, '$2'), line: line(s.getStart(sf)), endLine: line(s.getEnd()) });
      } else if (ts.isFunctionDeclaration(s)) out.push(make('function', nameOf(s), s, s.body));
      else if (ts.isClassDeclaration(s)) out.push(make('class', nameOf(s), s, undefined, classMembers(s.members)));
      else if (ts.isInterfaceDeclaration(s)) out.push(make('interface', nameOf(s), s, undefined, classMembers(s.members)));
      else if (ts.isTypeAliasDeclaration(s)) out.push(make('type', nameOf(s), s, undefined));
      else if (ts.isEnumDeclaration(s)) out.push(make('enum', nameOf(s), s, undefined));
      else if (ts.isModuleDeclaration(s)) {
        const body = s.body && ts.isModuleBlock(s.body) ? s.body : undefined;
        out.push(make('namespace', nameOf(s), s, body, body ? visitStatements(body.statements) : []));
      } else if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations) {
          const init = d.initializer;
          const name = d.name.getText(sf);
          if (init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' && init.arguments[0] && ts.isStringLiteral(init.arguments[0])) {
            imports.push({ module: init.arguments[0].text, line: line(s.getStart(sf)), endLine: line(s.getEnd()) });
            continue;
          }
          const target = s.declarationList.declarations.length === 1 ? s : d;
          if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) out.push({ ...make('function', name, target, init.body), exported: isExported(s) || undefined } as CodeSymbol);
          else if (init && ts.isClassExpression(init)) out.push(make('class', name, target, undefined, classMembers(init.members)));
          else if (isExported(s) || (s.declarationList.flags & ts.NodeFlags.Const) !== 0) {
            const sym = make((s.declarationList.flags & ts.NodeFlags.Const) !== 0 ? 'constant' : 'variable', name, target, undefined);
            if (isExported(s)) sym.exported = true;
            out.push(sym);
          }
        }
      }
    }
    return out.map((x) => (x.exported === undefined ? (delete x.exported, x) : x));
  };
  const symbols = visitStatements((sf as SourceFile).statements);
  return { imports, symbols, parser: 'typescript' };
}
