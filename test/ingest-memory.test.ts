/**
 * Bounded memory for large text sources (issue #12 item 5): the planner's sample is decoded chunk
 * by chunk with the same counts as over the whole text, and a node-level keyword file is written
 * in pieces, byte-identical to the whole-string serialisation and left alone when unchanged.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeSample } from '../src/ingest/plan/sample.js';
import { DECODE_CHUNK_BYTES, decodeBytes, decodeChunks } from '../src/ingest/encoding.js';
import {
  NODES_READ_BYTES, nodesIndexPieces, serializeNodesIndex, KEYWORD_FORMAT_VERSION, keywordNodesFile, readNodesIndex, readNodesSummary, type KeywordNodesIndex,
} from '../src/model/keyword-format.js';
import { CompactPostings, PostingsArena } from '../src/indexing/postings.js';
import { FlatRowsReader, FlatRowsWriter } from '../src/vector/flat-file.js';
import { encodeFlatIP } from '../src/vector/flat-codec.js';
import { EMBED_CHUNK, streamNodeVectors, type NodeRowText, type VectorLookup } from '../src/indexing/node-vectors.js';
import type { EmbedCheckpoint } from '../src/indexing/embed-checkpoint.js';
import type { Embedder } from '../src/embed/types.js';
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

describe('compact postings (keyword builder)', () => {
  it('give back the pairs they were given, and their frequency sum', () => {
    const p = new CompactPostings();
    const pairs: number[] = [];
    let doc = 0;
    let s = 7;
    const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
    for (let i = 0; i < 5000; i++) {
      doc += Math.floor(rand() ** 4 * 300_000); // mostly small gaps, some large (docs never go down)
      const tf = 1 + Math.floor(rand() ** 6 * 5000);
      pairs.push(doc, tf);
      p.add(doc, tf);
    }
    expect(p.toArray()).toEqual(pairs);
    expect(p.count).toBe(5000);
    expect(p.tfSum).toBe(pairs.filter((_, i) => i % 2 === 1).reduce((a, b) => a + b, 0));
    expect(new CompactPostings().toArray()).toEqual([]);
    expect(() => p.add(doc - 1, 1)).toThrow(/out of order/);
  });

  it('an arena gives each term the postings a CompactPostings per term would, past its first growth', () => {
    const arena = new PostingsArena();
    const each = new Map<string, CompactPostings>();
    let s = 11;
    const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296);
    for (let doc = 0; doc < 700; doc += 1 + Math.floor(rand() * 3)) {
      const tf = new Map<string, number>();
      for (let k = 0; k < 20; k++) tf.set(`t${Math.floor(rand() ** 3 * 2000)}`, 1 + Math.floor(rand() * 9));
      arena.addDoc(doc, tf);
      for (const [t, n] of tf) {
        if (!each.has(t)) each.set(t, new CompactPostings());
        each.get(t)!.add(doc, n);
      }
    }
    expect(new Set(arena.terms())).toEqual(new Set(each.keys()));
    for (const [t, p] of each) expect(arena.postings(t)).toEqual(p.toArray());
    expect(arena.postings('absent')).toBeUndefined();
    expect(() => arena.addDoc(10_000, new Map([['x', 1]]))).toThrow(/after read/);
    const fresh = new PostingsArena();
    fresh.addDoc(5, new Map([['a', 1]]));
    expect(() => fresh.addDoc(4, new Map([['a', 1]]))).toThrow(/out of order/);
  });
});

describe('node keyword file read back line by line', () => {
  it('sums each term over text and title fields as the whole-file reader does, across read blocks and multi-byte text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-summary-'));
    const id = 'src_0000abcd';
    const terms: Record<string, number[]> = {};
    const title: Record<string, number[]> = {};
    for (let i = 0; i < 70_000; i++) {
      terms[`tërm${i}é`] = [i % 3000, 1 + (i % 4), 3000 + i, 2];
      if (i % 3 === 0) title[`tërm${i}é`] = [i % 3000, 1];
    }
    title['only-title'] = [5, 3];
    const ix = { format: KEYWORD_FORMAT_VERSION, tokenizer: 1, id, input_sha: 'a'.repeat(64), nodes: [], len: [1, 2], title_len: [3], opening: { x: 1 }, terms, title_terms: title } as KeywordNodesIndex;
    writePiecesIfChanged(join(dir, keywordNodesFile(id)), nodesIndexPieces(ix), false);
    expect(statSync(join(dir, keywordNodesFile(id))).size).toBeGreaterThan(2 * NODES_READ_BYTES);
    const s = readNodesSummary(dir, id)!;
    const whole = readNodesIndex(dir, id)!;
    expect(s.header.input_sha).toBe(whole.input_sha);
    expect(s.bodyTf.size).toBe(70_001);
    for (const t of [...Object.keys(terms), 'only-title']) {
      const sum = (a: number[] | undefined) => (a ?? []).reduce((x, v, i) => x + (i % 2 ? v : 0), 0);
      expect(s.bodyTf.get(t)).toBe(sum(whole.terms[t]) + sum(whole.title_terms[t]));
    }
    expect(readNodesSummary(dir, id, (h) => h.input_sha === 'other')).toBeNull();
    expect(readNodesSummary(dir, 'src_missing')).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('flat index written row by row', () => {
  const dims = 8;
  const vec = (seed: number) => Float32Array.from({ length: dims }, (_, j) => Math.sin(seed * 31 + j));

  it('writes the bytes of the whole-array codec whatever the row order, and leaves an unchanged file alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-rows-'));
    const path = join(dir, 'vector_store', 'nodes.faiss');
    const count = 1000;
    const data = new Float32Array(count * dims);
    for (let r = 0; r < count; r++) data.set(vec(r), r * dims);
    const write = () => {
      const w = new FlatRowsWriter(path, join(dir, '.mhub'), dims);
      for (let r = count - 1; r >= 0; r -= 2) w.write(r, vec(r));
      for (let r = 0; r < count; r += 2) w.write(r, w.read(r + 1).length === dims ? vec(r) : vec(r));
      return w.finish(count);
    };
    expect(write()).toBe(true);
    expect(readFileSync(path).equals(encodeFlatIP({ dims, count, data }))).toBe(true);
    const mtime = statSync(path).mtimeMs;
    expect(write()).toBe(false);
    expect(statSync(path).mtimeMs).toBe(mtime);
    const r = FlatRowsReader.open(path)!;
    expect(r.count).toBe(count);
    expect([...r.read(517)]).toEqual([...vec(517)]);
    r.close();
    // a killed writer's temp file is removed by the next writer; a missing row is an error, not zeros
    writeFileSync(join(dir, '.mhub', 'nodes.faiss.999999.rows-tmp'), 'x');
    const w = new FlatRowsWriter(path, join(dir, '.mhub'), dims);
    expect(readdirSync(join(dir, '.mhub'))).toHaveLength(1);
    w.write(0, vec(0));
    expect(() => w.write(0, vec(0))).toThrow(/twice/);
    expect(() => w.finish(2)).toThrow(/1 rows written/);
    w.abort();
    expect(readdirSync(join(dir, '.mhub'))).toHaveLength(0);
    expect(FlatRowsReader.open(join(dir, 'missing.faiss'))).toBeNull();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('node vectors streamed', () => {
  it('embeds the same chunks of distinct new texts as gathering them all first, and writes each row its vector', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-stream-'));
    const dims = 4;
    const vecOf = (t: string) => Float32Array.from({ length: dims }, (_, j) => (t.length * 7 + t.charCodeAt(t.length - 1) * (j + 1)) % 97);
    const batches: string[][] = [];
    const embedder: Embedder = { identity: { name: 'fake', dims, fingerprint: 'f' }, embed: async (texts) => (batches.push(texts), texts.map(vecOf)) };
    // 1500 rows: every 5th text repeats an earlier one, texts t3 and t4 come from an earlier build, t5 from an interrupted run
    const rows: NodeRowText[] = Array.from({ length: 1500 }, (_, i) => {
      const text = i % 5 === 4 && i > 10 ? `t${i - 7}` : `t${i}`;
      return { sid: `src_${i < 700 ? 'a' : 'b'}`, nid: String(i), sha: `sha-${text}`, text };
    });
    const prev: VectorLookup = { size: 2, own: true, get: (sha) => (sha === 'sha-t3' || sha === 'sha-t4' ? vecOf(sha.slice(4)) : undefined), close: () => {} };
    const pending: EmbedCheckpoint = { size: 1, get: (sha) => (sha === 'sha-t5' ? vecOf('t5') : undefined), close: () => {} };
    const done: number[] = [];
    const r = await streamNodeVectors(dir, rows, prev, pending, embedder, (d) => done.push(d), 1500);
    // the reference: distinct texts in first-appearance order, minus reused ones, cut every EMBED_CHUNK
    const distinct = [...new Set(rows.map((x) => x.text))].filter((t) => !['t3', 't4', 't5'].includes(t));
    const expected: string[][] = [];
    for (let i = 0; i < distinct.length; i += EMBED_CHUNK) expected.push(distinct.slice(i, i + EMBED_CHUNK));
    expect(batches).toEqual(expected);
    expect(r.embedded).toBe(distinct.length + 1); // the checkpointed one counts as embedded by this build, as before
    expect(r.rows).toEqual(rows.map((x) => [x.sid, x.nid, x.sha]));
    const data = new Float32Array(rows.length * dims);
    rows.forEach((x, i) => data.set(vecOf(x.text), i * dims));
    expect(readFileSync(join(dir, 'vector_store', 'nodes.faiss')).equals(encodeFlatIP({ dims, count: rows.length, data }))).toBe(true);
    expect(done.at(-1)).toBe(1500);
    rmSync(dir, { recursive: true, force: true });
  });
});
