/**
 * `mhub eval`: retrieval quality over a question set.
 * Tier 1 (which source): hit@1, hit@k, MRR — a hit when an expected file is among the returned
 * sources. Tier 2 (where in it): hit@1, hit@3 — a hit when one of the top suggested nodes of the
 * expected file covers an expected page. Works for any Retriever, so the BM25-over-chunks baseline
 * is measured by the same code.
 */
import { basename } from 'node:path';
import { readCatalog } from '../store/catalog.js';
import { readFileSync } from 'node:fs';
import { TreeFile, type CatalogEntry, type TreeNode } from '../store/schemas.js';
import { resolveInStore } from '../store/safe-path.js';
import { containerPath } from '../store/source-path.js';
import type { Question } from './questions.js';
import { MANUAL_SEPARATOR } from '../model/place-labels.js';

/** Suggestions per question for tier 2 (hit@3). */
export const TIER2_K = 3;
/** Sources and suggestions listed per miss. */
const MISS_LIST = 5;

export interface RankedSource {
  id: string;
  file: string;
  score: number;
}

export interface Suggestion {
  node_id: string;
  title: string;
  page_range?: [number, number] | undefined;
  /** text and Markdown sources: the node's lines */
  line_range?: [number, number] | undefined;
  /** spreadsheets: the data rows (a row hit, or a sheet's rows) */
  row_range?: [number, number] | undefined;
  /** a chunk (baseline): the tree nodes its text comes from, for expected sections */
  within?: string[] | undefined;
  score: number;
}

/** What eval needs from a retrieval method. */
export interface Retriever {
  name: string;
  /** top-k sources for a query, best first */
  searchSources(query: string, k: number): Promise<RankedSource[]>;
  /** top-k places (nodes or chunks) inside one source */
  suggest(id: string, query: string, k: number): Promise<Suggestion[]>;
}

export interface QuestionOutcome {
  id: string;
  query: string;
  expected: Question['expected'];
  /** 1-based rank of the first expected file among the sources, null when absent from the top k */
  rank: number | null;
  /** 1-based rank of the first suggestion covering an expected page, null when none of the top 3 */
  node_rank: number | null;
  /** why tier 2 could not be measured (expected file not in the store, or no place given for it) */
  note?: string;
  /** false when the expected file is indexed but no expected place gives pages, lines or sections: tier 2 leaves the question out */
  tier2_scored: boolean;
  got: RankedSource[];
  suggestions: Suggestion[];
  ms: number;
}

export interface EvalFigures {
  questions: number;
  k: number;
  tier1: { hit1: number; hitk: number; mrr: number };
  /** over the questions whose expected place gives pages, lines or sections (`questions` of them) */
  tier2: { hit1: number; hit3: number; questions: number };
  latency_ms: { p50: number; p95: number };
}

