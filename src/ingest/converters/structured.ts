/**
 * JSON, JSONL, YAML and XML: a tree of the document's own structure with line ranges into the
 * source: top-level keys (second level for large values), arrays in item windows. JSON by its
 * outline (json-outline.ts: one pass, character ranges, no syntax tree), YAML by the `yaml` parser. XML validated by
 * fast-xml-parser, then the root's child elements are located by a tag scanner.
 */
import { basename, extname } from 'node:path';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import type { FileCard } from '../../store/schemas.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { decodeText, splitLines } from './text-util.js';
import { followPlan, type Capabilities } from './plan-shape.js';
import { jsonOutline, type JsonContainer, type JsonEntry } from './json-outline.js';

/** Array items (or JSONL records, or repeated XML siblings) per node. */
export const ITEMS_PER_NODE = 50;
/** A key whose text is longer than this is split into its own keys (one level deeper). */
export const SPLIT_VALUE_CHARS = 4000;
/** Keys listed in a node's summary. */
const SUMMARY_KEYS = 12;

class LineIndex {
  private starts: number[] = [0];
  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }
  line(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

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
  idx: LineIndex;
}

function slice(ctx: Ctx, a: number, b: number): string {
  return ctx.lines.slice(a - 1, b).join('\n');
}

function rangeLines(ctx: Ctx, start: number, end: number): [number, number] {
  const a = ctx.idx.line(start);
  const b = Math.max(a, ctx.idx.line(Math.max(start, end - 1)));
  return [a, b];
}

async function yamlCollectionNodes(ctx: Ctx, node: YamlNode, depth: number, yaml: typeof import('yaml')): Promise<ConvertedNode[]> {
  if (yaml.isMap(node)) {
    const out: ConvertedNode[] = [];
    for (const p of (node as unknown as { items: YamlPair[] }).items) {
      const key = String(p.key?.toString() ?? '');
      const start = p.key?.range?.[0] ?? 0;
      const end = p.value?.range?.[2] ?? p.key?.range?.[2] ?? start;
      const line_range = rangeLines(ctx, start, end);
      const value = p.value && typeof p.value.toJSON === 'function' ? p.value.toJSON() : (p.value as unknown);
      const text = slice(ctx, line_range[0], line_range[1]);
      const n: ConvertedNode = { title: key, kind: 'key', summary: `${key}: ${describe(value)}`, line_range, children: [] };
      if (depth < 1 && p.value && text.length > SPLIT_VALUE_CHARS && (yaml.isMap(p.value) || yaml.isSeq(p.value))) {
        n.children = await yamlCollectionNodes(ctx, p.value, depth + 1, yaml);
        n.content = ctx.lines[line_range[0] - 1];
      } else n.content = text;
      out.push(n);
    }
    return out;
  }
  if (yaml.isSeq(node)) {
    const items = (node as unknown as { items: YamlNode[] }).items;
    const out: ConvertedNode[] = [];
    for (let i = 0; i < items.length; i += ITEMS_PER_NODE) {
      const group = items.slice(i, i + ITEMS_PER_NODE);
      const start = group[0]?.range?.[0] ?? 0;
      const end = group[group.length - 1]?.range?.[2] ?? start;
      const line_range = rangeLines(ctx, start, end);
      const first = group[0] && typeof group[0].toJSON === 'function' ? group[0].toJSON() : group[0];
      out.push({ title: `items ${i + 1}–${i + group.length}`, kind: 'items', summary: `${group.length} items; first: ${describe(first)}`, line_range, content: slice(ctx, line_range[0], line_range[1]), children: [] });
    }
    return out;
  }
  return [];
}

async function convertYaml(text: string, filename: string): Promise<ConvertResult> {
  const yaml = await import('yaml');
  const lines = splitLines(text);
  const ctx: Ctx = { lines, idx: new LineIndex(text) };
  const title = basename(filename, extname(filename));
  const docs = yaml.parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  const errors = list.flatMap((d) => d.errors);
  if (errors.length) {
    const e = errors[0]!;
    const at = e.linePos?.[0] ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    throw new ConvertError(`The YAML file is not valid${at}: ${e.message.split('\n')[0]}`, 'Fix the syntax (e.g. check it with a YAML linter) and ingest again.');
  }
  const children: ConvertedNode[] = [];
  for (const [i, d] of list.entries()) {
    const nodes = d.contents ? await yamlCollectionNodes(ctx, d.contents as unknown as YamlNode, 0, yaml) : [];
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

/** A JSON value as a node summary says it: its kind and size, or the scalar itself. */
function describeEntry(text: string, e: JsonEntry): string {
  const box = e.container;
  if (box?.kind === 'array') return `array of ${box.count}`;
  if (box) {
    const keys = box.entries.map((k) => k.key ?? '');
    return `object with ${box.count} key${box.count === 1 ? '' : 's'}: ${keys.slice(0, SUMMARY_KEYS).join(', ')}${box.count > SUMMARY_KEYS ? ', …' : ''}`;
  }
  return describe(JSON.parse(text.slice(e.valueStart, e.end)));
}

/** A JSON object's keys (a large value split one level deeper) or an array's item windows. */
function jsonNodes(ctx: Ctx, text: string, box: JsonContainer, depth: number): ConvertedNode[] {
  if (box.kind === 'object') {
    return box.entries.map((e) => {
      const key = e.key ?? '';
      const line_range = rangeLines(ctx, e.start, e.end);
      const body = slice(ctx, line_range[0], line_range[1]);
      const n: ConvertedNode = { title: key, kind: 'key', summary: `${key}: ${describeEntry(text, e)}`, line_range, children: [] };
      if (depth < 1 && e.container && body.length > SPLIT_VALUE_CHARS) {
        n.children = jsonNodes(ctx, text, e.container, depth + 1);
        n.content = ctx.lines[line_range[0] - 1];
      } else n.content = body;
      return n;
    });
  }
  const out: ConvertedNode[] = [];
  for (let i = 0; i < box.entries.length; i += ITEMS_PER_NODE) {
    const group = box.entries.slice(i, i + ITEMS_PER_NODE);
    const line_range = rangeLines(ctx, group[0]!.start, group[group.length - 1]!.end);
    out.push({ title: `items ${i + 1}–${i + group.length}`, kind: 'items', summary: `${group.length} items; first: ${describeEntry(text, group[0]!)}`, line_range, content: slice(ctx, line_range[0], line_range[1]), children: [] });
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
  const ctx: Ctx = { lines, idx: new LineIndex(text) };
  const title = basename(filename, extname(filename));
  const outline = jsonOutline(text);
  const children = outline ? jsonNodes(ctx, text, outline, 0) : [];
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
  const ctx: Ctx = { lines, idx: new LineIndex(text) };
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
  version: 2,
  async convert({ bytes, card, options }) {
    const result = await convertStructured(bytes, card);
    return followPlan(result, options.plan, STRUCTURED_CAPS, `${card.type.toUpperCase()} data`);
  },
};

async function convertStructured(bytes: Uint8Array, card: FileCard): Promise<ConvertResult> {
  const text = decodeText(bytes);
  if (text.trim().length === 0) throw new ConvertError('The file is empty.', 'Add content or remove the file from the inbox.');
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
