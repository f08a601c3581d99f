import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import type { FileCard } from '../src/store/schemas.js';
import { imageConverter, ocrAvailable, ocrPdfPages, OCR_INSTALL_COMMAND } from '../src/ingest/converters/ocr.js';
import { planArchive, MAX_COMPRESSION_RATIO } from '../src/ingest/converters/archive.js';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';

const F = (n: string) => join(FIXTURES, 'formats', n);
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});
const imageCard: FileCard = { id: 'src_0000abcd', filename: 'scanned-letter.png', original_path: 'inbox/scanned-letter.png', type: 'image', size_kb: 64, sha256: '0'.repeat(64) };

describe('OCR (tesseract + pdftoppm)', () => {
  it('reads the pages of a scanned PDF that has no text layer', async () => {
    expect(await ocrAvailable()).toEqual({ ok: true, missing: [] });
    const bytes = readFileSync(F('scanned-letter.pdf'));
    // the fixture really has no text layer
    expect(execFileSync('pdftotext', [F('scanned-letter.pdf'), '-']).toString().trim()).toBe('');
    const pages = await ocrPdfPages(bytes);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Invoice Dispute Notice');
    expect(pages[0]).toMatch(/invoice number 4471/);
  }, 120_000);

  it('OCRs an image into a paged tree', async () => {
    const r = await imageConverter.convert({ absPath: F('scanned-letter.png'), card: imageCard, bytes: readFileSync(F('scanned-letter.png')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.skip_reason).toBeUndefined();
    expect(r.approach).toBe('ocr');
    expect(r.pages).toBe(1);
    expect(r.root.page_range).toEqual([1, 1]);
    expect(r.root.content ?? r.root.children.map((c) => c.content).join('\n')).toContain('Maria Lopez');
    // titled by its first line of text, never by a page marker
    const titles = [r.title, ...r.root.children.map((c) => c.title)];
    expect(titles.filter((t) => t.startsWith('<!--'))).toEqual([]);
    // its first line of text, then its file name (screenshots of one program share their first line)
    expect(r.title).toMatch(/^\S.*\p{L}{3}.* — scanned-letter\.png$/u);
    expect(r.root.title).toBe(r.title);
  }, 120_000);

  it('records the install command when the tools are missing', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(await ocrAvailable()).toEqual({ ok: false, missing: ['tesseract', 'pdftoppm'] });
      const r = await imageConverter.convert({ absPath: F('scanned-letter.png'), card: imageCard, bytes: readFileSync(F('scanned-letter.png')), plan: {} as never, options: { maxLeafPages: 5 } });
      expect(r.approach).toBe('ocr');
      expect(r.skip_reason).toContain(OCR_INSTALL_COMMAND);
      expect(OCR_INSTALL_COMMAND).toBe('apt-get install tesseract-ocr poppler-utils');
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('zip archives', () => {
  it('skips a zip-bomb member by its compression ratio, alone, and says so', async () => {
    const plan = await planArchive(readFileSync(F('zip-bomb.zip')));
    expect(plan.members).toEqual([]);
    expect(plan.skipped[0]!.reason).toMatch(new RegExp(`over the ${MAX_COMPRESSION_RATIO}:1 limit`));
    const root = tempStore({ 'zip-bomb.zip': F('zip-bomb.zip') });
    roots.push(root);
    const rep = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(rep.sources).toHaveLength(1);
    expect(rep.sources[0]).toMatchObject({ status: 'indexed', type: 'zip' });
    expect(rep.not_ingested).toHaveLength(1);
    expect(rep.not_ingested[0]!.reason).toMatch(/possible zip bomb/);
  });

  it('ingests members as their own sources; removes them when they leave the archive or the archive goes', async () => {
    const root = tempStore({ 'bundle.zip': F('bundle.zip') });
    roots.push(root);
    const rep = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(rep.counts.failed).toBe(0);
    const paths = readCatalog(root).sources.map((e) => `${e.original_path} ${e.type} ${e.status}`).sort();
    expect(paths).toEqual([
      'inbox/bundle.zip zip indexed',
      'inbox/bundle.zip!/data/teams.tsv tsv indexed',
      'inbox/bundle.zip!/docs/letter.txt text indexed',
      'inbox/bundle.zip!/inventory.py code indexed',
    ]);
    const tsv = readCatalog(root).sources.find((e) => e.original_path.endsWith('teams.tsv'))!;
    expect(tsv.filename).toBe('teams.tsv');
    expect(existsSync(join(root, tsv.tree_path!))).toBe(true);
    // unchanged archive: nothing is re-read
    const again = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(again.counts.unchanged).toBe(4);
    // ingesting another path keeps the members while the archive exists
    const other = await ingest(root, { paths: [join(root, 'config.json')] }).catch(() => null);
    void other;
    expect(readCatalog(root).sources).toHaveLength(4);
    // the archive replaced by a version without docs/letter.txt (made by zip in the fixture script): that member is removed
    cpSync(F('archive-v2/bundle.zip'), join(root, 'inbox', 'bundle.zip'));
    const third = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(third.sources.filter((s) => s.action === 'removed').map((s) => s.file)).toEqual(['inbox/bundle.zip!/docs/letter.txt']);
    expect(readCatalog(root).sources).toHaveLength(3);
    // archive deleted: every member goes with it
    rmSync(join(root, 'inbox', 'bundle.zip'));
    cpSync(F('teams.tsv'), join(root, 'inbox', 'teams.tsv'));
    const fourth = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(fourth.counts.removed).toBe(3);
    expect(readCatalog(root).sources.map((e) => e.original_path)).toEqual(['inbox/teams.tsv']);
  }, 120_000);
});

describe('tar and gzip archives', () => {
  /** A folder of two text files and a nested zip, packed by the system's tar (and gzip). */
  function packed(dir: string): void {
    const src = join(dir, 'src');
    execFileSync('mkdir', ['-p', join(src, 'docs'), join(src, 'data')]);
    writeFileSync(join(src, 'docs', 'letter.txt'), 'Dear team,\n\nThe pump maintenance window moves to Friday.\n');
    writeFileSync(join(src, 'data', 'teams.csv'), 'team,owner\npayments,A. Osei\nsearch,B. Lund\n');
    cpSync(F('bundle.zip'), join(src, 'bundle.zip'));
    execFileSync('tar', ['-cf', join(dir, 'docs.tar'), '-C', src, 'docs', 'data']);
    execFileSync('tar', ['-czf', join(dir, 'docs.tgz'), '-C', src, 'docs', 'bundle.zip']);
    writeFileSync(join(dir, 'notes.txt'), 'Release notes\n=============\n\nThe xylophone314 calibration moved.\n');
    execFileSync('gzip', ['-n', join(dir, 'notes.txt')]);
  }

  it('ingests tar, tar.gz and gzipped files member by member, nested archives too', async () => {
    const root = tempStore({});
    roots.push(root);
    packed(join(root, 'inbox'));
    rmSync(join(root, 'inbox', 'src'), { recursive: true });
    const rep = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(rep.counts.failed).toBe(0);
    const paths = readCatalog(root).sources.map((e) => `${e.original_path} ${e.type}`).sort();
    expect(paths).toEqual([
      'inbox/docs.tar tar',
      'inbox/docs.tar!/data/teams.csv csv',
      'inbox/docs.tar!/docs/letter.txt text',
      'inbox/docs.tgz gzip',
      'inbox/docs.tgz!/bundle.zip zip',
      'inbox/docs.tgz!/bundle.zip!/data/teams.tsv tsv',
      'inbox/docs.tgz!/bundle.zip!/docs/letter.txt text',
      'inbox/docs.tgz!/bundle.zip!/inventory.py code',
      'inbox/docs.tgz!/docs/letter.txt text',
      'inbox/notes.txt.gz gzip',
      'inbox/notes.txt.gz!/notes.txt text',
    ]);
    const notes = readCatalog(root).sources.find((e) => e.original_path.endsWith('!/notes.txt'))!;
    expect(notes.title).toBe('Release notes');
    const again = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(again.counts.unchanged).toBe(11);
  }, 120_000);

  it('refuses a gzip bomb and a truncated tar with a clear reason', async () => {
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024));
    await expect(planArchive(bomb, 'gzip', 'zeros.bin.gz')).rejects.toThrow(/possible gzip bomb/);
    const dir = tempStore({});
    roots.push(dir);
    packed(join(dir, 'inbox'));
    const tar = readFileSync(join(dir, 'inbox', 'docs.tar'));
    await expect(planArchive(tar.subarray(0, 700), 'tar', 'docs.tar')).rejects.toThrow(/truncated|could not be read/);
    expect((await planArchive(tar, 'tar', 'docs.tar')).members.map((m) => m.name)).toEqual(['data/teams.csv', 'docs/letter.txt']);
  });
});
