/**
 * Writes the source-level keyword index as term shards plus sources.json (format in
 * model/keyword-format.ts): shards first, into a folder named by their content hash, then
 * sources.json pointing at it, then older shard folders are removed. Unchanged input → same folder
 * name and bytes, nothing written.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { compareStrings } from '../store/json.js';
import { writeIfChanged } from '../store/atomic.js';
import { TOKENIZER_VERSION } from '../model/tokenize.js';
import {
  KEYWORD_DIR, KEYWORD_FORMAT_VERSION, KEYWORD_SOURCES_FILE, KEYWORD_TERMS_PREFIX, SOURCE_FIELDS,
  keywordShardFile, shardCountFor, shardOf, termLine, type KeywordSourcesIndex, type KeywordSourcesMeta, type SourceField,
} from '../model/keyword-format.js';

/** Hex digits of the content hash in a shard folder's name. */
const TERMS_DIR_SHA_CHARS = 16;

/** What the shard writer reads: the sources, and each field's terms with their postings, one term at a time. */
export interface SourcePostings {
  ids: string[];
  lengths: KeywordSourcesIndex['lengths'];
  terms(field: SourceField): Iterable<string>;
  /** the flat [doc, tf, …] postings of a term in a field, undefined where the field lacks it */
  postings(field: SourceField, term: string): number[] | undefined;
}

/** A source-level index held as plain records (own keys only, so "constructor" is not read from Object.prototype). */
export function recordPostings(index: KeywordSourcesIndex): SourcePostings {
  return {
    ids: index.ids,
    lengths: index.lengths,
    terms: (f) => Object.keys(index.fields[f]),
    postings: (f, t) => (Object.hasOwn(index.fields[f], t) ? index.fields[f][t] : undefined),
  };
}

/** A term's line: its postings in each source-level field ([] where absent). */
function lineOf(src: SourcePostings, term: string): string {
  return termLine(term, SOURCE_FIELDS.map((f) => src.postings(f, term) ?? []));
}

/**
 * The shards as they are written: every term in sorted order, each in the shard its hash names, the
 * shard count from the lines' total length. Lines are made again for each pass rather than kept: at
 * 6,000 sources (930,000 terms, 66 MB of shards) holding them all took hundreds of MB.
 */
class ShardPlan {
  readonly terms: string[];
  readonly count: number;
  private readonly byShard: number[][];

  constructor(private readonly src: SourcePostings) {
    const all = new Set<string>();
    for (const f of SOURCE_FIELDS) for (const t of src.terms(f)) all.add(t);
    this.terms = [...all].sort(compareStrings);
    let total = 0;
    for (const t of this.terms) total += lineOf(src, t).length;
    this.count = shardCountFor(total);
    this.byShard = Array.from({ length: this.count }, () => []);
    this.terms.forEach((t, i) => this.byShard[shardOf(t, this.count)]!.push(i));
  }

  /** Shard i's text (every shard, empty ones too, so a missing file means a damaged index). */
  text(i: number): string {
    return this.byShard[i]!.map((k) => lineOf(this.src, this.terms[k]!)).join('');
  }
}

/** Folder name from the shards' content and the row order of sources (what a doc number means). */
function termsDirName(plan: ShardPlan, ids: string[]): string {
  const h = createHash('sha256');
  h.update(`kw${KEYWORD_FORMAT_VERSION}/${plan.count}\n${ids.join('\n')}\n`);
  for (let i = 0; i < plan.count; i++) h.update(plan.text(i)).update('\u0000');
  return KEYWORD_TERMS_PREFIX + h.digest('hex').slice(0, TERMS_DIR_SHA_CHARS);
}

/** Remove shard folders other than `keep` (older index versions). */
function removeOtherTermDirs(root: string, keep: string): void {
  const dir = join(root, KEYWORD_DIR);
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir)) {
    if (f.startsWith(KEYWORD_TERMS_PREFIX) && f !== keep) rmSync(join(dir, f), { recursive: true, force: true });
  }
}

/** Write the shards, then sources.json, then drop older shard folders. Returns what sources.json says. */
export function writeSourcesIndex(root: string, src: SourcePostings): KeywordSourcesMeta {
  const plan = new ShardPlan(src);
  const termsDir = termsDirName(plan, src.ids);
  // bulk files a rebuild can redo: no fsync per shard (sources.json, written last, is durable)
  for (let i = 0; i < plan.count; i++) writeIfChanged(join(root, keywordShardFile(termsDir, i, plan.count)), plan.text(i), false);
  const meta: KeywordSourcesMeta = {
    format: KEYWORD_FORMAT_VERSION, tokenizer: TOKENIZER_VERSION, ids: src.ids, lengths: src.lengths, terms: plan.terms.length, shards: plan.count, terms_dir: termsDir,
  };
  writeIfChanged(join(root, KEYWORD_SOURCES_FILE), JSON.stringify(meta) + '\n');
  removeOtherTermDirs(root, termsDir);
  return meta;
}
