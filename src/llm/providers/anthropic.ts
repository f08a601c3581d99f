/**
 * The `anthropic` provider: the Messages API through @anthropic-ai/sdk (imported lazily).
 * Credentials are left to the SDK's own order: ANTHROPIC_API_KEY, then ANTHROPIC_AUTH_TOKEN (sent as
 * a bearer token; we add the `anthropic-beta: oauth-2025-04-20` header and the SDK sends no API key
 * alongside), then the SDK's profile login (`<config dir>/configs/<profile>.json`, refreshed by the
 * SDK itself). ANTHROPIC_BASE_URL is read by the SDK. SDK retries are off: the runner retries.
 */
import type { LlmProvider, LlmReply, LlmRequest } from '../provider.js';
import { LlmCallError } from '../provider.js';
import { retryAfterMs } from './retry-after.js';

export const OAUTH_BETA = 'oauth-2025-04-20';
/** HTTP statuses worth retrying (rate limit, overload, server errors, request timeout, conflict). */
const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);
/** A 400 saying structured outputs are not supported here (model or gateway). */
const UNSUPPORTED_FORMAT = /output_config|output_format|json_schema|structured output/i;

export interface AnthropicOptions {
  model: string;
  timeoutMs: number;
}

type Sdk = typeof import('@anthropic-ai/sdk');

function usesAuthTokenOnly(): boolean {
  return !process.env.ANTHROPIC_API_KEY && !!process.env.ANTHROPIC_AUTH_TOKEN;
}

/** The runner's error for an SDK error: retryable or not, with the server's retry-after when it gave one. */
function toCallError(sdk: Sdk, err: unknown, timeoutMs: number): LlmCallError {
  if (err instanceof sdk.APIConnectionTimeoutError) return new LlmCallError(`timed out after ${timeoutMs} ms`, true);
  if (err instanceof sdk.APIUserAbortError) return new LlmCallError(`timed out after ${timeoutMs} ms`, true);
  if (err instanceof sdk.APIConnectionError) return new LlmCallError(`connection failed: ${err.message}`, true);
  if (err instanceof sdk.APIError) {
    const status = typeof err.status === 'number' ? err.status : null;
    const headers = err.headers as Headers | undefined;
    const after = headers && typeof headers.get === 'function' ? retryAfterMs((n) => headers.get(n)) : null;
    const retryable = status !== null && RETRYABLE_STATUS.has(status);
    const msg = `HTTP ${status ?? '?'}: ${String(err.message).slice(0, 200)}`;
    return new LlmCallError(msg, retryable, after, status);
  }
  return new LlmCallError(err instanceof Error ? err.message : String(err), false);
}

/**
 * The Messages API request: shared text, instructions and context as cached system blocks; with
 * `structured`, the schema as output_config.format, else written into the instructions.
 */
function messageParams(model: string, req: LlmRequest, structured: boolean) {
  return {
    model,
    max_tokens: req.maxTokens,
    system: [
      { type: 'text' as const, text: req.shared, cache_control: { type: 'ephemeral' as const } },
      { type: 'text' as const, text: structured ? req.instructions : `${req.instructions}\n\nReply with one JSON object following this JSON schema:\n${JSON.stringify(req.schema)}`, cache_control: { type: 'ephemeral' as const } },
      ...(req.context ? [{ type: 'text' as const, text: req.context, cache_control: { type: 'ephemeral' as const } }] : []),
    ],
    messages: [{ role: 'user' as const, content: req.input }],
    ...(structured ? { output_config: { format: { type: 'json_schema' as const, schema: req.schema } } } : {}),
  };
}

type Message = Awaited<ReturnType<InstanceType<Sdk['default']>['messages']['create']>>;

/** The reply's text, whether it was cut at max_tokens, and its token usage. */
function replyOf(msg: Message): LlmReply {
  if (!('content' in msg)) throw new LlmCallError('the API answered with a stream, not a message', false);
  const text = msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const u = msg.usage;
  return {
    text,
    truncated: msg.stop_reason === 'max_tokens',
    usage: {
      input_tokens: u?.input_tokens ?? 0,
      output_tokens: u?.output_tokens ?? 0,
      cache_read_tokens: u?.cache_read_input_tokens ?? 0,
      cache_write_tokens: u?.cache_creation_input_tokens ?? 0,
    },
  };
}

export async function createAnthropicProvider(opts: AnthropicOptions): Promise<LlmProvider> {
  const sdk: Sdk = await import('@anthropic-ai/sdk');
  const Anthropic = sdk.default;
  const client = new Anthropic({
    maxRetries: 0,
    timeout: opts.timeoutMs,
    ...(usesAuthTokenOnly() ? { defaultHeaders: { 'anthropic-beta': OAUTH_BETA } } : {}),
  });
  // Structured outputs (output_config.format) unless the endpoint rejects them; then the schema goes
  // into the prompt and the runner's repair + zod validation do the rest.
  let structured = true;
  const send = (req: LlmRequest, signal: AbortSignal) => client.messages.create(messageParams(opts.model, req, structured), { signal });
  return {
    name: 'anthropic',
    model: opts.model,
    async complete(req: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
      try {
        return replyOf(await send(req, signal));
      } catch (err) {
        if (!(structured && err instanceof sdk.BadRequestError && UNSUPPORTED_FORMAT.test(String(err.message)))) throw toCallError(sdk, err, opts.timeoutMs);
      }
      structured = false;
      try {
        return replyOf(await send(req, signal));
      } catch (err) {
        throw toCallError(sdk, err, opts.timeoutMs);
      }
    },
  };
}
