/**
 * The usual RAG recipe, as a yardstick for what trees and cards buy: each source's text cut into
 * fixed windows of ~512 tokens (with a small overlap), BM25 over the windows, sources ranked by
 * their best window. Same extracted text, same tokenizer and same query stopwords (the general
 * English list) as mhub, so the difference is the method.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readCatalog } from '../store/catalog.js';
import { TreeFile, type TreeNode } from '../store/schemas.js';
import { resolveInStore } from '../store/safe-path.js';
import { tokenize } from '../model/tokenize.js';
import { queryTerms } from '../search/query.js';
import type { RankedSource, Retriever, Suggestion } from './eval.js';

/** Words per chunk: ~512 subword tokens at the usual ~1.33 tokens per English word. */
export const CHUNK_WORDS = 384;
/** Words shared by consecutive chunks (~64 tokens). */
export const CHUNK_OVERLAP_WORDS = 48;
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Chunks scored per query before grouping them by source. */
const TOP_CHUNKS = 200;

const PAGE_MARK = /^<!-- page (\d+) -->$/;

interface Chunk {
  source: number;
  first: number;
  last: number;
  /** lines of a text source the chunk's words come from (0 when unknown) */
  firstLine: number;
  lastLine: number;
  /** the tree nodes its words come from */
  nodes: string[];
  len: number;
}

interface Word {
  w: string;
  page: number;
  /** the source lines the word may sit on: its own line when the node's text is its lines, else the node's range */
  from: number;
  to: number;
  node: string;
}

/** Lines [from, to] of the i-th line of a node's text: exact when the text is the node's lines one for one. */
function lineOf(n: TreeNode, i: number, textLines: number): [number, number] {
  const r = n.line_range;
  if (!r) return [0, 0];
  return textLines === r[1] - r[0] + 1 ? [r[0] + i, r[0] + i] : r;
}

/** The words of a source in reading order, each with the page it sits on (0 when unpaged) and its lines. */
function sourceWords(root: string, tree: TreeFile): Word[] {
  const words: Word[] = [];
  const visit = (n: TreeNode) => {
    let page = n.page_range?.[0] ?? 0;
    if (n.content_ref) {
      let text = '';
      try {
        const p = resolveInStore(root, n.content_ref);
        if (existsSync(p)) text = readFileSync(p, 'utf8');
      } catch {
        text = '';
      }
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        const m = PAGE_MARK.exec(line.trim());
        if (m) {
          page = Number(m[1]);
          return;
        }
        const [from, to] = lineOf(n, i, lines.length);
        for (const w of line.split(/\s+/)) if (w) words.push({ w, page, from, to, node: n.node_id });
      });
    }
    for (const c of n.children) visit(c);
  };
  visit(tree.root);
  return words;
}

export class ChunkBm25 {
  readonly ids: string[] = [];
  readonly files: string[] = [];
  readonly chunks: Chunk[] = [];
  private postings = new Map<string, number[]>();
  private avgLen = 0;

  static build(root: string): ChunkBm25 {
    const ix = new ChunkBm25();
    for (const e of readCatalog(root).sources) {
      if (e.status !== 'indexed' || !e.tree_path) continue;
      let tree: TreeFile;
      try {
        tree = TreeFile.parse(JSON.parse(readFileSync(resolveInStore(root, e.tree_path), 'utf8')));
      } catch {
        continue;
      }
      const src = ix.ids.length;
      ix.ids.push(e.id);
      ix.files.push(e.original_path);
      const words = sourceWords(root, tree);
      const step = CHUNK_WORDS - CHUNK_OVERLAP_WORDS;
      for (let start = 0; start < words.length; start += step) {
        const slice = words.slice(start, start + CHUNK_WORDS);
        ix.add(src, slice);
        if (start + CHUNK_WORDS >= words.length) break;
      }
    }
    ix.avgLen = ix.chunks.reduce((s, c) => s + c.len, 0) / Math.max(1, ix.chunks.length);
    return ix;
  }

  private add(source: number, words: Word[]): void {
    const tokens = tokenize(words.map((w) => w.w).join(' '));
    const pages = words.map((w) => w.page).filter((p) => p > 0);
    const lined = words.filter((w) => w.from > 0);
    const doc = this.chunks.length;
    this.chunks.push({
      source, first: pages.length ? Math.min(...pages) : 0, last: pages.length ? Math.max(...pages) : 0,
      firstLine: lined.length ? Math.min(...lined.map((w) => w.from)) : 0, lastLine: lined.length ? Math.max(...lined.map((w) => w.to)) : 0,
      nodes: [...new Set(words.map((w) => w.node))], len: tokens.length,
    });
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, n] of tf) {
      let p = this.postings.get(t);
      if (!p) this.postings.set(t, (p = []));
      p.push(doc, n);
    }
  }

  /** BM25 score of every chunk that shares a term with the query, optionally within one source. */
  score(query: string, onlySource?: number): Map<number, number> {
    const scores = new Map<number, number>();
    const N = this.chunks.length;
    for (const t of queryTerms(query)) {
      const post = this.postings.get(t);
      if (!post) continue;
      const df = post.length / 2;
      const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
      for (let i = 0; i < post.length; i += 2) {
        const doc = post[i]!;
        const c = this.chunks[doc]!;
        if (onlySource !== undefined && c.source !== onlySource) continue;
        const tf = post[i + 1]!;
        const s = (idf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * c.len) / this.avgLen));
        scores.set(doc, (scores.get(doc) ?? 0) + s);
      }
    }
    return scores;
  }

  topChunks(query: string, n: number, onlySource?: number): Array<[number, number]> {
    return [...this.score(query, onlySource).entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, n);
  }
}

/** The baseline as an eval Retriever. */
export function chunkBaseline(root: string): Retriever & { chunks: number } {
  const ix = ChunkBm25.build(root);
  return {
    name: 'bm25-512-token-chunks',
    chunks: ix.chunks.length,
    async searchSources(query: string, k: number): Promise<RankedSource[]> {
      const out: RankedSource[] = [];
      const seen = new Set<number>();
      for (const [doc, score] of ix.topChunks(query, TOP_CHUNKS)) {
        const src = ix.chunks[doc]!.source;
        if (seen.has(src)) continue;
        seen.add(src);
        out.push({ id: ix.ids[src]!, file: ix.files[src]!, score });
        if (out.length >= k) break;
      }
      return out;
    },
    async suggest(id: string, query: string, k: number): Promise<Suggestion[]> {
      const src = ix.ids.indexOf(id);
      if (src < 0) return [];
      return ix.topChunks(query, k, src).map(([doc, score]) => {
        const c = ix.chunks[doc]!;
        return {
          node_id: `chunk-${doc}`, title: `chunk ${doc}`, within: c.nodes, score,
          ...(c.first ? { page_range: [c.first, c.last] as [number, number] } : {}),
          ...(c.firstLine ? { line_range: [c.firstLine, c.lastLine] as [number, number] } : {}),
        };
      });
    },
  };
}
