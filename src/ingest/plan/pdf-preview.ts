/** The PDF part of a planner sample: outline and first pages, read only when a planner asks. */
import type { PdfPreview, PdfPreviewLimits } from '../../model/sample.js';
import type { NativePage } from '../converters/pdf/poppler.js';
import type { buildPage as BuildPage } from '../converters/pdf/lines.js';
import { cleanTexMarkup, tidyOutlineTitle } from '../converters/pdf/titles.js';

interface OutlineItem {
  title: string;
  items?: OutlineItem[];
}

function outlineLines(outline: OutlineItem[], max: number): string[] {
  const toc: string[] = [];
  const walk = (items: OutlineItem[], depth: number) => {
    for (const it of items) {
      if (toc.length >= max) return;
      // as the converter reads bookmark titles: no TeX markup or control characters in the key sections
      toc.push(`${'  '.repeat(depth)}- ${tidyOutlineTitle(cleanTexMarkup(it.title))}`);
      if (depth < 1 && it.items) walk(it.items, depth + 1);
    }
  };
  walk(outline, 0);
  return toc;
}

function itemsText(items: Array<{ str?: string; hasEOL?: boolean }>, fixLigatures: (s: string) => string): string {
  let t = '';
  for (const it of items) {
    if (typeof it.str !== 'string') continue;
    // ligature codes of TeX fonts spelled out, as the converter reads page text ("In\u001duence" → "Influence")
    t += fixLigatures(it.str) + (it.hasEOL ? '\n' : '');
  }
  return t.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** Page texts for the preview from the native reader's pages, up to the limits. */
function previewTexts(native: NativePage[], limits: PdfPreviewLimits, buildPage: typeof BuildPage): string[] {
  const pages: string[] = [];
  let size = 0;
  for (const [i, p] of native.entries()) {
    if (size >= limits.maxChars) break;
    const t = buildPage(i + 1, p.width, p.height, p.items).lines.map((l) => l.text).join('\n').slice(0, limits.maxChars - size);
    size += t.length;
    pages.push(t);
  }
  return pages;
}

/**
 * The preview from the native reader's run over the whole file (./converters/pdf/poppler.ts), which
 * the converter then reuses: first pages, page count and bookmarks with no pdfjs document opened here.
 * `pages` is null when the native reader cannot give the first pages (missing tool, risky fonts,
 * failure, words run together): they are read as before, natively over the first pages or with pdfjs.
 */
async function nativePreview(bytes: Uint8Array, limits: PdfPreviewLimits): Promise<{ preview: PdfPreview | null; pages: string[] | null }> {
  const poppler = await import('../converters/pdf/poppler.js');
  const { buildPage } = await import('../converters/pdf/lines.js');
  const read = await poppler.nativeReadOf(bytes);
  if (read.status === 'missing') return { preview: null, pages: null };
  if (read.status !== 'ok') {
    // fonts risky somewhere, or a failure: the first pages alone may still be read natively
    const first = await poppler.readNativePages(bytes, limits.maxPages);
    return { preview: null, pages: first && previewTexts(first, limits, buildPage) };
  }
  const xml = poppler.nativeXmlText(read.xml);
  const first = poppler.parseNativeXml(xml, limits.maxPages);
  if (first.length === 0 || poppler.runTogether(first)) return { preview: null, pages: null };
  const numPages = poppler.nativePageCount(xml);
  const outline = outlineLines(poppler.parseNativeOutline(xml), limits.maxOutline);
  return { preview: { numPages, outline, pages: previewTexts(first, limits, buildPage).slice(0, numPages) }, pages: null };
}

export async function pdfPreview(bytes: Uint8Array, limits: PdfPreviewLimits): Promise<PdfPreview> {
  const native = await nativePreview(bytes, limits);
  if (native.preview) return native.preview;
  // One pdfjs document per thread at a time (see withPdfDocument): conversions run concurrently.
  const { withPdfDocument } = await import('../converters/pdf/load.js');
  const { fixLigatures } = await import('../converters/pdf/lines.js');
  return withPdfDocument(bytes, async (doc) => {
    const outline = outlineLines(((await doc.getOutline()) ?? []) as OutlineItem[], limits.maxOutline);
    if (native.pages) return { numPages: doc.numPages, outline, pages: native.pages.slice(0, doc.numPages) };
    const pages: string[] = [];
    let size = 0;
    for (let p = 1; p <= Math.min(doc.numPages, limits.maxPages) && size < limits.maxChars; p++) {
      const page = await doc.getPage(p);
      const tc = await page.getTextContent();
      const t = itemsText(tc.items as Array<{ str?: string; hasEOL?: boolean }>, fixLigatures).slice(0, limits.maxChars - size);
      size += t.length;
      pages.push(t);
    }
    return { numPages: doc.numPages, outline, pages };
  });
}
