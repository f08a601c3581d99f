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
  keywordShardFile, shardCountFor, shardOf, termLine, type KeywordSourcesIndex, type KeywordSourcesMeta,
} from '../model/keyword-format.js';

/** Hex digits of the content hash in a shard folder's name. */
const TERMS_DIR_SHA_CHARS = 16;

/**
 * One sorted line per term: its postings in each source-level field ([] where absent; own keys only,
 * so a term such as "constructor" is not looked up on Object.prototype).
 */
function termLines(index: KeywordSourcesIndex): Array<[string, string]> {
  const terms = new Set<string>();
  for (const f of SOURCE_FIELDS) for (const t of Object.keys(index.fields[f])) terms.add(t);
  return [...terms].sort(compareStrings).map((t) => [t, termLine(t, SOURCE_FIELDS.map((f) => (Object.hasOwn(index.fields[f], t) ? index.fields[f][t]! : [])))]);
}

/** Shard texts (every shard, empty ones too, so a missing file means a damaged index). */
export function shardTexts(index: KeywordSourcesIndex): { shards: string[]; terms: number } {
  const lines = termLines(index);
  const total = lines.reduce((a, [, l]) => a + l.length, 0);
  const count = shardCountFor(total);
  const parts: string[][] = Array.from({ length: count }, () => []);
  for (const [t, l] of lines) parts[shardOf(t, count)]!.push(l);
  return { shards: parts.map((p) => p.join('')), terms: lines.length };
}

/** Folder name from the shards' content and the row order of sources (what a doc number means). */
function termsDirName(shards: string[], ids: string[]): string {
  const h = createHash('sha256');
  h.update(`kw${KEYWORD_FORMAT_VERSION}/${shards.length}\n${ids.join('\n')}\n`);
  for (const s of shards) h.update(s).update('\u0000');
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
export function writeSourcesIndex(root: string, index: KeywordSourcesIndex): KeywordSourcesMeta {
  const { shards, terms } = shardTexts(index);
  const termsDir = termsDirName(shards, index.ids);
  // bulk files a rebuild can redo: no fsync per shard (sources.json, written last, is durable)
  shards.forEach((text, i) => writeIfChanged(join(root, keywordShardFile(termsDir, i, shards.length)), text, false));
  const meta: KeywordSourcesMeta = {
    format: KEYWORD_FORMAT_VERSION, tokenizer: TOKENIZER_VERSION, ids: index.ids, lengths: index.lengths, terms, shards: shards.length, terms_dir: termsDir,
  };
  writeIfChanged(join(root, KEYWORD_SOURCES_FILE), JSON.stringify(meta) + '\n');
  removeOtherTermDirs(root, termsDir);
  return meta;
}
