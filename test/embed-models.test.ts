import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { loadMiniLm, locateModel } from '../src/embed/minilm.js';
import { loadUseLite, useLiteModelDir } from '../src/embed/use-lite.js';
import { staticModelFiles } from '../src/embed/static.js';
import { resolveEmbedder } from '../src/embed/resolve.js';
import { Config } from '../src/store/schemas.js';
import { TINY_MODELS_DIR } from './helpers/search-store.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('embedders', () => {
  it('loads a transformers.js model from a local folder (remote off): normalised, batched, with identity', async () => {
    expect(locateModel('tiny/embed', [TINY_MODELS_DIR])?.quantized).toBe(false);
    const e = await loadMiniLm({ modelId: 'tiny/embed', root: '/', modelsDir: TINY_MODELS_DIR, allowRemote: false, batchSize: 2 });
    expect(e.identity).toMatchObject({ name: 'minilm:tiny/embed', dims: 16 });
    expect(e.identity.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    const [a, b, c] = await e.embed(['banana bread recipe', 'cash flow revenue', 'banana cake']);
    expect(Math.abs(dot(a!, a!) - 1)).toBeLessThan(1e-3);
    expect(dot(a!, c!)).toBeGreaterThan(dot(a!, b!));
    const again = await e.embed(['banana bread recipe']);
    expect(Array.from(again[0]!)).toEqual(Array.from(a!));
  });

  it('fails clearly when model files are absent and remote download is off', async () => {
    await expect(loadMiniLm({ modelId: 'nobody/missing', root: '/', modelsDir: TINY_MODELS_DIR, allowRemote: false, batchSize: 2, env: {} })).rejects.toThrow(/not found/);
    const cfg = Config.parse({ embedding: { model: 'minilm:nobody/missing', models_dir: TINY_MODELS_DIR } });
    const r = await resolveEmbedder('/', cfg);
    expect(r.embedder).toBeNull();
    expect(r.reason).toMatch(/unavailable/);
  });

  it.skipIf(!useLiteModelDir())('use-lite (npm weights) is deterministic, 512 dims, independent of batch composition', async () => {
    const e1 = await loadUseLite(8);
    const e2 = await loadUseLite(1);
    expect(e1.identity).toMatchObject({ name: 'use-lite', dims: 512 });
    expect(e1.identity.fingerprint).toBe(e2.identity.fingerprint);
    const texts = ['Capital expenditure in fiscal 2018', 'Orchard pruning in winter', 'Rust cargo workspaces'];
    const a = await e1.embed(texts);
    const b = await e2.embed(texts);
    for (let i = 0; i < texts.length; i++) expect(Buffer.from(a[i]!.buffer).equals(Buffer.from(b[i]!.buffer))).toBe(true);
    expect(dot(a[0]!, a[1]!)).toBeLessThan(0.5);
  });

  it('auto picks MiniLM when present, else use-lite-static, else use-lite, and says which', async () => {
    const cfg = Config.parse({ embedding: { model: 'auto', models_dir: join(TINY_MODELS_DIR, 'nothing-here') } });
    const r = await resolveEmbedder('/', cfg);
    if (staticModelFiles()) expect(r.reason).toMatch(/auto: embedding with use-lite-static/);
    else if (useLiteModelDir()) expect(r.reason).toMatch(/auto: embedding with use-lite/);
    else expect(r.reason).toMatch(/keyword search only/);
  });
});
