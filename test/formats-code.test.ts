import { describe, it, expect, afterEach, vi } from 'vitest';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { TreeFile, type FileCard } from '../src/store/schemas.js';
import { codeConverter } from '../src/ingest/converters/code/index.js';
import type { ConvertResult, ConvertedNode } from '../src/ingest/converters/types.js';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';
import { readSource } from '../src/retrieve/read.js';

const P = (n: string) => join(FIXTURES, 'formats', 'project', n);
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

async function symbols(rel: string, language: string): Promise<ConvertResult> {
  const c: FileCard = { id: 'src_0000abcd', filename: rel.split('/').pop()!, original_path: `inbox/project/${rel}`, type: 'code', language, size_kb: 1, sha256: '0'.repeat(64) };
  return codeConverter.convert({ absPath: P(rel), card: c, bytes: readFileSync(P(rel)), plan: {} as never, options: { maxLeafPages: 5 } });
}
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title} ${JSON.stringify(n.line_range)}`, ...n.children.flatMap((c) => outline(c, d + 1))];
const find = (n: ConvertedNode, title: string): ConvertedNode | undefined => (n.title === title ? n : n.children.map((c) => find(c, title)).find(Boolean));

describe('code symbol trees', () => {
  it('TypeScript via the compiler API: imports, interface, class members, signatures, JSDoc, line ranges', async () => {
    const r = await symbols('src/api/rate-limiter.ts', 'typescript');
    expect(r.toc_source).toBe('symbols');
    expect(outline(r.root).slice(1)).toEqual([
      '  imports [1,2]',
      '  interface RateLimiterOptions [4,10]',
      '  type Decision [12,12]',
      '  class RateLimiter [14,50]',
      '    constructor constructor [21,23]',
      '    method take [25,36]',
      '    method get size [38,40]',
      '    method refill [42,49]',
      '  function limiterFromEnv [52,55]',
      '  constant DEFAULT_BURST [57,57]',
    ]);
    expect(r.root.children[0]!.meta!.modules).toEqual(['node:events', '../util/clock.js']);
    const take = find(r.root, 'method take')!;
    expect(take.meta).toMatchObject({ signature: 'take(clientId: string, cost = 1): Decision', doc: 'Try to take one token for `clientId`.' });
    expect(find(r.root, 'class RateLimiter')!.meta).toMatchObject({ exported: true, doc: 'A token-bucket rate limiter keyed by client id.\nBuckets refill continuously; a request costs one token.' });
    // a class's own text excludes its methods' bodies
    const cls = find(r.root, 'class RateLimiter')!;
    expect(cls.content).toContain('private buckets = new Map');
    expect(cls.content).not.toContain('Math.ceil');
    expect(r.meta).toMatchObject({ language: 'typescript', folder: 'inbox/project/src/api', parser: 'typescript', imports: '2' });
  });

  it('JavaScript (CommonJS): require() imports, arrow functions, classes', async () => {
    const r = await symbols('src/util/format-currency.js', 'javascript');
    expect(r.root.children.map((c) => c.title)).toEqual(['imports', 'function formatCurrency', 'function parseCurrency', 'class Ledger']);
    expect(r.root.children[0]!.meta!.modules).toEqual(['node:util', './locales.json']);
    expect(find(r.root, 'function parseCurrency')!.meta!.doc).toBe('Parse "$1,234.50" back to cents.');
    expect(find(r.root, 'class Ledger')!.children.map((c) => c.title)).toEqual(['constructor constructor', 'method add', 'method total']);
  });

  it('Python via tree-sitter: decorators, docstrings, methods, constructor', async () => {
    const r = await symbols('services/inventory.py', 'python');
    expect(outline(r.root).slice(1)).toEqual([
      '  imports [2,7]',
      '  class StockItem [14,26]',
      '    method needs_reorder [24,26]',
      '  class Inventory [29,54]',
      '    constructor __init__ [32,33]',
      '    method receive [35,41]',
      '    property total_units [43,45]',
      '    method reorder_report [47,54]',
      '  function load_csv [57,63]',
    ]);
    expect(r.root.children[0]!.meta!.modules).toEqual(['__future__', 'logging', 'dataclasses', 'datetime', 'typing']);
    expect(find(r.root, 'class StockItem')!.meta!.doc).toBe('One SKU held in one warehouse.');
    expect(find(r.root, 'method receive')!.meta!.signature).toBe('def receive(self, sku: str, warehouse: str, quantity: int) -> StockItem');
    expect(r.root.content).toContain('REORDER_FACTOR = 1.5'); // module-level code stays in the file node
    expect(r.meta!.parser).toBe('tree-sitter-python');
  });

  it('Python property accessors are told apart: the getter by its name, the setter and deleter named so', async () => {
    const { treeSitterSymbols } = await import('../src/ingest/converters/code/tree-sitter-symbols.js');
    const src = ['class Table:', '    @property', '    def alignment(self):', '        return self._a', '', '    @alignment.setter', '    def alignment(self, value):', '        self._a = value', '', '    @staticmethod', '    def make():', '        return Table()', ''].join('\n');
    const { symbols } = await treeSitterSymbols(src, 'python');
    expect(symbols[0]!.children.map((c) => `${c.kind} ${c.name}`)).toEqual(['property alignment', 'property alignment (setter)', 'method make']);
  });

  it('Go: structs and interfaces with their methods nested, doc comments', async () => {
    const r = await symbols('services/cache.go', 'go');
    expect(r.root.children.map((c) => c.title)).toEqual(['imports', 'struct entry', 'struct Cache', 'interface Store', 'function New']);
    expect(find(r.root, 'struct Cache')!.children.map((c) => c.title)).toEqual(['method Get', 'method Set', 'method removeElement']);
    expect(find(r.root, 'method Get')!.meta).toMatchObject({ signature: 'func (c *Cache) Get(key string) ([]byte, bool)', doc: 'Get returns the value for key when present and not expired.', exported: true });
    expect(find(r.root, 'struct Cache')!.meta!.doc).toBe('Cache is a concurrency-safe LRU cache.\nThe zero value is not usable; call New.');
    expect(r.root.children[0]!.meta!.modules).toEqual(['container/list', 'sync', 'time']);
  });

  it('Rust: enums, structs, traits, impl blocks with methods; doc comments above attributes', async () => {
    const r = await symbols('services/tokenizer.rs', 'rust');
    expect(r.root.children.map((c) => c.title)).toEqual([
      'imports', 'enum Token', 'struct TokenError', 'impl fmt::Display for TokenError', 'trait Tokenize', 'struct Lexer', 'impl Lexer<\'a>', 'impl Tokenize for str', 'function count_ops',
    ]);
    expect(find(r.root, 'enum Token')!.meta!.doc).toBe('One lexical token.');
    expect(find(r.root, 'enum Token')!.line_range).toEqual([6, 13]);
    expect(find(r.root, "impl Lexer<'a>")!.children.map((c) => c.title)).toEqual(['method new', 'method number']);
    expect(find(r.root, 'function count_ops')!.meta!.signature).toBe('pub fn count_ops(tokens: &[Token]) -> usize');
  });

  it('Java: class, constructor, methods, nested interface, Javadoc', async () => {
    const r = await symbols('services/OrderService.java', 'java');
    const cls = find(r.root, 'class OrderService')!;
    expect(cls.children.map((c) => c.title)).toEqual(['constructor OrderService', 'method place', 'method find', 'method pendingApproval', 'interface OrderRepository']);
    expect(find(r.root, 'method place')!.meta!.doc).toContain('Places an order and returns its id.');
    expect(find(r.root, 'interface OrderRepository')!.children).toHaveLength(3);
    expect(r.root.children[0]!.meta!.modules).toEqual(['java.math.BigDecimal', 'java.util.List', 'java.util.Optional']);
  });

  it('other languages fall back to line windows', async () => {
    const r = await symbols('scripts/deploy.rb', 'ruby');
    expect(r.approach).toBe('chunk_embed');
    expect(r.meta).toMatchObject({ language: 'ruby', parser: 'line-windows' });
    expect(r.root.content).toContain('def deploy(host, release)');
  });

  it('a code folder in the inbox is indexed file by file with its folder in the card', async () => {
    const root = tempStore();
    roots.push(root);
    cpSync(join(FIXTURES, 'formats', 'project'), join(root, 'inbox', 'project'), { recursive: true });
    const rep = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(rep.counts.failed).toBe(0);
    expect(rep.counts.indexed).toBe(7);
    expect(rep.warnings.filter((w) => w.includes('converter'))).toEqual([]);
    const entries = readCatalog(root).sources;
    const byPath = Object.fromEntries(entries.map((e) => [e.original_path, e]));
    expect(byPath['inbox/project/services/cache.go']!.meta).toMatchObject({ language: 'go', folder: 'inbox/project/services', functions: '4' });
    expect(byPath['inbox/project/src/api/rate-limiter.ts']!.strategy?.recommended_approach).toBe('symbol_index');
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, byPath['inbox/project/services/OrderService.java']!.tree_path!), 'utf8')));
    expect(tree.toc_source).toBe('symbols');
    expect(tree.root.children[1]!.title).toBe('class OrderService');
  });
});

describe('C and C++ headers (issue 14)', () => {
  /** Converts a header fixture as file `name`; `from` gives the fixture whose bytes it holds (default: the same). */
  const header = async (name: string, language: string, from = name) => {
    const dir = join(FIXTURES, 'formats', 'headers');
    const c: FileCard = { id: 'src_0000abcd', filename: name, original_path: `inbox/${name}`, type: 'code', language, size_kb: 1, sha256: '0'.repeat(64) };
    return codeConverter.convert({ absPath: join(dir, name), card: c, bytes: readFileSync(join(dir, from)), plan: {} as never, options: { maxLeafPages: 5 } });
  };

  it('a C header reads as its declarations: macros grouped, export macros and OF(()) wrappers seen through, docs above or below', async () => {
    const r = await header('ringbuf.h', 'c');
    expect(r.meta).toMatchObject({ parser: 'tree-sitter-c' });
    expect(outline(r.root).slice(1)).toEqual([
      '  imports [5,6]',
      '  constant RB_VERSION, RB_OK, RB_FULL, RB_EMPTY [8,11]',
      '  struct rb_t [17,22]',
      '  enum rb_mode [24,24]',
      '  function rb_init [26,30]',
      '  function rb_push [32,33]',
      '  function rb_is_empty [35,35]',
      '  function rb_used [37,37]',
    ]);
    expect(find(r.root, 'function rb_init')!.meta?.['doc']).toMatch(/Initialises rb over storage/);
    expect(find(r.root, 'function rb_push')!.meta?.['doc']).toMatch(/Pushes one byte/);
  });

  it('a C++ header: namespace, classes with their methods, a template', async () => {
    const r = await header('shapes.hpp', 'cpp');
    const lines = outline(r.root).slice(1).map((l) => l.replace(/ \[.*$/, ''));
    expect(lines).toEqual([
      '  imports',
      '  namespace geo',
      '    class Shape',
      '      method ~Shape',
      '      method area',
      '      method name',
      '    class Circle',
      '      method Circle',
      '      method area',
      '    function clamp',
    ]);
    // a doc comment between two methods with no blank line documents the one below it (jags' Console.h)
    const area = r.root.children.flatMap((c) => c.children).flatMap((c) => c.children).find((n) => n.title.startsWith('method area'))!;
    expect(area.meta?.['doc']).toBe('The area in square units.');
    expect(area.line_range).toEqual([11, 12]);
  });

  it('doc comments keep their all-caps words (macros are blanked for the parser only) and their non-ASCII letters', async () => {
    const { treeSitterSymbols } = await import('../src/ingest/converters/code/tree-sitter-symbols.js');
    const src = ['// Ünïcödé — a header', '', '/** Größe of the RNG state: DUMP_DATA dumps the observed nodes. */', 'ZEXTERN int ZEXPORT dump_state(int chain);', ''].join('\n');
    const { symbols } = await treeSitterSymbols(src, 'c');
    const fn = symbols.find((s) => s.name === 'dump_state')!;
    expect(fn.doc).toBe('Größe of the RNG state: DUMP_DATA dumps the observed nodes.');
  });

  it('a window of a symbol cites its own lines of the file; a class, whose text leaves out its members\' lines, cites the whole class', async () => {
    const root = tempStore();
    roots.push(root);
    cpSync(join(FIXTURES, 'formats', 'headers'), join(root, 'inbox'), { recursive: true });
    expect((await ingest(root, { paths: [join(root, 'inbox')] })).counts.failed).toBe(0);
    const file = readFileSync(join(FIXTURES, 'formats', 'headers', 'ringbuf.h'), 'utf8').split('\n');
    const at = file.findIndex((l) => l.includes('next read')) + 1;
    const struct = readSource(root, 'ringbuf.h', { around: 'next read', maxChars: 20 });
    const [from, to] = struct.citation.lines!;
    expect(from).toBe(at);
    expect(to - from).toBeLessThanOrEqual(1);
    // Circle's text is its own lines with its methods' left out: its lines are not its text's
    const tree = TreeFile.parse(JSON.parse(readFileSync(join(root, readCatalog(root).sources.find((e) => e.filename === 'shapes.hpp')!.tree_path!), 'utf8')));
    const circle = tree.root.children.flatMap((c) => c.children).find((n) => n.title === 'class Circle')!;
    const a = readSource(root, 'shapes.hpp', { nodeId: circle.node_id, maxChars: 20 });
    expect(a.citation.lines).toEqual(circle.line_range);
  });

  it('a C++ header named .h (detected as C) is parsed as C++: its namespace is not read as a function', async () => {
    const r = await header('shapes-cpp.h', 'c', 'shapes.hpp');
    expect(r.meta).toMatchObject({ parser: 'tree-sitter-cpp' });
    const lines = outline(r.root).slice(1).map((l) => l.replace(/ \[.*$/, ''));
    expect(lines).toContain('  namespace geo');
    expect(lines).toContain('    class Circle');
  });
});

describe('Doxygen comments', () => {
  it('read as their text: the restated declaration and group lines go, \\brief goes, \\param and \\return become labels (libnova)', async () => {
    const src = ['/*! \\fn void ln_get_hrz_from_equ(struct ln_equ_posn *object, double JD);', '* \\brief Calculate horizontal coordinates from equatorial coordinates', '* \\param JD Julian day', '* \\return nothing', '* \\ingroup transform', '*/',
      'void ln_get_hrz_from_equ(struct ln_equ_posn *object, double JD);', ''].join('\n');
    const c: FileCard = { id: 'src_0000abcd', filename: 'transform.h', original_path: 'inbox/transform.h', type: 'code', language: 'c', size_kb: 1, sha256: '0'.repeat(64) };
    const r = await codeConverter.convert({ absPath: '/nonexistent/transform.h', card: c, bytes: new TextEncoder().encode(src), plan: {} as never, options: { maxLeafPages: 5 } });
    const fn = find(r.root, 'function ln_get_hrz_from_equ')!;
    expect(fn.summary).toContain('Calculate horizontal coordinates from equatorial coordinates JD: Julian day Returns: nothing');
    expect(fn.summary).not.toMatch(/\\fn|\\brief|\\ingroup|^!/);
  });
});

describe('grammar loading (tree-sitter)', () => {
  it('grammars requested at the same time all load: no file falls back to line windows', async () => {
    for (let round = 0; round < 3; round++) {
      vi.resetModules();
      const { treeSitterSymbols } = await import('../src/ingest/converters/code/tree-sitter-symbols.js');
      const files: Array<[string, 'python' | 'go' | 'rust' | 'java']> = [
        ['services/OrderService.java', 'java'], ['services/cache.go', 'go'], ['services/tokenizer.rs', 'rust'], ['services/inventory.py', 'python'],
      ];
      const out = await Promise.allSettled(files.map(([f, l]) => treeSitterSymbols(readFileSync(P(f), 'utf8'), l)));
      expect(out.map((r) => (r.status === 'fulfilled' ? r.value.parser : String(r.reason)))).toEqual(files.map(([, l]) => `tree-sitter-${l}`));
    }
  });

  it('a converter that falls back says so once in the run warnings, naming the first file', async () => {
    const { noteConverterWarning, fallbackWarnings } = await import('../src/ingest/fallbacks.js');
    const run = { fallbacks: new Map() };
    noteConverterWarning(run, 'code', 'inbox/a.java', 'symbol parser failed (boom); indexed as line windows');
    noteConverterWarning(run, 'code', 'inbox/b.java', 'symbol parser failed (boom); indexed as line windows');
    expect(fallbackWarnings(run)).toEqual(['code converter fell back for 2 source(s) (first: inbox/a.java: symbol parser failed (boom); indexed as line windows)']);
  });
});
