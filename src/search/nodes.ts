/**
 * Tier-2 suggestions: the nodes of one source that best match a query — BM25 over node titles,
 * summaries and text (per-source node index), fused with node-vector similarity when the store has
 * node vectors. Query words that cannot tell the source's nodes apart (its own name and year,
 * words in most of its nodes, stopwords) are left out. With a vocabulary pack (vocabulary.ts), the
 * query's terms are expanded into the words documents of the field print for them and a node titled
 * as a section kind the query calls for gains (sections.ts). Given the nodes' texts, the head of the
 * ranking is re-ordered by how closely each node's text holds the query's words (proximity.ts).
 * Only nodes spanning at most `maxPages`
 * pages (ingest.max_leaf_pages), so a suggestion points somewhere specific.
 */
import { entriesRange, headingOf } from '../model/place-labels.js';
import { nodeVectorsWarning } from './index-health.js';
import { loadConfig } from '../store/config.js';
import { readCatalogForQuery } from '../store/catalog.js';
import { openLookup } from '../store/lookup.js';
import type { Config } from '../store/schemas.js';
import type { NodeHit } from './types.js';
import { tokenize } from '../model/tokenize.js';
import { isQueryStopword, queryTermGroups, queryTerms } from './query.js';
import { nodeRelevance, nodeVerdict } from './node-confidence.js';
import { expansionText, queryKinds, titleKind } from './sections.js';
import { NO_VOCABULARY, loadVocabulary, type Vocabulary } from './vocabulary.js';
import { bm25Field, docFreq, termFreq } from './bm25.js';
import { nodeFields, nodeKeywords, sourceKeywords, type NodeKeywords } from './keyword-index.js';
import { librarySpecificity, type Specificity } from './specificity.js';
import { loadCardVectors, loadNodeVectors, nodeScores, queryVector, type NodeVectors } from './vectors.js';
import { addNodeProximity, fuseNodeScores, ranked } from './fusion.js';
import { PROXIMITY_CANDIDATES, proximityScores, storeNodeText, type NodeTextReader } from './proximity.js';

export const DEFAULT_NODE_K = 3;
/** verdict thresholds when none are given (the config.json defaults) */
const DEFAULT_THRESHOLDS = { strong: 0.6, weak: 0.3 };
/** nodes listed under each tier-1 hit */
export const DEFAULT_NODES_PER_SOURCE = 3;
/**
 * weight of the node-title field vs the node-text field. Titles also hold cross-references and
 * running heads, so they count as much as the text, not more (2.0 measured worse on the
 * cross-domain dev set: tier-2 hit@3 0.773 vs 0.879).
 */
export const NODE_TITLE_WEIGHT = 1.0;
/** length normalisation of node titles */
export const NODE_TITLE_B = 0.5;
/**
 * length normalisation of node texts: BM25's usual 0.75, as for the fixed-size chunks of the
 * baseline; a long node must not win by holding the query's words once each in scattered
 * paragraphs (0.5 measured lower on the three dev sets: mean tier-2 hit@1 0.577 vs 0.600).
 */
export const NODE_TEXT_B = 0.75;
/**
 * Query terms found in more than this share of a source's nodes do not help choose among them
 * ("million", the fiscal year of a 10-K); they are left out of node scoring.
 */
export const NODE_COMMON_TERM_SHARE = 0.8;
/**
 * Bonus for a node whose title is a section kind the query calls for (vocabulary packs: a finance
 * pack's primary statements), times the title's match strength. On the scale of node fusion
 * (fusion.ts), where the best keyword node scores 1, so the section itself comes first from a
 * keyword score of 0.4 of the best.
 */
export const NODE_SECTION_BONUS = 0.6;
/** share of the section bonus for a later node titled as the same section kind */
export const NODE_REPEATED_STATEMENT_SHARE = 0.5;
/** weight of expansion terms (the line items a metric is printed as: synonyms of what was typed) relative to typed terms */
export const NODE_EXPANSION_WEIGHT = 1;
/** nodes with no keyword match and a vector cosine below this are not suggested */
export const NODE_MIN_COSINE = 0.2;

