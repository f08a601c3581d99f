/**
 * Read access to the keyword index for search. Every reader goes through `SourceKeywords` (fields
 * with per-term posting lists) and `nodeKeywords` (one file per source). Both read only what a query
 * asks for: sources.json (ids and lengths) once, then one term shard per distinct query term, and
 * for a source's nodes the file's header and the query terms' lines (format: model/keyword-format.ts).
 * What was read is kept per process and index version (sources.json's folder of shards).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  KEYWORD_SOURCES_FILE, SOURCE_FIELDS, findTermLine, termsWithPrefix, keywordNodesFile, keywordShardFile, nodesBodyOffset, parseNodesHeader,
  readKeywordFile, readSourcesMeta, shardOf, type KeywordNodesHeader, type KeywordSourcesMeta, type NodeRow, type SourceField,
} from '../model/keyword-format.js';
import { meanLength, type PostingField } from './bm25.js';

export interface SourceKeywords {
  /** source ids in row order (a posting's doc number indexes this list) */
  ids: string[];
  field(name: SourceField): PostingField;
}

/** A shard file that sources.json names but that cannot be read: the index is damaged or being replaced. */
export class KeywordShardError extends Error {}

/** Postings of one term in each source field (undefined where the field lacks it). */
type TermRow = Array<number[] | undefined>;

function openSources(root: string, meta: KeywordSourcesMeta): SourceKeywords {
  const rows = new Map<string, TermRow | null>();
  // one shard read per new term (not kept: the term's row is)
  const shardText = (i: number): string => {
    const rel = keywordShardFile(meta.terms_dir, i, meta.shards);
    const text = readKeywordFile(join(root, rel));
    if (text === null) throw new KeywordShardError(`${rel} is missing`);
    return text;
  };
  const row = (t: string): TermRow | null => {
    let r = rows.get(t);
    if (r === undefined) {
      const v = findTermLine(shardText(shardOf(t, meta.shards)), t) as number[][] | null;
      rows.set(t, (r = v ? v.map(postingsOrNone) : null));
    }
    return r;
  };
  const fields = new Map<SourceField, PostingField>();
  SOURCE_FIELDS.forEach((f, k) => {
    const lengths = meta.lengths[f];
    fields.set(f, { lengths, avgLength: meanLength(lengths), postings: (t) => row(t)?.[k] });
  });
  return { ids: meta.ids, field: (name) => fields.get(name)! };
}

/**
 * A field's postings from a term line, undefined when empty. Indexes built before the keyword
 * builder looked terms up as own keys only wrote `null` for a term such as "constructor" that was
 * absent from a field: read as absent too.
 */
function postingsOrNone(p: number[] | null | undefined): number[] | undefined {
  return Array.isArray(p) && p.length > 0 ? p : undefined;
}

/** Rows (source numbers) holding a term in any of `fields` (default: every field). */
export function sourcesHolding(kix: SourceKeywords, t: string, fields: readonly SourceField[] = SOURCE_FIELDS): Set<number> {
  const rows = new Set<number>();
  for (const f of fields) {
    const post = kix.field(f).postings(t);
    if (post) for (let i = 0; i < post.length; i += 2) rows.add(post[i]!);
  }
  return rows;
}

/** Whether any source holds the term in any field. */
export function libraryHolds(kix: SourceKeywords, t: string): boolean {
  return SOURCE_FIELDS.some((f) => !!kix.field(f).postings(t));
}

let cache: { root: string; termsDir: string; value: SourceKeywords } | null = null;

/**
 * The source-level keyword index, or null when it is missing or of another format version. Reads
 * sources.json (small); postings are read per term when first asked for.
 */
export function sourceKeywords(root: string): SourceKeywords | null {
  const meta = readSourcesMeta(root);
  if (!meta) return null;
  // the same index as last time (same shard folder, same ids): keep what was read
  if (cache && cache.root === root && cache.termsDir === meta.terms_dir) return cache.value;
  const value = openSources(root, meta);
  cache = { root, termsDir: meta.terms_dir, value };
  return value;
}

export interface NodeFields {
  title: PostingField;
  text: PostingField;
}

/** Node-level index of one source, read lazily: the header is parsed, term lines when asked for. */
export interface NodeKeywords {
  id: string;
  nodes: NodeRow[];
  header: KeywordNodesHeader;
  fields: NodeFields;
  /** the source's terms starting with `prefix` (sorted, at most `limit`) */
  termsStartingWith(prefix: string, limit: number): string[];
}

function openNodes(text: string, header: KeywordNodesHeader): NodeKeywords {
  const from = nodesBodyOffset(text);
  const rows = new Map<string, [number[] | undefined, number[] | undefined] | null>();
  const row = (t: string) => {
    let r = rows.get(t);
    if (r === undefined) {
      const v = findTermLine(text, t, from) as [number[], number[]] | null;
      rows.set(t, (r = v ? [postingsOrNone(v[0]), postingsOrNone(v[1])] : null));
    }
    return r;
  };
  const field = (lengths: number[], k: 0 | 1): PostingField => ({ lengths, avgLength: meanLength(lengths), postings: (t) => row(t)?.[k] });
  return {
    id: header.id, nodes: header.nodes, header, fields: { text: field(header.len, 0), title: field(header.title_len, 1) },
    termsStartingWith: (prefix, limit) => termsWithPrefix(text, prefix, from, limit),
  };
}

const nodeCache = new Map<string, { stamp: string; value: NodeKeywords | null }>();
/** Node files kept per process (a query reads at most a few dozen). */
const NODE_CACHE_MAX = 64;

/** mtime and size of a file ('' when missing): a node file rewritten in this process is read again. */
function fileStamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}/${st.size}`;
  } catch {
    return '';
  }
}

/** Node-level index of one source (title and text fields), or null when missing or of another version. */
export function nodeKeywords(root: string, id: string): NodeKeywords | null {
  const path = join(root, keywordNodesFile(id));
  const stamp = fileStamp(path);
  const hit = nodeCache.get(path);
  if (hit && hit.stamp === stamp) return hit.value;
  const text = readKeywordFile(path);
  const header = text === null ? null : parseNodesHeader(text);
  const value = text !== null && header ? openNodes(text, header) : null;
  if (nodeCache.size >= NODE_CACHE_MAX) nodeCache.delete(nodeCache.keys().next().value!);
  nodeCache.set(path, { stamp, value });
  return value;
}

export function nodeFields(ix: NodeKeywords): NodeFields {
  return ix.fields;
}

/** Forget what was read (after the index was rebuilt in this process, and in tests). */
export function resetKeywordCache(): void {
  cache = null;
  nodeCache.clear();
}

export { KEYWORD_SOURCES_FILE };
