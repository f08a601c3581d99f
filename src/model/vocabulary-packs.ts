/**
 * Where vocabulary packs live and how their files are read (format in docs/vocabularies.md): shared
 * by search (query stopwords, section kinds, expansions: ../search/vocabulary.ts) and ingest (the
 * outline words of a field: ../ingest/outline-vocabulary.ts). A pack named in config.json is looked
 * up in the store's `vocabularies/` folder first (a user's own), then among the shipped packs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VOCABULARY_DIR = 'vocabularies';
export const VOCABULARY_FORMAT = 1;

/** Folders holding the packs shipped with MetadataHub (from dist/<layer>/ or a skill bundle). */
export function builtInVocabularyDirs(): string[] {
  const here = import.meta.url;
  const dirs = ['../../vocabularies/', '../vocabularies/'].map((rel) => fileURLToPath(new URL(rel, here)));
  const home = process.env['MHUB_HOME'];
  if (home) dirs.push(join(home, VOCABULARY_DIR));
  return dirs;
}

/** Where a pack named in config.json is read from: a path, else `<store>/vocabularies/<name>.json`, else a shipped pack. */
export function vocabularyCandidates(root: string, name: string): string[] {
  if (name.endsWith('.json') || name.includes('/')) return [isAbsolute(name) ? name : resolve(root, name)];
  return [join(root, VOCABULARY_DIR, `${name}.json`), ...builtInVocabularyDirs().map((d) => join(d, `${name}.json`))];
}

/** Every `*.json` file in the store's pack folder, then in the shipped ones (sorted per folder). */
export function allPackFiles(root: string): string[] {
  const out: string[] = [];
  for (const dir of [join(root, VOCABULARY_DIR), ...builtInVocabularyDirs()]) {
    try {
      out.push(...readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f)));
    } catch {
      // a folder that does not exist holds no packs
    }
  }
  return out;
}

/** The parsed JSON of a pack file; throws an Error saying what is wrong. */
export function readPackJson(path: string): Record<string, unknown> & { name: string; format: number } {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { name: string; format: number };
  if (!raw || typeof raw !== 'object' || typeof raw.name !== 'string') throw new Error('expected a JSON object with a "name"');
  if (raw.format !== VOCABULARY_FORMAT) throw new Error(`"format" must be ${VOCABULARY_FORMAT}`);
  return raw;
}