export interface NodeRankInput {
  terms: string[];
  /** the query's word groups (query.ts), for each suggestion's relevance and verdict */
  groups?: string[][];
  /** config.json search thresholds (default 0.6 / 0.3) */
  thresholds?: { strong: number; weak: number };
  /** the query as typed (for the vocabulary packs' section kinds and expansions) */
  text?: string;
  /** the store's vocabulary packs (none: the core ranking alone) */
  vocabulary?: Vocabulary;
  /** query vector and the store's node vectors, when vector search is on */
  query?: Float32Array | null;
  nodeVectors?: NodeVectors | null;
  /** the nodes' own texts, for the proximity signal (proximity.ts); without it nodes are ranked without it */
  nodeText?: NodeTextReader;
  /** each query word's weight by how few of the library's sources use it (specificity.ts); none: all 1 */
  specificity?: Specificity | null;
  k: number;
  maxPages: number;
}

/**
 * Query terms that can tell a source's nodes apart: not the source's own identity (words of the
 * root title: company name, form, fiscal year), not terms found in most of its nodes. Falls back to
 * all terms when that leaves none, and puts the title's words back when none of the others is in the
 * source in any form (unless `fallback` is false): plm's vignette, titled "Panel data econometrics
 * in R: the plm package", had "quantify the degree of imbalance of a panel" ranked by words it
 * never uses, and its "Unbalanced panels" section went unsuggested.
 */
export function nodeQueryTerms(ix: NodeKeywords, terms: string[], fallback = true): string[] {
  const n = ix.nodes.length;
  if (n < 2) return terms;
  const rootTerms = new Set(tokenize(ix.nodes[0]![1]));
  const text = nodeFields(ix).text;
  const common = (t: string) => docFreq(text, t) > NODE_COMMON_TERM_SHARE * n;
  const kept = terms.filter((t) => !rootTerms.has(t) && !common(t));
  if (!fallback) return kept;
  if (kept.length === 0) return terms;
  // none of the other words is in the source, in any form: the title's words are all there is to rank by
  if (kept.some((t) => hasTerm(ix, t) || stemVariants(ix, t).length > 0)) return kept;
  const withTitle = terms.filter((t) => !common(t));
  return withTitle.length > 0 ? withTitle : terms;
}

/**
 * Nodes that may be suggested: not the root (unless it is the only node), at most `maxPages` pages,
 * not a printed contents page (the index's `not_suggested`, keyword-builder.ts).
 */
function eligibleNodes(ix: NodeKeywords, maxPages: number): Uint8Array {
  const n = ix.nodes.length;
  const eligible = new Uint8Array(n);
  ix.nodes.forEach(([, , kind, start, end], i) => {
    const isRoot = i === 0 && n > 1;
    const span = kind === 'p' ? end - start + 1 : 1;
    eligible[i] = !isRoot && span <= maxPages ? 1 : 0;
  });
  for (const i of ix.header.not_suggested ?? []) if (i > 0 && i < n) eligible[i] = 0;
  return eligible;
}

/**
 * A typed word the source does not hold is also searched as the source's words that share its stem
 * ("acquire" → acquisition, acquired; "region" → regional; "overloaded" → overloading): the first
 * letters of the word, all but NODE_VARIANT_DROP and at least NODE_VARIANT_STEM of them. Only words
 * longer than NODE_VARIANT_STEM: the stem of a shorter one is the whole word, so any longer word
 * starting with it would count (trade → trademark, stock → stockholders, spend → spending). Learned
 * from the source's own lexicon, no field vocabulary. Only for words missing from the source:
 * applied to every word, variants pulled in related but wrong sections (dev sets, tier-2 hit@3:
 * FinanceBench 0.891 → 0.870, cross-domain 0.924 → 0.909).
 */
