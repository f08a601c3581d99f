/**
 * PDFs whose text cannot be used (a scan with no text layer, or a text layer of symbols): the pages
 * are read by OCR (src/ingest/converters/ocr.ts) into words with their boxes, and each page is laid
 * out from those words as from a text layer (./lines.ts buildPage), so the rest of the conversion —
 * columns, running heads, headings by size, printed contents, sections — is the same as for any PDF.
 * When the OCR tools are missing the source is skipped with the install command.
 */
import type { ConvertResult } from '../types.js';
import type { OcrLine, OcrPage } from '../ocr.js';
import type { PageLayout } from './layout-types.js';
import { buildPage, median, type RawItem } from './lines.js';
import { symbolShare } from '../../../model/unreadable.js';

/** Fewer characters per page than this on average means "no text layer". */
export const MIN_TEXT_CHARS_PER_PAGE = 8;
export const OCR_INSTALL = 'apt-get install tesseract-ocr poppler-utils';
/** Pages sampled (spread over the document) for the share of symbols in its text layer. */
export const SYMBOL_SAMPLE_PAGES = 24;
/** The font name of every OCR'd word: OCR does not tell faces apart, only sizes. */
export const OCR_FONT = 'ocr';
/**
 * Print sizes OCR measures within this share of each other are one size. tesseract measures each
 * line from its own letters (a line without descenders is measured smaller): body lines of one
 * 10-point print measured 36–41 pixels, a 14-point heading 49.
 */
export const OCR_SIZE_TOLERANCE = 0.12;
/** Sizes are rounded to this step (points) before they are grouped. */
const SIZE_STEP = 0.25;
/**
 * tesseract's x_size is about 0.85 of the print's size in points (10-point body lines measured 36 px
 * at 300 dpi, 8.6 points; a 14.4-point heading 49 px): times this, an OCR line's size is the size a
 * text layer gives, so the gaps measured in ems (table cells, a heading's number) are the same.
 */
export const OCR_EM_PER_X_SIZE = 1 / 0.85;
/**
 * Paragraphs whose words tesseract read with less confidence than this on average (0–100) are not
 * text: strokes and marks of a plot or drawing read as letters ("ae pt : Illness A >| D2 ——"). Text
 * paragraphs of a 150-dpi scan averaged 75–96; the plots of one 29-page paper 33–49.
 */
export const OCR_MIN_PARAGRAPH_CONF = 50;

/** The share of symbols in the text of up to SYMBOL_SAMPLE_PAGES pages spread over the document (model/unreadable.ts). */
export function pagesSymbolShare(pages: readonly PageLayout[]): number {
  const step = Math.max(1, Math.ceil(pages.length / SYMBOL_SAMPLE_PAGES));
  const sampled = pages.filter((_, i) => i % step === 0);
  return symbolShare(sampled.flatMap((p) => p.lines.map((l) => l.text)));
}

interface OcrModule {
  ocrAvailable(): Promise<{ ok: boolean; missing: string[] }>;
  ocrPdfLines(bytes: Uint8Array): Promise<OcrPage[]>;
}

async function loadOcr(): Promise<OcrModule | null> {
  try {
    // The OCR module may not exist in every build; a missing module means "no OCR".
    const spec = '../ocr.js';
    return (await import(spec)) as OcrModule;
  } catch {
    return null;
  }
}

/** Why a PDF's own text is not used: it has none (a scan), unless told otherwise. */
export const NO_TEXT_LAYER = 'The PDF has no text layer (scanned)';

function paragraphs(lines: OcrLine[]): Map<number, OcrLine[]> {
  const byPar = new Map<number, OcrLine[]>();
  for (const l of lines) {
    const list = byPar.get(l.par);
    if (list) list.push(l);
    else byPar.set(l.par, [l]);
  }
  return byPar;
}

/** The page's lines without the paragraphs read with too little confidence to be text (OCR_MIN_PARAGRAPH_CONF). */
export function textLines(page: OcrPage): OcrPage {
  const sure = new Set<number>();
  for (const [par, ls] of paragraphs(page.lines)) {
    const words = ls.flatMap((l) => l.words);
    if (words.reduce((a, w) => a + w.conf, 0) >= OCR_MIN_PARAGRAPH_CONF * words.length) sure.add(par);
  }
  return { ...page, lines: page.lines.filter((l) => sure.has(l.par)) };
}

/** Each line's size: the median of its paragraph's lines (one print measured once, not line by line). */
function paragraphSizes(lines: OcrLine[]): number[] {
  const byPar = paragraphs(lines);
  return lines.map((l) => median(byPar.get(l.par)!.map((x) => x.size)));
}

