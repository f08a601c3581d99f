/** The PDF part of a planner sample: outline and first pages, read only when a planner asks. */
import type { PdfPreview, PdfPreviewLimits } from '../../model/sample.js';

interface OutlineItem {
  title: string;
  items?: OutlineItem[];
}

function outlineLines(outline: OutlineItem[], max: number): string[] {
  const toc: string[] = [];
  const walk = (items: OutlineItem[], depth: number) => {
    for (const it of items) {
      if (toc.length >= max) return;
      toc.push(`${'  '.repeat(depth)}- ${it.title}`);
      if (depth < 1 && it.items) walk(it.items, depth + 1);
    }
  };
  walk(outline, 0);
  return toc;
}

function itemsText(items: Array<{ str?: string; hasEOL?: boolean }>): string {
  let t = '';
  for (const it of items) {
    if (typeof it.str !== 'string') continue;
    t += it.str + (it.hasEOL ? '\n' : '');
  }
  return t.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

/** The first pages' text from the native reader (./converters/pdf/poppler.ts), or null when it is not there. */
async function nativePreviewPages(bytes: Uint8Array, limits: PdfPreviewLimits): Promise<string[] | null> {
  const { readNativePages } = await import('../converters/pdf/poppler.js');
  const native = await readNativePages(bytes, limits.maxPages);
  if (!native) return null;
  const { buildPage } = await import('../converters/pdf/lines.js');
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

export async function pdfPreview(bytes: Uint8Array, limits: PdfPreviewLimits): Promise<PdfPreview> {
  // One pdfjs document per thread at a time (see withPdfDocument): conversions run concurrently.
  const { withPdfDocument } = await import('../converters/pdf/load.js');
  // page text from the native reader when it is there: pdfjs then only reads the outline (no page content)
  const native = await nativePreviewPages(bytes, limits);
  return withPdfDocument(bytes, async (doc) => {
    const outline = outlineLines(((await doc.getOutline()) ?? []) as OutlineItem[], limits.maxOutline);
    if (native) return { numPages: doc.numPages, outline, pages: native.slice(0, doc.numPages) };
    const pages: string[] = [];
    let size = 0;
    for (let p = 1; p <= Math.min(doc.numPages, limits.maxPages) && size < limits.maxChars; p++) {
      const page = await doc.getPage(p);
      const tc = await page.getTextContent();
      const t = itemsText(tc.items as Array<{ str?: string; hasEOL?: boolean }>).slice(0, limits.maxChars - size);
      size += t.length;
      pages.push(t);
    }
    return { numPages: doc.numPages, outline, pages };
  });
}
