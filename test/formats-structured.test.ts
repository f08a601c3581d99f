import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileCard } from '../src/store/schemas.js';
import { structuredConverter, xmlTopChildren } from '../src/ingest/converters/structured.js';
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

  it('invalid input fails with the position and what to do', async () => {
    await expect(conv('bad.json', 'json', Buffer.from('{"a": 1,,}'))).rejects.toThrow(/not valid/);
    await expect(conv('bad.xml', 'xml', Buffer.from('<a><b></a>'))).rejects.toThrow(/not well-formed at line 1/);
    await expect(conv('bad.yaml', 'yaml', Buffer.from('a: [1, 2\nb: 3\n'))).rejects.toThrow(/YAML file is not valid/);
  });
});
