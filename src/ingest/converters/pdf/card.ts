/**
 * The document card offline: title (SEC cover page, PDF metadata when it reads like a title, else
 * the largest text on the first page), doc type (10-K, 10-Q, 8-K, earnings release, annual report,
 * manual, paper, contract…), the period and date printed in the text, and a sections overview.
 */
import { inBodyLetters } from './letters.js';
import type { DocCard } from '../../../store/schemas.js';
import type { Line, PageLayout } from './layout-types.js';
import { goodMetaTitle, isPartName, onlyDate } from '../meta-title.js';
import { fiscalLabel } from './fiscal.js';
import { clipWords, joinWrapped, MAX_TITLE_CHARS, tidyOutlineTitle } from './titles.js';
import { compareStrings } from '../../../store/json.js';

/** Pages read for the card. */
export const CARD_PAGES = 3;
export const MAX_OVERVIEW = 20;
export const CARD_SUMMARY_MAX_CHARS = 400;
/** A first-page headline this many times the page's body size is the title (over PDF metadata)… */
export const HEADLINE_SIZE_RATIO = 1.2;
/** …when it has at least this many characters. */
export const HEADLINE_MIN_CHARS = 20;

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DATE = new RegExp(String.raw`\b(${MONTHS})\s+(\d{1,2}),?\s+(\d{4})\b`, 'i');

