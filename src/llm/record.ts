/** Per-source record of which steps used the LLM and why any fell back (CatalogEntry.llm). */
import type { CatalogEntry } from '../store/schemas.js';

export const LLM_STEP_ORDER = ['sampling', 'tree', 'card', 'curation'] as const;

export class SourceRecord {
  readonly steps = new Set<string>();
  readonly fallbacks: string[] = [];

  ok(step: string): void {
    this.steps.add(step);
  }

  fallback(reason: string): void {
    this.fallbacks.push(reason);
  }

  toEntry(provider: string, model: string): NonNullable<CatalogEntry['llm']> {
    return { provider, model, steps: LLM_STEP_ORDER.filter((s) => this.steps.has(s)), fallbacks: [...this.fallbacks] };
  }
}