export const NODE_VARIANT_STEM = 5;
export const NODE_VARIANT_DROP = 3;
/** variants per missing word (the first in the lexicon's sorted order; 5 and 10 measured the same) */
export const NODE_VARIANT_MAX = 10;
/** weight of a variant relative to a typed word: the same word in another form */
export const NODE_VARIANT_WEIGHT = 1;

const LETTERS = /^[a-z]+$/;

/**
 * The source's words sharing a typed word's stem (none for short words, numbers and codes), whether
 * or not the source holds the word itself (callers ask only for words it lacks). Also used by
 * tier 1's passage signal (signals/passage.ts).
 */
export function stemVariants(ix: NodeKeywords, t: string): string[] {
  if (!LETTERS.test(t)) return [];
  const roots = suffixRoots(t).filter((r) => r !== t && hasTerm(ix, r));
  if (t.length <= NODE_VARIANT_STEM) return roots;
  const stem = t.slice(0, Math.max(NODE_VARIANT_STEM, t.length - NODE_VARIANT_DROP));
  return [...new Set([...roots, ...ix.termsStartingWith(stem, NODE_VARIANT_MAX).filter((v) => LETTERS.test(v))])];
}

/** Letters a root left by suffixRoots keeps at least ("beep" of "beeping"; "sing" is no -ing form of "s"). */
export const SUFFIX_ROOT_MIN = 3;

/**
 * The word a verb form is made from, as the index holds words (plural s stemmed): "beeping" →
 * beep, "saved" → save, "stopped" → stop. A short word's prefix variants would take
 * any longer word (NODE_VARIANT_STEM), so its root is looked up whole: "beeping" found "beeps"
 * nowhere, and GNU Backgammon's "How do I stop the annoying beeps?" ranked under "Entering
 * illegal moves". Only roots the source holds are used (stemVariants).
 */
function suffixRoots(t: string): string[] {
  const m = /^(\p{L}+?)(ing|ed)$/u.exec(t);
  if (!m || m[1]!.length < SUFFIX_ROOT_MIN) return [];
  const root = m[1]!;
  const out = [root, `${root}e`];
  // a doubled last consonant ("stopped", "running")
  if (/([b-df-hj-np-tv-z])\1$/.test(root)) out.push(root.slice(0, -1));
  return out;
}

/** Whether the source's node index holds a term (in any node's text or title). */
function hasTerm(ix: NodeKeywords, t: string): boolean {
  const f = nodeFields(ix);
  return !!(f.text.postings(t) || f.title.postings(t));
}

/** The source's variants of a typed word it does not hold (none when it holds the word). */
function variantsOf(ix: NodeKeywords, t: string): string[] {
  return hasTerm(ix, t) ? [] : stemVariants(ix, t);
}

/** One word of the query as nodes are scored by it: its terms, each with its weight. */
export type ScoringGroup = Map<string, number>;

/**
 * The typed words' groups (query.ts: "p-value" → pvalue, value; "lme4" → lme4, lme) kept to the
 * terms that can tell the source's nodes apart; a kept term no group names is a group of its own.
 */
function typedGroups(ix: NodeKeywords, input: NodeRankInput): string[][] {
  const kept = nodeQueryTerms(ix, input.terms);
  const keptSet = new Set(kept);
  const groups = (input.groups ?? []).map((g) => g.filter((t) => keptSet.has(t))).filter((g) => g.length > 0);
  const grouped = new Set(groups.flat());
  return [...groups, ...kept.filter((t) => !grouped.has(t)).map((t) => [t])];
}

/**
 * A typed word's weight by its library specificity: that of its most specific form the source holds
 * (1 without a library measure; all its forms when the source holds none). A form the source never
 * prints cannot be what its nodes match: "FY2023" is indexed as fy2023 and 2023, and a filing that
 * writes only "2023" matched the year with fy2023's weight, rare in the library, so three years
 * outweighed "acquisitions" in AMCOR's "major acquisitions … in FY2023, FY2022 and FY2021". Tier-2
 * hit@1 / hit@3 over 15 dev and held-out sets: one question up at hit@1 (audit 5 rewording, "little/big
 * endian"), two more into the first three (AMCOR's, party's "p-values"), none down.
 */
