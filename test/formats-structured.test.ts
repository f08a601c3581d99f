import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileCard } from '../src/store/schemas.js';
import { SPLIT_VALUE_CHARS, structuredConverter, xmlTopChildren } from '../src/ingest/converters/structured.js';
import { JSON_OUTLINE_DEPTH, jsonOutline } from '../src/ingest/converters/json-outline.js';
import type { ConvertResult } from '../src/ingest/converters/types.js';
import { FIXTURES } from './helpers/temp-store.js';

const F = (n: string) => join(FIXTURES, 'formats', n);
function conv(file: string, type: FileCard['type'], bytes: Uint8Array = readFileSync(F(file))): Promise<ConvertResult> {
  const card: FileCard = { id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type, size_kb: 1, sha256: '0'.repeat(64) };
  return structuredConverter.convert({ absPath: F(file), card, bytes, plan: {} as never, options: { maxLeafPages: 5 } });
}

describe('structured data', () => {
  it('YAML: top-level keys with their line ranges and own text', async () => {
    const r = await conv('service-config.yaml', 'yaml');
    expect(r.root.children.map((c) => `${c.title} ${JSON.stringify(c.line_range)}`)).toEqual(['service [2,5]', 'database [7,13]', 'features [15,18]', 'retention [20,24]']);
    const db = r.root.children[1]!;
    expect(db.content).toContain('host: db.staging.internal');
    expect(db.summary).toBe('database: object with 4 keys: host, port, name, pool');
    expect(r.root.children[3]!.summary).toBe('retention: array of 2');
    expect(r.card?.key_topics).toEqual(['service', 'database', 'features', 'retention']);
  });

  it('JSON: top-level keys and values summarized', async () => {
    const r = await conv('package-manifest.json', 'json');
    expect(r.root.children.map((c) => c.title)).toEqual(['name', 'version', 'description', 'scripts', 'dependencies', 'devDependencies', 'engines']);
    const deps = r.root.children[4]!;
    expect(deps.line_range).toEqual([10, 14]);
    expect(deps.summary).toBe('dependencies: object with 3 keys: react, react-dom, zustand');
    expect(deps.content).toContain('"zustand": "^4.5.2"');
  });

  it('YAML: outlined by the same rules as JSON (large values split, items named, windows by size)', async () => {
    const service = (name: string) => `  - name: ${name}\n    image: registry.example/${name}:1.4\n    notes: |\n${'      Restarts when the health check fails three times in a row.\n'.repeat(40)}`;
    const yamlText = `version: 3\nservices:\n${['api', 'worker'].map(service).join('')}ports:\n${Array.from({ length: 60 }, (_, i) => `  - ${8000 + i}\n`).join('')}`;
    const r = await conv('stack.yaml', 'yaml', Buffer.from(yamlText));
    expect(r.root.children.map((c) => c.title)).toEqual(['version', 'services', 'ports']);
    const services = r.root.children[1]!;
    expect(services.children.map((c) => `${c.title} ${c.kind}`)).toEqual(['api item', 'worker item']);
    const api = services.children[0]!;
    expect(api.summary).toBe('item 1: object with 3 keys: name, image, notes');
    expect(api.line_range![0]).toBe(3);
    expect(r.root.children[2]!.content).toContain('- 8059');
  });

  it('JSON Lines: records in windows, fields collected', async () => {
    const r = await conv('audit-events.jsonl', 'json');
    expect(r.meta).toMatchObject({ format: 'jsonl', records: '4' });
    expect(r.root.summary).toBe('4 JSON records; fields: ts, user, action, ip, target');
    expect(r.root.children[0]!.line_range).toEqual([1, 4]);
  });

  it('XML: the root element\'s children, labelled by id, with line ranges', async () => {
    const r = await conv('book-catalog.xml', 'xml');
    expect(r.root.children.map((c) => `${c.title} ${JSON.stringify(c.line_range)}`)).toEqual(['book bk101 [4,10]', 'book bk102 [11,17]', 'magazine mg201 [18,21]']);
    expect(r.root.children[1]!.content).toContain('<title>Midnight Rain</title>');
    expect(r.meta).toMatchObject({ format: 'xml', root: 'catalog' });
    expect(xmlTopChildren('<a><!-- <b> --><c x="1"/><d><e/></d></a>').children.map((c) => c.name)).toEqual(['c', 'd']);
  });

  it('JSON outline: keys and items with their character ranges, whatever the strings hold', () => {
    const text = '{"a\\"}": "x]},{\\\\", "b": [1, {"c": [true, null]}, -2.5e3], "d": {"e": {"f": 1}}, "a\\"}": 2}';
    const o = jsonOutline(text)!;
    expect(o.kind).toBe('object');
    // source order, duplicate keys kept
    expect(o.entries.map((e) => e.key)).toEqual(['a"}', 'b', 'd', 'a"}']);
    expect(o.entries.map((e) => text.slice(e.valueStart, e.end))).toEqual(['"x]},{\\\\"', '[1, {"c": [true, null]}, -2.5e3]', '{"e": {"f": 1}}', '2']);
    expect(text.slice(o.entries[1]!.start, o.entries[1]!.end)).toBe('"b": [1, {"c": [true, null]}, -2.5e3]');
    const b = o.entries[1]!.container!;
    expect(b.kind).toBe('array');
    expect(b.count).toBe(3);
    expect(b.entries.map((e) => text.slice(e.start, e.end))).toEqual(['1', '{"c": [true, null]}', '-2.5e3']);
    expect(b.entries[1]!.container!.entries[0]!.container!.entries.map((e) => text.slice(e.start, e.end))).toEqual(['true', 'null']);
    // containers deeper than JSON_OUTLINE_DEPTH are counted, their entries not listed
    const deep = `${'['.repeat(JSON_OUTLINE_DEPTH + 2)}1, 2${']'.repeat(JSON_OUTLINE_DEPTH + 2)}`;
    let box = jsonOutline(deep)!;
    for (let d = 0; d <= JSON_OUTLINE_DEPTH; d++) box = box.entries[0]!.container!;
    expect(box.count).toBe(2);
    expect(box.entries).toEqual([]);
    expect(jsonOutline(' [ ] ')).toMatchObject({ kind: 'array', count: 0, entries: [] });
    expect(jsonOutline('"just a string"')).toBeNull();
  });

  it('JSON of any size: large values split level by level, items named, short keys kept in their parent', async () => {
    const records = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, tags: ['a', 'b'] }));
    const modules = ['zlib', 'http'].map((name) => ({ name, type: 'module', desc: `The ${name} module. ${'Details. '.repeat(100)}`, methods: Array.from({ length: 30 }, (_, i) => ({ name: `${name}.m${i}()`, desc: 'Does one thing. '.repeat(12) })) }));
    // a numeric key after a named one: kept where the file has it (a parsed object lists it first)
    const text = JSON.stringify({ title: 'Inventory', records, modules }, null, 2).replace('"title": "Inventory",', '"title": "Inventory",\n  "10": "numeric key",');
    const r = await conv('inventory.json', 'json', Buffer.from(text));
    expect(r.root.children.map((c) => c.title)).toEqual(['title', '10', 'records', 'modules']);
    const lines = text.split('\n');
    const at = (n: { line_range?: [number, number] }) => lines.slice(n.line_range![0] - 1, n.line_range![1]).join('\n');
    // small items share windows of at most ITEMS_PER_NODE items and about SPLIT_VALUE_CHARS characters
    const list = r.root.children[2]!;
    expect(list.summary).toBe('records: array of 120');
    const windows = list.children;
    expect(windows.every((w) => w.kind === 'items' && at(w).length <= SPLIT_VALUE_CHARS + 200)).toBe(true);
    expect(windows[0]!.title).toMatch(/^items 1–\d+$/);
    expect(windows[windows.length - 1]!.title).toMatch(/–120$/);
    expect(windows[0]!.summary).toMatch(/items; first: object with 2 keys: id, tags$/);
    expect(JSON.parse(`[${at(windows[1]!).replace(/,\s*$/, '')}]`)[0].id).toBe(Number(/^items (\d+)/.exec(windows[1]!.title)![1]));
    // a large item is a node named by its name key; its short keys are its text, the rest its children
    const zlib = r.root.children[3]!.children[0]!;
    expect(zlib.title).toBe('zlib');
    expect(zlib.kind).toBe('item');
    expect(zlib.children.map((c) => c.title)).toEqual(['desc', 'methods']);
    expect(zlib.content).toContain('"type": "module"');
    expect(zlib.content).not.toContain('Details.');
    const methods = zlib.children[1]!;
    expect(methods.children.length).toBeGreaterThan(1);
    // a window of named items is titled by its first and last names and lists them (ISO 4217's currencies, not "items 1–44")
    const w0 = methods.children[0]!;
    const n = Number(/^items 1–(\d+)/.exec(w0.title)![1]);
    expect(w0.title).toBe(`items 1–${n}: zlib.m0() … zlib.m${n - 1}()`);
    expect(w0.summary).toBe(`${n} items: ${Array.from({ length: n }, (_, i) => `zlib.m${i}()`).join(', ')}`);
    // items named by numbers only (ids) keep the positions and their first item's shape
    expect(windows[0]!.summary).toMatch(/items; first: object with 2 keys: id, tags$/);
    expect(r.root.line_range).toEqual([1, lines.length]);
  });

  it('invalid input fails with the position and what to do', async () => {
    await expect(conv('bad.json', 'json', Buffer.from('{"a": 1,,}'))).rejects.toThrow(/not valid/);
    await expect(conv('bad.xml', 'xml', Buffer.from('<a><b></a>'))).rejects.toThrow(/not well-formed at line 1/);
    await expect(conv('bad.yaml', 'yaml', Buffer.from('a: [1, 2\nb: 3\n'))).rejects.toThrow(/YAML file is not valid/);
  });

  it('a YAML file nested deeper than the reader can follow fails saying so, not as a syntax error', async () => {
    const deep = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
    await expect(conv('deep.yaml', 'yaml', Buffer.from(deep))).rejects.toMatchObject({ message: expect.stringMatching(/nests more levels deep than the YAML reader can follow/), hint: expect.stringMatching(/JSON Lines/) });
  });
});
