/**
 * Spreads a large USE-lite embedding job over worker threads (the model runs on the CPU, one core
 * per thread). Each text is still embedded alone, so a vector does not depend on which thread or
 * which other texts it came with: pooled and in-thread output are identical.
 *
 * The workers run the compiled `use-lite-worker.js` beside this file; under vitest (src/*.ts) or
 * with MHUB_EMBED_WORKERS=0 there is no worker to run and the caller embeds in-thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { EmbedRequest, EmbedResponse } from './use-lite-worker.js';

/** Fewer texts than this are embedded in-thread: a worker's model load (~0.3 s) would not pay off. */
export const POOL_MIN_TEXTS = 64;
/** Environment variable capping the embedding threads (0 or 1 = in-thread only). */
export const EMBED_WORKERS_ENV = 'MHUB_EMBED_WORKERS';

/** Extra threads to use besides the calling one (0 when pooling is off or pointless). */
export function extraEmbedThreads(textCount: number): number {
  if (textCount < POOL_MIN_TEXTS) return 0;
  const env = process.env[EMBED_WORKERS_ENV];
  const wanted = env !== undefined && /^\d+$/.test(env) ? Number(env) : availableParallelism();
  if (wanted <= 1 || !existsSync(workerFile())) return 0;
  return wanted - 1;
}

function workerFile(): string {
  return fileURLToPath(new URL('./use-lite-worker.js', import.meta.url));
}

/** Embed `texts` in one worker thread (raw model outputs, in order); the worker exits afterwards. */
export async function embedInWorker(texts: string[]): Promise<number[][]> {
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(workerFile());
  try {
    return await new Promise<number[][]>((resolve, reject) => {
      worker.once('message', (res: EmbedResponse) => (res.ok ? resolve(res.vectors) : reject(new Error(`embedding worker: ${res.message}`))));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`embedding worker exited with code ${code}`)));
      worker.postMessage({ texts } satisfies EmbedRequest);
    });
  } finally {
    await worker.terminate();
  }
}
