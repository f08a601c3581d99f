/** An in-memory node index (search/keyword-index.ts NodeKeywords) for tier-2 tests: postings built from each node's title and text terms. */
import { recordField } from '../../src/search/bm25.js';
import type { NodeKeywords } from '../../src/search/keyword-index.js';
import type { NodeRow } from '../../src/model/keyword-format.js';

/** Postings [doc, tf, …] of each term of `docs` (one term list per node). */
function postings(docs: string[][]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  docs.forEach((terms, d) => {
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, f] of tf) (out[t] ??= []).push(d, f);
  });
  return out;
}

/** The node index of `rows` whose titles and texts are the given term lists; `termsStartingWith` reads the texts' terms. */
export function memoryNodeIndex(rows: NodeRow[], titles: string[][], texts: string[][], id = 'src_test'): NodeKeywords {
  const lexicon = [...new Set(texts.flat())].sort();
  return {
    id, nodes: rows,
    header: { format: 1, tokenizer: 1, id, input_sha: '', nodes: rows, len: texts.map((t) => t.length), title_len: titles.map((t) => t.length), opening: {} },
    fields: { title: recordField(postings(titles), titles.map((t) => t.length)), text: recordField(postings(texts), texts.map((t) => t.length)) },
    termsStartingWith: (prefix, limit) => lexicon.filter((t) => t.startsWith(prefix)).slice(0, limit),
  };
}

/** Node rows of pages 1, 2, … titled `titles` (ids 0000, 0001, …). */
export function pageRows(titles: string[]): NodeRow[] {
  return titles.map((t, i) => [String(i).padStart(4, '0'), t, 'p', i + 1, i + 1]);
}
