/**
 * The LLM result cache, kept in the store under llm_cache/ and committed with it: re-ingesting an
 * unchanged document on any machine makes zero calls and yields the same bytes. One file per key,
 * sharded by step and the key's first two hex digits. Holds validated results only — never prompts'
 * secrets, credentials or timestamps.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LLM_CACHE_DIR } from '../store/layout.js';
import { writeIfChanged } from '../store/atomic.js';
import { canonicalJson } from '../store/json.js';

export const CACHE_FORMAT = 1;

export const CacheFile = z.object({
  format: z.literal(CACHE_FORMAT),
  step: z.string(),
  model: z.string(),
  prompt_version: z.number().int(),
  content_sha256: z.string(),
  result: z.unknown(),
});
export type CacheFile = z.infer<typeof CacheFile>;

export interface CacheKey {
  step: string;
  model: string;
  prompt_version: number;
  content_sha256: string;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function cacheRelPath(k: CacheKey): string {
  const key = sha256([k.step, k.content_sha256, k.model, String(k.prompt_version)].join('\n'));
  return `${LLM_CACHE_DIR}/${k.step}/${key.slice(0, 2)}/${key}.json`;
}

export class LlmCache {
  constructor(private readonly root: string) {}

  get(k: CacheKey): unknown | undefined {
    const p = join(this.root, cacheRelPath(k));
    if (!existsSync(p)) return undefined;
    try {
      const f = CacheFile.parse(JSON.parse(readFileSync(p, 'utf8')));
      if (f.step !== k.step || f.model !== k.model || f.prompt_version !== k.prompt_version || f.content_sha256 !== k.content_sha256) return undefined;
      return f.result;
    } catch {
      return undefined; // a damaged entry is simply a miss; the next write repairs it
    }
  }

  put(k: CacheKey, result: unknown): void {
    const file: CacheFile = { format: CACHE_FORMAT, step: k.step, model: k.model, prompt_version: k.prompt_version, content_sha256: k.content_sha256, result };
    writeIfChanged(join(this.root, cacheRelPath(k)), canonicalJson(file));
  }
}
