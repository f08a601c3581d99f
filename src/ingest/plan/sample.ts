/** A cheap look at a document before conversion: what the planner (offline or LLM) decides from. */
import { decodeBytes } from '../encoding.js';
import type { FileCard } from '../../store/schemas.js';
import type { PdfPreview, Sample } from '../../model/sample.js';

import { pdfPreview } from './pdf-preview.js';

export type { Sample };

/** Characters of leading text the planner sees. */
export const SAMPLE_CHARS = 2000;

const TEXT_TYPES = new Set(['markdown', 'text', 'html', 'code', 'json', 'yaml', 'xml', 'log', 'csv', 'tsv']);

/** A PDF preview opened once per set of limits (the offline and the LLM planner may both ask). */
function memoPreview(bytes: Uint8Array): NonNullable<Sample['pdfPreview']> {
  const seen = new Map<string, Promise<PdfPreview>>();
  return (limits) => {
    const key = JSON.stringify(limits);
    let p = seen.get(key);
    if (!p) seen.set(key, (p = pdfPreview(bytes, limits)));
    return p;
  };
}

export function takeSample(card: FileCard, bytes: Uint8Array, maxLeafPages?: number): Sample {
  const leaf = maxLeafPages ? { maxLeafPages } : {};
  if (card.type === 'pdf') return { card, text: '', heading_count: 0, line_count: 0, ...leaf, pdfPreview: memoPreview(bytes) };
  if (!TEXT_TYPES.has(card.type)) return { card, text: '', heading_count: 0, line_count: 0, ...leaf };
  const full = decodeBytes(bytes).text;
  const text = full.slice(0, SAMPLE_CHARS);
  let lines = 1;
  for (let i = 0; i < full.length; i++) if (full.charCodeAt(i) === 10) lines++;
  const heading_count = (full.match(/^#{1,6}\s+\S/gm) ?? []).length + (full.match(/\n[^\n]+\n(=+|-+)[ \t]*\n/g) ?? []).length;
  return { card, text, heading_count, line_count: lines, char_count: full.length, ...leaf };
}