function groupSpecificity(ix: NodeKeywords, g: string[], specificity: Specificity | null | undefined): number {
  if (!specificity) return 1;
  const held = g.filter((t) => hasTerm(ix, t));
  return Math.max(...(held.length ? held : g).map(specificity));
}

/**
 * The groups nodes are scored by: each typed word's terms (weight 1, times the word's specificity
 * to the library, specificity.ts) with the source's variants of those it lacks (NODE_VARIANT_WEIGHT,
 * times the same), then a pack's metric expansions, one group each
 * (NODE_EXPANSION_WEIGHT). A word counts once however many forms it has (keywordNodeScores).
 */
export function scoringGroups(ix: NodeKeywords, input: NodeRankInput): ScoringGroup[] {
  const typed = typedGroups(ix, input);
  const seen = new Set(typed.flat());
  const out: ScoringGroup[] = typed.map((g) => {
    const sf = groupSpecificity(ix, g, input.specificity);
    const group: ScoringGroup = new Map(g.map((t) => [t, sf]));
    const variants = g.flatMap((t) => variantsOf(ix, t)).filter((v) => !seen.has(v));
    for (const v of nodeQueryTerms(ix, [...new Set(variants)], false)) {
      group.set(v, NODE_VARIANT_WEIGHT * sf);
      seen.add(v);
    }
    return group;
  });
  if (input.text && NODE_EXPANSION_WEIGHT > 0) for (const t of expansionTerms(ix, input.vocabulary ?? NO_VOCABULARY, input.text, seen)) out.push(new Map([[t, NODE_EXPANSION_WEIGHT]]));
  return out;
}

/**
 * A pack's expansions of the query (the words the field prints for what was typed) that can tell
 * the source's nodes apart, leaving out the terms already in `seen` and the pack's query stopwords.
 * Also read by the passages search shows (retrieve/snippets.ts).
 */
export function expansionTerms(ix: NodeKeywords, vocab: Vocabulary, text: string, seen: ReadonlySet<string>): string[] {
  if (vocab.expansions.length === 0) return [];
  const extra = [...new Set(tokenize(expansionText(vocab, text)))].filter((t) => !seen.has(t) && !isQueryStopword(t, vocab.stopwords));
  return extra.length > 0 ? nodeQueryTerms(ix, extra, false) : [];
}

/**
 * BM25 of each eligible node over titles and texts, summed over the query's word groups; a group
 * adds its best-scoring term's BM25 (title + text), not the sum of its terms': "p-value" is
 * indexed as pvalue and value, a word the source lacks may have several variants, and summing
 * them counted one typed word two to four times over the others (tier-2 hit@1 / hit@3, held-out
 * cross-domain rewording 0.652 / 0.864 → 0.682 / 0.879, the dev sets unchanged).
 */
export function keywordNodeScores(ix: NodeKeywords, groups: ScoringGroup[], eligible: Uint8Array): Map<number, number> {
  const n = ix.nodes.length;
  const total = new Float64Array(n);
  const term = new Float64Array(n);
  const best = new Float64Array(n);
  for (const g of groups) {
    const touched: number[] = [];
    for (const [t, w] of g) termIntoBest(ix, t, w, eligible, term, best, touched);
    for (const d of touched) {
      total[d]! += best[d]!;
      best[d] = 0;
    }
  }
  const out = new Map<number, number>();
  total.forEach((s, i) => { if (s > 0) out.set(i, s); });
  return out;
}

/**
 * One term's BM25 (title + text) of each node, kept in `best` where it beats the group's best so
 * far (`touched` lists the nodes set); only the term's postings are visited, and `term` is left zeroed.
 */
