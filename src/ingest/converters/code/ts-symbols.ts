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

type Statement = import('typescript').Statement;
type Members = import('typescript').NodeArray<import('typescript').ClassElement | import('typescript').TypeElement>;

/** Reads one parsed file's declarations as symbols and its imports, statement by statement. */
class TsSymbolReader {
  readonly imports: CodeImport[] = [];
  constructor(
    private readonly ts: TS,
    private readonly sf: SourceFile,
    private readonly text: string,
  ) {}

  private line(pos: number): number {
    return this.sf.getLineAndCharacterOfPosition(pos).line + 1;
  }

  private docOf(node: Node): { doc: string; start: number } {
    const ranges = this.ts.getLeadingCommentRanges(this.text, node.getFullStart()) ?? [];
    const jsdoc = [...ranges].reverse().find((r) => this.text.startsWith('/**', r.pos));
    if (!jsdoc) return { doc: '', start: this.line(node.getStart(this.sf)) };
    return { doc: cleanDoc(this.text.slice(jsdoc.pos, jsdoc.end)), start: this.line(jsdoc.pos) };
  }

  isExported(node: Node): boolean {
    const ts = this.ts;
    const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
    return !!mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword || m.kind === ts.SyntaxKind.DefaultKeyword);
  }

  /** Text from the declaration's start (after its doc comment) to its body. */
  private signature(node: Node, body: Node | undefined): string {
    const text = this.text;
    const start = node.getStart(this.sf);
    const nl = text.indexOf('\n', start);
    const end = body ? body.getStart(this.sf) : Math.min(node.getEnd(), nl === -1 ? node.getEnd() : nl);
    return collapseSignature(text.slice(start, end).replace(/\s*(=>)?\s*$/, (m) => (m.includes('=>') ? ' =>' : '')));
  }

  private make(kind: SymbolKind, name: string, node: Node, body: Node | undefined, children: CodeSymbol[] = []): CodeSymbol {
    const { doc, start } = this.docOf(node);
    return { kind, name, signature: this.signature(node, body), doc, start, end: this.line(node.getEnd()), ...(this.isExported(node) ? { exported: true } : {}), children };
  }

  private nameOf(n: { name?: Node | undefined }): string {
    return n.name ? n.name.getText(this.sf) : 'default';
  }

  private classMembers(members: Members): CodeSymbol[] {
    const ts = this.ts;
    const out: CodeSymbol[] = [];
    for (const m of members) {
      if (ts.isMethodDeclaration(m) || ts.isMethodSignature(m)) out.push(this.make('method', this.nameOf(m), m, ts.isMethodDeclaration(m) ? m.body : undefined));
      else if (ts.isConstructorDeclaration(m)) out.push(this.make('constructor', 'constructor', m, m.body));
      else if (ts.isGetAccessorDeclaration(m) || ts.isSetAccessorDeclaration(m)) out.push(this.make('method', `${ts.isGetAccessor(m) ? 'get' : 'set'} ${this.nameOf(m)}`, m, m.body));
      else if (ts.isPropertyDeclaration(m) && m.initializer && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer))) {
        out.push(this.make('method', this.nameOf(m), m, m.initializer.body));
      }
    }
    return out;
  }

  private addImport(module: string, s: Statement): void {
    this.imports.push({ module, line: this.line(s.getStart(this.sf)), endLine: this.line(s.getEnd()) });
  }

  /** An import statement's module, or null when the statement imports nothing. */
  private importOf(s: Statement): string | null {
    const ts = this.ts;
    if (ts.isImportDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier)) {
      const spec = s.moduleSpecifier;
      return spec && ts.isStringLiteral(spec) ? spec.text : spec?.getText(this.sf) ?? '';
    }
    if (ts.isImportEqualsDeclaration(s)) return s.moduleReference.getText(this.sf).replace(/^require\((['"])(.*)\1\)$/, '$2');
    return null;
  }

  /** The symbol a declaration statement defines, or null. */
  private declaration(s: Statement): CodeSymbol | null {
    const ts = this.ts;
    if (ts.isFunctionDeclaration(s)) return this.make('function', this.nameOf(s), s, s.body);
    if (ts.isClassDeclaration(s)) return this.make('class', this.nameOf(s), s, undefined, this.classMembers(s.members));
    if (ts.isInterfaceDeclaration(s)) return this.make('interface', this.nameOf(s), s, undefined, this.classMembers(s.members));
    if (ts.isTypeAliasDeclaration(s)) return this.make('type', this.nameOf(s), s, undefined);
    if (ts.isEnumDeclaration(s)) return this.make('enum', this.nameOf(s), s, undefined);
    if (ts.isModuleDeclaration(s)) {
      const body = s.body && ts.isModuleBlock(s.body) ? s.body : undefined;
      return this.make('namespace', this.nameOf(s), s, body, body ? this.statements(body.statements) : []);
    }
    return null;
  }

  /** `const f = () => …`, `const C = class …`, exported or const values; `require()` calls as imports. */
  private variables(s: import('typescript').VariableStatement, out: CodeSymbol[]): void {
    const ts = this.ts;
    const isConst = (s.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of s.declarationList.declarations) {
      const init = d.initializer;
      const name = d.name.getText(this.sf);
      if (init && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require' && init.arguments[0] && ts.isStringLiteral(init.arguments[0])) {
        this.addImport(init.arguments[0].text, s);
        continue;
      }
      const target = s.declarationList.declarations.length === 1 ? s : d;
      if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) out.push({ ...this.make('function', name, target, init.body), exported: this.isExported(s) || undefined } as CodeSymbol);
      else if (init && ts.isClassExpression(init)) out.push(this.make('class', name, target, undefined, this.classMembers(init.members)));
      else if (this.isExported(s) || isConst) {
        const sym = this.make(isConst ? 'constant' : 'variable', name, target, undefined);
        if (this.isExported(s)) sym.exported = true;
        out.push(sym);
      }
    }
  }

  statements(statements: import('typescript').NodeArray<Statement>): CodeSymbol[] {
    const out: CodeSymbol[] = [];
    for (const s of statements) {
      const module = this.importOf(s);
      if (module !== null) {
        this.addImport(module, s);
        continue;
      }
      const sym = this.declaration(s);
      if (sym) out.push(sym);
      else if (this.ts.isVariableStatement(s)) this.variables(s, out);
    }
    return out.map((x) => (x.exported === undefined ? (delete x.exported, x) : x));
  }
}

export async function tsSymbols(text: string, filename: string): Promise<FileSymbols> {
  const ts = (await import('typescript')).default;
  const sf = ts.createSourceFile(filename, text, ts.ScriptTarget.Latest, true, scriptKind(ts, filename));
  const reader = new TsSymbolReader(ts, sf, text);
  const symbols = reader.statements(sf.statements);
  return { imports: reader.imports, symbols, parser: 'typescript' };
}
