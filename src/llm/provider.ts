/**
 * The one small interface every LLM provider implements. A provider sends one request (shared
 * instructions + role instructions + the input text, with the JSON schema the reply must follow)
 * and returns the reply text and its token usage. Retries, caching, budgets and parsing live
 * above it (./runner.ts), so providers stay thin.
 */

export type ProviderName = 'anthropic' | 'claude-cli';

export interface LlmRequest {
  /** the role (sampling, card, tree, curation): used for logs and the cache key */
  step: string;
  /** instructions shared by every role (cached with prompt caching) */
  shared: string;
  /** this role's instructions */
  instructions: string;
  /** context shared by several requests of a run (the catalog list for curation): sent before the input, cached */
  context?: string | undefined;
  /** the input (sample, document excerpt, page-tagged text, catalog batch) */
  input: string;
  /** JSON schema the reply must follow */
  schema: Record<string, unknown>;
  maxTokens: number;
}

export interface LlmUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** the provider's own cost figure when it reports one (claude-cli does) */
  cost_usd?: number | undefined;
}

export interface LlmReply {
  text: string;
  usage: LlmUsage;
  /** the reply was cut off by the token limit */
  truncated: boolean;
}

export interface LlmProvider {
  name: ProviderName;
  model: string;
  complete(req: LlmRequest, signal: AbortSignal): Promise<LlmReply>;
}

/** A failed call; `retryable` and `retryAfterMs` drive the runner's backoff. */
export class LlmCallError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs: number | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'LlmCallError';
  }
}

export function emptyUsage(): LlmUsage {
  return { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
}