function termIntoBest(ix: NodeKeywords, t: string, w: number, eligible: Uint8Array, term: Float64Array, best: Float64Array, touched: number[]): void {
  const f = nodeFields(ix);
  bm25Field([t], f.title, term, NODE_TITLE_WEIGHT * w, eligible, NODE_TITLE_B);
  bm25Field([t], f.text, term, w, eligible, NODE_TEXT_B);
  for (const post of [f.title.postings(t), f.text.postings(t)]) {
    if (!post) continue;
    for (let k = 0; k < post.length; k += 2) {
      const d = post[k]!;
      if (term[d]! > best[d]!) {
        if (best[d] === 0) touched.push(d);
        best[d] = term[d]!;
      }
      term[d] = 0;
    }
  }
}

/** Node-vector cosine of each eligible node that matched a keyword or is close enough on its own. */
function vectorNodeScores(ix: NodeKeywords, input: NodeRankInput, eligible: Uint8Array, kw: Map<number, number>): Map<number, number> {
  const out = new Map<number, number>();
  if (!input.query || !input.nodeVectors) return out;
  const byId = nodeScores(input.nodeVectors, ix.id, input.query);
  ix.nodes.forEach(([nodeId], i) => {
    const s = byId.get(nodeId);
    if (eligible[i] && s !== undefined && (s >= NODE_MIN_COSINE || kw.has(i))) out.set(i, s);
  });
  return out;
}

/**
 * Bonus for a window of a long keyed table whose entries include a number the query names (PDF
 * windows titled "(entries 1–30)", row-keys.ts): the numbers fall between its keys, and BM25 sees
 * only those printed ("space group 19" ranked the table's window third, under two sections that
 * mention "space group"; audit 12 and its rewording +1 each, the 14 other sets unchanged).
 */
export const NODE_ENTRIES_BONUS = 0.5;

/** Bonus of a table's windows holding an entry numbered as a number of the query. */
function entriesBonus(ix: NodeKeywords, input: NodeRankInput, eligible: Uint8Array, into: Map<number, number>): void {
  const numbers = input.terms.filter((t) => WHOLE_NUMBER.test(t)).map(Number);
  if (numbers.length === 0) return;
  ix.nodes.forEach(([, title], i) => {
    const range = eligible[i] ? entriesRange(title) : null;
    if (range && numbers.some((n) => n >= range[0] && n <= range[1])) into.set(i, (into.get(i) ?? 0) + NODE_ENTRIES_BONUS);
  });
}

const WHOLE_NUMBER = /^\d{1,6}$/;

/** Node rows placed by data rows (keyword-format.ts). */
const ROW_KIND = 'r';

/**
 * A data row holds a value under every column of its sheet: a query naming a row by its cells and
 * columns by their names ("China's fertility rate in 1970 and 1980") asks for the cells where they
 * cross. A row matching the query by its own cells also scores the query words that name its
 * sheet's columns (each word's best column title), words the row itself does not hold: the row comes
 * before the columns it is read under. The World Bank's fertility rates ranked the columns "1970"
 * and "1980" above China's row, which holds both figures. Adds into `kw`; returns the words each
 * such row was credited with (they count as the row's own for its relevance).
 */
