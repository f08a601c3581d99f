/**
 * The whole PDF conversion as a pure function of the bytes (runs in a worker thread or in-thread):
 * layout → furniture → outline (bookmarks, else printed TOC, else detected headings, else pages) →
 * sections with page-granular leaves → node text with page markers, summaries and the card.
 */
import { headingOf } from '../../../model/place-labels.js';
import { keyedRowRange } from './row-keys.js';
import { bodyLetters } from './letters.js';
import type { ConvertedNode, ConvertResult } from '../types.js';
import { styleKey, type Line, type PageLayout } from './layout-types.js';
import type { OutlineEntry } from './outline-types.js';
import { withPdfDocument, type PdfDocument } from './load.js';
import { NATIVE_ENV, NATIVE_MISSING_WARNING, nativeReadPages, pageRunTogether, readNative, readNativePagesAnyFonts, type NativePage, type NativeRead } from './poppler.js';
import { buildPage, type RawItem } from './lines.js';
import { withNativeFonts } from './native-fonts.js';
import { fontsShowingRawCodes, learnRawCodeFonts, nativeKeepsLigatures, withTexCodes, type RawCodeFonts } from './tex-codes.js';
import { findFurniture, type Furniture } from './furniture.js';
import { definitionTerms } from './terms.js';
import { bodyStyle, findHeadings, monospacePrints, withPeerTitles, type Heading } from './headings.js';
import { outlineStyles } from './outline-styles.js';
import { mendHyphenation } from './hyphens.js';
import { dropBuildSteps } from './build-steps.js';
import { stripLineNumbers, stripMarginCounters } from './line-numbers.js';
import { withUnlistedNumbered } from './unlisted.js';
import { unglueCapitals } from './glued.js';
import { mendSplitWords } from './split-words.js';
import { joinWrappedCells } from './cells.js';
import { keepListingSpacing } from './listings.js';
import { readBookmarks } from './bookmarks.js';
import { contentsOpening, findTocPages, laterContentsPages, printedToc } from './printed-toc.js';
import { detectOutline } from './detected.js';
import { buildSections, pagesOf, pos, posLine, posPage, type Section } from './sections.js';
import { findAbstracts, findBackMatter, type MatterHeading } from './matter-headings.js';
import { locateEntries } from './locate.js';
import { tidyOutlineTitle } from './titles.js';
import { normTitle } from './printed-toc.js';
import { isTableRow, renderLine } from './tables.js';
import { CAPTION, docStats, sectionGloss, summarize, type DocStats } from './summary.js';
import { buildCard, cardDocType, runningHeads } from './card.js';
import { compileOutline, isContainerTitle, type OutlinePack, type OutlineVocabulary } from '../../../model/outline-vocabulary.js';
import { MIN_TEXT_CHARS_PER_PAGE, NO_TEXT_LAYER, ocrRead, ocrSkipped, ocrWarning, pagesSymbolShare } from './ocr-fallback.js';
import { UNREADABLE_SYMBOL_SHARE, unreadableReason } from '../../../model/unreadable.js';
import type { PlanDirectives, PlanNote } from '../../../model/plan.js';
import { pdfDeclined, plannedOutline, sectionsToEstimate } from './plan-outline.js';

export interface PdfConvertOptions {
  maxLeafPages: number;
  /** file name without extension, the title of last resort */
  fallbackTitle: string;
  /** the plan (approach, key sections, granularity): see ./plan-outline.ts */
  plan?: PlanDirectives;
  /** the outline words of the store's vocabulary packs; those for the document's kind apply */
  vocabularies?: OutlinePack[];
}

/** Joins page texts [from, to] with `<!-- page N -->` markers. */
export function pagesContent(texts: string[], from: number, to: number): string {
  const parts: string[] = [];
  for (let p = from; p <= to; p++) parts.push(`<!-- page ${p} -->\n${texts[p - 1] ?? ''}`);
  return parts.join('\n\n');
}

/** Body lines of each page inside the position range [from, to) (see ./sections.ts). */
export function linesIn(lines: Line[][], from: number, to: number): Array<{ page: number; lines: Line[] }> {
  const { start, end } = pagesOf(from, to);
  const out: Array<{ page: number; lines: Line[] }> = [];
  for (let p = start; p <= end; p++) {
    const all = lines[p - 1] ?? [];
    const a = p === posPage(from) ? posLine(from) : 0;
    const b = p === posPage(to) ? posLine(to) : all.length;
    out.push({ page: p, lines: all.slice(a, Math.max(a, b)) });
  }
  return out;
}

