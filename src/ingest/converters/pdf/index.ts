/**
 * The PDF converter: layout analysis from pdfjs text items, outline from bookmarks / printed TOC /
 * detected headings, page-granular leaves of at most maxLeafPages pages, extractive summaries and
 * a document card. Parsing runs in a worker thread when the compiled worker is available (./pool.ts);
 * page text comes from poppler's pdftohtml when installed (./poppler.ts), else from pdfjs.
 */
import { basename, extname } from 'node:path';
import type { Converter } from '../types.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from '../types.js';
import { pdfWorkerPool } from './pool.js';
import { takeNativeRead } from './poppler.js';

export const pdfConverter: Converter = {
  name: 'pdf',
  version: 100,
  async convert({ bytes, card, options }) {
    const opts = { maxLeafPages: options.maxLeafPages, fallbackTitle: basename(card.filename, extname(card.filename)), ...(options.plan ? { plan: options.plan } : {}), ...(options.vocabularies?.length ? { vocabularies: options.vocabularies } : {}) };
    // poppler runs here, once: the planner's preview started it (./poppler.ts nativeReadOf)
    const native = await takeNativeRead(bytes);
    const pool = await pdfWorkerPool(options.workers);
    if (pool) return pool.convert(bytes, opts, native);
    const { convertPdfBytes } = await import('./convert.js');
    return convertPdfBytes(bytes, opts, native);
  },
};

export const pdfRegistration: ConverterRegistration = {
  converter: pdfConverter,
  formats: [{ type: 'pdf', mime: 'application/pdf', extensions: ['.pdf'], magic: [[0x25, 0x50, 0x44, 0x46]], priority: PRIORITY_SPECIFIC }],
};
