/** The embedder contract: lazy, batched, L2-normalised vectors, with a recorded model identity. */
export interface ModelIdentity {
  /** "minilm:Xenova/all-MiniLM-L6-v2", "use-lite", … */
  name: string;
  dims: number;
  /** short hash of the model's files: a different fingerprint means re-embed, never mix */
  fingerprint: string;
}

export interface Embedder {
  identity: ModelIdentity;
  /** one L2-normalised vector per text, in order */
  embed(texts: string[]): Promise<Float32Array[]>;
}

export function sameModel(a: ModelIdentity | null | undefined, b: ModelIdentity | null | undefined): boolean {
  return !!a && !!b && a.name === b.name && a.dims === b.dims && a.fingerprint === b.fingerprint;
}