/** The text of a position range, each page introduced by its `<!-- page N -->` marker. */
export function rangeContent(lines: Line[][], from: number, to: number): string {
  return linesIn(lines, from, to)
    .map((p) => `<!-- page ${p.page} -->\n${p.lines.map(renderLine).join('\n')}`)
    .join('\n\n');
}

interface ReadResult {
  layouts: PageLayout[];
  bookmarks: OutlineEntry[];
  metaTitle: string | undefined;
  warnings: string[];
}

/** One page's text runs as pdfjs reads them (codes of TeX fonts as read: tex-codes.ts), with the page's size. */
interface PdfjsPage {
  items: RawItem[];
  width: number;
  height: number;
}

/**
 * One page read with pdfjs's getTextContent. Fonts whose runs hold raw codes are named from the
 * page's font objects and recorded in `rawFonts` (tex-codes.ts), which carries them to later pages.
 */
async function pdfjsPage(doc: PdfDocument, p: number, rawFonts: RawCodeFonts): Promise<PdfjsPage> {
  const page = await doc.getPage(p);
  const [x0 = 0, y0 = 0, x1 = 612, y1 = 792] = page.view;
  const tc = await page.getTextContent();
  const items = tc.items as RawItem[];
  const unknown = fontsShowingRawCodes(items, rawFonts);
  if (unknown.size > 0) {
    // font objects (with their names) reach this thread only with the page's operator list; a page
    // whose operators pdfjs cannot read leaves its fonts unnamed (their codes as read)
    const listed = await page.getOperatorList().then(() => true, () => false);
    learnRawCodeFonts(unknown, (id) => (listed ? fontObjectName(page, id) : undefined), rawFonts);
  }
  page.cleanup();
  return { items, width: x1 - x0, height: y1 - y0 };
}

/** The font name (PDF BaseFont) of one of a page's pdfjs font ids, once its operator list was read. */
function fontObjectName(page: Awaited<ReturnType<PdfDocument['getPage']>>, id: string): string | undefined {
  try {
    return (page.commonObjs.get(id) as { name?: string } | undefined)?.name;
  } catch {
    return undefined;
  }
}

/**
 * The better reading of a page pdfjs read: the native reader's (read for this, `later`) when the
 * page holds runs of a TeX font pdfjs read as raw codes and the native reading keeps more of its
 * ligatures (nativeKeepsLigatures). pdfjs turns such a font's ligature codes (ff, fi, fl) into
 * blanks it does not report, which no table can put back: GLPK's manual read "rst", "le", "eld";
 * pdftohtml, mapping the font's glyph names, read them whole. Otherwise pdfjs's runs, their TeX codes put back (withTexCodes) and
 * fonts named as the native reader named them when it read the page too (withNativeFonts).
 */
async function pdfjsLayout(p: number, read: PdfjsPage, rawFonts: RawCodeFonts, native: NativePage | null, later: () => Promise<NativePage[] | null>): Promise<PageLayout> {
  const items = withTexCodes(read.items, rawFonts);
  if (!native && read.items.some((it) => it.fontName && rawFonts.get(it.fontName))) {
    const other = (await later())?.[p - 1];
    if (other && nativeKeepsLigatures(items, other.items)) return buildPage(p, other.width, other.height, other.items);
  }
  return buildPage(p, read.width, read.height, native ? withNativeFonts(items, native.items) : items);
}

/** The fonts of a page's runs not yet known to read raw (tex-codes.ts): if one shows raw codes later, the page is read again. */
function fontsNotYetRaw(items: readonly RawItem[], rawFonts: RawCodeFonts): string[] {
  return [...new Set(items.map((it) => it.fontName ?? '').filter((f) => f && !rawFonts.has(f)))];
}

/**
 * Every page's lines: from the native reader's pages where it read every page, each page whose
 * words it ran together read again with pdfjs; else all with pdfjs (native reader missing, risky
 * fonts, failed, or another page count). A page pdfjs read before one of its fonts showed raw codes
 * on a later page is read again once the whole file is (pdfjsLayout; its runs are not kept: a
 * 715-page manual's held 52 MB). `nativeLater` reads the file natively when a page needs it (the
 * fonts were risky, so the first read stopped).
 */
