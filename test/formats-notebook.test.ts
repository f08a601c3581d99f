/** Jupyter notebooks (issue 14): Markdown-cell headings as the outline, code and outputs as read, line ranges in the .ipynb file. */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notebookConverter, OUTPUT_MAX_CHARS } from '../src/ingest/converters/notebook.js';
import { detectType } from '../src/ingest/detect.js';
import { ConvertError, type ConvertedNode } from '../src/ingest/converters/types.js';
import type { FileCard } from '../src/store/schemas.js';
import { FIXTURES } from './helpers/temp-store.js';

const file = readFileSync(join(FIXTURES, 'formats', 'notebook', 'river-flow.ipynb'));
const lines = file.toString('utf8').split('\n');
const card = (filename: string): FileCard => ({ id: 'src_0000abcd', filename, original_path: `inbox/${filename}`, type: 'notebook', size_kb: 1, sha256: '0'.repeat(64) });
const convert = (name: string, bytes: Buffer) => notebookConverter.convert({ absPath: name, card: card(name), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
const titles = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title}`, ...n.children.flatMap((c) => titles(c, d + 1))];
/** The file's lines [a, b] as one string. */
const span = (r: [number, number] | undefined) => lines.slice(r![0] - 1, r![1]).join('\n');

describe('Jupyter notebooks', () => {
  it('are detected by name, not read as generic JSON', () => {
    expect(detectType('river-flow.ipynb', file).type).toBe('notebook');
    expect(detectType('river-flow.json', file).type).toBe('json');
  });

  it('are outlined by their Markdown cells\' headings, titled by the first, each section cited by its cells\' lines in the file', async () => {
    const r = await convert('river-flow.ipynb', file);
    expect(r.title).toBe('River Flow Analysis');
    expect(titles(r.root)).toEqual(['River Flow Analysis', '  Loading the data', '  Flood peaks', '    Largest peak']);
    const [loading, peaks] = r.root.children;
    expect(span(loading!.line_range)).toContain('"## Loading the data\\n"');
    expect(span(loading!.line_range)).toContain('pd.read_csv');
    expect(span(loading!.line_range)).not.toContain('Flood peaks');
    expect(span(peaks!.line_range)).toContain('"## Flood peaks\\n"');
    expect(span(peaks!.children[0]!.line_range)).toContain('idxmax');
    expect(r.card?.doc_type).toBe('notebook');
  });

  it('clips a very long output and says how much of it the notebook file holds beyond the cut', async () => {
    const nb = { nbformat: 4, nbformat_minor: 5, metadata: {}, cells: [
      { cell_type: 'markdown', metadata: {}, source: ['# Roughness data\n'] },
      { cell_type: 'code', metadata: {}, execution_count: 1, source: ['table'], outputs: [{ output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': 'x'.repeat(OUTPUT_MAX_CHARS + 5000) } }] },
    ] };
    const r = await convert('rough.ipynb', Buffer.from(JSON.stringify(nb)));
    const text = JSON.stringify(r.root);
    expect(text).toContain('[output cut here: 5,000 more characters are in the notebook file]');
    expect(text).toContain('x'.repeat(OUTPUT_MAX_CHARS));
  });

  it('shows code fenced in the kernel\'s language with its text outputs, images as their text form, errors by name', async () => {
    const r = await convert('river-flow.ipynb', file);
    const [loading, peaks] = r.root.children;
    expect(loading!.content).toContain('```python\nimport pandas as pd');
    expect(loading!.content).toContain('Output:\n```text\n(2192, 2)\n```');
    expect(peaks!.content).toContain('threshold: 412 m3/s');
    expect(peaks!.content).toContain('<Figure size 640x480>');
    expect(peaks!.content).not.toContain('iVBORw0KGgo');
    expect(peaks!.children[0]!.content).toContain("KeyError: 'discharge'");
  });

  it('a cell whose source is one string (sphinx-gallery) is cited by that string\'s line', async () => {
    const nb = { cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Read a Dataset\n\nOpen a DICOM file.\n\n## Plot it\n\nUse matplotlib.'] }], metadata: {}, nbformat: 4, nbformat_minor: 0 };
    const text = JSON.stringify(nb, null, 1);
    const r = await convert('gallery.ipynb', Buffer.from(text));
    expect(r.title).toBe('Read a Dataset');
    const at = text.split('\n').findIndex((l) => l.includes('# Read a Dataset')) + 1;
    expect(r.root.children.map((c) => c.line_range)).toEqual([[at, at]]);
  });

  it('reads nbformat 3 (worksheets, heading cells, code as "input")', async () => {
    const nb = { metadata: { name: 'old' }, nbformat: 3, nbformat_minor: 0, worksheets: [{ cells: [
      { cell_type: 'heading', level: 1, metadata: {}, source: ['Old Notebook Title'] },
      { cell_type: 'markdown', metadata: {}, source: ['## Part one\n', 'Some text here.'] },
      { cell_type: 'code', input: ['x = 1\n', 'print(x)'], language: 'python', metadata: {}, outputs: [{ output_type: 'stream', stream: 'stdout', text: ['1\n'] }] },
    ] }] };
    const text = JSON.stringify(nb, null, 1);
    const r = await convert('old.ipynb', Buffer.from(text));
    expect(r.title).toBe('Old Notebook Title');
    const part = r.root.children[0]!;
    expect(part.title).toBe('Part one');
    expect(part.content).toContain('x = 1\nprint(x)');
    expect(part.content).toContain('Output:\n```text\n1\n```');
    const [a, b] = part.line_range!;
    expect(text.split('\n').slice(a - 1, b).join('\n')).toContain('"## Part one\\n"');
  });

  it('broken JSON or JSON without cells is a clear error', async () => {
    const broken = await convert('cut.ipynb', Buffer.from('{"cells": [')).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(ConvertError);
    expect((broken as ConvertError).message).toMatch(/not valid JSON/);
    const other = await convert('data.ipynb', Buffer.from('{"rows": []}')).catch((e: unknown) => e);
    expect((other as ConvertError).message).toMatch(/no notebook cells/);
  });
});

describe('a notebook indexed as JSON before the notebook converter', () => {
  it('is read again once; a PDF named .txt (a type from magic bytes) is not re-read on every run', async () => {
    const { baseEntry, isUnchanged } = await import('../src/ingest/stages/detect.js');
    const sha = 'b'.repeat(64);
    const at = '2026-01-01T00:00:00.000Z';
    expect(isUnchanged(baseEntry({ ...card('river-flow.ipynb'), type: 'json', sha256: sha }, at), sha, false)).toBe(false);
    expect(isUnchanged(baseEntry({ ...card('river-flow.ipynb'), sha256: sha }, at), sha, false)).toBe(true);
    expect(isUnchanged(baseEntry({ ...card('report.txt'), type: 'pdf', sha256: sha }, at), sha, false)).toBe(true);
  });
});
