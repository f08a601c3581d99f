/**
 * Tier 2's proximity signal: the share of the query's weight that one short span of a node's own
 * text holds (term-window.ts, DENSE_WINDOW_CHARS). BM25 over a whole node cannot tell a section
 * answering the question, its words in one sentence, from a longer one using them in separate
 * paragraphs; the span can. Read for the best PROXIMITY_CANDIDATES nodes of the fused ranking only,
 * from the node files (at most PROXIMITY_SCAN_CHARS each), so it re-orders the head of the list.
 *
 * Each of the query's word groups (nodes.ts scoringGroups: a typed word with the forms the source
 * writes it in, or a vocabulary pack's expansion) weighs its idf over the source's nodes and
 * counts once in a span. A query of one group has no proximity to measure.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { nodeTextPath } from '../store/layout.js';
import { tokenize } from '../model/tokenize.js';
import { idf, termFreq } from './bm25.js';
import { nodeFields, type NodeKeywords } from './keyword-index.js';
import { DENSE_WINDOW_CHARS, bestWindow, termHits } from './term-window.js';

/** Node rows placed by spreadsheet rows (keyword-format.ts): a sheet and its row entries. */
const ROW_KIND = 'r';
/** Nodes at the head of the fused ranking whose text is read. */
export const PROXIMITY_CANDIDATES = 5;
/** Characters of a node's own text searched for its densest span. */
export const PROXIMITY_SCAN_CHARS = 20_000;

/** A node's own text by node id; null when it has none. */
export type NodeTextReader = (nodeId: string) => string | null;

/** Bytes read of a node file: enough for PROXIMITY_SCAN_CHARS characters of UTF-8 (at most 4 bytes each). */
const SCAN_BYTES = PROXIMITY_SCAN_CHARS * 4;

/**
 * Reads node texts from a store's converted/ folder, the first PROXIMITY_SCAN_CHARS characters of
 * each (a huge node's file is not read whole); null for a node without a file.
 */
export function storeNodeText(root: string, sourceId: string): NodeTextReader {
  let buf: Buffer | null = null;
  return (nodeId) => {
    let fd: number | null = null;
    try {
      fd = openSync(join(root, nodeTextPath(sourceId, nodeId)), 'r');
      buf ??= Buffer.allocUnsafe(SCAN_BYTES);
      const n = readSync(fd, buf, 0, SCAN_BYTES, 0);
      return buf.toString('utf8', 0, n).slice(0, PROXIMITY_SCAN_CHARS);
    } catch {
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  };
}

/** One word group of the query: its terms (a term's weight is unused here: each group weighs its idf). */
type Group = ReadonlyMap<string, number>;

/**
 * A spreadsheet's row entries (keyword-format.ts: a row placed under its sheet's node id, after the
 * sheet itself) and the labels a row is shown with (its sheet's and columns' titles: "row 2:
 * country: Angola; year: 1952; lifeExp: 30.015"). A row's node file is its sheet's, not the row.
 */
function rowRecords(ix: NodeKeywords): { entry: boolean[]; labels: Set<string> } {
  const seen = new Set<string>();
  const entry = ix.nodes.map(([id, , kind]) => {
    const again = kind === ROW_KIND && seen.has(id);
    seen.add(id);
    return again;
  });
  const labels = new Set(entry.some(Boolean) ? ix.nodes.filter((_, i) => !entry[i]).flatMap(([, title]) => tokenize(title)) : []);
  return { entry, labels };
}

/** The weight of the query's groups a row's record holds: in its cells (the index's postings) or its labels. One record is one span. */
function recordShare(ix: NodeKeywords, groups: readonly Group[], gw: number[], i: number, labels: ReadonlySet<string>): number {
  const text = nodeFields(ix).text;
  let held = 0;
  groups.forEach((g, k) => {
    if (gw[k]! > 0 && [...g.keys()].some((t) => labels.has(t) || termFreq(text, t, i) > 0)) held += gw[k]!;
  });
  return held;
}

/** Weight of each group: the idf over the source's nodes of its rarest term the source holds (0: none). */
function groupWeights(ix: NodeKeywords, groups: readonly Group[]): number[] {
  const text = nodeFields(ix).text;
  const n = text.lengths.length;
  return groups.map((g) => {
    let w = 0;
    for (const [t, tw] of g) {
      const df = (text.postings(t)?.length ?? 0) / 2;
      if (df > 0) w = Math.max(w, tw * idf(n, df));
    }
    return w;
  });
}

/**
 * Of each candidate node (index into ix.nodes), the weight of the query's groups its densest span
 * holds, as a share of all groups' weight: 1 when one sentence holds every word. Empty for a
 * query of fewer than two groups the source holds. A spreadsheet's row gets the share its record
 * holds (rowRecords): a row is one span.
 */
export function proximityScores(ix: NodeKeywords, groups: readonly Group[], candidates: readonly number[], read: NodeTextReader): Map<number, number> {
  const out = new Map<number, number>();
  const gw = groupWeights(ix, groups);
  const total = gw.reduce((a, b) => a + b, 0);
  if (gw.filter((w) => w > 0).length < 2) return out;
  const weights = new Map<string, number>();
  const groupOf = new Map<string, string>();
  groups.forEach((g, k) => {
    if (gw[k]! <= 0) return;
    for (const t of g.keys()) {
      if (weights.has(t)) continue;
      weights.set(t, gw[k]!);
      groupOf.set(t, String(k));
    }
  });
  // only a spreadsheet's candidates can be row entries: the other sources' nodes are not walked
  const rows = candidates.some((i) => ix.nodes[i]![2] === ROW_KIND) ? rowRecords(ix) : null;
  for (const i of candidates) {
    if (rows?.entry[i]) {
      out.set(i, recordShare(ix, groups, gw, i, rows.labels) / total);
      continue;
    }
    const text = read(ix.nodes[i]![0]);
    const win = text ? bestWindow(termHits(text, weights), weights, DENSE_WINDOW_CHARS, (t) => groupOf.get(t)!) : null;
    out.set(i, (win?.score ?? 0) / total);
  }
  return out;
}
