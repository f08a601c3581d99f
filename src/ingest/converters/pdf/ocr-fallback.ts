/**
 * PDFs with no text layer (scans): OCR through the OCR module (src/ingest/converters/ocr.ts) when
 * it and its tools are present, else the source is skipped with the install command.
 */
import type { ConvertResult, ConvertedNode } from '../types.js';

/** Fewer characters per page than this on average means "no text layer". */
export const MIN_TEXT_CHARS_PER_PAGE = 8;
/** Pages per node for OCR text (no layout to find headings in). */
export const OCR_PAGES_PER_NODE = 5;
export const OCR_INSTALL = 'apt-get install tesseract-ocr poppler-utils';

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

export async function ocrFallback(bytes: Uint8Array, pages: number, title: string): Promise<ConvertResult> {
  const skipped = (why: string): ConvertResult => ({
    title,
    toc_source: 'pages',
    approach: 'ocr',
    root: { title, kind: 'document', page_range: [1, Math.max(1, pages)], children: [] },
    pages,
    skip_reason: why,
  });
  const ocr = await loadOcr();
  if (!ocr) return skipped(`The PDF has no text layer (scanned). Install OCR tools: ${OCR_INSTALL}`);
  const avail = await ocr.ocrAvailable().catch(() => ({ ok: false, missing: ['ocr'] }));
  if (!avail.ok) return skipped(`The PDF has no text layer (scanned) and OCR tools are missing (${avail.missing.join(', ')}). Install them: ${OCR_INSTALL}`);
  const texts = await ocr.ocrPdfPages(bytes);
  const children: ConvertedNode[] = [];
  for (let p = 1; p <= pages; p += OCR_PAGES_PER_NODE) {
    const end = Math.min(pages, p + OCR_PAGES_PER_NODE - 1);
    const parts: string[] = [];
    for (let q = p; q <= end; q++) parts.push(`<!-- page ${q} -->\n${(texts[q - 1] ?? '').trim()}`);
    const head = firstLine(texts[p - 1] ?? '');
    children.push({ title: `${head ? `${head} ` : ''}(${p === end ? `page ${p}` : `pages ${p}–${end}`})`, kind: 'page_group', page_range: [p, end], content: parts.join('\n\n'), children: [] });
  }
  return { title, toc_source: 'pages', approach: 'ocr', root: { title, kind: 'document', page_range: [1, Math.max(1, pages)], children }, pages, warnings: ['text recognised by OCR'] };
}
