/** use-lite-static: the ported tokenizer matches USE-lite's own, vectors are normalised, stable and text-only. */
import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { PieceTokenizer } from '../src/embed/piece-tokenizer.js';
import { STATIC_NAME, loadStatic, staticModelFiles } from '../src/embed/static.js';
import { resolveEmbedder } from '../src/embed/resolve.js';
import { Config } from '../src/store/schemas.js';

const files = staticModelFiles();
const require = createRequire(import.meta.url);

const TEXTS = [
  'Capital expenditures were $1,577 million in 2018.',
  'Consolidated Statements of Cash Flows (in millions)',
  '  leading and trailing spaces  ',
  'naïve café — Übergrößen, 東京 and emoji 🙂 mixed in',
  'x'.repeat(300),
  'tab\tseparated\nlines\r\nand CRLF',
  '',
];

describe('use-lite-static', () => {
  it.skipIf(!files)('the tokenizer gives the same pieces as @energetic-ai/embeddings', () => {
    const vocab = JSON.parse(readFileSync(files!.vocab, 'utf8')) as Array<[string, number]>;
    const { EmbeddingsModel } = require('@energetic-ai/embeddings') as { EmbeddingsModel: new (d: unknown) => { tokenizer: { encode(s: string): number[] } } };
    const upstream = new EmbeddingsModel({ vocabulary: vocab, model: null }).tokenizer;
    const mine = new PieceTokenizer(vocab);
    for (const t of TEXTS) expect(mine.encode(t)).toEqual(upstream.encode(t));
  });

  it.skipIf(!files)('embeds to unit vectors that depend only on their own text', async () => {
    const e = await loadStatic();
    expect(e.identity).toMatchObject({ name: STATIC_NAME, dims: 512 });
    const [a, b] = await e.embed(['annual report cash flow', 'the recipe needs two eggs']);
    const [a2] = await e.embed(['annual report cash flow']);
    expect(Buffer.from(a!.buffer).equals(Buffer.from(a2!.buffer))).toBe(true);
    const norm = Math.sqrt(a!.reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 3);
    const [c] = await e.embed(['cash flow statement of the annual report']);
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    expect(dot(a!, c!)).toBeGreaterThan(dot(a!, b!));
    const r = await resolveEmbedder('/nonexistent', Config.parse({}), STATIC_NAME);
    expect(r.embedder?.identity.fingerprint).toBe(e.identity.fingerprint);
  });
});
