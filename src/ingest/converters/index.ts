/**
 * The converter registry: every converter file registers itself with the formats it accepts
 * (extension, magic bytes, sniffed content, priority; see ./types.ts). Detection (../detect.ts) asks
 * the registry which format a file is; the pipeline asks it for the format's converter. Formats
 * recognised without a converter (legacy Office) and unrecognised binaries are skipped with a reason.
 */
import type { SourceType } from '../../store/schemas.js';
import type { Converter, ConverterRegistration, FormatSpec } from './types.js';
import { markdownRegistration } from './markdown.js';
import { plainTextRegistration } from './plain-text.js';
import { pdfRegistration } from './pdf/index.js';
import { docxRegistration, legacyDocRegistration, legacyXlsRegistration } from './docx.js';
import { xlsxRegistration } from './spreadsheet/xlsx.js';
import { csvRegistration } from './spreadsheet/csv.js';
import { htmlRegistration } from './html.js';
import { codeRegistration } from './code/index.js';
import { structuredRegistration } from './structured.js';
import { imageRegistration } from './ocr.js';
import { archiveRegistration } from './archive.js';
import { manRegistration } from './man.js';
import { latexRegistration } from './latex.js';
import { notebookRegistration } from './notebook.js';
import { rtfRegistration } from './rtf.js';
import { postscriptRegistration } from './postscript.js';
import { legacyPptRegistration, pptxRegistration } from './pptx.js';
import { epubRegistration } from './epub.js';
import { odtRegistration } from './odt.js';
import { odpRegistration } from './odp.js';
import { odsRegistration } from './spreadsheet/ods.js';

/** Registration order breaks ties between equal priorities. */
export const REGISTRATIONS: readonly ConverterRegistration[] = [
  pdfRegistration,
  docxRegistration,
  rtfRegistration,
  xlsxRegistration,
  pptxRegistration,
  epubRegistration,
  odtRegistration,
  odsRegistration,
  odpRegistration,
  legacyDocRegistration,
  legacyXlsRegistration,
  legacyPptRegistration,
  postscriptRegistration,
  imageRegistration,
  archiveRegistration,
  htmlRegistration,
  notebookRegistration,
  structuredRegistration,
  codeRegistration,
  manRegistration,
  latexRegistration,
  csvRegistration,
  markdownRegistration,
  plainTextRegistration,
];

const UNKNOWN_REASON = 'Unrecognised binary file: no converter for this format.';

const byType = new Map<SourceType, ConverterRegistration>();
for (const r of REGISTRATIONS) for (const f of r.formats) byType.set(f.type, r);

/** Every registered format, by priority (stable: registration order within a priority). */
export const FORMATS: readonly FormatSpec[] = REGISTRATIONS.flatMap((r) => r.formats)
  .map((f, i) => ({ f, i }))
  .sort((a, b) => a.f.priority - b.f.priority || a.i - b.i)
  .map(({ f }) => f);

export function formatOf(type: SourceType): FormatSpec | undefined {
  return byType.get(type)?.formats.find((f) => f.type === type);
}

export function converterFor(type: SourceType): Converter | null {
  return byType.get(type)?.converter ?? null;
}

export function skipReasonFor(type: SourceType): string {
  if (type === 'unknown') return UNKNOWN_REASON;
  return byType.get(type)?.skipReason ?? `No converter for type "${type}" yet; the file is recorded and will be indexed once one lands.`;
}

/**
 * Version of the shared tree stage (node ids, summaries, parent ranges in ../tree/). Part of every
 * converter tag, so a change there re-processes sources just like a converter version bump.
 */
export const TREE_STAGE_VERSION = 4;

/** `name@version.treeStage` recorded in the catalog; a different tag means the source is re-processed. */
export function converterTagFor(type: SourceType): string | null {
  const c = converterFor(type);
  return c ? `${c.name}@${c.version}.${TREE_STAGE_VERSION}` : null;
}
