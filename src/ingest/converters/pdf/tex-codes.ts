/**
 * TeX's Computer Modern fonts as pdfjs reads them when a font carries a partial ToUnicode map and
 * its own (builtin) encoding: pdfTeX writes ToUnicode entries only for the glyphs whose names it
 * thinks need them, and pdfjs then takes every other code as the character with that number — it
 * does not fall back to the font's glyph names when a ToUnicode map is present. So "≤" came out
 * as U+0014 and was dropped with the other control characters (GLPK's MathProg manual lost 38).
 * A font shows it reads this way when any of its runs holds a control character; from then on its
 * codes below 32 are put back through the TeX encoding its name says it uses (OT1, OT1
 * typewriter, OML, OMS). Fonts named otherwise are left alone, cmex too: its big delimiters, put
 * back, stood as cells of their own beside the prose they were printed next to (Elk's manual).
 * The ligatures ff, fi and fl (codes 11–13) pdfjs takes for blanks, which no table can put back:
 * convert.ts reads such pages natively when that keeps them (nativeKeepsLigatures).
 */
import type { RawItem } from './lines.js';

/** Characters by code, from 0 to 31; '' = a glyph with no character of its own (accents placed over a letter). */
type CodeTable = readonly string[];

const GREEK_CAPITALS = [...'ΓΔΘΛΞΠΣΥΦΨΩ'];
/** Accents TeX places over a letter: on their own they only add noise, as they did when dropped. */
const ACCENTS = ['', '', '', '', '', '', ''];
const LATIN_EXTRAS = [...'ßæœøÆŒØ'];

/** OT1 (cmr, cmbx, cmti, cmss …): Greek capitals, ligatures, dotless i and j, accents, Nordic letters. */
const OT1: CodeTable = [...GREEK_CAPITALS, 'ff', 'fi', 'fl', 'ffi', 'ffl', 'ı', 'ȷ', ...ACCENTS, ...LATIN_EXTRAS];
/** OT1 typewriter (cmtt): arrows, a straight quote and Spanish marks where the ligatures were. */
const OT1_TT: CodeTable = [...GREEK_CAPITALS, '↑', '↓', "'", '¡', '¿', 'ı', 'ȷ', ...ACCENTS, ...LATIN_EXTRAS];
/** OML (cmmi): math italic Greek. */
const OML: CodeTable = [...GREEK_CAPITALS, ...'αβγδϵζηθικλμνξπρστυϕχ'];
/** OMS (cmsy): operators and relations. */
const OMS: CodeTable = [...'−·×∗÷⋄±∓⊕⊖⊗⊘⊙◯∘•≍≡⊆⊇≤≥⪯⪰∼≈⊂⊃≪≫≺≻'];

/** The encoding a Computer Modern font's name says it uses (subset tag "ABCDEF+" ignored), or null. */
export function texEncoding(fontName: string): CodeTable | null {
  const base = fontName.replace(/^[A-Z]{6}\+/, '');
  if (/^CMB?SY\d/.test(base)) return OMS;
  if (/^CMMIB?\d/.test(base)) return OML;
  if (/^CM(S?L?I?TT|TCSC|VTT)\d/.test(base)) return OT1_TT;
  if (/^CM(R|BX|TI|SL|SS|SSBX|SSI|SSDC|SSQ|SSQI|B|BXSL|BXTI|CSC|DUNH|FIB|FF|FI|U)\d/.test(base)) return OT1;
  return null;
}

/** A character pdfjs gives when it had no Unicode for a code below 32. */
// eslint-disable-next-line no-control-regex -- the control codes pdfjs leaves for glyphs it could not map
const RAW_CODE = /[\u0000-\u001f]/;

/**
 * Fonts of one document that have shown raw codes, by pdfjs's font id, with their table (null: not
 * a font this module knows, so its page's operator list is not read again); carried from page to page.
 */
export type RawCodeFonts = Map<string, CodeTable | null>;

/** The pdfjs font ids whose runs on this page hold a raw code and that are not yet known. */
export function fontsShowingRawCodes(items: readonly RawItem[], known: RawCodeFonts): Set<string> {
  const out = new Set<string>();
  for (const it of items) if (it.fontName && !known.has(it.fontName) && RAW_CODE.test(it.str ?? '')) out.add(it.fontName);
  return out;
}

/**
 * Records each font (ids → names, as the page's font objects give them) with the TeX encoding its
 * name says, or null. Only codes below 32 are ever put back: a character there cannot be one pdfjs
 * mapped, while higher codes may be either (pdfjs maps a font's named glyphs and reads the rest
 * raw): putting back a math italic font's "/" and "," that pdfjs had mapped right made them "◃" and
 * nothing, and its raw "X" for "∑" cannot be told from them.
 */
export function learnRawCodeFonts(ids: Iterable<string>, nameOf: (id: string) => string | undefined, into: RawCodeFonts): void {
  for (const id of ids) into.set(id, texEncoding(nameOf(id) ?? ''));
}

/** The runs with each known font's codes put back through its table (other runs as they were). */
export function withTexCodes(items: RawItem[], fonts: RawCodeFonts): RawItem[] {
  if (![...fonts.values()].some(Boolean)) return items;
  return items.map((it) => {
    const t = it.fontName ? fonts.get(it.fontName) : undefined;
    if (!t || !it.str) return it;
    let out = '';
    for (const ch of it.str) {
      const c = ch.codePointAt(0)!;
      out += c < t.length ? t[c]! : ch;
    }
    return out === it.str ? it : { ...it, str: out };
  });
}

/** The ligatures TeX's text fonts print as one glyph, longest first. */
const LIGATURES = ['ffi', 'ffl', 'ff', 'fi', 'fl'];

const wordsOf = (items: readonly RawItem[]): Set<string> => {
  const out = new Set<string>();
  for (const it of items) for (const w of (it.str ?? '').toLowerCase().split(/\P{L}+/u)) if (w) out.add(w);
  return out;
};

/** Whether `word` is what `other` read as its parts around one ligature: left out ("eects") or as a blank ("de ned"). */
function readWithoutLigature(word: string, other: ReadonlySet<string>, asBlank: boolean): boolean {
  for (const lig of LIGATURES) {
    for (let i = word.indexOf(lig); i >= 0; i = word.indexOf(lig, i + 1)) {
      const before = word.slice(0, i);
      const after = word.slice(i + lig.length);
      if (asBlank ? (!before || other.has(before)) && (!after || other.has(after)) && (before || after) : other.has(before + after)) return true;
    }
  }
  return false;
}

/**
 * Whether the native reading of a page keeps more of its ligatures than pdfjs's: words it reads
 * whole that pdfjs read with the ligature as a blank ("first" / "rst", "defined" / "de ned": a TeX
 * font pdfjs read as raw codes), against words pdfjs reads whole that it read without the ligature
 * ("effects" / "eects": pdftohtml drops a font's control codes). Word counts alone could not tell:
 * a figure's axis labels, read by one reader only, outweighed the lost letters.
 */
export function nativeKeepsLigatures(pdfjs: readonly RawItem[], native: readonly RawItem[]): boolean {
  const a = wordsOf(pdfjs);
  const b = wordsOf(native);
  let nativeWins = 0;
  let pdfjsWins = 0;
  for (const w of b) if (!a.has(w) && readWithoutLigature(w, a, true)) nativeWins++;
  for (const w of a) if (!b.has(w) && readWithoutLigature(w, b, false)) pdfjsWins++;
  return nativeWins > pdfjsWins;
}
