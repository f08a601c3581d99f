/**
 * The offline planner: decides a strategy from the file card and a sample, with no LLM. Returns the
 * same zod-validated Strategy object the LLM sampler returns.
 */
import { Strategy, type Approach } from '../../store/schemas.js';
import type { Sample } from './sample.js';
import type { PdfPreview } from '../../model/sample.js';
import { SPECIAL_PAGE_RANGES, SPECIAL_TABLE_ROWS } from '../../model/plan.js';
import { symbolShare, UNREADABLE_SYMBOL_SHARE, unreadableReason } from '../../model/unreadable.js';
import { TREE_SITTER_LANGUAGES } from '../converters/code/tree-sitter-symbols.js';

/** Languages the code converter parses into symbol trees (TypeScript compiler API + tree-sitter grammars). */
const SYMBOL_LANGUAGES = new Set<string>(['typescript', 'javascript', ...TREE_SITTER_LANGUAGES]);

/** Text with fewer headings than this is chunked by paragraphs rather than a heading tree. */
export const MIN_HEADINGS_FOR_TREE = 2;

const NATURE: Record<string, string> = {
  pdf: 'paged document', markdown: 'structured text document', text: 'plain text', docx: 'word-processor document',
  doc: 'legacy Word document', xlsx: 'spreadsheet workbook', xls: 'legacy Excel workbook', pptx: 'slide deck', ppt: 'legacy PowerPoint deck', epub: 'e-book', odt: 'word-processor document', ods: 'spreadsheet workbook', odp: 'slide deck', csv: 'tabular data',
  tsv: 'tabular data', html: 'web page', code: 'source code', json: 'structured data', yaml: 'structured data',
  xml: 'structured data', log: 'log file', image: 'image', zip: 'archive', unknown: 'unknown binary',
};

/** Preview the offline planner reads of a PDF: outline and the first pages. */
export const OFFLINE_PREVIEW = { maxPages: 4, maxChars: 16_000, maxOutline: 60 } as const;
/** Characters per page below which a preview page has no text layer (as the PDF converter's check). */
export const SCANNED_CHARS_PER_PAGE = 8;
/** Lines ending in a page number a preview page needs to be a printed table of contents. */
export const MIN_CONTENTS_ENTRIES = 5;
/** Key sections taken from an outline or printed contents. */
export const MAX_KEY_SECTIONS = 20;
/** Pages per leaf the offline planner assumes when the store's setting is not known. */
const DEFAULT_LEAF_PAGES = 5;
/** Characters per chunk the text converters use by default (for the estimate of chunk_embed nodes). */
const CHUNK_CHARS = 2500;

/** A contents entry: a title with letters, then dot leaders or spaces and a page number. */
const CONTENTS_LINE = /^(.*?\p{L}{2}.*?)(?:\s*\.{2,}\s*|\s+)(\d{1,4})$/u;
/** What CONTENTS_LINE needs at the end, tested first (the full pattern backtracks on long lines). */
const CONTENTS_TAIL = /[.\s]\d{1,4}$/;

/** Share of consecutive contents entries whose page numbers must not go down. */
export const CONTENTS_ORDERED_SHARE = 0.8;

/** Entries whose page numbers fit the document and mostly go up (dates and years on a cover do not). */
function orderedPages(pages: number[], numPages: number): boolean {
  if (pages.some((p) => p < 1 || p > numPages)) return false;
  let up = 0;
  for (let i = 1; i < pages.length; i++) if (pages[i]! >= pages[i - 1]!) up++;
  return pages.length < 2 || up / (pages.length - 1) >= CONTENTS_ORDERED_SHARE;
}

/** Titles of the entries of a printed table of contents on one preview page (null: not a contents page). */
export function contentsEntries(page: string, numPages: number): string[] | null {
  const titles: string[] = [];
  const pages: number[] = [];
  for (const raw of page.split('\n')) {
    const line = raw.trim();
    const m = CONTENTS_TAIL.test(line) ? CONTENTS_LINE.exec(line) : null;
    if (!m) continue;
    titles.push(m[1]!.replace(/[.\s]+$/, '').trim());
    pages.push(Number(m[2]));
  }
  const heading = /^\s*(table of )?contents\s*$/im.test(page);
  const enough = titles.length >= MIN_CONTENTS_ENTRIES || (heading && titles.length >= 2);
  return enough && orderedPages(pages, numPages) ? titles : null;
}

interface PdfChoice {
  approach: Approach;
  has_structure: boolean;
  key_sections: string[];
  estimated_nodes?: number;
  special: string[];
}