/**
 * The document's sizes grouped: each size (in points, by the characters printed in it, most first)
 * joins the first group whose size is within OCR_SIZE_TOLERANCE of it, else starts one. Returns
 * each size's group size, so the body print is one size as it is in a text layer.
 */
export function groupSizes(weighted: Array<{ size: number; chars: number }>): (size: number) => number {
  const round = (s: number) => Math.round(s / SIZE_STEP) * SIZE_STEP;
  const chars = new Map<number, number>();
  for (const w of weighted) chars.set(round(w.size), (chars.get(round(w.size)) ?? 0) + w.chars);
  const groups: number[] = [];
  const of = new Map<number, number>();
  for (const [s] of [...chars].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    const g = groups.find((c) => Math.abs(s - c) <= OCR_SIZE_TOLERANCE * c);
    if (g === undefined) groups.push(s);
    of.set(s, g ?? s);
  }
  return (size) => of.get(round(size)) ?? round(size);
}

/** A page's OCR words as the text items of a PDF page (baselines in PDF units from the page bottom). */
function pageItems(page: OcrPage, scale: number, pageHeight: number, sizeOf: (line: number) => number): RawItem[] {
  const items: RawItem[] = [];
  page.lines.forEach((l, i) => {
    const size = sizeOf(i);
    const y = pageHeight - l.baseline * scale;
    // each word OCR boxed is a word: a blank before it, however close the boxes (4 px apart at 300 dpi in "part of the")
    for (const w of l.words) items.push({ str: ` ${w.text}`, transform: [size, 0, 0, size, w.x0 * scale, y], width: (w.x1 - w.x0) * scale, fontName: OCR_FONT });
  });
  return items;
}

/**
 * The pages read by OCR, laid out as text-layer pages of the sizes `sizes` (PDF units). Each line's
 * print size is its paragraph's, grouped over the document (groupSizes).
 */
export function ocrPageLayouts(read: OcrPage[], sizes: ReadonlyArray<{ width: number; height: number }>): PageLayout[] {
  const pages = read.map(textLines);
  const scales = pages.map((p, i) => (p.width > 0 ? (sizes[i]?.width ?? p.width) / p.width : 1));
  const lineSizes = pages.map((p, i) => paragraphSizes(p.lines).map((s) => s * scales[i]! * OCR_EM_PER_X_SIZE));
  const weighted = pages.flatMap((p, i) => p.lines.map((l, k) => ({ size: lineSizes[i]![k]!, chars: l.words.reduce((a, w) => a + w.text.length, 0) })));
  const grouped = groupSizes(weighted);
  return sizes.map((sz, i) => {
    const page = pages[i] ?? { width: 0, height: 0, lines: [] };
    return buildPage(i + 1, sz.width, sz.height, pageItems(page, scales[i] ?? 1, sz.height, (k) => grouped(lineSizes[i]![k]!)));
  });
}

export type OcrRead = { layouts: PageLayout[] } | { skip: string };

/**
 * The pages laid out from OCR, or why they could not be (tools missing: the install command).
 * `sizes` are the pages' sizes in PDF units; `why` says why the text layer is not used.
 */
export async function ocrRead(bytes: Uint8Array, sizes: ReadonlyArray<{ width: number; height: number }>, why = NO_TEXT_LAYER): Promise<OcrRead> {
  const ocr = await loadOcr();
  if (!ocr) return { skip: `${why}. Install OCR tools: ${OCR_INSTALL}` };
  const avail = await ocr.ocrAvailable().catch(() => ({ ok: false, missing: ['ocr'] }));
  if (!avail.ok) return { skip: `${why} and OCR tools are missing (${avail.missing.join(', ')}). Install them: ${OCR_INSTALL}` };
  return { layouts: ocrPageLayouts(await ocr.ocrPdfLines(bytes), sizes) };
}

/** The result for a PDF that needs OCR when OCR cannot run: skipped, with the reason. */
export function ocrSkipped(title: string, pages: number, reason: string): ConvertResult {
  return {
    title,
    toc_source: 'pages',
    approach: 'ocr',
    root: { title, kind: 'document', page_range: [1, Math.max(1, pages)], children: [] },
    pages,
    skip_reason: reason,
  };
}

/** The warning an OCR'd PDF carries. */
export function ocrWarning(why: string): string {
  return why === NO_TEXT_LAYER ? 'text recognised by OCR' : `${why}: text recognised by OCR`;
}