function addRowColumnScores(ix: NodeKeywords, groups: ScoringGroup[], kw: Map<number, number>): Map<number, Set<string>> {
  const credited = new Map<number, Set<string>>();
  const parent = ix.header.parent;
  if (!parent || ![...kw.keys()].some((i) => ix.nodes[i]![2] === ROW_KIND)) return credited;
  // a row has its sheet's node id (the sheet node comes first, with the tree's nodes); the sheet's columns are its children
  const sheetOf = new Map<string, number>();
  ix.nodes.forEach(([id], i) => { if (!sheetOf.has(id)) sheetOf.set(id, i); });
  const rows = [...kw.keys()].filter((i) => ix.nodes[i]![2] === ROW_KIND && sheetOf.get(ix.nodes[i]![0]) !== i);
  const sheets = new Set(rows.map((r) => sheetOf.get(ix.nodes[r]![0])!));
  const columns = new Uint8Array(ix.nodes.length);
  parent.forEach((p, i) => { if (sheets.has(p)) columns[i] = 1; });
  const f = nodeFields(ix);
  const byGroup = groups.map((g) => bestColumnTitle(ix, g, columns, parent));
  for (const r of rows) {
    const sheet = sheetOf.get(ix.nodes[r]![0])!;
    let add = 0;
    const words = new Set<string>();
    groups.forEach((g, k) => {
      const score = byGroup[k]!.get(sheet) ?? 0;
      if (score === 0 || [...g.keys()].some((t) => termFreq(f.text, t, r) > 0)) return;
      add += score;
      for (const t of g.keys()) words.add(t);
    });
    if (add === 0) continue;
    kw.set(r, kw.get(r)! + add);
    credited.set(r, words);
  }
  return credited;
}

/** A word's best column-title BM25 under each sheet (by the sheet's index). */
function bestColumnTitle(ix: NodeKeywords, g: ScoringGroup, columns: Uint8Array, parent: readonly number[]): Map<number, number> {
  const scores = new Float64Array(ix.nodes.length);
  const out = new Map<number, number>();
  for (const [t, w] of g) {
    scores.fill(0);
    bm25Field([t], nodeFields(ix).title, scores, NODE_TITLE_WEIGHT * w, columns, NODE_TITLE_B);
    scores.forEach((x, c) => { if (x > (out.get(parent[c]!) ?? 0)) out.set(parent[c]!, x); });
  }
  return out;
}

/** Bonus of nodes titled as a section kind the query calls for (vocabulary packs, sections.ts). */
function sectionBonus(ix: NodeKeywords, input: NodeRankInput, eligible: Uint8Array): Map<number, number> {
  const out = new Map<number, number>();
  const vocab = input.vocabulary ?? NO_VOCABULARY;
  const wanted = input.text && vocab.sections.length > 0 ? queryKinds(vocab, input.text) : new Set<string>();
  if (wanted.size === 0) return out;
  const seen = new Set<string>();
  ix.nodes.forEach(([, title], i) => {
    if (!eligible[i]) return;
    const st = titleKind(vocab, headingOf(title));
    if (!st || !wanted.has(st.kind)) return;
    // the first primary section of a kind is the document's own; later ones are copies (in finance:
    // parent-only, guarantor or segment statements in notes and schedules)
    const key = `${st.kind}/${st.strength}`;
    const share = seen.has(key) ? NODE_REPEATED_STATEMENT_SHARE : 1;
    seen.add(key);
    out.set(i, NODE_SECTION_BONUS * st.strength * share);
  });
  return out;
}

function nodeHit(ix: NodeKeywords, i: number, score: number): NodeHit {
  const [node_id, title, kind, start, end] = ix.nodes[i]!;
  const hit: NodeHit = { node_id, title, score: Math.round(score * 1e6) / 1e6 };
  if (kind === 'p') hit.page_range = [start, end];
  else if (kind === 'l') hit.line_range = [start, end];
  else if (kind === 'r') hit.row_range = [start, end];
  return hit;
}

/** The query's word groups that can tell the source's nodes apart (as ranking uses them); all when none can. */
function distinctiveGroups(ix: NodeKeywords, groups: string[][], terms: string[]): string[][] {
  const kept = new Set(nodeQueryTerms(ix, terms, false));
  const out = groups.map((g) => g.filter((t) => kept.has(t))).filter((g) => g.length > 0);
  return out.length > 0 ? out : groups;
}

/** How far the first node's score is ahead of the second's, as a share of the first's (1 when alone). */
function leadOf(order: Array<[number, number]>): number {
  const first = order[0]?.[1] ?? 0;
  if (first <= 0) return 0;
  return (first - (order[1]?.[1] ?? 0)) / first;
}