export interface EvalReport {
  method: string;
  figures: EvalFigures;
  outcomes: QuestionOutcome[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

function sameFile(a: string, b: string): boolean {
  return basename(a).toLowerCase() === basename(b).toLowerCase();
}

/**
 * A listed source answers for an expected file when it is that file or was read from it: an
 * archive's members are sources of their own ("docs.tar.gz!/docs/sounds.txt" is in docs.tar.gz),
 * and a question can only name the archive it was written from.
 */
function fromFile(listed: string, expected: string): boolean {
  return sameFile(listed, expected) || sameFile(containerPath(listed), expected);
}

/**
 * Where the answer is: pages of a paged source, lines of a text source, or the nodes under a named
 * heading (`sections`, for sources with neither, such as HTML pages).
 */
interface Target { pages: number[]; lines: number[]; rows: number[]; nodeIds: Set<string> }

const within = (r: [number, number] | undefined, xs: number[]) => !!r && xs.some((x) => x >= r[0] && x <= r[1]);

function covers(s: Suggestion, t: Target): boolean {
  return within(s.page_range, t.pages) || within(s.line_range, t.lines) || within(s.row_range, t.rows) || t.nodeIds.has(s.node_id) || !!s.within?.some((id) => t.nodeIds.has(id));
}

const normTitle = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Ids of the nodes titled by one of `sections` and of every node under them. A page's root is also
 * titled by its own heading, without the manual its title names (html.ts inManual).
 */
export function sectionNodeIds(root: TreeNode, sections: string[]): Set<string> {
  const want = new Set(sections.map(normTitle));
  const out = new Set<string>();
  const titled = (n: TreeNode) => want.has(normTitle(n.title)) || (n === root && want.has(normTitle(n.title.split(MANUAL_SEPARATOR)[0]!)));
  const walk = (n: TreeNode, inside: boolean) => {
    const here = inside || titled(n);
    if (here) out.add(n.node_id);
    for (const c of n.children) walk(c, here);
  };
  walk(root, false);
  return out;
}

/**
 * The indexed entry an expected file names (matched by file name). An archive holding one file
 * (a gzipped guidebook) answers through that file, its one member: the place a question gives is in
 * the member's text, not in the archive's listing.
 */
function expectedEntry(entries: CatalogEntry[], file: string): CatalogEntry | undefined {
  const e = entries.find((en) => en.status === 'indexed' && (sameFile(en.original_path, file) || sameFile(en.filename, file)));
  if (!e) return undefined;
  const members = entries.filter((en) => en.status === 'indexed' && en.original_path !== e.original_path && containerPath(en.original_path) === e.original_path);
  return members.length === 1 ? members[0] : e;
}

/** The store's entries for the expected files (matched by file name). */
function expectedEntries(root: string, q: Question, entries: CatalogEntry[]): Array<{ entry: CatalogEntry } & Target> {
  const out: Array<{ entry: CatalogEntry } & Target> = [];
  for (const x of q.expected) {
    const e = expectedEntry(entries, x.file);
    if (!e) continue;
    const nodeIds = x.sections?.length && e.tree_path ? sectionNodeIds(TreeFile.parse(JSON.parse(readFileSync(resolveInStore(root, e.tree_path), 'utf8'))).root, x.sections) : new Set<string>();
    out.push({ entry: e, pages: x.pages, lines: x.lines ?? [], rows: x.rows ?? [], nodeIds });
  }
  return out;
}

export async function evaluate(root: string, questions: Question[], retriever: Retriever, k = 5): Promise<EvalReport> {
  const entries = readCatalog(root).sources;
  const outcomes: QuestionOutcome[] = [];
  for (const q of questions) {
    const t0 = performance.now();
    const got = await retriever.searchSources(q.query, k);
    const ms = performance.now() - t0;
    const idx = got.findIndex((g) => q.expected.some((x) => fromFile(g.file, x.file)));
    const targets = expectedEntries(root, q, entries);
    let node_rank: number | null = null;
    let suggestions: Suggestion[] = [];
    const placed = targets.filter((t) => t.pages.length > 0 || t.lines.length > 0 || t.rows.length > 0 || t.nodeIds.size > 0);
    for (const t of placed) {
      const s = await retriever.suggest(t.entry.id, q.query, TIER2_K);
      if (suggestions.length === 0) suggestions = s;
      const r = s.findIndex((x) => covers(x, t));
      if (r >= 0 && (node_rank === null || r + 1 < node_rank)) {
        node_rank = r + 1;
        suggestions = s;
      }
    }
    outcomes.push({
      id: q.id, query: q.query, expected: q.expected, rank: idx >= 0 ? idx + 1 : null, node_rank,
      ...(targets.length === 0 ? { note: 'expected file is not indexed in this store' } : placed.length === 0 ? { note: 'tier 2 not scored: the expected place gives no pages, lines, rows or sections' } : {}),
      // a file missing from the store is a miss; a file named without a place in it is not scored
      tier2_scored: targets.length === 0 || placed.length > 0,
      got, suggestions, ms: Math.round(ms * 10) / 10,
    });
  }
  const n = outcomes.length || 1;
  const hit = (f: (o: QuestionOutcome) => boolean) => round(outcomes.filter(f).length / n);
  // a question naming its file but no place in it says nothing of tier 2: it is left out, not a miss
  const scored = outcomes.filter((o) => o.tier2_scored);
  const hit2 = (f: (o: QuestionOutcome) => boolean) => round(scored.filter(f).length / (scored.length || 1));
  const lat = outcomes.map((o) => o.ms);
  return {
    method: retriever.name,
    figures: {
      questions: outcomes.length,
      k,
      tier1: { hit1: hit((o) => o.rank === 1), hitk: hit((o) => o.rank !== null && o.rank <= k), mrr: round(outcomes.reduce((s, o) => s + (o.rank ? 1 / o.rank : 0), 0) / n) },
      tier2: { hit1: hit2((o) => o.node_rank === 1), hit3: hit2((o) => o.node_rank !== null && o.node_rank <= TIER2_K), questions: scored.length },
      latency_ms: { p50: round(percentile(lat, 50)), p95: round(percentile(lat, 95)) },
    },
    outcomes,
  };
}

function pages(s: Suggestion): string {
  if (s.line_range) return `lines ${s.line_range[0]}-${s.line_range[1]}`;
  if (s.row_range) return `rows ${s.row_range[0]}-${s.row_range[1]}`;
  if (!s.page_range) return 'no pages';
  return s.page_range[0] === s.page_range[1] ? `p${s.page_range[0]}` : `pp${s.page_range[0]}-${s.page_range[1]}`;
}

export function formatFigures(r: EvalReport): string {
  const f = r.figures;
  const pct = (x: number) => x.toFixed(3);
  return `${r.method.padEnd(24)} tier-1 hit@1 ${pct(f.tier1.hit1)}  hit@${f.k} ${pct(f.tier1.hitk)}  MRR ${pct(f.tier1.mrr)} | tier-2 hit@1 ${pct(f.tier2.hit1)}  hit@3 ${pct(f.tier2.hit3)}${f.tier2.questions < f.questions ? ` (${f.tier2.questions} scored)` : ''} | ${f.questions} questions, p50 ${f.latency_ms.p50} ms`;
}

/** Human report: figures, then each miss (or every question with explain) with what came back. */
export function formatEval(reports: EvalReport[], explain: boolean): string {
  const lines: string[] = [];
  const main = reports[0];
  if (main) {
    for (const o of main.outcomes) {
      const miss1 = o.rank !== 1;
      const miss2 = o.tier2_scored && o.node_rank === null;
      if (!explain && !miss1 && !miss2) continue;
      const exp = o.expected.map((x) => `${x.file} ${x.sections?.length ? `section "${x.sections.join('", "')}"` : x.lines?.length ? `line ${x.lines.join(',')}` : x.rows?.length ? `row ${x.rows.join(',')}` : `p${x.pages.join(',')}`}`).join('; ');
      const tag = [miss1 ? (o.rank ? `tier-1 rank ${o.rank}` : 'tier-1 MISS') : 'tier-1 hit', miss2 ? 'tier-2 MISS' : `tier-2 rank ${o.node_rank}`].join(', ');
      lines.push(`${o.id} (${tag}): ${o.query.length > 100 ? o.query.slice(0, 99) + '…' : o.query}`);
      lines.push(`    expected: ${exp}${o.note ? ` (${o.note})` : ''}`);
      lines.push(`    got:      ${o.got.slice(0, MISS_LIST).map((g) => `${basename(g.file)} (${g.score.toFixed(3)})`).join(', ') || 'nothing'}`);
      if (o.suggestions.length) lines.push(`    nodes:    ${o.suggestions.map((s) => `${s.node_id} ${pages(s)} "${s.title.slice(0, 40)}"`).join(', ')}`);
    }
  }
  lines.push('');
  for (const r of reports) lines.push(formatFigures(r));
  return lines.join('\n');
}
