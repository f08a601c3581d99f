/** What the sampling role sees for each kind of file: a sample, never the whole file. */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplingInput, SAMPLE_CHARS } from '../src/llm/sample-input.js';
import { takeSample, type Sample } from '../src/ingest/plan/sample.js';
import type { FileCard } from '../src/store/schemas.js';
import { writeReportPdf } from './llm/docs.js';

const FIX = join(import.meta.dirname, 'fixtures');
const card = (path: string, type: FileCard['type']): FileCard => ({ id: 'src_00000000', filename: path.split('/').pop()!, original_path: path, type, size_kb: 1, sha256: '0'.repeat(64) });
const sample = (c: FileCard): Sample => ({ card: c, text: '', heading_count: 0, line_count: 0 });

describe('sampling input', () => {
  it('xlsx: sheet names, header row and the first 5 data rows of each sheet', async () => {
    const s = await samplingInput(FIX, sample(card('formats/sales.xlsx', 'xlsx')));
    expect(s).toMatch(/^File: formats\/sales\.xlsx\nType: xlsx/);
    expect(s).toMatch(/\nSheets: .+/);
    const blocks = s!.split('\n\nSheet "').slice(1);
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(b.split('\n').length - 1).toBeLessThanOrEqual(6);
  });

  it('docx: the first ~2000 characters of its text', async () => {
    const s = await samplingInput(FIX, sample(card('formats/handbook.docx', 'docx')));
    const body = s!.split(`First ${SAMPLE_CHARS} characters:\n`)[1]!;
    expect(body.trim().length).toBeGreaterThan(50);
    expect(body.length).toBeLessThanOrEqual(SAMPLE_CHARS);
  });

  it('code: the first 200 lines; csv: header and 5 data rows; markdown: headings and the first 2000 chars; pdf: first pages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-sample-'));
    try {
      writeFileSync(join(dir, 'big.py'), Array.from({ length: 500 }, (_, i) => `x${i} = ${i}`).join('\n'));
      const code = (await samplingInput(dir, sample(card('big.py', 'code'))))!;
      expect(code).toContain('x199 = 199');
      expect(code).not.toContain('x200 = 200');
      writeFileSync(join(dir, 't.csv'), ['a,b', ...Array.from({ length: 50 }, (_, i) => `${i},${i * 2}`)].join('\n'));
      const csv = (await samplingInput(dir, sample(card('t.csv', 'csv'))))!;
      expect(csv).toContain('a,b\n0,0\n1,2\n2,4\n3,6\n4,8');
      expect(csv).not.toContain('5,10');
      writeFileSync(join(dir, 'n.md'), `# Title\n\n${'word '.repeat(2000)}\n\n## Late heading\n`);
      const md = (await samplingInput(dir, sample(card('n.md', 'markdown'))))!;
      expect(md).toContain('Headings (TOC):\n# Title\n## Late heading');
      expect(md.length).toBeLessThan(SAMPLE_CHARS + 400);
      await writeReportPdf(join(dir, 'r.pdf'));
      const pdf = (await samplingInput(dir, takeSample(card('r.pdf', 'pdf'), readFileSync(join(dir, 'r.pdf')))))!;
      expect(pdf).toContain('Pages: 8');
      expect(pdf).toContain('<!-- page 3 -->');
      expect(pdf).not.toContain('<!-- page 4 -->');
      expect(await samplingInput(dir, sample(card('x.png', 'image')))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