/**
 * How sure the ranking is of its first node: the fused lead, or the keyword ranking's lead when
 * that ranking puts the same node first and leads by more. Vector similarity (NODE_VECTOR_WEIGHT)
 * breaks near-ties; when it agrees on the first node but narrows a clear keyword margin, the margin
 * still stands (first suggestions marked strong, FinanceBench dev + cross-domain: 34 of 34 held
 * the answer → 40 of 41; held-out rewordings 29 of 33 → 34 of 39).
 */
function firstLead(order: Array<[number, number]>, kw: Map<number, number>): number {
  const fused = leadOf(order);
  const byKeyword = ranked(kw);
  return order.length > 0 && byKeyword[0]?.[0] === order[0]![0] ? Math.max(fused, leadOf(byKeyword)) : fused;
}

/**
 * The first `k` of the ranked nodes with none listed beside its ancestor or descendant ranked above
 * it: a section and its own introduction (or a part of it) point to the same place, with the same
 * passage, and took two of the three places a suggestion list has (agent runs: gnuplot's "Set style
 * fill" beside "Set style fill (introduction)", a PepsiCo 8-K's "Item 8.01" beside its introduction).
 * `parent` is the node index's (keyword-format.ts); without it the list is the ranking's. A part is
 * left out under a listed ancestor only when `covers` says that ancestor's place holds it (default:
 * every ancestor; rankNodesIn: coversParts). A section of a document without pages (HTML, Markdown,
 * a man page) may be the whole document read whole: GNU Shogi's "2.1 The rules of shogi" ranked
 * first had left no room for "2.1.4 Drops", and the list had one entry.
 */
export function distinctPlaces(order: Array<[number, number]>, parent: readonly number[] | undefined, k: number, covers: (ancestor: number) => boolean = () => true): Array<[number, number]> {
  if (!parent) return order.slice(0, k);
  const kept: Array<[number, number]> = [];
  const listed = new Set<number>();
  const ancestorsOfListed = new Set<number>();
  for (const entry of order) {
    if (kept.length >= k) break;
    const i = entry[0];
    if (ancestorsOfListed.has(i) || hasListedAncestor(i, parent, listed)) continue;
    kept.push(entry);
    if (covers(i)) listed.add(i);
    for (let a = parent[i] ?? -1; a >= 0; a = parent[a] ?? -1) ancestorsOfListed.add(a);
  }
  return kept;
}

function hasListedAncestor(i: number, parent: readonly number[], listed: ReadonlySet<number>): boolean {
  for (let a = parent[i] ?? -1; a >= 0; a = parent[a] ?? -1) if (listed.has(a)) return true;
  return false;
}

/** Node rows placed by pages (keyword-format.ts). */
const PAGE_KIND = 'p';
/**
 * A section of a document without pages holds its parts as one suggestion when its text and theirs
 * come to at most this many words (about what max_leaf_pages pages of a PDF hold); a longer one,
 * read whole, is too much to stand for them.
 */
export const NODE_COVER_MAX_TOKENS = 2000;

/** Whether a listed node's place holds its parts (distinctPlaces): a page range, or a short page-less section. */
export function coversParts(ix: Pick<NodeKeywords, 'header' | 'nodes'>): (a: number) => boolean {
  const parent = ix.header.parent ?? [];
  const total = [...ix.header.len];
  for (let i = total.length - 1; i > 0; i--) if ((parent[i] ?? -1) >= 0) total[parent[i]!]! += total[i]!;
  return (a) => ix.nodes[a]![2] === PAGE_KIND || total[a]! <= NODE_COVER_MAX_TOKENS;
}

