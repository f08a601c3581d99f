/**
 * The curation step, batched over the catalog: tags, a shelf and related sources (with a one-line
 * reason) per indexed source. Inputs use only card fields (never earlier curation output), so an
 * unchanged catalog hits the cache and makes zero calls.
 */
import type { CatalogEntry } from '../store/schemas.js';
import { compareStrings } from '../store/json.js';
import type { LlmRunner } from './runner.js';
import { curationRole, normalizeTag, MAX_RELATED, MAX_TAGS, type CurationReply } from './roles/curation.js';
import { LLM_STEP_ORDER } from './record.js';

/** Sources curated per request. */
export const CURATION_BATCH = 20;
/** Sources listed as candidates for `related` (the whole catalog up to this many). */
export const CATALOG_LIST_MAX = 400;
/** Characters of each summary shown. */
export const CURATION_SUMMARY_CHARS = 400;
/** Characters of a shelf path. */
const MAX_SHELF_CHARS = 64;

type Curated = CurationReply['sources'][number];

/** The catalog list every batch shares (sent once per request as prompt-cached context). */
function catalogContext(catalog: CatalogEntry[]): string {
  const list = catalog.slice(0, CATALOG_LIST_MAX).map((e) => `${e.id} | ${e.title}${e.period ? ` | ${e.period}` : ''}`);
  return `CATALOG:\n${list.join('\n')}`;
}

function batchInput(batch: CatalogEntry[]): string {
  const lines = batch.map((e) =>
    JSON.stringify({ id: e.id, type: e.type, title: e.title, doc_type: e.doc_type, period: e.period, date: e.date, key_topics: e.key_topics, summary: e.summary.slice(0, CURATION_SUMMARY_CHARS) }),
  );
  return `BATCH:\n${lines.join('\n')}`;
}

function cleanShelf(s: string): string {
  return s
    .split('/')
    .map(normalizeTag)
    .filter(Boolean)
    .join('/')
    .slice(0, MAX_SHELF_CHARS);
}

function withStep(e: CatalogEntry, provider: string, model: string, fallback: string | null): CatalogEntry['llm'] {
  const prev = e.llm ?? { provider, model, steps: [], fallbacks: [] };
  const steps = new Set(prev.steps);
  if (fallback) steps.delete('curation');
  else steps.add('curation');
  const fallbacks = prev.fallbacks.filter((f) => !f.startsWith('curation:'));
  if (fallback) fallbacks.push(fallback);
  return { provider: prev.provider, model: prev.model, steps: LLM_STEP_ORDER.filter((s) => steps.has(s)), fallbacks };
}

export async function curateCatalog(
  runner: LlmRunner,
  entries: CatalogEntry[],
  log: (m: string) => void,
  fallback: (file: string, reason: string) => void = () => {},
): Promise<CatalogEntry[]> {
  const indexed = entries.filter((e) => e.status === 'indexed');
  if (indexed.length === 0) return entries;
  const ids = new Set(indexed.map((e) => e.id));
  const batches: CatalogEntry[][] = [];
  for (let i = 0; i < indexed.length; i += CURATION_BATCH) batches.push(indexed.slice(i, i + CURATION_BATCH));
  const context = catalogContext(indexed);
  // the first batch alone writes the prompt cache for the catalog list; the others then read it
  const first = await runner.run(curationRole, batchInput(batches[0]!), context);
  const results = [first, ...(await Promise.all(batches.slice(1).map((b) => runner.run(curationRole, batchInput(b), context))))];
  const curated = new Map<string, Curated>();
  const failed = new Map<string, string>();
  results.forEach((r, i) => {
    const batch = batches[i]!;
    if (!r.ok) {
      for (const e of batch) failed.set(e.id, r.reason);
      return;
    }
    const inBatch = new Set(batch.map((e) => e.id));
    for (const s of r.value.sources) if (inBatch.has(s.id) && !curated.has(s.id)) curated.set(s.id, s);
    for (const e of batch) if (!curated.has(e.id)) failed.set(e.id, 'curation: the reply left this source out');
  });
  if (failed.size) log(`LLM curation: ${failed.size} source(s) kept their previous tags`);
  for (const e of indexed) if (failed.has(e.id)) fallback(e.original_path, failed.get(e.id)!);
  const provider = runner.provider.name;
  const model = runner.model;
  return entries.map((e) => {
    if (!ids.has(e.id)) return e;
    const c = curated.get(e.id);
    if (!c) return { ...e, llm: withStep(e, provider, model, failed.get(e.id) ?? 'curation: no reply') };
    const tags = [...new Set(c.tags.map(normalizeTag).filter(Boolean))].slice(0, MAX_TAGS).sort(compareStrings);
    const related = new Map<string, string>();
    for (const r of c.related) {
      if (r.id !== e.id && ids.has(r.id) && !related.has(r.id) && related.size < MAX_RELATED) related.set(r.id, r.reason.replace(/\s+/g, ' ').trim());
    }
    const shelf = cleanShelf(c.shelf);
    const next: CatalogEntry = { ...e, tags };
    if (shelf) next.shelf = shelf;
    else delete next.shelf;
    next.related = [...related.entries()].sort((a, b) => compareStrings(a[0], b[0])).map(([id, reason]) => ({ id, reason }));
    next.llm = withStep(e, provider, model, null);
    return next;
  });
}