export async function pageLayouts(doc: PdfDocument, native: NativePage[] | null, nativeLater: () => Promise<NativePage[] | null> = async () => null): Promise<PageLayout[]> {
  const whole = native !== null && native.length === doc.numPages;
  const rawFonts: RawCodeFonts = new Map();
  let other: Promise<NativePage[] | null> | null = null;
  const later = () => (other ??= nativeLater().then((r) => (r?.length === doc.numPages ? r : null)));
  const layouts: PageLayout[] = [];
  const unsure = new Map<number, string[]>();
  for (let p = 1; p <= doc.numPages; p++) {
    const page = whole ? native[p - 1]! : null;
    if (page && !pageRunTogether(page)) {
      layouts.push(buildPage(p, page.width, page.height, page.items));
      continue;
    }
    const read = await pdfjsPage(doc, p, rawFonts);
    layouts.push(await pdfjsLayout(p, read, rawFonts, page, later));
    const fonts = fontsNotYetRaw(read.items, rawFonts);
    if (fonts.length > 0) unsure.set(p, fonts);
  }
  for (const [p, fonts] of unsure) {
    if (fonts.some((f) => rawFonts.get(f))) layouts[p - 1] = await pdfjsLayout(p, await pdfjsPage(doc, p, rawFonts), rawFonts, whole ? native[p - 1]! : null, later);
  }
  return layouts;
}

/**
 * Page lines, bookmarks and the metadata title. The text comes from the native reader (./poppler.ts;
 * `read` when the caller already ran it), page by page (pageLayouts), else from pdfjs; bookmarks and
 * metadata always from pdfjs (cheap: no page content is parsed for them).
 */
async function readLayouts(bytes: Uint8Array, read?: NativeRead): Promise<ReadResult> {
  const got = read ?? (await readNative(bytes));
  const native = nativeReadPages(got);
  const missing = got.status === 'missing';
  return withPdfDocument(bytes, async (doc) => {
    const layouts = await pageLayouts(doc, native, got.status === 'risky' ? () => readNativePagesAnyFonts(bytes) : undefined);
    const bm = await readBookmarks(doc);
    const meta = await doc.getMetadata().catch(() => null);
    const metaTitle = ((meta?.info as Record<string, unknown> | undefined)?.['Title'] as string | undefined)?.trim();
    const warnings = [...(bm.rejected ? [`PDF bookmarks not used: ${bm.rejected}`] : []), ...(missing && process.env[NATIVE_ENV] !== '0' ? [NATIVE_MISSING_WARNING] : [])];
    return { layouts, bookmarks: bm.entries, metaTitle, warnings };
  });
}

function bodyLines(layouts: PageLayout[], furniture: Furniture): Line[][] {
  return layouts.map((p, pi) => p.lines.filter((_, i) => !furniture.lines[pi]!.has(i)));
}

interface NodeContext {
  lines: Line[][];
  stats: DocStats;
  /** the body text's size: sentences in smaller print (footnotes, permission blocks) are not what a node says */
  bodySize: number;
  /** heading lines, left out of summaries (the node title already says them) */
  headingLines: Set<Line>;
  /** each heading line's tidied title */
  headingTitles: Map<Line, string>;
  /** heading lines that title the table below them, with their titles */
  tableTitles: Map<Line, string>;
  /** the filer, for statement summaries ("3M Company — Cash flow statement: …") */
  company: string;
  vocab: OutlineVocabulary;
}

/** Longest text under a heading that only leads on to the next section ("Or a variation like. . ."). */
export const LEAD_ON_MAX_CHARS = 40;
const LEADS_ON = /(?:\.\s?\.\s?\.|…|:)$/;

/** How many lines opening `lines` print the heading itself (its number, its wrapped parts: "46 I replaced the battery…" / "all the time. How do you fix this?"). */
function titleLinesAtStart(lines: Line[], heading: string): number {
  const t = normTitle(heading);
  let k = 0;
  while (k < lines.length) {
    const part = normTitle(lines[k]!.text.replace(/^\s*\d+(?:\.\d+)*\.?\s+/, ''));
    if (part.length < 3 || !t.includes(part)) break;
    k++;
  }
  return k;
}

