import { describe, it, expect, afterEach } from 'vitest';
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { tempStore, snapshot, cleanup, FIXTURES } from './helpers/temp-store.js';

const DIR = join(FIXTURES, 'formats');
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

describe('a mixed inbox of every format', () => {
  it('ingests in one run with none failing, and a second run changes no byte', async () => {
    const root = tempStore();
    roots.push(root);
    for (const name of readdirSync(DIR)) {
      if (name === 'zip-bomb.zip') continue; // refused on purpose: covered in formats-ocr-archive
      cpSync(join(DIR, name), join(root, 'inbox', name), { recursive: true });
    }
    const first = await ingest(root, { paths: [join(root, 'inbox')] });
    const bad = first.sources.filter((s) => s.status === 'failed');
    expect(bad.map((s) => `${s.file}: ${s.error}`)).toEqual([]);
    const entries = readCatalog(root).sources;
    const types = new Set(entries.map((e) => e.type));
    for (const t of ['docx', 'doc', 'xlsx', 'csv', 'tsv', 'html', 'code', 'json', 'yaml', 'xml', 'image', 'pdf', 'zip', 'text']) expect(types).toContain(t);
    // only the legacy .doc is skipped, with the conversion command
    const skipped = entries.filter((e) => e.status === 'skipped');
    expect(skipped.map((e) => e.filename)).toEqual(['handbook-legacy.doc']);
    const approach = (file: string) => entries.find((e) => e.original_path === `inbox/${file}`)!.strategy?.recommended_approach;
    expect(approach('sales.xlsx')).toBe('schema_index');
    expect(approach('project/services/cache.go')).toBe('symbol_index');
    expect(approach('scanned-letter.png')).toBe('ocr');
    expect(approach('scanned-letter.pdf')).toBe('ocr');

    const before = snapshot(root);
    const second = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(second.counts.unchanged).toBe(entries.length);
    expect(second.counts.added + second.counts.updated + second.counts.removed).toBe(0);
    expect(snapshot(root)).toEqual(before);

    // forced re-conversion also reproduces identical bytes (content is deterministic, not just skipped)
    await ingest(root, { paths: [join(root, 'inbox')], force: true, now: () => new Date(readCatalog(root).sources[0]!.indexed_at) });
    const after = snapshot(root);
    const changed = [...after.keys()].filter((k) => after.get(k)!.split('|')[0] !== before.get(k)?.split('|')[0]);
    expect(changed.filter((k) => k.startsWith('converted/') || k.startsWith('tree_index/'))).toEqual([]);
  }, 300_000);
});
