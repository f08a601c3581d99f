/**
 * Builds the keyword index at ingest: per-source node postings (rebuilt only when the source's tree
 * or card changed) and the source-level postings over every indexed source's card and body.
 */
import { headingOf } from '../model/place-labels.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogEntry, TreeFile } from '../store/schemas.js';
import { compareStrings } from '../store/json.js';
import { writePiecesIfChanged } from '../store/atomic.js';
import type { IndexBuilder, IndexBuildContext } from '../model/stages.js';
import { TOKENIZER_VERSION, termFrequencies, tokenize } from '../model/tokenize.js';
import {
  KEYWORD_DIR, KEYWORD_FORMAT_VERSION, KEYWORD_NODES_EXT, keywordNodesFile, nodesIndexPiecesOf, readNodesSummary,
  type KeywordNodesHeader, type KeywordNodesIndex, type NodeRow, type NodesIndexSummary, type NodesIndexTerms, type SourceField,
} from '../model/keyword-format.js';
import { CompactPostings, PostingsArena } from './postings.js';
import { writeSourcesIndex, type SourcePostings } from './keyword-shards.js';
import { aboutText, fileNameText, identityText, nodeTexts, rowTexts, sheetNoteTexts } from './source-text.js';
import { summaryWithoutSample } from '../model/column-summary.js';

/** The ancestors' titles count once in a node's text (context: "Item 7 > Liquidity"). */
export const NODE_PATH_BOOST = 1;
/** Tree node kinds tier 2 never suggests (printed contents pages list every section's words). */
export const NOT_SUGGESTED_KINDS: ReadonlySet<string> = new Set(['contents']);
/** A document's opening (kind `preface`) with fewer words than this holds a title page's lines only. */
export const TITLE_PAGE_MAX_TOKENS = 30;

/**
 * A title page and nothing else ("Kerberos Concepts" / "Release 1.20.1" / "MIT"): never where an
 * answer is, yet its few words made it the first suggestion for "MIT Kerberos" questions.
 */
function titlePageOnly(kind: string, textTokens: number): boolean {
  return kind === 'preface' && textTokens < TITLE_PAGE_MAX_TOKENS;
}
/** Version of the source-level fields' contents (2: the file name moved from identity to card); bump when they change. */
export const SOURCE_FIELDS_VERSION = 2;
/** Version of the row entries (spreadsheet data rows searchable by cell values); bump when they change. */
export const ROWS_INDEXED = 2;
/** Characters of the document's opening text indexed in the source-level `opening` field. */
export const OPENING_TEXT_CHARS = 3000;

function sortedPostings(map: Map<string, number[]>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const k of [...map.keys()].sort(compareStrings)) out[k] = map.get(k)!;
  return out;
}

function addCompact(map: Map<string, CompactPostings>, doc: number, tf: Map<string, number>): void {
  for (const [t, n] of tf) {
    let p = map.get(t);
    if (!p) map.set(t, (p = new CompactPostings()));
    p.add(doc, n);
  }
}

/** What a source's node file is made from (its tree's bytes, converter and source sha): equal inputs, equal file. */
function inputSha(root: string, e: CatalogEntry): string {
  const h = createHash('sha256');
  h.update(`kw${KEYWORD_FORMAT_VERSION}/tok${TOKENIZER_VERSION}/p${NODE_PATH_BOOST}/rows${ROWS_INDEXED}\n`);
  if (e.tree_path && existsSync(join(root, e.tree_path))) h.update(readFileSync(join(root, e.tree_path)));
  h.update(e.converter ?? '');
  h.update(e.indexed_from_sha256 ?? e.sha256);
  return h.digest('hex');
}

/**
 * Node-level postings being accumulated: one entry per node, then one per spreadsheet row (block).
 * Postings are held compact (./postings.ts) and made into arrays one term at a time when written.
 */
class NodesAccumulator {
  readonly nodes: NodeRow[] = [];
  readonly len: number[] = [];
  readonly titleLen: number[] = [];
  readonly postings = new Map<string, CompactPostings>();
  readonly titlePostings = new Map<string, CompactPostings>();
  readonly notSuggested: number[] = [];
  readonly parent: number[] = [];
  /** the last node added at each depth (the open ancestors of the next node) */
  private readonly openAt: number[] = [];

  /** Records the parent of the node about to be added at `depth` (tree order: parents first). */
  placeAt(depth: number): void {
    this.parent.push(depth > 0 ? (this.openAt[depth - 1] ?? -1) : -1);
    this.openAt[depth] = this.nodes.length;
    this.openAt.length = depth + 1;
  }

  add(row: NodeRow, title: string, tokens: string[]): void {
    const i = this.nodes.length;
    this.nodes.push(row);
    const t = tokenize(title);
    this.titleLen.push(t.length);
    addCompact(this.titlePostings, i, termFrequencies(t));
    this.len.push(tokens.length);
    addCompact(this.postings, i, termFrequencies(tokens));
  }