/**
 * The summary of a leaf with no text of its own under its heading, or only a few words leading on
 * to the next section — a FAQ asking two questions before one answer (NUT's "46 I replaced the
 * battery…" / "Or a variation like. . ." / "47 My APC UPS keeps reporting OL LB…", the answer under
 * 47): what it holds and that its text follows. Null for a leaf with text of its own.
 */
export function leadOnSummary(body: Line[], heading: string, hasNext: boolean): string | null {
  const text = body.slice(titleLinesAtStart(body, heading)).map((l) => l.text).join(' ').trim();
  if (text.length > LEAD_ON_MAX_CHARS || (text && !LEADS_ON.test(text))) return null;
  const own = text ? `Only "${text}" under this heading` : 'No text of its own under this heading';
  // the next section is named by its place, not its title: its words here would rank this node for it
  return hasNext ? `${own}; its text follows in the next section.` : `${own}.`;
}

function toNode(s: Section, ctx: NodeContext, above: Set<string> = new Set(), next?: Section): ConvertedNode {
  const page_range: [number, number] = [s.start, s.end];
  const meta: Record<string, unknown> = { level: s.level, ...(s.folded?.length ? { subsections: s.folded } : {}) };
  if (s.children.length) {
    const path = new Set([...above, normTitle(s.title)]);
    const summary = ownTextSummary(s, ctx, path);
    return { title: s.title, kind: s.kind, ...(summary ? { summary } : {}), page_range, meta, children: s.children.map((c, i) => toNode(c, ctx, path, s.children[i + 1] ?? next)) };
  }
  const own = linesIn(ctx.lines, s.from, s.to).flatMap((p) => p.lines);
  // a printed contents page lists every section: its summary says what it is, not what it lists
  const pages = s.start === s.end ? `page ${s.start}` : `pages ${s.start}–${s.end}`;
  if (s.kind === 'contents') return { title: s.title, kind: s.kind, summary: `Printed table of contents (${pages}).`, page_range, content: rangeContent(ctx.lines, s.from, s.to), meta, children: [] };
  // a place label ("(introduction)") is not in the document: the heading is
  const heading = headingOf(s.title);
  // the node's own heading line says its title again, also when no heading candidate scored it ("NOMENCLATURE")
  const titleLine = own[0] && normTitle(own[0].text) === normTitle(heading) ? own[0] : null;
  const body = own.filter((l) => !ctx.headingLines.has(l) && l !== titleLine);
  const known = new Set([...above, normTitle(heading)]);
  // headings before the node's first line of text are its own title stack; its ancestors' titles are on its path
  const firstText = own.findIndex((l) => !ctx.headingLines.has(l));
  const inner = own.slice(Math.max(0, firstText)).flatMap((l) => ctx.headingTitles.get(l) ?? []).filter((t) => !known.has(normTitle(t)));
  const subheadings = [...(s.folded ?? []), ...inner];
  const tables = own.flatMap((l) => ctx.tableTitles.get(l) ?? []).filter((t) => !known.has(normTitle(t)) && !subheadings.includes(t));
  // a heading with nothing under it says so, and where its text is (its own title again said nothing)
  const leadOn = subheadings.length === 0 && tables.length === 0 && s.kind !== 'page_group' ? leadOnSummary(body, heading, next !== undefined) : null;
  return {
    title: s.title,
    kind: s.kind,
    summary: leadOn ?? summarize(body.length ? body : own, ctx.stats, sectionGloss(heading, own, ctx.vocab, ctx.company), { subheadings, vocab: ctx.vocab, tables, bodySize: ctx.bodySize }),
    page_range,
    content: rangeContent(ctx.lines, s.from, s.to),
    meta,
    children: [],
  };
}

/** Kinds of the children that hold a section's own text (its opening, its page windows). */
const OWN_TEXT_KINDS = new Set(['intro', 'page_group']);
/** A window's title that only says it goes on ("… (continued)") or where it is ("… (pages 10–14)", "Pages 1–5"). */
const PLACE_TITLE = /\((?:continued|introduction|beginning|entries \d[^)]*|pages? \d[^)]*)\)$|^pages? \d/i;