/** A PDF: no text layer, or one of symbols → OCR; outline or printed contents → tree from them; else a tree from detected headings. */
async function planPdf(sample: Sample): Promise<PdfChoice> {
  const special = [SPECIAL_PAGE_RANGES];
  let preview: PdfPreview;
  try {
    preview = await sample.pdfPreview!(OFFLINE_PREVIEW);
  } catch {
    return { approach: 'tree_index', has_structure: false, key_sections: [], special }; // the converter says what is wrong
  }
  const leaf = sample.maxLeafPages ?? DEFAULT_LEAF_PAGES;
  const estimated_nodes = Math.max(1, Math.ceil(preview.numPages / leaf));
  const chars = preview.pages.reduce((n, t) => n + t.replace(/\s+/g, '').length, 0);
  if (preview.pages.length > 0 && chars < preview.pages.length * SCANNED_CHARS_PER_PAGE) {
    return { approach: 'ocr', has_structure: false, key_sections: [], estimated_nodes, special };
  }
  const symbols = symbolShare(preview.pages);
  if (symbols > UNREADABLE_SYMBOL_SHARE) return { approach: 'ocr', has_structure: false, key_sections: [], estimated_nodes, special: [...special, `OCR: ${unreadableReason(symbols)}`] };
  const top = preview.outline.filter((l) => l.startsWith('- ')).map((l) => l.slice(2).trim());
  if (top.length) return { approach: 'tree_index', has_structure: true, key_sections: top.slice(0, MAX_KEY_SECTIONS), estimated_nodes, special };
  const contents = preview.pages.map((p) => contentsEntries(p, preview.numPages)).find((c) => c !== null);
  if (contents) return { approach: 'tree_index', has_structure: true, key_sections: contents.slice(0, MAX_KEY_SECTIONS), estimated_nodes, special };
  return { approach: 'tree_index', has_structure: false, key_sections: [], estimated_nodes, special };
}

/** Text and markdown: a tree from its headings, else (long flat text) paragraph chunks. */
function planText(sample: Sample, minHeadings: number): PdfChoice {
  const has_structure = sample.heading_count >= minHeadings;
  if (has_structure) return { approach: 'tree_index', has_structure, key_sections: [], special: [] };
  const chars = sample.char_count ?? sample.text.length;
  return { approach: 'chunk_embed', has_structure, key_sections: [], estimated_nodes: Math.max(1, Math.ceil(chars / CHUNK_CHARS)), special: [] };
}

/** The choice for formats decided by type alone. */
function planByType(sample: Sample): PdfChoice {
  const { card } = sample;
  const base: PdfChoice = { approach: 'tree_index', has_structure: true, key_sections: [], special: [] };
  switch (card.type) {
    case 'xlsx': case 'xls': case 'ods': case 'csv': case 'tsv':
      return { ...base, approach: 'schema_index', special: [SPECIAL_TABLE_ROWS, 'schema tree: header row detection, column types and stats; rows kept as JSON lines for read_source --rows'] };
    case 'code': {
      // languages with a real parser get symbol trees; others are read in line windows
      const symbols = SYMBOL_LANGUAGES.has(card.language ?? '');
      return { ...base, approach: symbols ? 'symbol_index' : 'chunk_embed', has_structure: symbols };
    }
    case 'image':
      return { ...base, approach: 'ocr', has_structure: false, special: ['OCR with tesseract when installed; otherwise recorded as skipped with the install command'] };
    case 'zip': case 'tar': case 'gzip':
      return { ...base, special: ['members are ingested as their own sources (archive.zip!/member) within zip-bomb limits'] };
    case 'json': case 'yaml': case 'xml':
      return { ...base, special: ['structure-aware: top-level keys / elements become nodes with line ranges'] };
    case 'text': case 'log':
      return planText(sample, MIN_HEADINGS_FOR_TREE);
    case 'markdown':
      return planText(sample, 1);
    default:
      return base;
  }
}

export async function planOffline(sample: Sample): Promise<Strategy> {
  const { card } = sample;
  const c = card.type === 'pdf' && sample.pdfPreview ? await planPdf(sample) : planByType(sample);
  return Strategy.parse({
    doc_nature: NATURE[card.type] ?? 'document',
    has_structure: c.has_structure,
    recommended_approach: c.approach,
    convert_to_plaintext: ['pdf', 'docx', 'odt', 'pptx', 'odp', 'epub', 'html'].includes(card.type),
    key_sections: c.key_sections,
    ...(c.estimated_nodes ? { estimated_nodes: c.estimated_nodes } : {}),
    special_handling: c.special,
    summary: '',
    planner: 'offline',
  });
}