  /** The term lines' view of the postings. */
  terms(): NodesIndexTerms {
    const text = this.postings;
    const title = this.titlePostings;
    return {
      terms: () => new Set([...text.keys(), ...title.keys()]),
      postings: (t) => [text.get(t)?.toArray() ?? [], title.get(t)?.toArray() ?? []],
    };
  }

  /** Each term's frequency summed over the nodes' texts and titles (the source's body field). */
  bodyTf(): Map<string, number> {
    const tf = new Map<string, number>();
    for (const field of [this.postings, this.titlePostings]) for (const [t, p] of field) tf.set(t, (tf.get(t) ?? 0) + p.tfSum);
    return tf;
  }
}

/** A source's node postings, built (header and compact postings; not yet written). */
interface BuiltNodes {
  header: KeywordNodesHeader;
  acc: NodesAccumulator;
}

/** Node postings of one source (its tree, converted text and spreadsheet rows). */
function buildNodes(root: string, tree: TreeFile | null, e: CatalogEntry, sha: string): BuiltNodes {
  const acc = new NodesAccumulator();
  let opening = '';
  if (tree) {
    for (const n of nodeTexts(root, tree)) {
      if (opening.length < OPENING_TEXT_CHARS) opening += ' ' + n.text.slice(0, OPENING_TEXT_CHARS - opening.length);
      const textTokens = tokenize(n.text);
      if (NOT_SUGGESTED_KINDS.has(n.kind) || titlePageOnly(n.kind, textTokens.length)) acc.notSuggested.push(acc.nodes.length);
      acc.placeAt(n.depth);
      const path = Array<string[]>(NODE_PATH_BOOST).fill(tokenize(n.path.join(' '))).flat();
      // a column's sample of values is not what it holds: the rows below are indexed by their cells
      const summary = n.kind === 'column' ? summaryWithoutSample(n.summary) : n.summary;
      acc.add([n.node_id, n.title, n.range.kind, n.range.start, n.range.end], headingOf(n.title), [...path, ...tokenize(summary), ...textTokens]);
    }
    // a row's title ("Sheet1 row 7") is for display: its words would match every row alike
    for (const r of rowTexts(root, tree)) {
      acc.parent.push(-1);
      acc.add([r.node_id, r.title, 'r', r.start, r.end], '', tokenize(r.text));
    }
    // a sheet's notes, read with the sheet's node (no rows of their own); their title's words are the notes' kind, not their subject
    for (const n of sheetNoteTexts(tree)) {
      acc.parent.push(-1);
      acc.add([n.node_id, n.title, '', 0, 0], '', tokenize(n.text));
    }
  }
  const openingTf = termFrequencies(tokenize(opening));
  const openingSorted: Record<string, number> = {};
  for (const t of [...openingTf.keys()].sort(compareStrings)) openingSorted[t] = openingTf.get(t)!;
  const header: KeywordNodesHeader = {
    format: KEYWORD_FORMAT_VERSION, tokenizer: TOKENIZER_VERSION, id: e.id, input_sha: sha, nodes: acc.nodes, len: acc.len,
    title_len: acc.titleLen, opening: openingSorted, ...(acc.notSuggested.length ? { not_suggested: acc.notSuggested } : {}), parent: acc.parent,
  };
  return { header, acc };
}

/** Node postings of one source as a whole index in memory (tests and tools; ingest writes them term by term). */
export function buildNodesIndex(ctx: IndexBuildContext, e: CatalogEntry, sha: string): KeywordNodesIndex {
  const { header, acc } = buildNodes(ctx.root, ctx.loadTree(e.id), e, sha);
  const arrays = (m: Map<string, CompactPostings>) => sortedPostings(new Map([...m].map(([t, p]) => [t, p.toArray()])));
  return { ...header, terms: arrays(acc.postings), title_terms: arrays(acc.titlePostings) };
}

/** The source-level body field of a source: term frequencies over its nodes' texts and titles, and its length. */
function bodyOf(s: NodesIndexSummary): { tf: Map<string, number>; length: number } {
  const sum = (a: number[]) => a.reduce((x, y) => x + y, 0);
  return { tf: s.bodyTf, length: sum(s.header.len) + sum(s.header.title_len) };
}

/** Source-level postings being accumulated, one document per indexed source (an arena per field: postings.ts). */
class SourcesAccumulator {
  readonly ids: string[] = [];
  readonly postings: Record<SourceField, PostingsArena> = { identity: new PostingsArena(), opening: new PostingsArena(), card: new PostingsArena(), body: new PostingsArena() };
  readonly lengths: Record<SourceField, number[]> = { identity: [], opening: [], card: [], body: [] };

