/**
 * Tier-1 search, the one entry point (`mhub search`, the skill's search.js, `mhub eval` and the
 * benchmarks all call `searchStore`): which sources answer a query. Filters first; then the signals,
 * each its own module — keyword (signals/keyword.ts), vectors (signals/vector.ts), metadata: period
 * and identity (signals/metadata.ts) — fused in fusion.ts; each hit carries a calibrated relevance,
 * a verdict (confidence.ts) and its best nodes (nodes.ts). No model or no vector index →
 * keyword-only, with a warning.
 */
import { readCatalogForQuery } from '../store/catalog.js';
import { loadConfig } from '../store/config.js';
import type { CatalogEntry, Config } from '../store/schemas.js';
import { openLookup, SOURCE_ROW_COLUMNS, type SourceLookup, type SourceRow } from '../store/lookup.js';
import type { SearchOptions, SearchResult, SourceHit } from './types.js';
import { applyFilters, hasFilters } from './filters.js';
import { queryTermGroups, splitCompounds } from './query.js';
import { KeywordShardError, libraryHolds, sourceKeywords, sourcesHolding, nodeKeywords, type SourceKeywords } from './keyword-index.js';
import type { SourceField } from '../model/keyword-format.js';
import { combineRelevance, sourceConflict, sourceVerdict, vectorRelevance } from './confidence.js';
import { allowedRows, keywordSignals, type KeywordSignals } from './signals/keyword.js';
import { SERIES_CANDIDATES, identitySignal, latestInSeries, periodSignal } from './signals/metadata.js';
import { queryPeriod } from './period.js';
import { rarestTerm, type RareTerm } from './signals/rare.js';
import { vectorSignals, type VectorSignals } from './signals/vector.js';
import { SIGNALS, fuse, ranked, type Fused, type SignalLists } from './fusion.js';
import { passageSignal } from './signals/passage.js';
import { rankNodesIn, DEFAULT_NODES_PER_SOURCE } from './nodes.js';
import { storeNodeText } from './proximity.js';
import { librarySpecificity, type Specificity } from './specificity.js';
import { checkAnswerFreshness } from './freshness.js';
import { boundQuery } from './arguments.js';
import { keywordIndexWarning, nodeVectorsWarning } from './index-health.js';
import { loadVocabulary, type Vocabulary } from './vocabulary.js';

export { DEFAULT_NODES_PER_SOURCE };

const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;
/** Identity share (signals/metadata.ts) at which the query names a source: all of its naming words are in the source's identity. */
export const NAMED_SOURCE_SHARE = 1;

/** What one query sees: the store, the sources passing the filters, the query's terms. */
interface SearchContext {
  root: string;
  query: string;
  opts: SearchOptions;
  config: Config;
  /** the catalog, read per source (store/lookup.ts) */
  lookup: SourceLookup;
  /** the sources passing the filters (all indexed ones without filters) */
  allowed: ReadonlySet<string>;
  /** a source's row (read only for the sources a signal or the answer asks about) */
  row: (id: string) => SourceRow | null;
  /** the full entries of the hits built so far (their files are checked for freshness) */
  touched: CatalogEntry[];
  /** the query's term groups (node ranking) */
  groups: string[][];
  /** the same with camel-case identifiers' parts (source ranking but the rare-term guarantee, which keeps to the words as typed: query.ts) */
  sourceGroups: string[][];
  vocabulary: Vocabulary;
  mode: SearchResult['mode'];
  /** the store has indexed sources (an empty store has no indexes to miss) */
  populated: boolean;
  warnings: string[];
}

interface Signals {
  kix: SourceKeywords | null;
  kw: KeywordSignals | null;
  /** the query's rarest term and the sources holding it (they come first) */
  rare: RareTerm | null;
  vec: VectorSignals | null;
  lists: SignalLists;
  /** query words weighted by their spread over the library, for the nodes listed (specificity.ts) */
  specificity: Specificity | null;
}

async function vectorPart(ctx: SearchContext): Promise<VectorSignals | null> {
  if (ctx.mode === 'keyword') return null;
  const v = await vectorSignals(ctx.root, ctx.config, ctx.query, ctx.allowed);
  if (typeof v !== 'string') {
    if (!v.nodeVectors && ctx.populated) ctx.warnings.push(nodeVectorsWarning(ctx.root));
    return v;
  }
  if (ctx.populated) ctx.warnings.push(`keyword-only results: ${v}`);
  ctx.mode = 'keyword';
  return null;
}

