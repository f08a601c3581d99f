/**
 * PDF parsing in worker threads and concurrent conversion in the pipeline: same output as
 * in-thread parsing, errors cross the thread boundary intact, and a concurrent ingest writes a
 * deterministic store (two runs → identical bytes; a re-run changes nothing).
 */
import { describe, it, expect, afterEach } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PdfWorkerPool } from '../src/ingest/converters/pdf/pool.js';
import { convertPdfBytes } from '../src/ingest/converters/pdf/convert.js';
import { ConvertError } from '../src/ingest/converters/types.js';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { tempStore, snapshot, cleanup, FIXTURES } from './helpers/temp-store.js';

const F = (n: string) => join(FIXTURES, 'pdf', n);
// The pool runs the compiled worker (npm test builds dist/ first); in-thread parsing is the fallback otherwise.
const DIST_WORKER = resolve(import.meta.dirname, '..', 'dist', 'ingest', 'converters', 'pdf', 'worker.js');
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

describe('pdf worker pool', () => {
  it.skipIf(!existsSync(DIST_WORKER))('converts in worker threads exactly as in-thread, and passes ConvertErrors back', async () => {
    const pool = new PdfWorkerPool(DIST_WORKER, 2, Worker);
    try {
      const names = ['annual-report.pdf', 'field-study.pdf', 'manual.pdf'];
      const opts = { maxLeafPages: 5, fallbackTitle: 'x' };
      const viaPool = await Promise.all(names.map((n) => pool.convert(readFileSync(F(n)), opts)));
      for (const [i, n] of names.entries()) {
        const local = await convertPdfBytes(readFileSync(F(n)), opts);
        expect(JSON.stringify(viaPool[i])).toBe(JSON.stringify(local));
      }
      const err = await pool.convert(readFileSync(F('encrypted.pdf')), opts).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConvertError);
      expect((err as ConvertError).hint).toMatch(/qpdf/);
    } finally {
      await pool.close();
    }
  });
});

describe('concurrent ingest', () => {
  const files = { 'annual-report.pdf': F('annual-report.pdf'), 'field-study.pdf': F('field-study.pdf'), 'manual.pdf': F('manual.pdf'), 'encrypted.pdf': F('encrypted.pdf') };
  const storeWith = (workers: number) => {
    const root = tempStore(files);
    roots.push(root);
    const cfgPath = join(root, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
    cfg.ingest = { ...cfg.ingest, workers };
    writeFileSync(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
    return root;
  };
  const treesOf = (root: string) => {
    const snap = snapshot(root);
    return [...snap.keys()].filter((k) => k.startsWith('tree_index/') || k.startsWith('converted/')).map((k) => [k, snap.get(k)!.split('|')[0]]);
  };

  it('writes the same trees with 1 or 3 concurrent conversions, records the failure, and a re-run changes nothing', async () => {
    const a = storeWith(1);
    const b = storeWith(3);
    const ra = await ingest(a, { paths: [join(a, 'inbox')], llm: 'none' });
    const rb = await ingest(b, { paths: [join(b, 'inbox')], llm: 'none' });
    expect(rb.counts).toMatchObject({ added: 4, indexed: 3, failed: 1 });
    expect(ra.counts).toEqual(rb.counts);
    expect(rb.sources.map((s) => s.file)).toEqual(['inbox/annual-report.pdf', 'inbox/encrypted.pdf', 'inbox/field-study.pdf', 'inbox/manual.pdf']);
    expect(treesOf(a)).toEqual(treesOf(b));
    const enc = readCatalog(b).sources.find((s) => s.filename === 'encrypted.pdf')!;
    expect(enc.status).toBe('failed');
    expect(enc.error).toMatch(/qpdf --decrypt/);
    const annual = readCatalog(b).sources.find((s) => s.filename === 'annual-report.pdf')!;
    expect(annual.toc_source).toBe('printed_toc');
    expect(annual.doc_type).toBe('annual report');
    const before = snapshot(b);
    await ingest(b, { paths: [join(b, 'inbox')], llm: 'none' });
    expect(snapshot(b)).toEqual(before);
  });
});
