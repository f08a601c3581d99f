/**
 * PDFs with no text layer (scans): OCR through the OCR module (src/ingest/converters/ocr.ts) when
 * it and its tools are present, else the source is skipped with the install command.
 */
import type { ConvertResult, ConvertedNode } from '../types.js';
import type { PageLayout } from './layout-types.js';
import { symbolShare } from '../../../model/unreadable.js';
import { standaloneHeading } from '../text-headings.js';

/** Fewer characters per page than this on average means "no text layer". */
export const MIN_TEXT_CHARS_PER_PAGE = 8;
/** Pages per node for OCR text (no layout to find headings in). */
export const OCR_PAGES_PER_NODE = 5;
export const OCR_INSTALL = 'apt-get install tesseract-ocr poppler-utils';
/** Pages sampled (spread over the document) for the share of symbols in its text layer. */
export const SYMBOL_SAMPLE_PAGES = 24;

/** The share of symbols in the text of up to SYMBOL_SAMPLE_PAGES pages spread over the document (model/unreadable.ts). */
export function pagesSymbolShare(pages: readonly PageLayout[]): number {
  const step = Math.max(1, Math.ceil(pages.length / SYMBOL_SAMPLE_PAGES));
  const sampled = pages.filter((_, i) => i % step === 0);
  return symbolShare(sampled.flatMap((p) => p.lines.map((l) => l.text)));
}

interface OcrModule {
  ocrAvailable(): Promise<{ ok: boolean; missing: string[] }>;
  ocrPdfPages(bytes: Uint8Array): Promise<string[]>;
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

function firstLine(text: string): string {
  const l = text.split('\n').map((s) => s.trim()).find((s) => /\p{L}{3}/u.test(s) && s.length <= 100);
  return l ?? '';
}

/**
 * What a page group of OCR text is titled by: its first heading standing alone ("5.3 Creating a
 * listof object", "TERMS AND CONDITIONS"), else its first line of words. The first line alone was
 * often program output or a running head ("Unit of length: 1 cm", "StdDev: 2.84701e-05 1").
 */
export function ocrGroupTitle(texts: readonly string[]): string {
  for (const t of texts) {
    const lines = t.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const h = standaloneHeading(lines, i);
      if (h) return h;
    }
  }
  return firstLine(texts[0] ?? '');
}

/** Why a PDF's own text is not used: it has none (a scan), unless told otherwise. */
export const NO_TEXT_LAYER = 'The PDF has no text layer (scanned)';

/**
 * The pages read by OCR in page groups; `title` is the document's own (its metadata) or, when
 * `fileNamed`, only its file name: then the first line OCR reads on page 1 titles it, when there is one.
 */
export async function ocrFallback(bytes: Uint8Array, pages: number, title: string, why = NO_TEXT_LAYER, fileNamed = false): Promise<ConvertResult> {
  const skipped = (why: string): ConvertResult => ({
    title,
    toc_source: 'pages',
    approach: 'ocr',
    root: { title, kind: 'document', page_range: [1, Math.max(1, pages)], children: [] },
    pages,
    skip_reason: why,
  });
  const ocr = await loadOcr();
  if (!ocr) return skipped(`${why}. Install OCR tools: ${OCR_INSTALL}`);
  const avail = await ocr.ocrAvailable().catch(() => ({ ok: false, missing: ['ocr'] }));
  if (!avail.ok) return skipped(`${why} and OCR tools are missing (${avail.missing.join(', ')}). Install them: ${OCR_INSTALL}`);
  const texts = await ocr.ocrPdfPages(bytes);
  if (fileNamed) title = firstLine(texts[0] ?? '') || title;
  const children: ConvertedNode[] = [];
  for (let p = 1; p <= pages; p += OCR_PAGES_PER_NODE) {
    const end = Math.min(pages, p + OCR_PAGES_PER_NODE - 1);
    const parts: string[] = [];
    for (let q = p; q <= end; q++) parts.push(`<!-- page ${q} -->\n${(texts[q - 1] ?? '').trim()}`);
    // the first pages are titled by their first line (the document's title), later ones by their first heading
    const head = p === 1 ? firstLine(texts[0] ?? '') : ocrGroupTitle(texts.slice(p - 1, end));
    children.push({ title: `${head ? `${head} ` : ''}(${p === end ? `page ${p}` : `pages ${p}–${end}`})`, kind: 'page_group', page_range: [p, end], content: parts.join('\n\n'), children: [] });
  }
  return { title, toc_source: 'pages', approach: 'ocr', root: { title, kind: 'document', page_range: [1, Math.max(1, pages)], children }, pages, warnings: [why === NO_TEXT_LAYER ? 'text recognised by OCR' : `${why}: text recognised by OCR`] };
}