  add(e: CatalogEntry, nodes: NodesIndexSummary): void {
    const doc = this.ids.length;
    this.ids.push(e.id);
    // identity is a set of attributes (name, year, form): each counts once however often it is repeated
    const idTokens = [...new Set(tokenize(identityText(e)))];
    this.put('identity', doc, termFrequencies(idTokens), idTokens.length);
    const op = new Map(Object.entries(nodes.header.opening));
    this.put('opening', doc, op, [...op.values()].reduce((a, b) => a + b, 0));
    // the file name is a weak hint: in the card field (weight 0.5), not in the identity (2.0)
    const cardTokens = tokenize(`${aboutText(e)}\n${fileNameText(e)}`);
    this.put('card', doc, termFrequencies(cardTokens), cardTokens.length);
    const b = bodyOf(nodes);
    this.put('body', doc, b.tf, b.length);
  }

  private put(field: SourceField, doc: number, tf: Map<string, number>, length: number): void {
    this.postings[field].addDoc(doc, tf);
    this.lengths[field].push(length);
  }

  /** What the shard writer reads (keyword-shards.ts): postings decoded one term at a time. */
  source(): SourcePostings {
    const p = this.postings;
    return { ids: this.ids, lengths: this.lengths, terms: (f) => p[f].terms(), postings: (f, t) => p[f].postings(t) };
  }
}

/** Builds and writes a source's node file; its summary for the source-level index. */
function writeNodesIndex(root: string, tree: TreeFile | null, e: CatalogEntry, sha: string): NodesIndexSummary {
  const { header, acc } = buildNodes(root, tree, e, sha);
  // one file per source, redone by the next build or `doctor --fix` if torn: no fsync (10,000 of them cost minutes)
  writePiecesIfChanged(join(root, keywordNodesFile(e.id)), nodesIndexPiecesOf(header, acc.terms()), false);
  return { header, bodyTf: acc.bodyTf() };
}

/**
 * The source's node index: read back (term by term) when the file was made from the same inputs
 * — an unchanged source, or a new one prepareSource wrote while others converted — else rebuilt.
 */
function nodesIndexFor(ctx: IndexBuildContext, e: CatalogEntry): { summary: NodesIndexSummary; rebuilt: boolean } {
  const sha = inputSha(ctx.root, e);
  // (a file without the nodes' parents predates them: rebuilt)
  const old = readNodesSummary(ctx.root, e.id, (h) => h.input_sha === sha && h.tokenizer === TOKENIZER_VERSION && Array.isArray(h.parent));
  if (old) return { summary: old, rebuilt: false };
  return { summary: writeNodesIndex(ctx.root, ctx.loadTree(e.id), e, sha), rebuilt: true };
}

/** Drop node files of sources no longer indexed; returns how many. */
function removeStaleNodeFiles(root: string, ids: string[]): number {
  const keep = new Set(ids.map((id) => `${id}${KEYWORD_NODES_EXT}`));
  const dir = join(root, KEYWORD_DIR, 'nodes');
  let removed = 0;
  if (!existsSync(dir)) return 0;
  for (const f of readdirSync(dir)) {
    if (keep.has(f)) continue;
    rmSync(join(dir, f), { force: true });
    removed++;
  }
  return removed;
}

export function keywordIndexBuilder(): IndexBuilder {
  // sources whose node file this run wrote before the index stage (counted as rebuilt)
  const prepared = new Set<string>();
  return {
    name: 'keyword',
    // a new source's node file is written as soon as its tree is: the index stage then only reads it back
    async prepareSource(root, _config, tree, entry) {
      writeNodesIndex(root, tree, entry, inputSha(root, entry));
      prepared.add(entry.id);
    },
    // what the index is made with: a new tokenizer or index layout must rebuild it even when no source changed
    async stampKey() {
      return `kw${KEYWORD_FORMAT_VERSION}/tok${TOKENIZER_VERSION}/p${NODE_PATH_BOOST}/rows${ROWS_INDEXED}/fields${SOURCE_FIELDS_VERSION}`;
    },
    async build(ctx) {
      const indexed = ctx.entries.filter((e) => e.status === 'indexed').sort((a, b) => compareStrings(a.id, b.id));
      const acc = new SourcesAccumulator();
      let rebuilt = 0;
      for (const e of indexed) {
        const n = nodesIndexFor(ctx, e);
        if (n.rebuilt || prepared.has(e.id)) rebuilt++;
        acc.add(e, n.summary);
      }
      const meta = writeSourcesIndex(ctx.root, acc.source());
      const removed = removeStaleNodeFiles(ctx.root, acc.ids);
      return {
        name: 'keyword',
        summary: `${acc.ids.length} sources, ${meta.terms} terms in ${meta.shards} shards; ${rebuilt} node indexes rebuilt${removed ? `, ${removed} removed` : ''}`,
        stats: { sources: acc.ids.length, terms: meta.terms, shards: meta.shards, rebuilt },
      };
    },
  };
}
