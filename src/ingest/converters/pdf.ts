/**
 * PDF (basic): per-page text via pdfjs-dist, the PDF outline when it has one, otherwise page groups.
 * Layout analysis and printed-TOC parsing live in ./pdf/ (see the PDF-structure issue).
 */
import type { Converter, ConvertedNode } from './types.js';
import { ConvertError } from './types.js';
import { basename, extname } from 'node:path';

/** Pages per group when the PDF has no outline. */
export const PAGES_PER_GROUP = 5;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

function pageText(items: Array<{ str?: string; hasEOL?: boolean }>): string {
  let out = '';
  for (const it of items) {
    if (typeof it.str !== 'string') continue;
    out += it.str;
    if (it.hasEOL) out += '\n';
  }
  return out.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

export function pagesContent(texts: string[], from: number, to: number): string {
  const parts: string[] = [];
  for (let p = from; p <= to; p++) parts.push(`<!-- page ${p} -->\n${texts[p - 1] ?? ''}`);
  return parts.join('\n\n');
}

export const pdfConverter: Converter = {
  name: 'pdf',
  version: 1,
  async convert({ bytes, card, options }) {
    const { getDocument, VerbosityLevel } = await loadPdfJs();
    let doc;
    try {
      doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: VerbosityLevel.ERRORS }).promise;
    } catch (err) {
      const e = err as Error;
      if (e.name === 'PasswordException') throw new ConvertError('The PDF is encrypted with a password.', 'Remove the password (e.g. `qpdf --decrypt in.pdf out.pdf`) and ingest again.');
      throw new ConvertError(`The PDF could not be parsed: ${e.message}`, 'The file may be truncated or corrupt; re-export or re-download it.');
    }
    try {
      const n = doc.numPages;
      const texts: string[] = [];
      for (let p = 1; p <= n; p++) {
        const page = await doc.getPage(p);
        const tc = await page.getTextContent();
        texts.push(pageText(tc.items as Array<{ str?: string; hasEOL?: boolean }>));
        page.cleanup();
      }
      const meta = await doc.getMetadata().catch(() => null);
      const metaTitle = ((meta?.info as Record<string, unknown> | undefined)?.['Title'] as string | undefined)?.trim();
      const title = metaTitle || basename(card.filename, extname(card.filename));
      const size = Math.max(1, Math.min(options.maxLeafPages, PAGES_PER_GROUP));
      const children: ConvertedNode[] = [];
      for (let p = 1; p <= n; p += size) {
        const end = Math.min(n, p + size - 1);
        children.push({ title: p === end ? `Page ${p}` : `Pages ${p}-${end}`, kind: 'page_group', page_range: [p, end], content: pagesContent(texts, p, end), children: [] });
      }
      const textChars = texts.reduce((s, t) => s + t.length, 0);
      return {
        title,
        toc_source: 'pages',
        root: { title, kind: 'document', page_range: [1, Math.max(1, n)], children },
        pages: n,
        ...(textChars === 0 && n > 0 ? { approach: 'ocr' as const, skip_reason: 'The PDF has no text layer (scanned). Install OCR tools: apt-get install tesseract-ocr poppler-utils' } : {}),
      };
    } finally {
      await doc.destroy();
    }
  },
};
