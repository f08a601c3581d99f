/**
 * Runs one role call end to end: result cache → --max-calls budget → concurrency limit → provider
 * call with timeout → retries with backoff (honouring retry-after) → loose JSON parse + zod
 * validation (one repair pass for malformed or cut-off replies) → cache write. Never throws: a
 * failure returns a reason, and the caller keeps its offline result.
 */
import type { LlmProvider, LlmRequest, LlmReply } from './provider.js';
import { LlmCallError } from './provider.js';
import type { Role } from './role.js';
import { SHARED_INSTRUCTIONS } from './role.js';
import { LlmCache, sha256 } from './cache.js';
import { Limiter } from './limiter.js';
import { UsageMeter } from './usage.js';
import { parseJsonLoose } from './json-repair.js';
import { MAX_RETRY_AFTER_MS } from './providers/retry-after.js';

/** First backoff; doubles per attempt, with jitter. Tests shorten it with MHUB_LLM_RETRY_BASE_MS. */
export const DEFAULT_RETRY_BASE_MS = 1000;
/** Upper bound of one backoff wait. */
export const MAX_BACKOFF_MS = 30_000;

export interface RunnerOptions {
  maxConcurrency: number;
  maxCalls: number | null;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs?: number;
  log: (m: string) => void;
}

export type RunResult<T> = { ok: true; value: T; cached: boolean } | { ok: false; reason: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class LlmRunner {
  readonly meter: UsageMeter;
  private readonly cache: LlmCache;
  private readonly limiter: Limiter;
  private readonly schemaCache = new Map<string, Record<string, unknown>>();
  private started = 0;
  private readonly retryBase: number;

  constructor(root: string, readonly provider: LlmProvider, private readonly opts: RunnerOptions) {
    this.meter = new UsageMeter(provider.model);
    this.cache = new LlmCache(root);
    this.limiter = new Limiter(Math.max(1, opts.maxConcurrency));
    const envBase = Number(process.env.MHUB_LLM_RETRY_BASE_MS);
    this.retryBase = opts.retryBaseMs ?? (Number.isFinite(envBase) && process.env.MHUB_LLM_RETRY_BASE_MS ? envBase : DEFAULT_RETRY_BASE_MS);
  }

  get model(): string {
    return this.provider.model;
  }

  private async jsonSchema<T>(role: Role<T>): Promise<Record<string, unknown>> {
    const hit = this.schemaCache.get(role.step);
    if (hit) return hit;
    const { zodOutputFormat } = await import('@anthropic-ai/sdk/helpers/zod');
    const schema = zodOutputFormat(role.schema).schema as Record<string, unknown>;
    this.schemaCache.set(role.step, schema);
    return schema;
  }

  private validate<T>(role: Role<T>, reply: LlmReply): { value: T } | { error: string } {
    const parsed = parseJsonLoose(reply.text);
    if (!parsed) return { error: `reply is not JSON${reply.truncated ? ' (cut off at the token limit)' : ''}` };
    const r = role.schema.safeParse(parsed.value);
    if (!r.success) {
      const issue = r.error.issues[0];
      return { error: `reply does not match the ${role.step} schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}` };
    }
    return { value: r.data };
  }

  /**
   * Runs `role` on `input` (after `context`, shared by several calls and prompt-cached); the cache
   * key covers context + input, the model and the role's version.
   */
  async run<T>(role: Role<T>, input: string, context?: string): Promise<RunResult<T>> {
    const content = context ? `${context}\n\n${input}` : input;
    const key = { step: role.step, model: this.provider.model, prompt_version: role.version, content_sha256: sha256(content) };
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      const r = role.schema.safeParse(cached);
      if (r.success) {
        this.meter.cache_hits++;
        return { ok: true, value: r.data, cached: true };
      }
    }
    const req: LlmRequest = { step: role.step, shared: SHARED_INSTRUCTIONS, instructions: role.instructions, context, input, schema: await this.jsonSchema(role), maxTokens: role.maxTokens };
    let lastError = '';
    // one extra attempt is allowed for a malformed reply (not counted as a transport retry)
    let repairLeft = 1;
    for (let attempt = 0; ; attempt++) {
      if (this.opts.maxCalls !== null && this.started >= this.opts.maxCalls) {
        this.meter.skipped_budget++;
        this.meter.fallbacks++;
        return { ok: false, reason: `${role.step}: --max-calls ${this.opts.maxCalls} reached${lastError ? ` (last error: ${lastError})` : ''}` };
      }
      this.started++;
      let reply: LlmReply;
      try {
        reply = await this.limiter.run(() => this.callOnce(req));
      } catch (err) {
        const e = err instanceof LlmCallError ? err : new LlmCallError(String(err), false);
        this.meter.failed_calls++;
        lastError = e.message;
        if (!e.retryable || attempt >= this.opts.maxRetries) {
          this.meter.fallbacks++;
          const tries = attempt + 1;
          return { ok: false, reason: `${role.step}: ${e.message}${e.retryable ? ` (gave up after ${tries} attempts)` : ''}` };
        }
        if (e.retryAfterMs !== null && e.retryAfterMs > MAX_RETRY_AFTER_MS) {
          this.meter.fallbacks++;
          return { ok: false, reason: `${role.step}: ${e.message} (server asked to wait ${Math.round(e.retryAfterMs / 1000)} s)` };
        }
        const wait = e.retryAfterMs ?? Math.min(MAX_BACKOFF_MS, this.retryBase * 2 ** attempt * (1 + Math.random() * 0.25));
        this.meter.retries++;
        this.opts.log(`LLM ${role.step}: ${e.message}; retrying in ${Math.round(wait)} ms`);
        await sleep(wait);
        continue;
      }
      this.meter.calls++;
      this.meter.record(role.step, reply.usage);
      const v = this.validate(role, reply);
      if ('value' in v) {
        this.cache.put(key, v.value);
        return { ok: true, value: v.value, cached: false };
      }
      lastError = v.error;
      if (repairLeft-- > 0) {
        this.opts.log(`LLM ${role.step}: ${v.error}; asking once more`);
        continue;
      }
      this.meter.fallbacks++;
      return { ok: false, reason: `${role.step}: ${v.error}` };
    }
  }

  private async callOnce(req: LlmRequest): Promise<LlmReply> {
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(), this.opts.timeoutMs);
    try {
      return await this.provider.complete(req, ctrl.signal);
    } catch (err) {
      if (ctrl.signal.aborted && !(err instanceof LlmCallError && err.retryable)) throw new LlmCallError(`timed out after ${this.opts.timeoutMs} ms`, true);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }
}
