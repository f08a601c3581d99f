/**
 * JSON, JSONL, YAML and XML: a tree of the document's own structure with line ranges into the
 * source. JSON is read into an outline (json-outline.ts: one pass, character ranges, no syntax
 * tree), YAML by the `yaml` parser into the same outline, and one builder makes both trees: keys,
 * large values split into their entries level by level, array items in windows. XML validated by
 * fast-xml-parser, then the root's child elements are located by a tag scanner.
 */
import { basename, extname } from 'node:path';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import type { FileCard } from '../../store/schemas.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { decodeNonEmptyText, lineLocator, splitLines } from './text-util.js';
import { followPlan, type Capabilities } from './plan-shape.js';
import { JSON_OUTLINE_DEPTH, jsonOutline, type JsonContainer, type JsonEntry } from './json-outline.js';
import { cutAtWord } from './titles.js';

/** Array items (or JSONL records, or repeated XML siblings) per node. */
export const ITEMS_PER_NODE = 50;
/** A value whose text is longer than this is split into its entries (keys or items), one level deeper. */
export const SPLIT_VALUE_CHARS = 4000;
/** Keys listed in a node's summary. */
const SUMMARY_KEYS = 12;


function describe(v: unknown): string {
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    return `object with ${keys.length} key${keys.length === 1 ? '' : 's'}: ${keys.slice(0, SUMMARY_KEYS).join(', ')}${keys.length > SUMMARY_KEYS ? ', …' : ''}`;
  }
  if (typeof v === 'string') return v.length > 120 ? `${v.slice(0, 119)}…` : v;
  return String(v);
}

type YamlNode = { range?: [number, number, number] | null; items?: unknown[]; toJSON?: () => unknown };
type YamlPair = { key: YamlNode & { toString(): string }; value: YamlNode | null };

interface Ctx {
  lines: string[];
  idx: ReturnType<typeof lineLocator>;
}

function slice(ctx: Ctx, a: number, b: number): string {
  return ctx.lines.slice(a - 1, b).join('\n');
}

function rangeLines(ctx: Ctx, start: number, end: number): [number, number] {
  const a = ctx.idx.lineAt(start);
  const b = Math.max(a, ctx.idx.lineAt(Math.max(start, end - 1)));
  return [a, b];
}

/**
 * A YAML collection as the outline JSON gets (json-outline.ts), so both are outlined by one builder
 * (`structuredNodes`): entries with their character ranges, scalars with their values.
 */
function yamlOutline(node: YamlNode, yaml: typeof import('yaml'), depth = 0): JsonContainer | undefined {
  const entry = (value: YamlNode | null, start: number, fallbackEnd: number, key?: string): JsonEntry => {
    const e: JsonEntry = { start, valueStart: value?.range?.[0] ?? fallbackEnd, end: value?.range?.[2] ?? fallbackEnd };
    if (key !== undefined) e.key = key;
    const box = value && depth < JSON_OUTLINE_DEPTH ? yamlOutline(value, yaml, depth + 1) : undefined;
    if (box) e.container = box;
    else e.value = value && typeof value.toJSON === 'function' ? value.toJSON() : (value as unknown);
    return e;
  };
  if (yaml.isMap(node)) {
    const entries = (node as unknown as { items: YamlPair[] }).items.map((p) => {
      const start = p.key?.range?.[0] ?? 0;
      return entry(p.value, start, p.key?.range?.[2] ?? start, String(p.key?.toString() ?? ''));
    });
    return { kind: 'object', start: node.range?.[0] ?? 0, end: node.range?.[2] ?? 0, entries, count: entries.length };
  }
  if (yaml.isSeq(node)) {
    const entries = (node as unknown as { items: YamlNode[] }).items.map((it) => entry(it, it.range?.[0] ?? 0, it.range?.[2] ?? 0));
    return { kind: 'array', start: node.range?.[0] ?? 0, end: node.range?.[2] ?? 0, entries, count: entries.length };
  }
  return undefined;
}

/** How V8 says a recursive reader ran out of stack (the yaml package reports it as a parse error). */
const STACK_EXHAUSTED = /maximum call stack size exceeded/i;

function tooDeep(): ConvertError {
  return new ConvertError(
    'The YAML file nests more levels deep than the YAML reader can follow (it ran out of stack); nothing of it was indexed.',
    'Flatten the deepest structure or store it as JSON Lines; or, when the text matters more than its structure, rename the file to .txt and ingest again.',
  );
}