/**
 * The summary of a section with text of its own (an opening before its first sub-section, page
 * windows): what that text says, its prose summarised as one, with its other children and the
 * headings opening its windows as sub-headings. Listing its children's titles ("2.2 Examples; 2.2
 * Examples (continued)") says nothing. Prose only: the captions and table rows stay with the windows
 * that print them (quoted again on the parent, they made every caption word commoner among the
 * source's nodes and moved tier-2 suggestions: cross-domain dev hit@3 0.939 → 0.924). Undefined
 * for a parent without text of its own (the tree stage lists its children's titles).
 */
function ownTextSummary(s: Section, ctx: NodeContext, known: Set<string>): string | undefined {
  if (!s.children.some((c) => OWN_TEXT_KINDS.has(c.kind) || (c.kind === 'contents' && s.kind === 'contents'))) return undefined;
  if (s.kind === 'contents') return `Printed table of contents (pages ${s.start}–${s.end}).`;
  const own = s.children.filter((c) => OWN_TEXT_KINDS.has(c.kind) && !c.children.length).flatMap((c) => linesIn(ctx.lines, c.from, c.to).flatMap((p) => p.lines));
  const body = own.filter((l) => !ctx.headingLines.has(l) && !isTableRow(l) && !CAPTION.test(l.cells[0]!.trim()));
  const subheadings = s.children.map((c) => c.title).filter((t) => !PLACE_TITLE.test(t) && !known.has(normTitle(t)));
  return summarize(body.length ? body : own, ctx.stats, '', { subheadings, vocab: ctx.vocab, bodySize: ctx.bodySize });
}

/** A section's text shorter than this that refers elsewhere is only a pointer ("See Item 15."). */
export const POINTER_MAX_CHARS = 300;
const POINTER = /^(?:see|refer to|included in|is included|are included|incorporated (?:herein )?by reference|set forth (?:in|under|on))\b|\bpages?\s+[A-Z]?-?\d/i;

/** The text (after its heading) of a section that only points to where its matter is printed. */
export function pointerText(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && t.length < POINTER_MAX_CHARS && POINTER.test(t);
}

/** Heading candidates scoring at least this are listed as a node's sub-headings in its summary. */
export const SUBHEADING_MIN_SCORE = 0.6;

/** A heading worth listing in a summary: strong, and when numbered, numbered like a title ("2.3 Results", not "2 CARD16"). */
function listable(h: Heading): boolean {
  if (h.score < SUBHEADING_MIN_SCORE) return false;
  if (h.kind !== 'numbered' && h.kind !== 'letter' && h.kind !== 'roman') return true;
  return /^\S+\s+\p{Lu}\p{Ll}/u.test(h.title);
}

/** Kinds that say nothing about the document's contents in an overview. */
const NOT_IN_OVERVIEW = new Set(['preface', 'intro', 'page_group', 'contents']);

/** Section titles for the card: the top level and, under each, its sections (Part I → Items). */
function overview(sections: Section[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    if (NOT_IN_OVERVIEW.has(s.kind)) continue;
    out.push(s.title);
    for (const c of s.children) if (!NOT_IN_OVERVIEW.has(c.kind)) out.push(c.title);
  }
  return out;
}

/**
 * Whether a heading is printed in a style the outline's own titles use (a field's principal sections
 * always are); null when the outline's styles are not known (a detected outline, or too few entries found).
 */
function outlineStyled(layouts: PageLayout[], styles: Set<string> | null): ((h: Heading) => boolean) | undefined {
  if (!styles) return undefined;
  return (h) => h.kind === 'statement' || styles.has(styleKey(layouts[h.page - 1]!.lines[h.line]!));
}

/** Front- and back-matter headings at their section positions. */
function positioned(hs: MatterHeading[]): Array<{ at: number; title: string }> {
  return hs.map((h) => ({ at: pos(h.page, h.line), title: h.title }));
}

/** Headings the outline does not have already: none starts there, none of that title within a page of it. */
function unlisted(hs: Array<{ at: number; title: string }>, entries: OutlineEntry[]): Array<{ at: number; title: string }> {
  return hs.filter((h) => !entries.some((e) => pos(e.page, e.line ?? 0) === h.at || (normTitle(e.title) === normTitle(h.title) && Math.abs(e.page - posPage(h.at)) <= 1)));
}

