/**
 * On-disk format of the keyword index (built at ingest by src/indexing, read by src/search), laid
 * out so that a query reads only the postings of its own terms:
 *
 * - `keyword/sources.json`: the small lexicon and document statistics (format, source ids in row
 *   order, each source's token count per field, how many term shards there are and which folder
 *   holds them). Written last, so a reader never follows it into a half-written set of shards.
 * - `keyword/terms-<sha>/<shard>.tsv`: source-level postings, hash-bucketed by term
 *   (FNV-1a of the term, modulo the shard count, a power of two chosen from the index size so a
 *   shard stays near SHARD_TARGET_BYTES). One line per term, sorted by term:
 *   `term<TAB>[[identity],[opening],[card],[body]]`. A query reads one shard per term and parses
 *   one line of it (found by binary search over the sorted lines). The folder name is the hash of
 *   its content: a new index goes to a new folder, sources.json is switched to it, the old one is
 *   removed (crash-safe without a half-updated set; unchanged input → same folder, no byte change).
 * - `keyword/nodes/<id>.tsv`: node-level index of one source. Line 1 is a JSON header (node rows,
 *   token counts, opening term frequencies); then one line per term, sorted:
 *   `term<TAB>[[text postings],[title postings]]`. Read for candidate sources only, and only the
 *   header and the query's lines are parsed.
 *
 * Postings are flat arrays [docIndex, tf, docIndex, tf, …] sorted by doc. Terms never hold a tab or
 * a newline (tokenize.ts: letters, digits and . ' ’ & - /). Text is LF, no indentation.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { VECTOR_DIR } from '../store/layout.js';

/**
 * 8: a title page alone (a `preface` node of fewer than TITLE_PAGE_MAX_TOKENS words) is listed in `not_suggested`.
 * 9: a sheet's notes above and below its table are entries of their own (source-text.ts sheetNoteTexts).
 */
export const KEYWORD_FORMAT_VERSION = 9;
export const KEYWORD_DIR = `${VECTOR_DIR}/keyword`;
/** Lexicon and document statistics of the source-level index (small: no postings). */
export const KEYWORD_SOURCES_FILE = `${KEYWORD_DIR}/sources.json`;
/** Prefix of the folder holding the source-level term shards (`terms-<content sha>`). */
export const KEYWORD_TERMS_PREFIX = 'terms-';
/** Extension of node-level index files. */
export const KEYWORD_NODES_EXT = '.tsv';
/**
 * Target size of one term shard. A query reads one shard per term, so smaller shards read less per
 * query; larger ones make fewer files. 64 KB: ~0.1 ms to read, 32 shards at 53 filings, ~4,000 at
 * 10,000 sources.
 */
export const SHARD_TARGET_BYTES = 64 * 1024;

export function keywordNodesFile(id: string): string {
  return `${KEYWORD_DIR}/nodes/${id}${KEYWORD_NODES_EXT}`;
}

export function keywordShardFile(termsDir: string, shard: number, shards: number): string {
  return `${KEYWORD_DIR}/${termsDir}/${shardName(shard, shards)}.tsv`;
}

/** Zero-padded hex name of a shard, as wide as the largest shard number (at least 2 digits). */
export function shardName(shard: number, shards: number): string {
  const width = Math.max(2, (shards - 1).toString(16).length);
  return shard.toString(16).padStart(width, '0');
}

