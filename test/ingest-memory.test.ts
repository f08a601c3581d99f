/**
 * Bounded memory for large text sources (issue #12 item 5): the planner's sample is decoded chunk
 * by chunk with the same counts as over the whole text, and a node-level keyword file is written
 * in pieces, byte-identical to the whole-string serialisation and left alone when unchanged.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeSample } from '../src/ingest/plan/sample.js';
import { DECODE_CHUNK_BYTES, decodeBytes, decodeChunks } from '../src/ingest/encoding.js';
import { nodesIndexPieces, serializeNodesIndex, KEYWORD_FORMAT_VERSION, type KeywordNodesIndex } from '../src/model/keyword-format.js';
import { writePiecesIfChanged } from '../src/store/atomic.js';
import type { FileCard } from '../src/store/schemas.js';

const card = (type: FileCard['type']): FileCard => ({ id: 'src_0000abcd', filename: `big.${type === 'markdown' ? 'md' : 'txt'}`, original_path: 'inbox/big', type, size_kb: 1, sha256: '0'.repeat(64) });

/** A text over several decode chunks, with ATX and setext headings and multi-byte characters everywhere, boundaries included. */
function bigText(): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < 2.5 * DECODE_CHUNK_BYTES; i++) {
    const p = i % 7 === 0 ? `# Heading ${i} é\n\n` : i % 11 === 0 ? `Setext ${i} ü\n${'='.repeat(1 + (i % 5))}\n\n` : `Paragraph ${i}: naïve café — ${'x'.repeat(i % 97)} €\n\n`;
    parts.push(p);
    size += Buffer.byteLength(p);
  }
  return parts.join('');
}

describe('large text: chunked sample', () => {
  const text = bigText();
  const bytes = new Uint8Array(Buffer.from(text, 'utf8'));

  it('decodes chunk by chunk to exactly the whole-text decoding (UTF-8 and UTF-16 with BOM)', () => {
    for (const b of [bytes, new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(0, 3_000_000), 'utf16le')]))]) {
      const pieces: string[] = [];
      decodeChunks(b, (t) => pieces.push(t));
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.join('')).toBe(decodeBytes(b).text);
    }
  });

  it('counts lines, characters and headings as over the whole text, and keeps the leading text', () => {
    const s = takeSample(card('markdown'), bytes);
    const full = decodeBytes(bytes).text;
    expect(s.char_count).toBe(full.length);
    expect(s.line_count).toBe(full.split('\n').length);
    const headings = (full.match(/^#{1,6}\s+\S/gm) ?? []).length + (full.match(/\n[^\n]+\n(=+|-+)[ \t]*\n/g) ?? []).length;
    expect(s.heading_count).toBe(headings);
    expect(s.text).toBe(full.slice(0, s.text.length));
    expect(s.text.length).toBe(2000);
  });
});

describe('node keyword file written in pieces', () => {
  const ix: KeywordNodesIndex = {
    format: KEYWORD_FORMAT_VERSION, tokenizer: 1, id: 'src_0000abcd', input_sha: 'f'.repeat(64),
    nodes: Array.from({ length: 3000 }, (_, i) => [String(i).padStart(4, '0'), `Node ${i}`, 'p', i, i] as never),
    len: Array.from({ length: 3000 }, (_, i) => i % 50),
    terms: Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`term${i}`, [i % 3000, 1 + (i % 4)]])),
    title_len: Array.from({ length: 3000 }, () => 2),
    title_terms: { node: Array.from({ length: 6000 }, (_, i) => (i % 2 ? 1 : i / 2)) },
    opening: { alpha: 2, beta: 1 },
  } as KeywordNodesIndex;

  it('writes the same bytes as the whole string, and leaves an unchanged file (and its mtime) alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-pieces-'));
    const path = join(dir, 'nodes', 'src_0000abcd.tsv');
    expect(writePiecesIfChanged(path, nodesIndexPieces(ix), false)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(serializeNodesIndex(ix));
    expect(statSync(path).size).toBeGreaterThan(1 << 20); // several write buffers
    const mtime = statSync(path).mtimeMs;
    expect(writePiecesIfChanged(path, nodesIndexPieces(ix), false)).toBe(false);
    expect(statSync(path).mtimeMs).toBe(mtime);
    writeFileSync(path, serializeNodesIndex({ ...ix, opening: { alpha: 3 } }));
    expect(writePiecesIfChanged(path, nodesIndexPieces(ix), false)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(serializeNodesIndex(ix));
  });
});