/** Why the text layer cannot be used (none, or symbols), or null when it can. */
function unusableText(layouts: PageLayout[]): string | null {
  const n = layouts.length;
  if (n === 0) return null;
  const textChars = layouts.reduce((s, p) => s + p.lines.reduce((a, l) => a + l.text.length, 0), 0);
  if (textChars < n * MIN_TEXT_CHARS_PER_PAGE) return NO_TEXT_LAYER;
  const symbols = pagesSymbolShare(layouts);
  return symbols > UNREADABLE_SYMBOL_SHARE ? `The PDF's ${unreadableReason(symbols).replace(/^the /, '')}` : null;
}

/**
 * The pages read by OCR when the text layer cannot be used or the plan asks for OCR: their layouts
 * and the warning to record; a skipped result when the text layer cannot be used and OCR cannot
 * run; null to go on with the text layer (a plan's OCR that cannot run gets a note).
 */
async function ocrInstead(bytes: Uint8Array, read: ReadResult, opts: PdfConvertOptions, notes: PlanNote[]): Promise<{ layouts: PageLayout[]; warning: string } | { skipped: ConvertResult } | null> {
  const why = unusableText(read.layouts);
  if (!why && opts.plan?.approach !== 'ocr') return null;
  const o = await ocrRead(bytes, read.layouts, why ?? 'The plan asks for OCR');
  if ('layouts' in o) return { layouts: o.layouts, warning: ocrWarning(why ?? NO_TEXT_LAYER) };
  if (why) return { skipped: ocrSkipped(read.metaTitle || opts.fallbackTitle, read.layouts.length, o.skip) };
  notes.push({ field: 'recommended_approach', reason: `ocr: ${o.skip.replace(/^The plan asks for OCR(?: and)?\.?\s*/, '')} The text layer was used (tree_index).` });
  return null;
}

/** The conversion; `native` is the native reader's output when the caller already has it (./poppler.ts nativeReadOf). */
export async function convertPdfBytes(bytes: Uint8Array, opts: PdfConvertOptions, native?: NativeRead): Promise<ConvertResult> {
  const read = await readLayouts(bytes, native);
  const notes = pdfDeclined(opts.plan);
  const ocr = await ocrInstead(bytes, read, opts, notes);
  if (ocr && 'skipped' in ocr) return ocr.skipped;
  const r = convertLayouts(ocr ? { ...read, layouts: ocr.layouts, warnings: [...read.warnings, ocr.warning] } : read, opts, notes);
  return ocr ? { ...r, approach: 'ocr' } : r;
}

