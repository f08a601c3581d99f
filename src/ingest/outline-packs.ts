/**
 * The outline words of the vocabulary packs a store uses (src/model/outline-vocabulary.ts), read once
 * per ingest run and handed to the converters: packs named in config.json apply to every source;
 * packs declaring `applies_to.doc_types` apply to sources of those kinds unless config.json lists
 * them as "!name". A pack that cannot be read is left out, and the run says so once.
 */
import { existsSync } from 'node:fs';
import type { Config } from '../store/schemas.js';
import type { OutlinePack, OutlineWords } from '../model/outline-vocabulary.js';
import { allPackFiles, readPackJson, vocabularyCandidates } from '../model/vocabulary-packs.js';

function outlineOf(raw: Record<string, unknown>): OutlineWords | null {
  const o = raw['outline'];
  return o && typeof o === 'object' ? (o as OutlineWords) : null;
}

function docTypesOf(raw: Record<string, unknown>): string[] {
  const a = raw['applies_to'] as { doc_types?: unknown } | undefined;
  return Array.isArray(a?.doc_types) ? a.doc_types.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase()) : [];
}

/** Checks that every regular expression of a pack's outline compiles; throws saying which does not. */
function checkOutline(o: OutlineWords): void {
  const sources = [...(o.section_titles ?? []), o.container_title, o.table_captions, o.key_rows, ...(o.glosses ?? []).map((g) => g.title)];
  for (const s of sources) if (s !== undefined) new RegExp(s);
}

export function outlinePacks(root: string, config: Config): { packs: OutlinePack[]; warnings: string[] } {
  const names = config.vocabularies ?? [];
  const packs: OutlinePack[] = [];
  const warnings: string[] = [];
  const take = (path: string, always: boolean): void => {
    try {
      const raw = readPackJson(path);
      const outline = outlineOf(raw);
      if (packs.some((p) => p.name === raw.name)) return;
      const docTypes = docTypesOf(raw);
      if (!outline || (!always && (docTypes.length === 0 || names.includes(`!${raw.name}`)))) return;
      checkOutline(outline);
      packs.push({ name: raw.name, doc_types: always ? null : docTypes, outline });
    } catch (err) {
      if (always) warnings.push(`vocabulary pack ${path} is unusable for outlines (${(err as Error).message}); converting without it (format: docs/vocabularies.md)`);
    }
  };
  for (const name of names.filter((n) => !n.startsWith('!'))) {
    const path = vocabularyCandidates(root, name).find((p) => existsSync(p));
    if (path) take(path, true);
  }
  for (const file of allPackFiles(root)) take(file, false);
  return { packs, warnings };
}
