/**
 * The outline words of one field (the `outline` part of a vocabulary pack, docs/vocabularies.md):
 * what the PDF converter may know about a field's documents beyond what their layout says — the
 * titles of the sections such documents are built from (a filing's financial statements), the
 * section under which later headings are its parts (the notes), lines that caption table columns,
 * the row labels worth quoting, and what a table-heavy section holds in the words people ask with.
 * The core converter knows none of these; a pack applies when the store names it in config.json
 * (`"vocabularies"`) or, unless listed as "!name", when the document is of a kind the pack declares
 * (`applies_to.doc_types`, read from the document's content).
 */

/** The `outline` part of a pack as written in its JSON file (regular expressions as strings). */
export interface OutlineWords {
  /** titles (tested on the lower-cased title, parentheticals removed) of the field's principal sections: headings even at body size, split out of long sections */
  section_titles?: string[];
  /** a principal section under which every later heading is one of its parts ("notes to the financial statements") */
  container_title?: string;
  /** lines that read like headings but caption a table's columns ("years ended", "three months") */
  table_captions?: string;
  /** table row labels whose figures a node's summary quotes (beside the generic "Total …" rows) */
  key_rows?: string;
  /** what a table-heavy principal section so titled holds, in the words people ask with */
  glosses?: Array<{ title: string; text: string }>;
}

/** One pack's outline words and when they apply: always (`doc_types` null: named in config.json), or for these doc types. */
export interface OutlinePack {
  name: string;
  doc_types: string[] | null;
  outline: OutlineWords;
}

/** The outline words that apply to one document, compiled. */
export interface OutlineVocabulary {
  names: string[];
  sectionTitles: RegExp[];
  container: RegExp | null;
  tableCaptions: RegExp | null;
  keyRows: RegExp | null;
  glosses: Array<[RegExp, string]>;
}

export const NO_OUTLINE_VOCABULARY: OutlineVocabulary = { names: [], sectionTitles: [], container: null, tableCaptions: null, keyRows: null, glosses: [] };

const anyOf = (sources: string[]): RegExp | null => (sources.length ? new RegExp(sources.map((s) => `(?:${s})`).join('|'), 'i') : null);

/** The packs that apply to a document of `docType`, merged and compiled. */
export function compileOutline(packs: OutlinePack[] | undefined, docType: string): OutlineVocabulary {
  const want = docType.trim().toLowerCase();
  const use = (packs ?? []).filter((p) => p.doc_types === null || p.doc_types.includes(want));
  if (use.length === 0) return NO_OUTLINE_VOCABULARY;
  const o = use.map((p) => p.outline);
  return {
    names: use.map((p) => p.name),
    sectionTitles: o.flatMap((w) => w.section_titles ?? []).map((s) => new RegExp(s, 'i')),
    container: anyOf(o.flatMap((w) => (w.container_title ? [w.container_title] : []))),
    tableCaptions: anyOf(o.flatMap((w) => (w.table_captions ? [w.table_captions] : []))),
    keyRows: anyOf(o.flatMap((w) => (w.key_rows ? [w.key_rows] : []))),
    glosses: o.flatMap((w) => w.glosses ?? []).map((g) => [new RegExp(g.title, 'i'), g.text] as [RegExp, string]),
  };
}

/** True when `title` is a principal section of the field (a title, never a sentence: "… were $73.1 billion" is prose). */
export function isSectionTitle(title: string, v: OutlineVocabulary): boolean {
  if (v.sectionTitles.length === 0) return false;
  if (/\$|\.$|\b(were|was|is|are|has|have|had|increased|decreased|include[sd]?)\b/i.test(title)) return false;
  const t = title.toLowerCase().replace(/[’`]/g, "'").replace(/\s*\([^()]*\)\s*/g, ' ').replace(/\s+/g, ' ').trim();
  return v.sectionTitles.some((re) => re.test(t));
}

/** True when `title` is the field's container section (its later headings are its parts). */
export function isContainerTitle(title: string, v: OutlineVocabulary): boolean {
  return v.container !== null && v.container.test(title.toLowerCase());
}
