/** RTF documents (issue 14): styles and outline levels as headings, tables, escapes, and what is no text. */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRtf, rtfConverter } from '../src/ingest/converters/rtf.js';
import { detectType } from '../src/ingest/detect.js';
import { ConvertError, type ConvertedNode } from '../src/ingest/converters/types.js';
import type { FileCard } from '../src/store/schemas.js';
import { FIXTURES } from './helpers/temp-store.js';

const file = readFileSync(join(FIXTURES, 'formats', 'rtf', 'site-inspection.rtf'));
const card = (filename: string): FileCard => ({ id: 'src_0000abcd', filename, original_path: `inbox/${filename}`, type: 'rtf', size_kb: 1, sha256: '0'.repeat(64) });
const convert = (name: string, bytes: Buffer) => rtfConverter.convert({ absPath: name, card: card(name), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
const titles = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title}`, ...n.children.flatMap((c) => titles(c, d + 1))];
const allText = (n: ConvertedNode): string => [n.content ?? '', ...n.children.map(allText)].join('\n');

describe('RTF documents', () => {
  it('are detected by their header, whatever their name; a .rtf without one is broken', () => {
    expect(detectType('site-inspection.rtf', file).type).toBe('rtf');
    expect(detectType('site-inspection.txt', file)).toMatchObject({ type: 'rtf' });
    expect(detectType('notes.rtf', Buffer.from('plain words, no header')).broken).toMatch(/signature/);
  });

  it('take headings from heading styles and outline levels, the title from the Title style', async () => {
    const r = await convert('site-inspection.rtf', file);
    expect(r.title).toBe('Site Inspection – Harbour Crane 4');
    expect(titles(r.root)).toEqual(['Site Inspection – Harbour Crane 4', '  1 Summary', '    1.1 Findings', '  2 Sign-off']);
    expect(r.toc_source).toBe('headings');
  });

  it('read the text as printed: escapes and Unicode decoded, field results kept, tables as rows, headers and list labels and fonts left out', async () => {
    const r = await convert('site-inspection.rtf', file);
    const text = allText(r.root);
    expect(text).toContain('Rust on the boom’s lower chord, 12° C at inspection.');
    expect(text).toContain('see the table below');
    expect(text).toMatch(/Boom \| Repair within 30 days/);
    expect(text).toContain('Inspected by J. Müller.');
    for (const junk of ['Confidential header', 'HYPERLINK', 'Times New Roman', 'Microsoft Word', '1.\t']) expect(text).not.toContain(junk);
  });

  it('fall back to the document properties\' title, unless it is a form label', async () => {
    const doc = (title: string) => Buffer.from(`{\\rtf1{\\info{\\title ${title}}}\\pard Some text of the report.\\par}`);
    expect(parseRtf(doc('Site Inspection Report').toString('latin1')).title).toBe('Site Inspection Report');
    expect((await convert('report.rtf', doc('Site Inspection Report'))).title).toBe('Site Inspection Report');
    expect((await convert('cca-tests.rtf', doc('Test ID:'))).title).toBe('cca-tests');
  });

  it('skips raw binary data (\\binN) and pictures', () => {
    const p = parseRtf('{\\rtf1 {\\*\\shppict{\\pict\\pngblip 89504e47}}{\\object\\bin6 ab}cd{} Visible text.\\par}');
    expect(p.blocks.map((b) => b.text)).toEqual(['Visible text.']);
  });

  it('a document without text is a clear error', async () => {
    const err = await convert('empty.rtf', Buffer.from('{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}}')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvertError);
    expect((err as ConvertError).message).toMatch(/no text/);
  });
});

describe('an RTF file indexed as plain text before the RTF converter', () => {
  it('is read again once', async () => {
    const { baseEntry, isUnchanged } = await import('../src/ingest/stages/detect.js');
    const sha = 'c'.repeat(64);
    const at = '2026-01-01T00:00:00.000Z';
    expect(isUnchanged(baseEntry({ ...card('site-inspection.rtf'), type: 'text', sha256: sha }, at), sha, false)).toBe(false);
    expect(isUnchanged(baseEntry({ ...card('site-inspection.rtf'), sha256: sha }, at), sha, false)).toBe(true);
  });
});
