/**
 * Section kinds from vocabulary packs, for tier-2 ranking: a query may call for kinds of sections
 * (a finance pack maps "quick ratio" to the balance sheet); node titles are classified by kind and
 * by how surely they are that section — the section itself, a bare title, or a note mentioning it.
 * Without a pack, nothing here applies.
 */
import type { SectionLexicon, Vocabulary } from './vocabulary.js';

/**
 * How surely a title is a kind: 1 for the qualified primary title ("Consolidated Statements of Cash
 * Flows"), 0.7 for a bare one ("Balance Sheet"), 0.3 for a note or section mentioning it.
 */
export const TITLE_MATCH = { qualified: 1, bare: 0.7, mention: 0.3 } as const;

export interface TitleKind {
  kind: string;
  /** TITLE_MATCH grade */
  strength: number;
}

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The section kinds a query calls for (empty without a pack or when it names none). */
export function queryKinds(vocab: Vocabulary, query: string): Set<string> {
  const q = norm(query);
  const out = new Set<string>();
  for (const lex of vocab.sections) {
    if (lex.unless?.test(q)) continue;
    for (const r of lex.queries) if (r.when.test(q)) for (const k of r.kinds) out.add(k);
  }
  return out;
}

function kindIn(lex: SectionLexicon, t: string): TitleKind | null {
  for (const { name, title } of lex.kinds) {
    if (!title.test(t)) continue;
    const primary = (lex.primary ? lex.primary.test(t) : true) && !(lex.mention?.test(t) ?? false);
    const strength = !primary ? TITLE_MATCH.mention : lex.qualified?.test(t) ? TITLE_MATCH.qualified : TITLE_MATCH.bare;
    return { kind: name, strength };
  }
  return null;
}

/** The section kind a node title names, if any. */
export function titleKind(vocab: Vocabulary, title: string): TitleKind | null {
  const t = norm(title);
  for (const lex of vocab.sections) {
    const k = kindIn(lex, t);
    if (k) return k;
  }
  return null;
}

/** Words documents print for what the query names (empty when no pack expansion applies). */
export function expansionText(vocab: Vocabulary, query: string): string {
  const q = norm(query);
  return vocab.expansions.filter((e) => e.when.test(q)).map((e) => e.add).join(' ');
}