function outlineOrTooDeep<T>(outline: () => T): T {
  try {
    return outline();
  } catch (err) {
    if (err instanceof RangeError && STACK_EXHAUSTED.test(err.message)) throw tooDeep();
    throw err;
  }
}

async function convertYaml(text: string, filename: string): Promise<ConvertResult> {
  const yaml = await import('yaml');
  const lines = splitLines(text);
  const ctx: Ctx = { lines, idx: lineLocator(text) };
  const title = basename(filename, extname(filename));
  const docs = yaml.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const errors = list.flatMap((d) => d.errors);
  if (errors.some((e) => STACK_EXHAUSTED.test(e.message))) throw tooDeep();
  if (errors.length) {
    const e = errors[0]!;
    const at = e.linePos?.[0] ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    throw new ConvertError(`The YAML file is not valid${at}: ${e.message.split('\n')[0]}`, 'Fix the syntax (e.g. check it with a YAML linter) and ingest again.');
  }
  const children: ConvertedNode[] = [];
  for (const [i, d] of list.entries()) {
    const box = d.contents ? outlineOrTooDeep(() => yamlOutline(d.contents as unknown as YamlNode, yaml)) : undefined;
    const nodes = box ? structuredNodes(ctx, text, box, 0) : [];
    if (list.length > 1) {
      const r = (d.contents as unknown as YamlNode | null)?.range;
      const line_range: [number, number] = r ? rangeLines(ctx, r[0], r[2]) : [1, 1];
      children.push({ title: `document ${i + 1}`, kind: 'document', line_range, children: nodes, ...(nodes.length ? {} : { content: slice(ctx, line_range[0], line_range[1]) }) });
    } else children.push(...nodes);
  }
  const root: ConvertedNode = { title, kind: 'document', line_range: [1, Math.max(1, lines.length)], children };
  if (children.length === 0) root.content = text;
  const topKeys = list.length === 1 ? children.map((c) => c.title) : [];
  return {
    title,
    toc_source: 'detected',
    root,
    line_count: lines.length,
    card: { key_topics: topKeys.slice(0, 20), sections_overview: children.map((c) => c.title).slice(0, 20) },
    meta: { format: 'yaml', top_level: String(children.length) },
  };
}

function convertJsonl(text: string, filename: string): ConvertResult {
  const lines = splitLines(text);
  const records: { line: number; keys: string[] }[] = [];
  lines.forEach((l, i) => {
    if (!l.trim()) return;
    try {
      const v = JSON.parse(l) as unknown;
      records.push({ line: i + 1, keys: v && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : [] });
    } catch (err) {
      throw new ConvertError(`Line ${i + 1} of the JSON Lines file is not valid JSON: ${err instanceof Error ? err.message : String(err)}`, 'Each line must be one complete JSON value; fix or remove that line.');
    }
  });
  if (records.length === 0) throw new ConvertError('The file has no records.', 'Add content or remove the file from the inbox.');
  const children: ConvertedNode[] = [];
  for (let i = 0; i < records.length; i += ITEMS_PER_NODE) {
    const g = records.slice(i, i + ITEMS_PER_NODE);
    const a = g[0]!.line;
    const b = g[g.length - 1]!.line;
    children.push({ title: `records ${i + 1}–${i + g.length}`, kind: 'items', line_range: [a, b], content: lines.slice(a - 1, b).join('\n'), children: [] });
  }
  const keys = [...new Set(records.flatMap((r) => r.keys))];
  const title = basename(filename, extname(filename));
  return {
    title,
    toc_source: 'detected',
    root: { title, kind: 'document', summary: `${records.length} JSON records; fields: ${keys.slice(0, SUMMARY_KEYS).join(', ')}`, line_range: [1, lines.length], children },
    line_count: lines.length,
    card: { key_topics: keys.slice(0, 20) },
    meta: { format: 'jsonl', records: String(records.length) },
  };
}

/** A value as a node summary says it: its kind and size, or the scalar itself. */
function describeEntry(text: string, e: JsonEntry): string {
  const box = e.container;
  if (box?.kind === 'array') return `array of ${box.count}`;
  if (box) {
    const keys = box.entries.map((k) => k.key ?? '');
    return `object with ${box.count} key${box.count === 1 ? '' : 's'}: ${keys.slice(0, SUMMARY_KEYS).join(', ')}${box.count > SUMMARY_KEYS ? ', …' : ''}`;
  }
  return describe(scalarOf(text, e));
}