/** The keyword signals (null when the index is missing, damaged or the mode is vector-only). */
function keywordPart(ctx: SearchContext, kix: SourceKeywords | null): Pick<Signals, 'kw' | 'rare'> & { mask: Uint8Array | null } {
  if (!kix || ctx.mode === 'vector') return { kw: null, rare: null, mask: null };
  const mask = allowedRows(kix, ctx.allowed);
  return { kw: keywordSignals(kix, ctx.sourceGroups, mask, !!ctx.opts.explain), rare: rarestTerm(kix, ctx.groups, mask), mask };
}

const IDENTITY: readonly SourceField[] = ['identity'];

/** Whether one source's identity field (title, file name) holds both terms. */
function namedTogether(kix: SourceKeywords, a: string, b: string): boolean {
  const withA = sourcesHolding(kix, a, IDENTITY);
  return withA.size > 0 && [...sourcesHolding(kix, b, IDENTITY)].some((row) => withA.has(row));
}

/** The query's typed words no source holds, taken apart into two words one source is named by (query.ts splitCompounds). */
function compoundsApart(kix: SourceKeywords, groups: string[][]): string[][] {
  return splitCompounds(groups, (t) => libraryHolds(kix, t), (a, b) => namedTogether(kix, a, b));
}

function splitUnknownWords(ctx: SearchContext, kix: SourceKeywords): void {
  ctx.groups = compoundsApart(kix, ctx.groups);
  ctx.sourceGroups = compoundsApart(kix, ctx.sourceGroups);
}

async function gatherSignals(ctx: SearchContext): Promise<Signals> {
  const vec = await vectorPart(ctx);
  let kix = sourceKeywords(ctx.root);
  let part: ReturnType<typeof keywordPart>;
  try {
    if (kix && ctx.mode !== 'vector') splitUnknownWords(ctx, kix);
    part = keywordPart(ctx, kix);
  } catch (err) {
    if (!(err instanceof KeywordShardError)) throw err;
    kix = null;
    part = keywordPart(ctx, null);
  }
  if (!kix && ctx.populated) ctx.warnings.push(keywordIndexWarning(ctx.root));
  const { kw, rare, mask } = part;
  const lists: SignalLists = { keyword: kw?.bm25, coverage: kw?.coverage, card_vector: vec?.card, node_vector: vec?.node };
  const candidates = new Set([...(kw?.bm25.keys() ?? []), ...(vec?.card.keys() ?? []), ...(vec?.node.keys() ?? [])]);
  if (kix && mask) {
    lists.period = periodSignal(ctx.query, candidates, ctx.row);
    lists.identity = identitySignal(kix, ctx.sourceGroups, mask);
  }
  return { kix: mask ? kix : null, kw, rare, vec, lists, specificity: librarySpecificity(kix) };
}

function relevanceOf(ctx: SearchContext, sig: Signals, id: string): { kw: number | null; vec: number | null; rel: number } {
  const kw = sig.kw ? (sig.kw.relevance.get(id) ?? 0) : ctx.mode === 'vector' ? null : 0;
  const vec = sig.vec && sig.vec.card.size > 0 ? vectorRelevance(sig.vec.card.get(id), sig.vec.node.get(id)) : null;
  const rel = combineRelevance(kw, vec);
  // a source holding the query's rare term, or named by it, is at least a weak match, whatever the thresholds
  const sure = sig.rare?.sources.has(id) || namedByQuery(sig, id);
  return { kw, vec, rel: sure ? Math.max(rel, ctx.config.search.weak_threshold) : rel };
}

/**
 * A source whose identity (title, file name, metadata) holds every naming word of the query
 * (identity signal 1: "AMCOR's quick ratio", "socat's log messages"). Its relevance is the share of
 * the query's words it holds, and a question's other words (a turn of phrase, "fast", "judging")
 * can leave that under the weak threshold: it was then left out and the answer said "nothing
 * matches", though the ranking put it first (ten dev and held-out sets: 4 of 533 questions; of
 * 30 off-topic queries on seven stores, none names a source).
 */
function namedByQuery(sig: Signals, id: string): boolean {
  return (sig.lists.identity?.get(id) ?? 0) >= NAMED_SOURCE_SHARE;
}