/** FNV-1a (32 bit) over the term's UTF-16 code units: the shard of a term is hash % shards. */
export function termHash(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function shardOf(term: string, shards: number): number {
  return termHash(term) % shards;
}

/** Smallest power of two giving shards of at most SHARD_TARGET_BYTES on average (1 for a small index). */
export function shardCountFor(totalBytes: number): number {
  let n = 1;
  while (totalBytes / n > SHARD_TARGET_BYTES) n *= 2;
  return n;
}

/**
 * Source-level fields: identity (title, type, period, tags: what the content says the source is),
 * opening (the document's first text: cover pages name the issuer, tickers, dates), card (summary,
 * topics, sections, and the file name's words as a weak hint), body (all nodes).
 */
export const SOURCE_FIELDS = ['identity', 'opening', 'card', 'body'] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

/** sources.json: what every query needs besides its terms' postings. */
export interface KeywordSourcesMeta {
  format: number;
  tokenizer: number;
  /** source ids, in row order (sorted) */
  ids: string[];
  /** token count of each source in each field */
  lengths: Record<SourceField, number[]>;
  /** distinct terms over all fields */
  terms: number;
  /** number of term shards (a power of two) */
  shards: number;
  /** folder (under keyword/) holding the shards */
  terms_dir: string;
}

/** Source-level index in memory (the builder's view): postings per field. */
export interface KeywordSourcesIndex {
  ids: string[];
  lengths: Record<SourceField, number[]>;
  fields: Record<SourceField, Record<string, number[]>>;
}

/** [node_id, title, range kind ("p" pages, "l" lines, "r" rows, "" none), start, end] */
export type NodeRow = [string, string, string, number, number];

/** Header line of a node-level file. */
export interface KeywordNodesHeader {
  format: number;
  tokenizer: number;
  id: string;
  /** sha256 of the inputs this file was built from (tree bytes + card), to skip rebuilding */
  input_sha: string;
  nodes: NodeRow[];
  /** token count per node (text field: ancestors' titles, summary, own text) */
  len: number[];
  /** title field: token count per node */
  title_len: number[];
  /** term frequencies of the document's opening text (first characters of its first nodes) */
  opening: Record<string, number>;
  /**
   * nodes tier 2 never suggests, by index: printed contents pages (node kind `contents`), which list
   * every section's words without holding what they say. Absent when there are none.
   */
  not_suggested?: number[];
  /**
   * each node's parent, by index (-1 for the root and for spreadsheet row blocks): a suggestion list
   * holds no node together with its ancestor (search/nodes.ts). Absent in files written before it
   * was kept; the builder rewrites those.
   */
  parent?: number[];
}

/** Node-level index of one source, whole (the builder's view). */
export interface KeywordNodesIndex extends KeywordNodesHeader {
  terms: Record<string, number[]>;
  title_terms: Record<string, number[]>;
}

/**
 * How index files are read. Search reads through this, so a test can count files and bytes a
 * query touches (`useKeywordReader`). Returns null when the file does not exist.
 */
export type KeywordFileReader = (absPath: string) => string | null;

const fsReader: KeywordFileReader = (p) => {
  try {
    return readFileSync(p, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
};
let reader: KeywordFileReader = fsReader;

/** Replace the file reader (tests); returns the previous one. No argument: back to the file system. */
export function useKeywordReader(r?: KeywordFileReader): KeywordFileReader {
  const prev = reader;
  reader = r ?? fsReader;
  return prev;
}

export function readKeywordFile(absPath: string): string | null {
  return reader(absPath);
}

/** One `term<TAB>json` line. */
export function termLine(term: string, value: unknown): string {
  return `${term}\t${JSON.stringify(value)}\n`;
}

/**
 * The JSON value of `term`'s line in sorted `term<TAB>json` lines of `text` starting at offset
 * `from` (a line start), by binary search; null when the term has no line.
 */
export function findTermLine(text: string, term: string, from = 0): unknown {
  let lo = from;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = Math.max(lo, text.lastIndexOf('\n', mid - 1) + 1);
    const tab = text.indexOf('\t', start);
    if (tab < 0) return null;
    const key = text.slice(start, tab);
    const nl = text.indexOf('\n', tab);
    const end = nl < 0 ? text.length : nl;
    if (key === term) return JSON.parse(text.slice(tab + 1, end)) as unknown;
    if (key < term) lo = end + 1;
    else hi = start;
  }
  return null;
}

/**
 * Terms of a sorted `term<TAB>json` text starting with `prefix` (at most `limit`, in sorted order),
 * found by binary search for the first line at or after the prefix.
 */
export function termsWithPrefix(text: string, prefix: string, from = 0, limit = Infinity): string[] {
  let lo = from;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = Math.max(lo, text.lastIndexOf('\n', mid - 1) + 1);
    const tab = text.indexOf('\t', start);
    if (tab < 0) break;
    const nl = text.indexOf('\n', tab);
    const end = nl < 0 ? text.length : nl;
    if (text.slice(start, tab) < prefix) lo = end + 1;
    else hi = start;
  }
  const out: string[] = [];
  for (let pos = lo; pos < text.length && out.length < limit;) {
    const tab = text.indexOf('\t', pos);
    if (tab < 0) break;
    const key = text.slice(pos, tab);
    if (!key.startsWith(prefix)) break;
    out.push(key);
    const nl = text.indexOf('\n', tab);
    pos = nl < 0 ? text.length : nl + 1;
  }
  return out;
}

/** Every `term<TAB>json` line of `text` from offset `from` (builder and doctor: whole-file reads). */
export function* allTermLines(text: string, from = 0): Generator<[string, unknown]> {
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    const tab = text.indexOf('\t', pos);
    if (tab < 0 || tab > end) throw new Error(`malformed line at offset ${pos}`);
    yield [text.slice(pos, tab), JSON.parse(text.slice(tab + 1, end)) as unknown];
    pos = end + 1;
  }
}

/** Serialise a node-level index: header line, then one line per term (text and title postings). */
export function serializeNodesIndex(ix: KeywordNodesIndex): string {
  return [...nodesIndexPieces(ix)].join('');
}

/** The header line's object of a node-level index (key order as written). */
function nodesHeader(rest: KeywordNodesHeader): KeywordNodesHeader {
  return {
    format: rest.format, tokenizer: rest.tokenizer, id: rest.id, input_sha: rest.input_sha, nodes: rest.nodes, len: rest.len, title_len: rest.title_len, opening: rest.opening,
    ...(rest.not_suggested?.length ? { not_suggested: rest.not_suggested } : {}), ...(rest.parent ? { parent: rest.parent } : {}),
  };
}

/** The term lines of a node-level index, however the builder holds its postings. */
export interface NodesIndexTerms {
  /** every term with postings in the text or the title field, in any order */
  terms(): Iterable<string>;
  /** the term's [text postings, title postings] (an empty array for a field without it) */
  postings(term: string): [number[], number[]];
}

