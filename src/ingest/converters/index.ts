/** The converter registry: one converter per source type. Types without one are skipped with a reason. */
import type { SourceType } from '../../store/schemas.js';
import type { Converter } from './types.js';
import { markdownConverter } from './markdown.js';
import { plainTextConverter } from './plain-text.js';
import { pdfConverter } from './pdf/index.js';
import { docxConverter, LEGACY_DOC_REASON, LEGACY_XLS_REASON } from './docx.js';
import { xlsxConverter } from './spreadsheet/xlsx.js';
import { csvConverter } from './spreadsheet/csv.js';
import { htmlConverter } from './html.js';
import { codeConverter } from './code/index.js';
import { structuredConverter } from './structured.js';
import { imageConverter } from './ocr.js';
import { archiveConverter } from './archive.js';

const REGISTRY: Partial<Record<SourceType, Converter>> = {
  markdown: markdownConverter,
  text: plainTextConverter,
  log: plainTextConverter,
  pdf: pdfConverter,
  docx: docxConverter,
  xlsx: xlsxConverter,
  csv: csvConverter,
  tsv: csvConverter,
  html: htmlConverter,
  code: codeConverter,
  json: structuredConverter,
  yaml: structuredConverter,
  xml: structuredConverter,
  image: imageConverter,
  zip: archiveConverter,
};

/** Reasons recorded for types that are deliberately not converted. */
const SKIP_REASONS: Partial<Record<SourceType, string>> = {
  unknown: 'Unrecognised binary file: no converter for this format.',
  doc: LEGACY_DOC_REASON,
  xls: LEGACY_XLS_REASON,
};

export function converterFor(type: SourceType): Converter | null {
  return REGISTRY[type] ?? null;
}

export function skipReasonFor(type: SourceType): string {
  return SKIP_REASONS[type] ?? `No converter for type "${type}" yet; the file is recorded and will be indexed once one lands.`;
}

/**
 * Version of the shared tree stage (node ids, summaries, parent ranges in ../tree/). Part of every
 * converter tag, so a change there re-processes sources just like a converter version bump.
 */
export const TREE_STAGE_VERSION = 3;

/** `name@version.treeStage` recorded in the catalog; a different tag means the source is re-processed. */
export function converterTagFor(type: SourceType): string | null {
  const c = converterFor(type);
  return c ? `${c.name}@${c.version}.${TREE_STAGE_VERSION}` : null;
}