/** A scalar entry's value: as the YAML reader gave it, or read from the JSON text. */
function scalarOf(text: string, e: JsonEntry): unknown {
  return 'value' in e ? e.value : (JSON.parse(text.slice(e.valueStart, e.end)) as unknown);
}

/** Keys whose value names an array item ("name": "zlib"), in order of preference. */
const ITEM_LABEL_KEYS = ['name', 'title', 'id', 'key', 'label'];
/** Characters (key and value) of a key a split object keeps in its own text rather than as a node. */
export const SMALL_VALUE_CHARS = 300;
/** Characters of an item label kept in its node title. */
const ITEM_LABEL_CHARS = 80;

/** An array item's name: its name-like key's value (a number only when `numbers`), or null. */
function itemLabel(text: string, e: JsonEntry, numbers: boolean): string | null {
  const keys = e.container?.kind === 'object' ? e.container.entries : [];
  for (const want of ITEM_LABEL_KEYS) {
    const k = keys.find((x) => x.key?.toLowerCase() === want && !x.container);
    const v = k ? scalarOf(text, k) : undefined;
    if ((typeof v === 'string' && v.trim()) || (numbers && typeof v === 'number')) return String(v).replace(/\s+/g, ' ').trim().slice(0, ITEM_LABEL_CHARS);
  }
  return null;
}

/** What an array item is called: its name-like key's value, else its position. */
function itemTitle(text: string, e: JsonEntry, position: number): string {
  return itemLabel(text, e, true) ?? `item ${position}`;
}

/** Characters of the item names a window's summary lists at most. */
const WINDOW_NAMES_CHARS = 300;

/**
 * A window of items as a node: titled by its positions and, when its items are named, by its first
 * and last names ("items 1–44: UAE Dirham … Czech Koruna"), its summary listing the names it holds;
 * "items 1–44" alone said nothing of ISO 4217's currencies to choose by.
 */
function windowNode(ctx: Ctx, text: string, group: JsonEntry[], done: number): ConvertedNode {
  const first = group[0]!;
  const line_range = rangeLines(ctx, first.start, group[group.length - 1]!.end);
  const names = group.map((e) => itemLabel(text, e, false)).filter((n): n is string => n !== null);
  const named = names.length === group.length;
  const span = `items ${done + 1}–${done + group.length}`;
  const listed = cutAtWord(names.join(', '), WINDOW_NAMES_CHARS);
  return {
    title: named ? `${span}: ${names[0]} … ${names[names.length - 1]}` : span,
    kind: 'items',
    summary: named ? `${group.length} items: ${listed}` : `${group.length} items; first: ${describeEntry(text, first)}`,
    line_range, content: slice(ctx, line_range[0], line_range[1]), children: [],
  };
}

/** Whether a key of a split object stays in its parent's text: a short string, number or literal. */
function isSmallScalar(e: JsonEntry): boolean {
  return !e.container && e.end - e.start <= SMALL_VALUE_CHARS;
}

/**
 * A value's node: its text, or (large, with entries, above the last level) its entries as child
 * nodes; an object split so keeps its short scalar keys ("name", "type", "version") as its own text.
 */
function valueNode(ctx: Ctx, text: string, e: JsonEntry, depth: number, node: Omit<ConvertedNode, 'line_range' | 'children'>): ConvertedNode {
  const line_range = rangeLines(ctx, e.start, e.end);
  const body = slice(ctx, line_range[0], line_range[1]);
  const n: ConvertedNode = { ...node, line_range, children: [] };
  const box = e.container;
  // as deep as the outline lists entries (json-outline.ts JSON_OUTLINE_DEPTH), the levels that may become tree levels
  if (depth + 1 < JSON_OUTLINE_DEPTH && box && box.entries.length > 0 && body.length > SPLIT_VALUE_CHARS) {
    const own = box.kind === 'object' ? box.entries.filter(isSmallScalar) : [];
    const rest = own.length > 0 ? { ...box, entries: box.entries.filter((x) => !isSmallScalar(x)) } : box;
    n.children = rest.entries.length > 0 ? structuredNodes(ctx, text, rest, depth + 1) : [];
    n.content = [ctx.lines[line_range[0] - 1]!, ...own.map((x) => { const [a, b] = rangeLines(ctx, x.start, x.end); return slice(ctx, a, b); })].join('\n');
    if (n.children.length === 0) n.content = body;
  } else n.content = body;
  return n;
}

