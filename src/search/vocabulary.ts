/**
 * Vocabulary packs: the words of one field, kept apart from the core ranking and used only when a
 * store opts in (`config.json`: `"vocabularies": ["finance"]`). A pack is a JSON file (format in
 * docs/vocabularies.md): query stopwords (how the field's questions say *how* to answer), section
 * kinds (node titles a query calls for, e.g. "balance sheet" for "quick ratio") and expansions (the
 * words documents print for what questions name). Packs are looked up in the store's
 * `vocabularies/` folder first (a user's own), then among the packs shipped with MetadataHub.
 *
 * A pack may also declare the kinds of document it is written for (`applies_to.doc_types`, matched
 * against the doc type each source's card reads from its content): tier 2 then uses it inside those
 * sources only, unless config.json lists it as "!name". Sources of other kinds never see it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../store/schemas.js';
import { tokenize } from '../model/tokenize.js';
import { allPackFiles, readPackJson, VOCABULARY_DIR, vocabularyCandidates } from '../model/vocabulary-packs.js';

export { VOCABULARY_DIR, VOCABULARY_FORMAT, vocabularyCandidates } from '../model/vocabulary-packs.js';

/** A pack as written in its JSON file. */
export interface VocabularyFile {
  name: string;
  description?: string;
  format: number;
  /** words dropped from queries: a space-separated string or a list */
  query_stopwords?: string | string[];
  sections?: {
    /** a title that starts like this names the section itself (regex, tested on the lower-cased title) */
    primary_title?: string;
    /** a title with these words only mentions it (a note, a schedule) */
    mention_title?: string;
    /** a primary title with these words is the canonical one ("consolidated") */
    qualified_title?: string;
    kinds: Array<{ name: string; title: string }>;
    /** query patterns and the section kinds they call for */
    queries: Array<{ when: string; kinds: string[] }>;
    /** a query matching this calls for none of the kinds, whatever else it names (regex, on the lower-cased query) */
    unless?: string;
  };
  /** query pattern → words the documents print for it */
  expansions?: Array<{ when: string; add: string }>;
  /** the documents the pack is written for: used inside sources of these doc types without opting in */
  applies_to?: { doc_types?: string[] };
}

export interface SectionLexicon {
  primary: RegExp | null;
  mention: RegExp | null;
  qualified: RegExp | null;
  kinds: Array<{ name: string; title: RegExp }>;
  queries: Array<{ when: RegExp; kinds: string[] }>;
  unless: RegExp | null;
}

/** The packs a store uses, compiled and merged. */
export interface Vocabulary {
  names: string[];
  stopwords: ReadonlySet<string>;
  sections: SectionLexicon[];
  expansions: Array<{ when: RegExp; add: string }>;
  /** packs that could not be loaded, said once per search */
  warnings: string[];
}

export const NO_VOCABULARY: Vocabulary = { names: [], stopwords: new Set(), sections: [], expansions: [], warnings: [] };

const regex = (src: string | undefined): RegExp | null => (src ? new RegExp(src) : null);

function compileSections(s: NonNullable<VocabularyFile['sections']>): SectionLexicon {
  return {
    primary: regex(s.primary_title), mention: regex(s.mention_title), qualified: regex(s.qualified_title),
    kinds: s.kinds.map((k) => ({ name: k.name, title: new RegExp(k.title) })),
    queries: s.queries.map((q) => ({ when: new RegExp(q.when), kinds: q.kinds })),
    unless: regex(s.unless),
  };
}

/** Parse and compile one pack file; throws an Error saying what is wrong. */
export function readVocabularyFile(path: string): Omit<Vocabulary, 'names' | 'warnings'> & { name: string; docTypes: string[] } {
  const raw = readPackJson(path) as unknown as VocabularyFile;
  const words = typeof raw.query_stopwords === 'string' ? raw.query_stopwords.split(/\s+/) : raw.query_stopwords ?? [];
  return {
    name: raw.name,
    stopwords: new Set(words.flatMap((w) => tokenize(w))),
    sections: raw.sections ? [compileSections(raw.sections)] : [],
    expansions: (raw.expansions ?? []).map((e) => ({ when: new RegExp(e.when), add: e.add })),
    docTypes: (raw.applies_to?.doc_types ?? []).map((t) => t.toLowerCase()),
  };
}

const cache = new Map<string, Vocabulary>();

function loadUncached(root: string, names: string[], docType = ''): Vocabulary {
  const v: Vocabulary = { names: [], stopwords: new Set(), sections: [], expansions: [], warnings: [] };
  const stop = new Set<string>();
  for (const name of names.filter((n) => !n.startsWith('!'))) {
    const path = vocabularyCandidates(root, name).find((p) => existsSync(p));
    if (!path) {
      v.warnings.push(`vocabulary pack "${name}" (config.json "vocabularies") not found in ${join(root, VOCABULARY_DIR)}/ nor among the shipped packs; searching without it`);
      continue;
    }
    try {
      const pack = readVocabularyFile(path);
      v.names.push(pack.name);
      for (const w of pack.stopwords) stop.add(w);
      v.sections.push(...pack.sections);
      v.expansions.push(...pack.expansions);
    } catch (err) {
      v.warnings.push(`vocabulary pack ${path} is unusable (${(err as Error).message}); searching without it (format: docs/vocabularies.md)`);
    }
  }
  for (const pack of docTypePacks(root, docType)) {
    if (v.names.includes(pack.name) || names.includes(`!${pack.name}`)) continue;
    v.names.push(pack.name);
    for (const w of pack.stopwords) stop.add(w);
    v.sections.push(...pack.sections);
    v.expansions.push(...pack.expansions);
  }
  v.stopwords = stop;
  return v;
}

type Pack = ReturnType<typeof readVocabularyFile>;
const declaringPacks = new Map<string, Pack[]>();

/** Packs (the store's own, then the shipped ones) that declare `docType` in `applies_to.doc_types`. */
function docTypePacks(root: string, docType: string): Pack[] {
  const want = docType.trim().toLowerCase();
  if (!want) return [];
  let packs = declaringPacks.get(root);
  if (!packs) declaringPacks.set(root, (packs = packsDeclaringDocTypes(root)));
  return packs.filter((p) => p.docTypes.includes(want));
}

/** Every readable pack that declares doc types, read once per process. */
function packsDeclaringDocTypes(root: string): Pack[] {
  const out: Pack[] = [];
  for (const file of allPackFiles(root)) {
    try {
      const pack = readVocabularyFile(file);
      if (pack.docTypes.length > 0 && !out.some((p) => p.name === pack.name)) out.push(pack);
    } catch {
      // an unusable pack is reported when a store names it; here it is simply not applied
    }
  }
  return out;
}

/**
 * The store's vocabulary (config.json `vocabularies`, names starting with "!" excluded), plus, when
 * `docType` is given (ranking inside one source), the packs written for that kind of document.
 * Loaded once per process.
 */
export function loadVocabulary(root: string, config: Config, docType = ''): Vocabulary {
  const names = config.vocabularies ?? [];
  const optedIn = names.filter((n) => !n.startsWith('!'));
  if (optedIn.length === 0 && !docType) return NO_VOCABULARY;
  const key = `${root}\u0000${names.join('\u0000')}\u0000${docType}`;
  let v = cache.get(key);
  if (!v) cache.set(key, (v = loadUncached(root, names, docType)));
  return v.names.length === 0 && v.warnings.length === 0 ? NO_VOCABULARY : v;
}