/** `December 31, 2018` → `2018-12-31`. */
export function isoDate(text: string): string {
  const m = DATE.exec(text);
  if (!m) return '';
  const month = MONTHS.split('|').indexOf(m[1]!.toLowerCase()) + 1;
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

/** Phrases of contract drafting; one alone ("whereas", "the parties") is common in any prose. */
const CONTRACT_MARKERS = [/\bthis agreement\b/i, /\bhereinafter\b/i, /\bthe parties\b/i, /\bwhereas\b/i, /\bwitnesseth\b/i, /\bin witness whereof\b/i, /\bhereby agree\b/i];
/** Distinct contract phrases needed, with the word agreement or contract, before a document is called a contract. */
export const CONTRACT_MIN_MARKERS = 2;

function isContract(t: string): boolean {
  if (!/\b(agreement|contract)\b/i.test(t)) return false;
  return CONTRACT_MARKERS.filter((re) => re.test(t)).length >= CONTRACT_MIN_MARKERS;
}

export function docType(text: string): string {
  // a headline wraps over lines ("Ulta Beauty Announces First Quarter Fiscal 2023" / "Results"): read as one
  const t = text.slice(0, 6000).replace(/\s+/g, ' ');
  if (/\bform\s+10-k\b|annual report pursuant to section 13/i.test(t)) return '10-K';
  if (/\bform\s+10-q\b|quarterly report pursuant to section 13/i.test(t)) return '10-Q';
  if (/\bform\s+8-k\b|current report pursuant to section 13/i.test(t)) return '8-K';
  if (/\b(announces|reports)\b.{0,80}\b(quarter|fiscal|full[- ]year)\b.{0,40}\bresults\b/i.test(t)) return 'earnings release';
  if (/\bannual report\b/i.test(t)) return 'annual report';
  if (/\babstract\b/i.test(t) && /\b(introduction|references)\b/i.test(text)) return 'paper';
  if (/\b(user'?s? guide|manual|handbook|instructions for use)\b/i.test(t)) return 'manual';
  if (isContract(t)) return 'contract';
  return 'document';
}

/** Characters allowed between "…period ended" and its date (a form's other cells printed between). */
export const PERIOD_DATE_GAP = 40;

function period(text: string, body: () => string): string {
  const t = text.slice(0, 8000).replace(/\s+/g, ' ');
  const fy = new RegExp(String.raw`for the (fiscal year|year|quarterly period|quarter|period) ended\b[^]{0,${PERIOD_DATE_GAP}}?((?:${MONTHS})\s+\d{1,2},?\s+\d{4})`, 'i').exec(t);
  if (fy) {
    const quarter = /quarter/i.test(fy[1]!);
    const ended = `${quarter ? 'quarter' : 'fiscal year'} ended ${fy[2]!.replace(/\s+/g, ' ')}`;
    const label = fiscalLabel(body(), isoDate(fy[2]!), quarter);
    return label ? `${ended}; ${label}` : ended;
  }
  const q = /\b(first|second|third|fourth)\s+quarter(?:\s+(?:of\s+)?fiscal)?\s+(\d{4})\b/i.exec(t);
  if (q) return `${q[1]!.toLowerCase()} quarter ${q[2]}`;
  const y = /\bfiscal (?:year )?(\d{4})\b/i.exec(t);
  if (y) return `fiscal ${y[1]}`;
  return '';
}

/** A metadata title needs this many words to be matched against the first page. */
export const PRINTED_META_MIN_WORDS = 3;

const wordsOf = (t: string): string[] => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Words a largest line shares with the metadata title to be the one it names (metaNamedLine). */
export const META_NAMED_MIN_WORDS = 2;
/** Words too common to tie a line to a title. */
const TITLE_FILLER = new Set(['the', 'and', 'for', 'with', 'from', 'into', 'of', 'to', 'in', 'on', 'a', 'an']);

/**
 * Of the first page's lines in its largest print, the one the metadata title names, when the
 * headline shares none of its words: a cover sets the issuer's name in its title's size ("EDF R&D"
 * over "Code Saturne Theory Guide", the title field reading "CodeSaturne Theory and Programmer's
 * Guide"), and the first of them had titled the document. Null otherwise.
 */
export function metaNamedLine(meta: string | undefined, page: PageLayout | undefined, headline: string): string | null {
  if (!goodMetaTitle(meta) || !page || page.lines.length === 0) return null;
  const want = new Set(wordsOf(meta).filter((w) => w.length > 2 && !TITLE_FILLER.has(w)));
  const shared = (t: string) => wordsOf(t).filter((w) => want.has(w)).length;
  if (!headline || shared(headline) > 0) return null;
  // a page all in one print has no title size: a sentence naming the document ("While UFO:AI and its
  // manual are pure free software projects, any pictures…", a licence page) is no title
  const max = Math.max(...page.lines.map((l) => l.size));
  if (page.lines.every((l) => l.size >= max * 0.95)) return null;
  const line = page.lines.find((l) => l.size >= max * 0.95 && shared(l.text) >= META_NAMED_MIN_WORDS);
  return line ? line.text.trim() : null;
}

/**
 * Whether the metadata title is printed on the first page, its words in a row across its lines: the
 * author's own title, confirmed by the page. It then wins over the page's largest line, which may be
 * a journal banner ("IJDC | General Article") or carry a margin line number ("3 Sample Paper…").
 */
export function printedMetaTitle(meta: string | undefined, page: PageLayout | undefined): boolean {
  if (!goodMetaTitle(meta) || !page) return false;
  const want = wordsOf(meta);
  if (want.length < PRINTED_META_MIN_WORDS) return false;
  const have = wordsOf(page.lines.map((l) => l.text).join(' '));
  for (let i = 0; i + want.length <= have.length; i++) {
    let k = 0;
    while (k < want.length && have[i + k] === want[k]) k++;
    if (k === want.length) return true;
  }
  return false;
}

/**
 * A metadata title written as a file's stem, its words joined by underscores ("Cycling_Training_Software_User_Survey",
 * Keynote's title for the deck it printed as "CYCLING TRAINING SOFTWARE USER SURVEY"), with its words
 * apart; any other title as it is.
 */
export function spacedStem(t: string): string {
  return /\s/.test(t) || !/_/.test(t) ? t : t.replace(/_+/g, ' ').trim();
}

/**
 * One word joined as file names are ("manualA4", "report_final", "thesis-v2"): an underscore, a
 * lower-case letter before a capital, or letters against digits.
 */
const FILE_STEM = /^(?=\S*(?:_|\p{Ll}\p{Lu}|\p{L}\d|\d\p{L}))[\p{L}\d_.-]+$/u;

/**
 * A metadata title that is the stem of the file it was saved from, printed nowhere on the first
 * page: RasMol's manual carries "manualA4" (saved from Word as manualA4.doc) over its cover's
 * "Manual RasMol 2.7.5". A stem the cover prints ("RcppGSL", "LaTeX2e") names the document.
 */
export function unprintedFileStem(meta: string, page: PageLayout | undefined): boolean {
  const t = meta.trim();
  if (!FILE_STEM.test(t)) return false;
  const text = (page?.lines ?? []).map((l) => l.text).join(' ').toLowerCase();
  return !text.includes(t.toLowerCase());
}

/** Cover-page form fields that tell one document of a series from the next: where, when, which. */
const FIELD_LABELS: Array<{ role: 'place' | 'date' | 'id'; re: RegExp }> = [
  { role: 'place', re: /^(?:location|place|city|site|venue)$/i },
  { role: 'date', re: /^(?:date(?: (?:&|and) time)?|event date|date of (?:event|report|issue)|report date|issue date)$/i },
  { role: 'id', re: /^(?:(?:case|report|docket|file|reference|ref\.?|protocol|accident|incident|document|project)\s*(?:number|no\.?|#|id)|number|no\.?|identifier)$/i },
];
/** Longest field value used in a title. */
export const MAX_FIELD_CHARS = 40;

/** "Label: value" fields on the cover (one cell "Location: Elko, NV", or a label cell and a value cell). */
export function coverFields(page: PageLayout | undefined): Partial<Record<'place' | 'date' | 'id', string>> {
  const out: Partial<Record<'place' | 'date' | 'id', string>> = {};
  if (!page) return out;
  const pairs: Array<[string, string]> = [];
  for (const l of page.lines) {
    l.cells.forEach((c, i) => {
      const m = /^([\p{L}][\p{L} .&#/-]{0,30}?)\s*:\s*(.+)$/u.exec(c);
      if (m) pairs.push([m[1]!.trim(), m[2]!.trim()]);
      else if (c.endsWith(':') && l.cells[i + 1]) pairs.push([c.slice(0, -1).trim(), l.cells[i + 1]!.trim()]);
    });
  }
  for (const [label, value] of pairs) {
    const f = FIELD_LABELS.find((x) => x.re.test(label));
    if (!f || out[f.role] || value.length > MAX_FIELD_CHARS || !/[\p{L}\d]/u.test(value)) continue;
    if (f.role === 'id' && !/\d/.test(value)) continue;
    if (f.role === 'date' && !/\d/.test(value)) continue;
    out[f.role] = value.replace(/\s+/g, ' ');
  }
  return out;
}

const YEAR_PHRASE = /\b(?:(?:fiscal|calendar|financial|academic|school)\s+years?\s+\d{4}(?:\s*[-–/]\s*\d{2,4})?|FY\s?\d{4}(?:\s*[-–]\s*\d{2,4})?)\b/i;

/**
 * What tells this document apart from others of its series, read from its cover: form fields
 * (place, date, case number), else a fiscal/calendar year printed on it, when the title lacks them.
 */
export function titleQualifier(title: string, page: PageLayout | undefined): string {
  const f = coverFields(page);
  const has = (v: string | undefined) => v && !title.toLowerCase().includes(v.toLowerCase());
  const parts = [f.place, f.date, f.id].filter((v): v is string => !!has(v));
  if (parts.length) return parts.join(', ');
  if (/\b(19|20)\d\d\b/.test(title) || !page) return '';
  const text = page.lines.map((l) => l.text).join('\n');
  const y = YEAR_PHRASE.exec(text);
  return y ? y[0].replace(/\s+/g, ' ') : '';
}

const NOT_A_NAME = /^(united states|securities and exchange commission|washington|form\s|\(|commission file|annual report|quarterly report|current report|for the |or$|☐|☒)/i;

function secCompany(lines: string[]): string {
  const i = lines.findIndex((l) => /exact name of registrant/i.test(l));
  if (i <= 0) {
    // no "(Exact name of registrant…)" caption: the first name-like line after the file number
    const f = lines.findIndex((l) => /commission file (number|no)/i.test(l));
    if (f < 0) return '';
    const name = lines.slice(f + 1, f + 4).find((l) => /\p{L}{2}/u.test(l) && l.length <= 80 && !NOT_A_NAME.test(l.trim()) && !/:/.test(l));
    return name?.trim() ?? '';
  }
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    const l = lines[j]!.replace(/\s*\(exact name.*$/i, '').trim();
    if (!/\p{L}{2}/u.test(l) || /commission file|^\d/i.test(l)) continue;
    // a form's caption ("For the transition period from to") is not a name: the name is a logo
    return NOT_A_NAME.test(l) ? '' : l;
  }
  return '';
}

/** A corporate name as prose writes it: capitalised words, then Inc., Corporation, PLC… ("Foot Locker, Inc."). */
const CORPORATE_NAME_RE = /(?<![\p{L}\p{N}&'’.-])((?:\p{Lu}[\p{L}\p{N}&'’.-]*[ ]){0,4}?\p{Lu}[\p{L}\p{N}&'’.-]*,?[ ](?:Inc\.|Incorporated|Corporation|Corp\.|Company|Co\.|PLC|plc|N\.V\.|S\.A\.|Ltd\.|Limited|LLC|L\.P\.))/gu;
/** Times a corporate name must occur before the text's most frequent one is taken as the registrant. */
export const CORPORATE_NAME_MIN_MENTIONS = 3;

/** The registrant when its cover prints the name as an image: the corporate name the text uses most. */
export function frequentCompany(text: string): string {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(CORPORATE_NAME_RE)) {
    const name = m[1]!.replace(/\s+/g, ' ');
    if (/^the\b/i.test(name) && /company$/i.test(name)) continue;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return best && best[1] >= CORPORATE_NAME_MIN_MENTIONS ? best[0] : '';
}

/**
 * Small capitals read as separate letters ("MGM R ESORTS I NTERNATIONAL"): a lone capital joined to
 * the capitals after it when the document writes the joined word elsewhere ("Resorts").
 */
export function mendSmallCaps(name: string, text: string): string {
  return name.replace(/(?<![\p{L}\p{N}])(\p{Lu}) (\p{Lu}{2,})(?![\p{L}\p{N}])/gu, (all, a: string, rest: string) => {
    const word = `${a}${rest}`;
    return new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, 'iu').test(text.replace(/\b\p{Lu} \p{Lu}{2,}/gu, ' ')) ? word : all;
  });
}

/**
 * A contents listing whose words run together with the title printed before it ("DocBook XSL
 * Stylesheets: Reference DocumentationTable of ContentsDocBook…"): a lower-case letter glued to a
 * capitalised "Contents" is where the title ends.
 */
const GLUED_CONTENTS = /(?<=\p{Ll})(?:Table of Contents|Contents)/u;

/** An all-capitals word of a headline that may be a lone capital and a word run together ("RFAQ"). */
const JOINED_INITIAL = /(?<![\p{L}\p{N}])(\p{Lu})(\p{Lu}{2,})(?![\p{L}\p{N}])/gu;

const countWord = (text: string, word: string): number => (text.match(new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'giu')) ?? []).length;

/**
 * A large headline set as an initial and smaller capitals reads as one word even where the gap
 * between them is a word space ("R FAQ" read as "RFAQ"): the two words again when the document
 * writes them apart more often than together. The inverse of mendSmallCaps ("MGM R ESORTS").
 */
export function splitJoinedInitial(title: string, text: () => string): string {
  let body: string | null = null;
  return title.replace(JOINED_INITIAL, (all, a: string, rest: string) => {
    body ??= text();
    return countWord(body, `${a} ${rest}`) > countWord(body, all) ? `${a} ${rest}` : all;
  });
}

/** Text that is one unit of 3+ characters repeated 3+ times ("symptotesymptotesymptote"): a logo or a pattern, not words. */
function repeatedUnit(text: string): boolean {
  return /^(.{3,}?)\1{2,}$/u.test(text.replace(/\s+/g, ''));
}

/** The headline's first lines are taken as they are… */
export const HEADLINE_LINES = 3;
/** …and up to this many when each follows the one above at most HEADLINE_LINE_GAP line heights below. */
export const HEADLINE_MAX_LINES = 6;
export const HEADLINE_LINE_GAP = 1.6;
export const HEADLINE_MAX_CHARS = 240;
/**
 * A source title from its headline may be this long: a trial protocol's or a report's full title
 * names the drug, the disease or the place only in its last lines ("…Efficacy and Safety of
 * Tarvocitinib (HLX-207) … Ulcerative Colitis"); node titles keep MAX_TITLE_CHARS.
 */
export const SOURCE_TITLE_MAX_CHARS = 200;

function largestLines(page: PageLayout | undefined, firstBlock = false): string {
  if (!page || page.lines.length === 0) return '';
  const max = Math.max(...page.lines.map((l) => l.size));
  const out: string[] = [];
  const largest = page.lines.filter((x) => x.size >= max * 0.95 && /\p{L}{2}/u.test(x.text));
  // a logo set as text ("symptote" eleven times over, the A drawn) is not the headline, nor an author's
  // name over their e-mail address ("Jean-Pierre Coulon" in 25 pt under a 17 pt title), nor a date
  // ("19th June 2008" atop the SRF specification's cover): the next size down is
  const notHeadline = (x: Line) => repeatedUnit(x.text) || byline(page, x) || onlyDate(x.text);
  if (largest.length > 0 && largest.every(notHeadline)) return largestLines({ ...page, lines: page.lines.filter((x) => !notHeadline(x)) }, firstBlock);
  for (const [i, l] of largest.slice(0, HEADLINE_MAX_LINES).entries()) {
    // a long title's lines follow each other (a protocol's five-line title); a larger line further down is something else
    if ((i >= HEADLINE_LINES || (firstBlock && i > 0)) && l.gapAbove > HEADLINE_LINE_GAP) break;
    // so is one with text between them: the authors and affiliations under a manuscript's title, then
    // its "ABSTRACT" in the title's size (AASTeX: "Template AASTEXArticle with Examples: v6.31 ABSTRACT This example…")
    if (i > 0 && textBetween(page, largest[i - 1]!, l)) break;
    const glued = GLUED_CONTENTS.exec(l.text);
    if (!glued) {
      out.push(l.text);
      continue;
    }
    if (glued.index > 0) out.push(l.text.slice(0, glued.index));
    break;
  }
  const headline = out.reduce((a, t) => (a ? joinWrapped(a, t) : t), '').slice(0, HEADLINE_MAX_CHARS);
  return out.length === 1 && headline.length < HEADLINE_MIN_CHARS ? titleBlock(page, largest[0]!) || headline : headline;
}

/** An e-mail address ("coulon@obs-nic.fr", as a PDF may space it: "coulon@obs-nic .fr"). */
const EMAIL = /[\w.+-]+@[\w-]+\s?\.\s?[a-z]{2,}/i;

/** A person's name: two to four capitalised words, no digits ("Jean-Pierre Coulon", "R. W. D. Nickalls"). */
const PERSON_NAME = /^\p{Lu}[\p{L}.'’-]*(?:\s+\p{Lu}[\p{L}.'’-]*){1,3}$/u;

/** A name printed right over an e-mail address: the author's byline ("The rubikcube package" over one is a title). */
function byline(page: PageLayout, l: Line): boolean {
  const next = page.lines[page.lines.indexOf(l) + 1];
  return !!next && EMAIL.test(next.text) && PERSON_NAME.test(l.text.trim());
}

/** Lines next to a one-word headline that are part of its title block print at least this share of its size… */
export const TITLE_BLOCK_SIZE_SHARE = 0.75;
/** …each at most this many line heights below the one above. */
export const TITLE_BLOCK_GAP = 2.5;

/**
 * A headline naming only the kind of document ("User Guide", "Reference Manual", "Handbook"): it
 * tells no document apart, so the name printed next to it belongs to the title at any distance.
 */
const KIND_ONLY = /^(?:(?:the\s+)?(?:user|users|user['’]s|reference|programmer['’]?s|administrator['’]?s|installation|technical|quick\s*start|getting\s+started)\s+)?(?:guide|manual|handbook|documentation|tutorial|reference|notes)$/i;

/**
 * A headline that is a name alone ("horoscop" under "TYPESETTING ASTROLOGY with"): the title is the
 * block it is printed in, the lines right above and below it in nearly its size, in reading order
 * ("TYPESETTING ASTROLOGY with horoscop"); '' when no such line stands next to it. A headline naming
 * only a kind of document (KIND_ONLY) takes those lines however far apart: InVesalius's cover sets
 * "InVesalius" six line heights above "User Guide", which had titled it alone.
 */
function titleBlock(page: PageLayout, head: Line): string {
  const at = page.lines.indexOf(head);
  const maxGap = KIND_ONLY.test(head.text.trim()) ? Infinity : TITLE_BLOCK_GAP;
  // set in line with it (its left edge or its centre): a refentry's "Name" label indented under "fonts-conf" is the next section's
  const aligned = (l: Line) => Math.abs(l.x - head.x) <= head.size || Math.abs((l.x + l.x2) / 2 - (head.x + head.x2) / 2) <= head.size;
  const fits = (l: Line | undefined): l is Line => !!l && l.size >= head.size * TITLE_BLOCK_SIZE_SHARE && /\p{L}{2}/u.test(l.text) && !repeatedUnit(l.text) && aligned(l);
  let a = at;
  while (a > 0 && page.lines[a]!.gapAbove <= maxGap && fits(page.lines[a - 1])) a--;
  let b = at;
  while (b + 1 < page.lines.length && page.lines[b + 1]!.gapAbove <= maxGap && fits(page.lines[b + 1])) b++;
  if (a === b) return '';
  return page.lines.slice(a, b + 1).map((l) => l.text).reduce((x, t) => (x ? joinWrapped(x, t) : t), '').slice(0, HEADLINE_MAX_CHARS);
}

/**
 * Lines of words (not marks such as "1" or "∗") stand between two lines of a page: below the one,
 * above the other, and mostly under the width they span (HEADLINE_BETWEEN_SHARE: a subtitle set
 * beside a cover's title, as LilyPond's "The music typesetter", does not part "LilyPond" from "Usage").
 */
function textBetween(page: PageLayout, a: Line, b: Line): boolean {
  const lo = Math.min(a.y, b.y);
  const hi = Math.max(a.y, b.y);
  const left = Math.min(a.x, b.x);
  const right = Math.max(a.x2, b.x2);
  const under = (l: Line) => Math.min(l.x2, right) - Math.max(l.x, left) >= HEADLINE_BETWEEN_SHARE * (l.x2 - l.x);
  return page.lines.some((l) => l.y > lo && l.y < hi && l.text.length > HEADLINE_MARK_CHARS && under(l));
}

/** A line parts a headline's lines when at least this share of its width lies under them. */
export const HEADLINE_BETWEEN_SHARE = 0.5;
/** Longest line between two lines of a headline that does not part them (a footnote mark, an affiliation number). */
export const HEADLINE_MARK_CHARS = 3;

/**
 * The first page without its running heads and feet (`furniture`: line indexes), when that leaves
 * it any line: "SAMPLE DOCUMENT 1", an APA manuscript's running head and page number, opened its
 * title ("SAMPLE DOCUMENT 1 Sample APA-Style Document Using the apa7 Package Daniel A. Weiss").
 */
function withoutFurniture(page: PageLayout | undefined, furniture: ReadonlySet<number> | undefined): PageLayout | undefined {
  if (!page || !furniture?.size) return page;
  // a banner repeated atop every page in headline print is the title (elsarticle's manual), not a running head
  const body = bodySizeOf(page.lines);
  const lines = page.lines.filter((l, i) => !furniture.has(i) || l.size >= body * HEADLINE_SIZE_RATIO);
  return lines.length ? { ...page, lines } : page;
}

/** The size most of a page's characters are printed in. */
function bodySizeOf(lines: Line[]): number {
  const bySize = new Map<number, number>();
  for (const l of lines) bySize.set(l.size, (bySize.get(l.size) ?? 0) + l.text.length);
  return [...bySize].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/**
 * The title of a first page printed all in one size (no headline stands out, and no metadata title):
 * its first block of lines, up to the first gap wider than HEADLINE_LINE_GAP, not the first lines
 * whatever lies between them (a manuscript's title, then its author's name two lines below).
 */
function plainHeadline(page: PageLayout | undefined, allText: () => string): string {
  const block = splitJoinedInitial(largestLines(page, true), allText);
  return isPartName(block) ? '' : block;
}

/**
 * A numbered part's heading in capitals with the words after it ("1 INTRODUCTION Definition of
 * perceptually relevant…"): a section heading read with its paragraph, as an OCR'd paper's largest
 * print was, not the document's title.
 */
const PART_HEADING_OPENING = /^\d{1,2}\.?\s+(?:INTRODUCTION|ABSTRACT|BACKGROUND|OVERVIEW)\s+\S/;

/** Words of a first page's opening line taken as its title (openingTitleLine), at most. */
export const OPENING_TITLE_MAX_WORDS = 12;

/**
 * The first page's opening line when it reads as a title (a few words, not a part's name, no sentence
 * ending) and its largest print is a part's heading: a scanned paper's "IMPROVED AUDITORY MASKING
 * MODELS", OCR having measured its capitals no larger than the text, above "1 INTRODUCTION". Null otherwise.
 */
function openingTitleLine(page: PageLayout | undefined): string | null {
  const t = page?.lines[0]?.text.trim() ?? '';
  const words = t.split(/\s+/).length;
  return words >= 2 && words <= OPENING_TITLE_MAX_WORDS && /\p{L}{3}/u.test(t) && !/^\d/.test(t) && !/[.,;:]$/.test(t) && !isPartName(t) ? t : null;
}

/** The first page opens with a headline: its largest text is much larger than its body text. */
function prominent(page: PageLayout | undefined): boolean {
  if (!page || page.lines.length === 0) return false;
  page = { ...page, lines: page.lines.filter((l) => !repeatedUnit(l.text)) };
  if (page.lines.length === 0) return false;
  const body = bodySizeOf(page.lines);
  const max = Math.max(...page.lines.map((l) => l.size));
  const head = page.lines.filter((l) => l.size >= max * 0.95).map((l) => l.text).join(' ');
  return max >= body * HEADLINE_SIZE_RATIO && head.length >= HEADLINE_MIN_CHARS;
}

function titleCase(s: string): string {
  if (s !== s.toUpperCase()) return s;
  return s
    .split(' ')
    .map((w) => (/\d/.test(w) ? w : w.charAt(0) + w.slice(1).toLowerCase()))
    .join(' ')
    .replace(/\b(Plc|Llc)\b/g, (w) => w.toUpperCase());
}

export interface CardInput {
  layouts: PageLayout[];
  /** indexes of the first page's running heads and feet (furniture.ts): never its headline */
  firstPageFurniture?: ReadonlySet<number>;
  /** the words of each running head or foot printed on later pages (runningHeads): a journal's name among them */
  runningHeads?: string[][];
  metaTitle: string | undefined;
  fallbackTitle: string;
  topTitles: string[];
  /** the letters the body text writes (letters.ts): a first-page line in other letters (a symbol font's) is no headline; absent: any */
  letters?: ReadonlySet<string>;
}

/** A running head names something (a journal, a title) when it has at least this many words… */
export const RUNNING_HEAD_MIN_WORDS = 3;
/** …and is printed on at least this many pages after the first. */
export const RUNNING_HEAD_MIN_PAGES = 2;
/** A block names a running head when it holds at least this share of the head's words. */
export const RUNNING_HEAD_SHARE = 0.6;

/** A line's words, lower-cased, without numbers (a running head's page number). */
function headWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w && !/^\d+$/.test(w));
}

/** The words of the running heads and feet of pages after the first (furniture.ts), each printed on RUNNING_HEAD_MIN_PAGES pages or more. */
export function runningHeads(layouts: PageLayout[], furniture: ReadonlyArray<ReadonlySet<number>>): string[][] {
  const pages = new Map<string, number>();
  layouts.forEach((p, pi) => {
    if (pi === 0) return;
    const seen = new Set<string>();
    for (const i of furniture[pi] ?? []) {
      const w = headWords(p.lines[i]?.text ?? '');
      if (w.length >= RUNNING_HEAD_MIN_WORDS) seen.add(w.join(' '));
    }
    for (const k of seen) pages.set(k, (pages.get(k) ?? 0) + 1);
  });
  return [...pages].filter(([, n]) => n >= RUNNING_HEAD_MIN_PAGES).map(([k]) => k.split(' ')).sort((a, b) => compareStrings(a.join(' '), b.join(' ')));
}

/** The running heads `text` names: those whose words it holds RUNNING_HEAD_SHARE of. */
function namedHeads(text: string, heads: string[][]): Set<number> {
  const words = new Set(headWords(text));
  const out = new Set<number>();
  heads.forEach((h, i) => {
    if (h.filter((w) => words.has(w)).length >= RUNNING_HEAD_SHARE * h.length) out.add(i);
  });
  return out;
}

/**
 * A journal's masthead over the title ("JSS Journal of Statistical Software" in 28 pt over the paper's
 * title in 17 pt): the largest text names one running head of the later pages (the journal's), and
 * the next block down names another (the paper's short title): that block is the title. A report
 * whose running head is its title has no second head named below it, and keeps its headline.
 */
function underMasthead(page: PageLayout | undefined, headline: string, heads: string[][] | undefined): string | null {
  if (!page || !headline || !heads?.length) return null;
  const masthead = namedHeads(headline, heads);
  if (masthead.size === 0) return null;
  const max = Math.max(...page.lines.map((l) => l.size));
  const below = largestLines({ ...page, lines: page.lines.filter((l) => l.size < max * 0.95) });
  return below && [...namedHeads(below, heads)].some((i) => !masthead.has(i)) ? below : null;
}

/** The page without the lines written in other letters than the document's (letters.ts). */
function inDocumentLetters(page: PageLayout | undefined, letters: ReadonlySet<string> | undefined): PageLayout | undefined {
  return page && letters ? { ...page, lines: page.lines.filter((l) => inBodyLetters(l.text, letters)) } : page;
}

/** The doc type read from the first pages (what the card will say), before the outline is built. */
export function cardDocType(layouts: PageLayout[]): string {
  return docType(layouts.slice(0, CARD_PAGES).flatMap((p) => p.lines.map((l) => l.text)).join('\n'));
}

export function buildCard(input: CardInput): { title: string; card: Partial<DocCard>; company: string } {
  const front = input.layouts.slice(0, CARD_PAGES);
  const lines = front.flatMap((p) => p.lines.map((l) => l.text));
  const text = lines.join('\n');
  const type = docType(text);
  const per = period(text, () => input.layouts.map((p) => p.lines.map((l) => l.text).join('\n')).join('\n'));
  const reportDate = /date of report[^:\n]*:?\s*\n?\s*([A-Z][a-z]+\s+\d{1,2},?\s+\d{4})/i.exec(text);
  const date = isoDate(reportDate?.[1] ?? per) || isoDate(text);
  let title = '';
  let qualifier = '';
  const sec = ['10-K', '10-Q', '8-K'].includes(type);
  const whole = sec ? input.layouts.map((p) => p.lines.map((l) => l.text).join('\n')).join('\n') : '';
  const company = sec ? mendSmallCaps(secCompany(lines) || frequentCompany(whole), whole).replace(/\s+([.,])/g, '$1') : secCompany(lines);
  // the title names the period as the cover does; the fiscal label stays in the period (tier 2
  // ignores a root title's words inside the document, and "2022" or "Q2" find the right pages there)
  const cover = per.split(';')[0]!;
  if (company && sec) title = `${titleCase(company)} — Form ${type}${cover ? ` (${cover})` : date && type === '8-K' ? ` (${date})` : ''}`;
  else {
    const first = inDocumentLetters(withoutFurniture(input.layouts[0], input.firstPageFurniture), input.letters);
    const allText = () => input.layouts.map((p) => p.lines.map((l) => l.text).join('\n')).join('\n');
    const largest = largestLines(first);
    const printed = splitJoinedInitial(underMasthead(first, largest, input.runningHeads) ?? largest, allText);
    const headline = isPartName(printed) || PART_HEADING_OPENING.test(printed) ? '' : printed;
    const named = metaNamedLine(input.metaTitle, first, headline);
    if (printedMetaTitle(input.metaTitle, input.layouts[0])) title = spacedStem(input.metaTitle!.trim());
    else if (named) title = named;
    else if (headline && prominent(first)) title = headline;
    else if (goodMetaTitle(input.metaTitle) && !unprintedFileStem(input.metaTitle, input.layouts[0])) title = input.metaTitle.trim();
    else title = (headline && plainHeadline(first, allText)) || (printed && !headline ? openingTitleLine(first) : null) || input.fallbackTitle;
    qualifier = titleQualifier(title, input.layouts[0]);
    // the qualifier is what tells the document apart: the base title gives way to it (tidied first:
    // the clipped base's "…" read as a leader and cut the qualifier off)
    if (qualifier) title = `${clipWords(tidyOutlineTitle(title, SOURCE_TITLE_MAX_CHARS), Math.max(20, SOURCE_TITLE_MAX_CHARS - qualifier.length - 3))} — ${qualifier}`;
  }
  if (!qualifier) title = tidyOutlineTitle(title, sec ? MAX_TITLE_CHARS : SOURCE_TITLE_MAX_CHARS);
  const overview = input.topTitles.slice(0, MAX_OVERVIEW);
  const summaryParts = [`${title}.`, type !== 'document' ? `Type: ${type}.` : '', overview.length ? `Sections: ${overview.join('; ')}.` : ''];
  let summary = summaryParts.filter(Boolean).join(' ');
  if (summary.length > CARD_SUMMARY_MAX_CHARS) summary = `${summary.slice(0, CARD_SUMMARY_MAX_CHARS - 1)}…`;
  return { title, card: { title, summary, doc_type: type, period: per, date, sections_overview: overview }, company: company ? titleCase(company) : '' };
}