/** The conversion of pages already laid out (from the text layer or from OCR). */
function convertLayouts(read: ReadResult, opts: PdfConvertOptions, notes: PlanNote[]): ConvertResult {
  const { layouts, bookmarks, metaTitle, warnings } = read;
  const n = layouts.length;
  stripLineNumbers(layouts);
  stripMarginCounters(layouts);
  unglueCapitals(layouts);
  mendSplitWords(layouts);
  joinWrappedCells(layouts);
  const furniture = findFurniture(layouts);
  const body = bodyStyle(layouts, furniture);
  const tocMap = findTocPages(layouts, furniture);
  // (contents printed in a fixed-width font keep their cells: title and page number; findHeadings
  // measures the prints again on the rewritten lines, about a millisecond a document: reusing this
  // first measure changed the headings, and so the summaries, of 4 of 197 PDFs)
  keepListingSpacing(layouts, monospacePrints(layouts, body), new Set(tocMap.keys()));
  const toc = bookmarks.length ? null : printedToc(layouts, furniture, tocMap);
  const tocPages = new Set(toc?.tocPages ?? [...tocMap.keys()]);
  const opening = contentsOpening(layouts, furniture, tocMap);
  const vocab = compileOutline(opts.vocabularies, cardDocType(layouts));
  // an exhibit's own contents pages: no headings there, and each becomes a "Contents" node of its own
  const laterToc = laterContentsPages(layouts, furniture, tocPages);
  const letters = bodyLetters(layouts, furniture, body);
  const headings = findHeadings(layouts, furniture, body, tocPages, vocab, letters).filter((h) => (h.bodyLine ?? 0) < (laterToc.get(h.page) ?? Infinity));
  let entries: OutlineEntry[] = [];
  let toc_source: ConvertResult['toc_source'] = 'pages';
  if (bookmarks.length) {
    entries = bookmarks;
    toc_source = 'bookmarks';
  } else if (toc) {
    entries = toc.entries;
    toc_source = 'printed_toc';
  }
  else {
    entries = detectOutline(withPeerTitles(layouts, furniture, body, headings), n);
    if (entries.length) toc_source = 'detected';
  }
  const lines = bodyLines(layouts, furniture);
  dropBuildSteps(lines);
  mendHyphenation(lines);
  const texts = lines.map((ls) => ls.map(renderLine).join('\n'));
  const stats = docStats(texts);
  entries = locateEntries(entries.map((e) => ({ ...e, title: tidyOutlineTitle(e.title) })), lines);
  if (toc_source === 'bookmarks') entries = withUnlistedNumbered(entries, headings);
  const planned = plannedOutline(opts.plan, { entries, toc_source }, lines, tocPages, notes);
  ({ entries, toc_source } = planned);
  const lineChars = lines.map((ls) => ls.map((l) => l.text.length + 1));
  const isContainer = (t: string) => isContainerTitle(t, vocab);
  const isPointer = (from: number, to: number) => pointerText(linesIn(lines, from, to).flatMap((p) => p.lines.map((l) => l.text)).slice(1).join(' '));
  const styles = toc_source === 'bookmarks' || toc_source === 'printed_toc' ? outlineStyles(entries, lines) : null;
  const isOutlineStyled = outlineStyled(layouts, styles);
  const backMatter = planned.flat ? [] : unlisted(positioned(findBackMatter(lines, body.size, styles)), entries);
  const abstracts = planned.flat ? [] : positioned(findAbstracts(lines));
  const terms = planned.flat ? [] : definitionTerms(lines, body);
  const rowKeys = (from: number, to: number) => keyedRowRange(linesIn(lines, from, to).flatMap((p) => p.lines.map((l) => l.text)));
  const build = (maxLeafPages: number) => buildSections(entries, { pageCount: n, maxLeafPages, lineChars, rowKeys, headings: planned.flat ? [] : headings, isContainer, contentsPages: tocPages, ...(opening && tocPages.has(opening.page) ? { contentsStart: pos(opening.page, opening.line) } : {}), laterContentsPages: laterToc, isPointer, abstracts, backMatter, terms, ...(isOutlineStyled ? { isOutlineStyled } : {}) });
  let sections = sectionsToEstimate(build, n, opts.plan?.targetNodes ?? null, opts.maxLeafPages);
  // one section spanning the whole document (a headline) says what the root says: show its parts
  if (sections.length === 1 && sections[0]!.children.length > 0 && sections[0]!.start === 1 && sections[0]!.end === n) sections = sections[0]!.children;
  const { title, card, company } = buildCard({ layouts, firstPageFurniture: furniture.lines[0], runningHeads: runningHeads(layouts, furniture.lines), metaTitle, fallbackTitle: opts.fallbackTitle, topTitles: overview(sections), letters });
  const headingTitles = new Map(headings.filter(listable).map((h) => [layouts[h.page - 1]!.lines[h.line]!, h.title] as const));
  // every line a title is printed over: a wrapped title's second line is no sentence of the summary
  const headingLines = new Set(headings.flatMap((h) => layouts[h.page - 1]!.lines.slice(h.line, h.line + (h.lines ?? 1))));
  const tableTitles = new Map(headings.filter((h) => h.table).map((h) => [layouts[h.page - 1]!.lines[h.line]!, h.title] as const));
  const ctx: NodeContext = { lines, stats, bodySize: body.size, headingLines, headingTitles, tableTitles, company, vocab };
  const children = sections.map((s, i) => toNode(s, ctx, new Set(), sections[i + 1]));
  return {
    title,
    toc_source,
    root: { title, kind: 'document', summary: card.summary ?? '', page_range: [1, Math.max(1, n)], children },
    card,
    pages: n,
    meta: { doc_type: card.doc_type ?? 'document', toc_source },
    ...(warnings.length ? { warnings } : {}),
    ...(opts.plan ? { approach: planned.flat ? 'chunk_embed' : 'tree_index' } : {}),
    ...(notes.length ? { plan_notes: notes } : {}),
  };
}