function explainHit(sig: Signals, fused: Fused, id: string, r: { kw: number | null; vec: number | null }): Record<string, number | string> {
  const ex: Record<string, number | string> = {};
  for (const s of SIGNALS) {
    const list = sig.lists[s];
    if (!list || list.size === 0) continue;
    ex[`${s}_score`] = round(list.get(id) ?? 0);
    ex[`${s}_rank`] = list.has(id) ? ranked(list).findIndex(([x]) => x === id) + 1 : 0;
    ex[`${s}_contribution`] = round(fused.contribution(s, id), 5);
  }
  if (r.kw !== null) ex['keyword_relevance'] = round(r.kw, 3);
  if (r.vec !== null) ex['vector_relevance'] = round(r.vec, 3);
  if (sig.rare?.sources.has(id)) ex['rare_term'] = sig.rare.term;
  ex['matched_terms'] = (sig.kw?.matched.get(id) ?? []).join(' ');
  return ex;
}

/** A hit's catalog entry: its lookup/ entries file (the row, without a summary, if that file lacks it). */
function hitEntry(ctx: SearchContext, id: string): Pick<CatalogEntry, 'title' | 'original_path' | 'type' | 'summary' | 'doc_type' | 'size_kb'> {
  const e = ctx.lookup.entry(id);
  if (e) {
    ctx.touched.push(e);
    return e;
  }
  return { ...ctx.row(id)!, summary: '', size_kb: -1 };
}

function buildHit(ctx: SearchContext, sig: Signals, fused: Fused, id: string, score: number, rel: ReturnType<typeof relevanceOf>): SourceHit {
  const e = hitEntry(ctx, id);
  const { strong_threshold: strong, weak_threshold: weak } = ctx.config.search;
  const k = ctx.opts.nodesPerSource ?? DEFAULT_NODES_PER_SOURCE;
  // no nodes asked for (eval's tier 1): the source's node file is not read
  const nix = k > 0 ? nodeKeywords(ctx.root, id) : null;
  const vocabulary = loadVocabulary(ctx.root, ctx.config, e.doc_type ?? '');
  const groups = vocabulary === ctx.vocabulary ? ctx.groups : sig.kix ? compoundsApart(sig.kix, queryTermGroups(ctx.query, vocabulary.stopwords)) : queryTermGroups(ctx.query, vocabulary.stopwords);
  const nodes = nix
    ? rankNodesIn(nix, {
      terms: groups.flat(), groups, text: ctx.query, vocabulary, query: sig.vec?.query ?? null,
      thresholds: { strong, weak }, nodeVectors: sig.vec?.nodeVectors ?? null, nodeText: storeNodeText(ctx.root, id), specificity: sig.specificity,
      k, maxPages: ctx.config.ingest.max_leaf_pages,
    })
    : [];
  const hit: SourceHit = {
    id, title: e.title, file: e.original_path, type: e.type, score: round(score, 6), relevance: round(rel.rel, 3),
    // the verdict needs the whole ranking: set by assignVerdicts
    verdict: 'none', summary: e.summary, nodes,
  };
  if (ctx.opts.explain) hit.explain = explainHit(sig, fused, id, rel);
  return hit;
}

/**
 * The ranking with the rare term's sources moved into the first k when they are below (kept in
 * order): each takes the place of the lowest of the first k that does not hold the term, never of
 * one that does (with k = 2 and three sources holding it, the first two stay).
 */
export function keepRare(order: Array<[string, number]>, rare: Pick<RareTerm, 'sources'> | null, k: number): Array<[string, number]> {
  if (!rare) return order;
  const holds = ([id]: [string, number]) => rare.sources.has(id);
  const top = order.slice(0, k);
  const room = top.filter((e) => !holds(e)).length;
  const late = order.slice(k).filter(holds).slice(0, room);
  if (late.length === 0) return order;
  const dropped = new Set<string>();
  for (let i = top.length - 1; i >= 0 && dropped.size < late.length; i--) if (!holds(top[i]!)) dropped.add(top[i]![0]);
  const kept = top.filter(([id]) => !dropped.has(id));
  const moved = new Set([...kept, ...late].map(([id]) => id));
  return [...kept, ...late, ...order.filter(([id]) => !moved.has(id))];
}

