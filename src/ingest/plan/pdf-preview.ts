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

export async function pdfPreview(bytes: Uint8Array, limits: PdfPreviewLimits): Promise<PdfPreview> {
  // One pdfjs document per thread at a time (see withPdfDocument): conversions run concurrently.
  const { withPdfDocument } = await import('../converters/pdf/load.js');
  return withPdfDocument(bytes, async (doc) => {
    const outline = outlineLines(((await doc.getOutline()) ?? []) as OutlineItem[], limits.maxOutline);
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
