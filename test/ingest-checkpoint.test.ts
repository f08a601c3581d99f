/** Work survives interruption (journal per source), size limits, phases and memory in the report. */
import { describe, it, expect, afterEach } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { JOURNAL_FILE } from '../src/ingest/journal.js';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';
import { staticModelFiles } from '../src/embed/static.js';
import { readNodeMetadata } from '../src/vector/metadata.js';

const F = (n: string) => join(FIXTURES, 'foundation', n);
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

function store(files: Record<string, string>, ingestCfg: Record<string, unknown>): string {
  const root = tempStore(files);
  roots.push(root);
  const p = join(root, 'config.json');
  const cfg = JSON.parse(readFileSync(p, 'utf8'));
  Object.assign(cfg.ingest, ingestCfg);
  cfg.embedding.model = 'none';
  writeFileSync(p, JSON.stringify(cfg, null, 2) + '\n');
  return root;
}

describe('ingest checkpoints', () => {
  it('a run that dies after its first source keeps it: the next run redoes only the others', async () => {
    const root = store({ 'a.md': F('guide.md'), 'b.md': F('guide.md'), 'c.md': F('guide.md') }, { workers: 1 });
    const crash = new Error('simulated crash');
    let settled = 0;
    await expect(
      ingest(root, {
        paths: [join(root, 'inbox')],
        onProgress: (ev) => {
          if ((ev.phase ?? 'convert') === 'convert' && ev.done > settled && (settled = ev.done) === 1) throw crash;
        },
      }),
    ).rejects.toBe(crash);
    expect(readCatalog(root).sources).toHaveLength(0);
    // the crash comes after the first source settled; the one source in flight beside it (the
    // sources stage keeps one more source in flight than ingest.workers) may settle too
    const journal = readFileSync(join(root, JOURNAL_FILE), 'utf8').trim().split('\n');
    expect(journal.length).toBeGreaterThanOrEqual(1);
    expect(journal.length).toBeLessThanOrEqual(2);
    expect(existsSync(join(root, '.mhub', 'ingest.lock'))).toBe(false);

    const r = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(r.counts).toMatchObject({ unchanged: journal.length, added: 3 - journal.length, indexed: 3, failed: 0 });
    expect(readCatalog(root).sources.map((e) => e.status)).toEqual(['indexed', 'indexed', 'indexed']);
    expect(existsSync(join(root, JOURNAL_FILE))).toBe(false);
    expect(Object.keys(r.phases)).toEqual(['scan', 'sources', 'prune', 'index', 'commit']);
    expect(r.peak_rss_mb).toBeGreaterThan(0);
  });

  it.skipIf(!staticModelFiles())('a new source\'s node vectors are checkpointed as soon as it is written, before the index stage', async () => {
    const root = store({ 'a.md': F('guide.md'), 'b.md': F('notes.txt') }, { workers: 1 });
    const cfg = JSON.parse(readFileSync(join(root, 'config.json'), 'utf8'));
    cfg.embedding.model = 'use-lite-static';
    writeFileSync(join(root, 'config.json'), JSON.stringify(cfg, null, 2) + '\n');
    // when the index stage starts, the vectors of both sources are already in the checkpoint
    let atIndex = -1;
    const pendingBytes = () => readdirSync(join(root, '.mhub')).filter((f) => f.startsWith('embedded-')).reduce((n, f) => n + statSync(join(root, '.mhub', f)).size, 0);
    const r = await ingest(root, { paths: [join(root, 'inbox')], onProgress: (ev) => { if ((ev.phase === 'index' || ev.phase === 'embed') && atIndex < 0) atIndex = pendingBytes(); } });
    expect(r.counts).toMatchObject({ indexed: 2, failed: 0 });
    const nodes = readNodeMetadata(root)!.count;
    expect(atIndex).toBeGreaterThanOrEqual((nodes - 1) * (8 + 4 * readNodeMetadata(root)!.dims));
    expect(pendingBytes()).toBe(0); // taken into the index, then removed
    expect(readNodeMetadata(root)!.count).toBeGreaterThan(2);
  });

  it('ingest.max_file_mb skips a larger file without reading it, naming the file, its size and the setting', async () => {
    const root = store({ 'big.md': F('guide.md') }, { max_file_mb: 0.0001 });
    const logs: string[] = [];
    const r = await ingest(root, { paths: [join(root, 'inbox')], log: (m) => logs.push(m) });
    const e = readCatalog(root).sources[0]!;
    expect(e.status).toBe('skipped');
    expect(e.error).toMatch(/^inbox\/big\.md is [\d.]+ MB, over the ingest\.max_file_mb limit of 0\.0001 MB: not read\. Raise ingest\.max_file_mb/);
    expect(logs.join('\n')).toContain('ingest.max_file_mb');
    expect(r.counts.skipped).toBe(1);
    const again = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(again.counts).toMatchObject({ unchanged: 1, added: 0, updated: 0 });
  });
});
