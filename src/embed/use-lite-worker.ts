/**
 * Worker thread for USE-lite: loads the model once and embeds the slices of texts it is sent.
 * Returns raw model outputs; normalisation happens in the caller, as for in-thread embedding.
 */
import { parentPort } from 'node:worker_threads';
import { loadUseLiteModel } from './use-lite-model.js';

export interface EmbedRequest {
  texts: string[];
}
export type EmbedResponse = { ok: true; vectors: number[][] } | { ok: false; message: string };

const model = loadUseLiteModel();

parentPort?.on('message', async (req: EmbedRequest) => {
  try {
    const m = await model;
    const vectors: number[][] = [];
    for (const t of req.texts) vectors.push(...(await m.embed([t || ' '])));
    parentPort?.postMessage({ ok: true, vectors } satisfies EmbedResponse);
  } catch (err) {
    parentPort?.postMessage({ ok: false, message: (err as Error).message } satisfies EmbedResponse);
  }
});