/** Consecutive items in windows of at most ITEMS_PER_NODE items and (past the first) SPLIT_VALUE_CHARS characters. */
function itemWindows(entries: JsonEntry[]): JsonEntry[][] {
  const out: JsonEntry[][] = [];
  let cur: JsonEntry[] = [];
  for (const e of entries) {
    if (cur.length > 0 && (cur.length >= ITEMS_PER_NODE || e.end - cur[0]!.start > SPLIT_VALUE_CHARS)) {
      out.push(cur);
      cur = [];
    }
    cur.push(e);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

/**
 * An object's keys or an array's items (JSON or YAML), as nodes: a large value is split into its own entries,
 * down to JSON_OUTLINE_DEPTH levels; small items share windows, an item alone in its window is a node
 * titled by its name ("zlib", not "items 1–1").
 */
function structuredNodes(ctx: Ctx, text: string, box: JsonContainer, depth: number): ConvertedNode[] {
  if (box.kind === 'object') {
    return box.entries.map((e) => {
      const key = e.key ?? '';
      return valueNode(ctx, text, e, depth, { title: key, kind: 'key', summary: `${key}: ${describeEntry(text, e)}` });
    });
  }
  const out: ConvertedNode[] = [];
  let done = 0;
  for (const group of itemWindows(box.entries)) {
    const first = group[0]!;
    if (group.length === 1) out.push(valueNode(ctx, text, first, depth, { title: itemTitle(text, first, done + 1), kind: 'item', summary: `item ${done + 1}: ${describeEntry(text, first)}` }));
    else out.push(windowNode(ctx, text, group, done));
    done += group.length;
  }
  return out;
}

function convertJson(text: string, filename: string): ConvertResult {
  try {
    JSON.parse(text);
  } catch (err) {
    throw new ConvertError(`The JSON file is not valid: ${err instanceof Error ? err.message : String(err)}`, 'Fix the syntax (e.g. `node -e "JSON.parse(require(\'fs\').readFileSync(0))" < file.json`) and ingest again.');
  }
  const lines = splitLines(text);
  const ctx: Ctx = { lines, idx: lineLocator(text) };
  const title = basename(filename, extname(filename));
  const outline = jsonOutline(text);
  const children = outline ? structuredNodes(ctx, text, outline, 0) : [];
  const root: ConvertedNode = { title, kind: 'document', line_range: [1, Math.max(1, lines.length)], children };
  if (children.length === 0) root.content = text;
  const topKeys = children.map((c) => c.title);
  return {
    title,
    toc_source: 'detected',
    root,
    line_count: lines.length,
    card: { key_topics: topKeys.slice(0, 20), sections_overview: topKeys.slice(0, 20) },
    meta: { format: 'json', top_level: String(children.length) },
  };
}

// ---------------------------------------------------------------- XML

interface XmlElement {
  name: string;
  start: number;
  end: number;
  attrs: string;
}

/** Child elements of the root with their source offsets (comments, CDATA, PIs and doctype skipped). */
export function xmlTopChildren(text: string): { root: string; children: XmlElement[] } {
  const re = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>|<\/?([A-Za-z_][\w.:-]*)((?:\s+[^\s=>/]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
  let depth = 0;
  let root = '';
  const children: XmlElement[] = [];
  let open: XmlElement | null = null;
  for (const m of text.matchAll(re)) {
    const name = m[2];
    if (!name) continue;
    const closing = m[0].startsWith('</');
    const selfClosing = m[4] === '/';
    if (closing) {
      depth--;
      if (depth === 1 && open) {
        open.end = m.index! + m[0].length;
        children.push(open);
        open = null;
      }
      continue;
    }
    if (depth === 0) root = name;
    else if (depth === 1) {
      const el = { name, start: m.index!, end: m.index! + m[0].length, attrs: m[3] ?? '' };
      if (selfClosing) children.push(el);
      else open = el;
    }
    if (!selfClosing) depth++;
  }
  return { root, children };
}

function xmlLabel(el: XmlElement, text: string): string {
  const attr = /\b(?:id|name|title|key|code)\s*=\s*["']([^"']+)["']/i.exec(el.attrs)?.[1];
  if (attr) return `${el.name} ${attr}`;
  const inner = /<(?:title|name|id)\b[^>]*>([^<]{1,80})</i.exec(text.slice(el.start, Math.min(el.end, el.start + 2000)))?.[1]?.trim();
  return inner ? `${el.name}: ${inner}` : el.name;
}

async function convertXml(text: string, filename: string): Promise<ConvertResult> {
  const { XMLValidator } = await import('fast-xml-parser');
  const valid = XMLValidator.validate(text, { allowBooleanAttributes: true });
  if (valid !== true) {
    const e = valid.err;
    throw new ConvertError(`The XML file is not well-formed at line ${e.line}, column ${e.col}: ${e.msg}`, 'Fix the markup (e.g. `xmllint --noout file.xml` shows the error) and ingest again.');
  }
  const lines = splitLines(text);
  const ctx: Ctx = { lines, idx: lineLocator(text) };
  const { root: rootName, children: els } = xmlTopChildren(text);
  const children: ConvertedNode[] = [];
  // runs of same-named siblings (records) are grouped in windows; distinct elements stay single nodes
  for (let i = 0; i < els.length; ) {
    let j = i;
    while (j < els.length && els[j]!.name === els[i]!.name) j++;
    const run = els.slice(i, j);
    if (run.length > ITEMS_PER_NODE) {
      for (let k = 0; k < run.length; k += ITEMS_PER_NODE) {
        const g = run.slice(k, k + ITEMS_PER_NODE);
        const line_range = rangeLines(ctx, g[0]!.start, g[g.length - 1]!.end);
        children.push({ title: `${run[0]!.name} ${k + 1}–${k + g.length}`, kind: 'elements', line_range, content: slice(ctx, line_range[0], line_range[1]), children: [] });
      }
    } else {
      for (const el of run) {
        const line_range = rangeLines(ctx, el.start, el.end);
        children.push({ title: xmlLabel(el, text), kind: 'element', line_range, content: slice(ctx, line_range[0], line_range[1]), children: [] });
      }
    }
    i = j;
  }
  const title = basename(filename, extname(filename));
  const names = [...new Set(els.map((e) => e.name))];
  const root: ConvertedNode = { title, kind: 'document', summary: `<${rootName}> with ${els.length} child elements: ${names.slice(0, SUMMARY_KEYS).join(', ')}`, line_range: [1, Math.max(1, lines.length)], children };
  if (children.length === 0) root.content = text;
  return { title, toc_source: 'detected', root, line_count: lines.length, card: { key_topics: names.slice(0, 20) }, meta: { format: 'xml', root: rootName } };
}

/** What this converter does with each plan field (see plan-shape.ts). */
const STRUCTURED_CAPS: Capabilities = {
  approaches: ['tree_index', 'chunk_embed'],
  keySections: 'structured data is indexed by its own keys or elements',
  tablesAsRows: 'structured data has no tables to read rows from',
  twoColumns: 'structured data has no page layout',
  plaintext: { native: false, reason: 'structured data is kept as written so line ranges match the file' },
  estimatedNodes: 'a structured-data tree follows its keys or elements',
};

export const structuredConverter: Converter = {
  name: 'structured',
  version: 4,
  async convert({ bytes, card, options }) {
    const result = await convertStructured(bytes, card);
    return followPlan(result, options.plan, STRUCTURED_CAPS, `${card.type.toUpperCase()} data`);
  },
};

async function convertStructured(bytes: Uint8Array, card: FileCard): Promise<ConvertResult> {
  const text = decodeNonEmptyText(bytes);
  const ext = extname(card.filename).toLowerCase();
  if (card.type === 'xml') return convertXml(text, card.filename);
  if (card.type === 'json' && (ext === '.jsonl' || ext === '.ndjson')) return convertJsonl(text, card.filename);
  if (card.type === 'json') return convertJson(text, card.filename);
  return convertYaml(text, card.filename);
}

/** JSON, YAML and XML by name; JSON and XML also by their opening characters. */
export const structuredRegistration: ConverterRegistration = {
  converter: structuredConverter,
  formats: [
    { type: 'json', mime: 'application/json', extensions: ['.json', '.jsonl'], sniffText: (s) => s.startsWith('{') || s.startsWith('['), priority: PRIORITY_SPECIFIC },
    { type: 'yaml', mime: 'application/yaml', extensions: ['.yaml', '.yml'], priority: PRIORITY_SPECIFIC },
    { type: 'xml', mime: 'application/xml', extensions: ['.xml'], sniffText: (s) => s.startsWith('<?xml'), priority: PRIORITY_SPECIFIC },
  ],
};
