/** The converter registry: one converter per source type. Types without one are skipped with a reason. */
import type { SourceType } from '../../store/schemas.js';
import type { Converter } from './types.js';
import { markdownConverter } from './markdown.js';
import { plainTextConverter } from './plain-text.js';
import { pdfConverter } from './pdf.js';

const REGISTRY: Partial<Record<SourceType, Converter>> = {
  markdown: markdownConverter,
  text: plainTextConverter,
  log: plainTextConverter,
  pdf: pdfConverter,
};

/** Reasons recorded for types that are deliberately not converted. */
const SKIP_REASONS: Partial<Record<SourceType, string>> = {
  unknown: 'Unrecognised binary file: no converter for this format.',
};

export function converterFor(type: SourceType): Converter | null {
  return REGISTRY[type] ?? null;
}

export function skipReasonFor(type: SourceType): string {
  return SKIP_REASONS[type] ?? `No converter for type "${type}" yet; the file is recorded and will be indexed once one lands.`;
}
