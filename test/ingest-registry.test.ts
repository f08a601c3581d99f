/** The converter registry drives detection: formats by extension, magic bytes, content tests and priority. */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectType } from '../src/ingest/detect.js';
import { FORMATS, REGISTRATIONS, converterFor, skipReasonFor } from '../src/ingest/converters/index.js';
import { SourceType } from '../src/store/schemas.js';
import { SOURCE_STAGES } from '../src/ingest/stages/sources.js';
import { RUN_STAGES } from '../src/ingest/pipeline.js';

const FIX = join(import.meta.dirname, 'fixtures', 'formats');
const bytes = (name: string) => readFileSync(join(FIX, name));
const text = (s: string) => Buffer.from(s, 'utf8');

describe('converter registry', () => {
  it('every source type but unknown is registered once, and no extension belongs to two formats', () => {
    // one registration per type (a registration may list several formats of its type: plain and gzipped man pages)
    const types = REGISTRATIONS.flatMap((r) => [...new Set(r.formats.map((f) => f.type))]).sort();
    expect(types).toEqual(SourceType.options.filter((t) => t !== 'unknown').sort());
    const exts = FORMATS.flatMap((f) => f.extensions ?? []);
    expect(new Set(exts).size).toBe(exts.length);
    for (const r of REGISTRATIONS) expect(r.converter !== null || !!r.skipReason).toBe(true);
    expect(converterFor('doc')).toBeNull();
    expect(skipReasonFor('doc')).toMatch(/\.doc/i);
  });

  it('magic wins over the name; the most specific ZIP package wins over a plain archive', () => {
    expect(detectType('handbook.docx', bytes('handbook.docx'))).toEqual({ type: 'docx', mislabelled: null });
    expect(detectType('handbook.zip', bytes('handbook.docx'))).toEqual({ type: 'docx', mislabelled: null });
    expect(detectType('handbook.xlsx', bytes('handbook.docx')).mislabelled).toMatch(/extension \.xlsx but the content is a DOCX package/);
    expect(detectType('sales', bytes('sales.xlsx')).type).toBe('xlsx');
    expect(detectType('bundle.docx', bytes('bundle.zip'))).toMatchObject({ type: 'zip' });
    expect(detectType('notes.txt', bytes('scanned-letter.pdf'))).toMatchObject({ type: 'pdf', mislabelled: 'extension .txt but the content is a PDF' });
  });

  it('legacy Office files share a signature: the name decides between .doc and .xls', () => {
    expect(detectType('old.xls', bytes('handbook-legacy.doc')).type).toBe('xls');
    expect(detectType('old.doc', bytes('handbook-legacy.doc')).type).toBe('doc');
    expect(detectType('old', bytes('handbook-legacy.doc')).type).toBe('doc');
  });

  it('PostScript is recognised by its signature, named or not, and skipped with how to make a PDF of it', () => {
    const ps = text('%!PS-Adobe-3.0\n%%Creator: dvips\n%%Pages: 12\n/TeXDict 300 dict def\n');
    expect(detectType('manual.ps', ps).type).toBe('postscript');
    expect(detectType('manual', ps).type).toBe('postscript');
    expect(detectType('figure.eps', text('%!PS-Adobe-3.0 EPSF-3.0\n')).type).toBe('postscript');
    expect(converterFor('postscript')).toBeNull();
    expect(skipReasonFor('postscript')).toMatch(/ps2pdf/);
  });

  it('a binary format named without its signature is broken; text keeps its name; nameless text is sniffed by priority', () => {
    expect(detectType('report.pdf', text('hello')).broken).toMatch(/does not start with a PDF signature/);
    expect(detectType('data.csv', text('a,b\n1,2\n'))).toEqual({ type: 'csv', mislabelled: null });
    expect(detectType('main.py', text('print(1)\n'))).toEqual({ type: 'code', language: 'python', mislabelled: null });
    expect(detectType('README', text('  <!DOCTYPE html><p>x'))).toMatchObject({ type: 'html' });
    expect(detectType('README', text('<?xml version="1.0"?><a/>'))).toMatchObject({ type: 'xml' });
    expect(detectType('README', text('{"a": 1}'))).toMatchObject({ type: 'json' });
    expect(detectType('run', text('#!/bin/sh\necho hi\n'))).toEqual({ type: 'code', language: 'shell', mislabelled: null });
    expect(detectType('README', text('intro\n## Usage\nrun it\n'))).toMatchObject({ type: 'markdown' });
    expect(detectType('README', text('just words\n'))).toMatchObject({ type: 'text' });
    expect(detectType('blob.bin', Buffer.from([0, 1, 2, 3, 0, 0]))).toMatchObject({ type: 'unknown' });
  });

  it('the pipeline is the documented list of stages', () => {
    expect(RUN_STAGES.map((s) => s.name)).toEqual(['scan', 'sources', 'prune', 'index', 'commit']);
    expect(SOURCE_STAGES.map((s) => s.name)).toEqual(['detect', 'plan', 'convert', 'tree', 'enrich', 'write']);
  });
});
