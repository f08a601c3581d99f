/** Per-run accounting of LLM calls, tokens and estimated cost, printed at the end of an ingest. */
import type { LlmUsage } from './provider.js';

/** USD per million tokens: [input, output]. Cache writes cost 1.25× input, cache reads 0.1× input. */
export const PRICES_PER_MTOK: Array<[RegExp, number, number]> = [
  [/opus-4-(5|6)/, 5, 25],
  [/opus/, 15, 75],
  [/haiku-4/, 1, 5],
  [/haiku/, 0.8, 4],
  [/sonnet/, 3, 15],
];
export const CACHE_WRITE_FACTOR = 1.25;
export const CACHE_READ_FACTOR = 0.1;

export function estimateCostUsd(model: string, u: LlmUsage): number | null {
  if (u.cost_usd !== undefined) return u.cost_usd;
  const row = PRICES_PER_MTOK.find(([re]) => re.test(model));
  if (!row) return null;
  const [, inp, out] = row;
  return (u.input_tokens * inp + u.cache_write_tokens * inp * CACHE_WRITE_FACTOR + u.cache_read_tokens * inp * CACHE_READ_FACTOR + u.output_tokens * out) / 1e6;
}

export class UsageMeter {
  calls = 0;
  failed_calls = 0;
  retries = 0;
  cache_hits = 0;
  fallbacks = 0;
  skipped_budget = 0;
  tokens: LlmUsage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  cost = 0;
  costKnown = true;
  readonly byStep = new Map<string, number>();

  constructor(private readonly model: string) {}

  record(step: string, u: LlmUsage): void {
    this.tokens.input_tokens += u.input_tokens;
    this.tokens.output_tokens += u.output_tokens;
    this.tokens.cache_read_tokens += u.cache_read_tokens;
    this.tokens.cache_write_tokens += u.cache_write_tokens;
    const c = estimateCostUsd(this.model, u);
    if (c === null) this.costKnown = false;
    else this.cost += c;
    this.byStep.set(step, (this.byStep.get(step) ?? 0) + 1);
  }

  lines(providerLabel: string): string[] {
    const t = this.tokens;
    const steps = [...this.byStep.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([s, n]) => `${s} ${n}`).join(', ');
    const cost = this.costKnown ? `$${this.cost.toFixed(4)}` : 'unknown (model not in the price table)';
    return [
      `LLM usage (${providerLabel}): ${this.calls} calls${steps ? ` (${steps})` : ''}, ${this.cache_hits} cache hits, ${this.retries} retries, ${this.failed_calls} failed, ${this.fallbacks} offline fallbacks${this.skipped_budget ? `, ${this.skipped_budget} skipped by --max-calls` : ''}.`,
      `LLM tokens: ${t.input_tokens} in, ${t.output_tokens} out, ${t.cache_read_tokens} cache read, ${t.cache_write_tokens} cache write; estimated cost ${cost}.`,
    ];
  }
}