/** Rank nodes of an already loaded node index (shared by rankNodes and searchStore). */
export function rankNodesIn(ix: NodeKeywords, input: NodeRankInput): NodeHit[] {
  const eligible = eligibleNodes(ix, input.maxPages);
  const groups = scoringGroups(ix, input);
  const kw = keywordNodeScores(ix, groups, eligible);
  const columnWords = addRowColumnScores(ix, groups, kw);
  const vec = vectorNodeScores(ix, input, eligible, kw);
  const bonus = sectionBonus(ix, input, eligible);
  entriesBonus(ix, input, eligible, bonus);
  const fused = fuseNodeScores(kw, vec, bonus);
  if (input.nodeText) addNodeProximity(fused, proximityScores(ix, groups, ranked(fused).slice(0, PROXIMITY_CANDIDATES).map(([i]) => i), input.nodeText));
  // two places at least: the first suggestion's lead is over the next place, not over its own introduction
  const order = distinctPlaces(ranked(fused), ix.header.parent, Math.max(input.k, 2), coversParts(ix));
  const shown = distinctiveGroups(ix, input.groups ?? input.terms.map((t) => [t]), input.terms);
  const thresholds = input.thresholds ?? DEFAULT_THRESHOLDS;
  const lead = firstLead(order, kw);
  return order.slice(0, input.k).map(([i, score], r) => {
    const relevance = nodeRelevance(ix, shown, i, vec.get(i), columnWords.get(i));
    return { ...nodeHit(ix, i, score), relevance, verdict: nodeVerdict(relevance, r + 1, lead, thresholds) };
  });
}

export interface RankNodesOptions {
  k?: number;
  /** largest node suggested, in pages (default: config.json ingest.max_leaf_pages) */
  maxPages?: number;
  /** false: keyword scoring only (no embedding model load) */
  vectors?: boolean;
  /** gets one line when the store has vectors but node similarity could not be used */
  warnings?: string[];
  /** the source's doc type (selects the vocabulary packs written for it); read from the catalog when absent */
  docType?: string;
}

/** The query vector and the store's node vectors, when both are available. */
async function nodeVectorQuery(root: string, config: Config, query: string, warnings?: string[]): Promise<{ q: Float32Array; nv: NodeVectors } | null> {
  const cv = loadCardVectors(root);
  if (typeof cv === 'string') return null;
  const nv = loadNodeVectors(root, cv.meta.model);
  if (!nv) {
    warnings?.push(nodeVectorsWarning(root));
    return null;
  }
  const q = await queryVector(root, config, cv.meta.model, query);
  if (typeof q === 'string') {
    warnings?.push(`nodes ranked by keywords only: ${q}`);
    return null;
  }
  return { q, nv };
}

/** A source's doc type as its catalog card records it ('' when unknown). */
function sourceDocType(root: string, sourceId: string): string {
  try {
    return openLookup(root, readCatalogForQuery).entry(sourceId)?.doc_type ?? '';
  } catch {
    return '';
  }
}

/**
 * Tier 2, the one entry point (deep_retrieve, `mhub tree --query`, `mhub eval`, the benchmarks):
 * the best nodes of one source for a query. Uses node vectors when the store has them and the
 * model that made them is available (unless `vectors` is false); otherwise keyword scoring alone.
 */
export async function rankNodes(root: string, sourceId: string, query: string, opts: RankNodesOptions = {}): Promise<NodeHit[]> {
  const ix = nodeKeywords(root, sourceId);
  if (!ix) return [];
  const config = loadConfig(root);
  const vocabulary = loadVocabulary(root, config, opts.docType ?? sourceDocType(root, sourceId));
  const v = opts.vectors === false ? null : await nodeVectorQuery(root, config, query, opts.warnings);
  return rankNodesIn(ix, {
    terms: queryTerms(query, vocabulary.stopwords), groups: queryTermGroups(query, vocabulary.stopwords), text: query, vocabulary,
    thresholds: { strong: config.search.strong_threshold, weak: config.search.weak_threshold },
    query: v?.q ?? null, nodeVectors: v?.nv ?? null, nodeText: storeNodeText(root, sourceId), specificity: librarySpecificity(sourceKeywords(root)),
    k: opts.k ?? DEFAULT_NODE_K, maxPages: opts.maxPages ?? config.ingest.max_leaf_pages,
  });
}