/** A node-level file's text in pieces (the header line, then each term line), so a large one need not be one string. */
export function* nodesIndexPieces(ix: KeywordNodesIndex): Generator<string> {
  const { terms, title_terms } = ix;
  yield* nodesIndexPiecesOf(ix, {
    terms: () => new Set([...Object.keys(terms), ...Object.keys(title_terms)]),
    postings: (t) => [terms[t] ?? [], title_terms[t] ?? []],
  });
}

/** nodesIndexPieces over a header and postings held any way (the builder's compact postings): one term line is made at a time. */
export function* nodesIndexPiecesOf(header: KeywordNodesHeader, body: NodesIndexTerms): Generator<string> {
  yield JSON.stringify(nodesHeader(header)) + '\n';
  const keys = [...body.terms()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const t of keys) yield termLine(t, body.postings(t));
}

/** Offset of the first term line of a node file (just after the header line). */
export function nodesBodyOffset(text: string): number {
  const nl = text.indexOf('\n');
  return nl < 0 ? text.length : nl + 1;
}

/** The header of a node-level file's text, or null when it is not of this format version. */
export function parseNodesHeader(text: string): KeywordNodesHeader | null {
  try {
    const h = JSON.parse(text.slice(0, nodesBodyOffset(text))) as KeywordNodesHeader;
    return h && h.format === KEYWORD_FORMAT_VERSION ? h : null;
  } catch {
    return null;
  }
}

/** A whole node-level index (builder reuse, doctor), or null when missing, unreadable or of another version. */
export function readNodesIndex(root: string, id: string): KeywordNodesIndex | null {
  const text = readKeywordFile(join(root, keywordNodesFile(id)));
  if (text === null) return null;
  const header = parseNodesHeader(text);
  if (!header) return null;
  const terms: Record<string, number[]> = {};
  const titleTerms: Record<string, number[]> = {};
  try {
    for (const [t, v] of allTermLines(text, nodesBodyOffset(text))) {
      const [text_, title] = v as [number[], number[]];
      if (text_.length) terms[t] = text_;
      if (title.length) titleTerms[t] = title;
    }
  } catch {
    return null;
  }
  return { ...header, terms, title_terms: titleTerms };
}

/** Bytes read at a time by the streaming reader of node-level files. */
export const NODES_READ_BYTES = 1 << 20;

/** The lines of a file, read a block at a time (the file is never held whole); null when it does not exist. */
function* fileLines(path: string): Generator<string> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const buf = Buffer.alloc(NODES_READ_BYTES);
    const dec = new StringDecoder('utf8');
    let rest = '';
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const text = rest + (n > 0 ? dec.write(buf.subarray(0, n)) : dec.end());
      let pos = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', pos)) {
        yield text.slice(pos, nl);
        pos = nl + 1;
      }
      rest = text.slice(pos);
      if (n === 0) break;
    }
    if (rest) yield rest;
  } finally {
    closeSync(fd);
  }
}

/** What the source-level index needs of a node-level file: its header and each term's frequency summed over the text and title fields. */
export interface NodesIndexSummary {
  header: KeywordNodesHeader;
  /** term → total frequency over all nodes, text and title fields together */
  bodyTf: Map<string, number>;
}

/**
 * A node-level file's header and body term frequencies, read line by line: an unchanged source of
 * 100k nodes (a 170 MB file) is summed without holding its postings. Null when the file is
 * missing, unreadable, of another format version, or its header is not `accept`ed (then the
 * term lines are not read).
 */
export function readNodesSummary(root: string, id: string, accept: (h: KeywordNodesHeader) => boolean = () => true): NodesIndexSummary | null {
  const bodyTf = new Map<string, number>();
  let header: KeywordNodesHeader | null = null;
  try {
    for (const line of fileLines(join(root, keywordNodesFile(id)))) {
      if (!header) {
        header = parseNodesHeader(line + '\n');
        if (!header || !accept(header)) return null;
        continue;
      }
      const tab = line.indexOf('\t');
      if (tab < 0) throw new Error('malformed line');
      let sum = 0;
      for (const post of JSON.parse(line.slice(tab + 1)) as [number[], number[]]) for (let i = 1; i < post.length; i += 2) sum += post[i]!;
      // a copy: a slice would keep the whole block it was cut from alive
      bodyTf.set(Buffer.from(line.slice(0, tab)).toString(), sum);
    }
  } catch {
    return null;
  }
  return header ? { header, bodyTf } : null;
}

/** sources.json, or null when missing, unreadable or of another format version. */
export function readSourcesMeta(root: string): KeywordSourcesMeta | null {
  try {
    const text = readKeywordFile(join(root, KEYWORD_SOURCES_FILE));
    if (text === null) return null;
    const v = JSON.parse(text) as KeywordSourcesMeta;
    return v.format === KEYWORD_FORMAT_VERSION && Array.isArray(v.ids) && v.shards > 0 && typeof v.terms_dir === 'string' ? v : null;
  } catch {
    return null;
  }
}