/** The top k hits; sources under the weak threshold are left out (unless includeNone), the closest noted. */
function topHits(ctx: SearchContext, sig: Signals, fused: Fused): { hits: SourceHit[]; closest: { id: string; rel: number } | null } {
  const k = ctx.opts.k ?? ctx.config.search.default_k;
  const hits: SourceHit[] = [];
  let closest: { id: string; rel: number } | null = null;
  for (const [id, score] of keepRare(ranked(fused.scores, sig.rare?.first ? sig.rare.sources : undefined), sig.rare, k)) {
    if (hits.length >= k) break;
    const r = relevanceOf(ctx, sig, id);
    if (r.rel < ctx.config.search.weak_threshold && !ctx.opts.includeNone) {
      if (!closest || r.rel > closest.rel) closest = { id, rel: r.rel };
      continue;
    }
    hits.push(buildHit(ctx, sig, fused, id, score, r));
  }
  return { hits, closest };
}

/** Largest value of a signal over the fused candidates (undefined when the signal is empty). */
function bestOf(list: Map<string, number> | undefined, candidates: Map<string, number>): number | undefined {
  if (!list || list.size === 0) return undefined;
  let best = -Infinity;
  for (const id of candidates.keys()) best = Math.max(best, list.get(id) ?? 0);
  return best === -Infinity ? undefined : best;
}

/**
 * Relevance shown never rises down the ranking (a source ranked below another shows at most its
 * relevance), then each hit's verdict (confidence.ts sourceVerdict): only the first can be
 * `strong`, when its score clearly leads every other candidate's and neither its period nor its
 * name conflicts with the query's. Nodes of a hit that is not `strong` are at most `weak` (dev
 * sets: first nodes `strong` under a `strong` first source held the answer 34 times of 37; all
 * `strong` first nodes of first sources 41 of 46).
 */
function assignVerdicts(ctx: SearchContext, sig: Signals, fused: Fused, hits: SourceHit[]): void {
  const weak = ctx.config.search.weak_threshold;
  const bestPeriod = bestOf(sig.lists.period, fused.scores);
  const bestIdentity = bestOf(sig.lists.identity, fused.scores);
  const first = hits[0];
  let lead = 0;
  if (first) {
    let other = -Infinity;
    for (const [id, sc] of fused.scores) if (id !== first.id) other = Math.max(other, sc);
    lead = other === -Infinity ? 1 : first.score > 0 ? (first.score - other) / first.score : 0;
  }
  // the second listed source's own relevance, before it is capped at the first's
  const second = hits[1]?.relevance;
  const metadata = (id: string) => ({
    ...(bestPeriod !== undefined ? { period: { own: sig.lists.period?.get(id) ?? 0, best: bestPeriod } } : {}),
    ...(bestIdentity !== undefined ? { identity: { own: sig.lists.identity?.get(id) ?? 0, best: bestIdentity } } : {}),
  });
  const nextConflicts = hits[1] ? sourceConflict(metadata(hits[1].id)) !== null : false;
  hits.forEach((h, i) => {
    if (i > 0) h.relevance = Math.min(h.relevance, hits[i - 1]!.relevance);
    h.verdict = sourceVerdict({
      rank: i + 1, relevance: h.relevance, lead, ...(i === 0 && second !== undefined ? { next: second, nextConflicts } : {}), ...metadata(h.id),
    }, weak);
    nodeVerdictsUnder(h);
  });
}

/**
 * A hit's node verdicts against its own: a node is only as sure as its source (`strong` means "read
 * this", not "best of a doubtful source"), and the best place in a source that clearly holds the
 * answer is worth a look: the first node of a `strong` source is never `none` (such first nodes
 * held the answer 3 times of 7 on the four dev sets, `weak` ones 81 of 121:
 * scripts/calibrate-verdicts.mjs; agents skipped them).
 */
export function nodeVerdictsUnder(h: Pick<SourceHit, 'verdict' | 'nodes'>): void {
  if (h.verdict !== 'strong') for (const n of h.nodes) if (n.verdict === 'strong') n.verdict = 'weak';
  const first = h.nodes[0];
  if (h.verdict === 'strong' && first?.verdict === 'none') first.verdict = 'weak';
}

