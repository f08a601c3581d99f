/**
 * L2 normalisation plus a fixed quantisation grid: vectors are rounded to multiples of 2^-16 so
 * tiny floating-point differences between machines do not change the bytes of the FAISS files.
 */
export const VECTOR_QUANTUM = 1 / 65536;

export function normalizeVector(v: ArrayLike<number>): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  const n = Math.sqrt(s) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = Math.round((v[i] as number) / n / VECTOR_QUANTUM) * VECTOR_QUANTUM;
  return out;
}

/** Run `fn` over `items` in batches of `size`, concatenating results in order. */
export async function inBatches<T, R>(items: T[], size: number, fn: (batch: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await fn(items.slice(i, i + size))));
  return out;
}