function resultWarnings(ctx: SearchContext, hits: SourceHit[], closest: { id: string; rel: number } | null): void {
  const k = ctx.opts.k ?? ctx.config.search.default_k;
  if (hits.every((h) => h.verdict === 'none')) {
    const sub = hasFilters(ctx.opts.filters) ? ` among the ${ctx.allowed.size} sources passing the filters` : '';
    const near = closest ? ` (closest: ${ctx.row(closest.id)?.title ?? closest.id}, relevance ${round(closest.rel, 2)})` : '';
    ctx.warnings.push(ctx.allowed.size === 0 ? 'no sources to search (empty store, or the filters exclude everything)' : `nothing matches this query${sub}${near}`);
  } else if (hits.length === 1 && k > 1 && ctx.allowed.size > 1) {
    ctx.warnings.push(`only one source matched (${hits[0]!.title}): no other source in the store holds these words, so if the answer is not there, reword the query`);
  }
}

const ROW_FIELDS = new Set<string>(SOURCE_ROW_COLUMNS);

/**
 * The sources passing the filters, from the lookup's rows; a `--meta` key that is neither in an
 * entry's meta nor a row column (e.g. language, converter) is matched on the full entries.
 */
function filteredSources(root: string, lookup: SourceLookup, opts: SearchOptions): SourceRow[] {
  const filters = opts.filters ?? {};
  const rows = lookup.rows();
  const keys = Object.keys(filters.meta ?? {});
  if (keys.every((k) => ROW_FIELDS.has(k))) return applyFilters(rows, filters);
  const whole = lookup.whole ?? readCatalogForQuery(root);
  return applyFilters(whole.sources, filters);
}

function openContext(root: string, query: string, opts: SearchOptions): SearchContext {
  const config = loadConfig(root);
  const lookup = openLookup(root, readCatalogForQuery);
  // without filters no row is read: the allowed sources are the indexed ones, in id order
  const filtered = hasFilters(opts.filters) ? new Map(filteredSources(root, lookup, opts).map((e) => [e.id, e])) : null;
  const vocabulary = loadVocabulary(root, config);
  return {
    root, query, opts, config, lookup, vocabulary,
    allowed: new Set(filtered ? filtered.keys() : lookup.indexedIds()),
    row: filtered ? (id) => filtered.get(id) ?? null : lookup.row,
    touched: [],
    groups: queryTermGroups(query, vocabulary.stopwords),
    sourceGroups: queryTermGroups(query, vocabulary.stopwords, true),
    mode: opts.mode === 'vector' ? 'vector' : opts.mode === 'keyword' ? 'keyword' : 'hybrid',
    populated: lookup.indexedIds().length > 0,
    warnings: [...(lookup.warning ? [lookup.warning] : []), ...vocabulary.warnings],
  };
}

/** The indexes this answer used whose source list differs from the catalog's indexed sources. */
function usedIndexMismatch(ctx: SearchContext, sig: Signals): string[] {
  const indexed = ctx.lookup.indexedIds().join();
  const out: string[] = [];
  if (sig.kix && sig.kix.ids.join() !== indexed) out.push('keyword');
  if (sig.vec && sig.vec.ids.join() !== indexed) out.push('vector');
  return out;
}

/**
 * The passage signal over the best candidates of a first fusion, and for a query naming no year the
 * newest edition of each series among them (as its period signal), then the final fusion.
 */
function fuseWithPassages(ctx: SearchContext, sig: Signals): Fused {
  const first = fuse(sig.lists);
  if (!sig.kix || !sig.kw) return first;
  const order = ranked(first.scores).map(([id]) => id);
  sig.lists.passage = passageSignal(ctx.root, ctx.groups.flat(), order);
  if (queryPeriod(ctx.query).years.length === 0) sig.lists.period = latestInSeries(order.slice(0, SERIES_CANDIDATES), ctx.row);
  return fuse(sig.lists);
}

export async function searchStore(root: string, asked: string, opts: SearchOptions = {}): Promise<SearchResult> {
  // a pasted document is not a query: bounded, and the answer says so
  const { query, warning } = boundQuery(asked);
  const ctx = openContext(root, query, opts);
  if (warning) ctx.warnings.push(warning);
  const sig = await gatherSignals(ctx);
  const fused = fuseWithPassages(ctx, sig);
  const { hits, closest } = topHits(ctx, sig, fused);
  assignVerdicts(ctx, sig, fused, hits);
  resultWarnings(ctx, hits, closest);
  const freshness = checkAnswerFreshness(root, ctx.lookup, { sources: ctx.touched, indexMismatch: usedIndexMismatch(ctx, sig) });
  return { query, mode: ctx.mode, verdict: hits[0]?.verdict ?? 'none', results: hits, warnings: ctx.warnings, freshness };
}
