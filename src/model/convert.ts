/**
 * The converter contract, shared by ingest (converters, tree stage) and the LLM layer (tree and card
 * roles). A converter turns one source file into a tree of nodes with their own text; it returns
 * data and writes nothing. The tree stage (src/ingest/tree/materialize.ts) assigns node ids, writes
 * each node's content under converted/<id>/ and fills summaries and parent ranges.
 */
import type { OutlinePack } from './outline-vocabulary.js';
import type { DocCard, FileCard, Strategy, TocSource, Approach } from '../store/schemas.js';
import type { PlanDirectives, PlanNote } from './plan.js';

export interface ConvertedNode {
  title: string;
  /** section, page_group, preface, sheet, column, class, function, import, key, paragraphs, … */
  kind?: string;
  /** when omitted the tree stage writes an extractive summary from `content` */
  summary?: string;
  /** 1-based inclusive physical pages (PDF and paged formats) */
  page_range?: [number, number];
  /** 1-based inclusive lines of the source text (text-like formats) */
  line_range?: [number, number];
  /** 1-based inclusive data rows (spreadsheets) */
  row_range?: [number, number];
  /**
   * The node's own text, excluding its children's, written to converted/<id>/<node_id>.md.
   * Paged text marks each page with a line `<!-- page N -->` so page ranges can be cut out again.
   * Omit (or leave empty) when the node has no text of its own: its content_ref is then null.
   */
  content?: string;
  /** structured extras kept in the tree (column stats, symbol signatures, …): JSON-safe, deterministic */
  meta?: Record<string, unknown>;
  children: ConvertedNode[];
}

export interface ExtraFile {
  /** path relative to converted/<id>/, e.g. `sheets/Sales.rows.json` */
  name: string;
  content: string | Uint8Array;
}

export interface ConvertResult {
  title: string;
  toc_source: TocSource;
  /** overrides the planner's approach when conversion learns better (e.g. a PDF with no text layer → ocr) */
  approach?: Approach;
  root: ConvertedNode;
  extra_files?: ExtraFile[];
  /** document-level card fields the converter found (title, period, doc type, overview, …) */
  card?: Partial<DocCard>;
  pages?: number;
  line_count?: number;
  warnings?: string[];
  /** set when the source must be recorded as skipped rather than indexed (e.g. OCR tools missing) */
  skip_reason?: string;
  /** extra key=value metadata for filters (`--meta key=value`) */
  meta?: Record<string, string>;
  /** plan fields the converter could not honour, with why (recorded in the catalog entry) */
  plan_notes?: PlanNote[];
}

export interface ConvertInput {
  absPath: string;
  card: FileCard;
  plan: Strategy;
  /** the file's bytes, already read by detection */
  bytes: Uint8Array;
  options: ConvertOptions;
}

export interface ConvertOptions {
  /** leaves no longer than this many pages */
  maxLeafPages: number;
  /** the plan as directives (approach, key sections, special handling, granularity); absent: the converter's defaults */
  plan?: PlanDirectives;
  /** threads a converter may parse in at once (`ingest.workers`; 0 or absent: one per core) */
  workers?: number;
  /** the outline words of the store's vocabulary packs (./outline-vocabulary.ts); absent: none */
  vocabularies?: OutlinePack[];
}

export interface Converter {
  /** stable name recorded in the catalog as `name@version`; bump version when output changes */
  name: string;
  version: number;
  convert(input: ConvertInput): Promise<ConvertResult>;
}

/** Thrown by a converter for bad input (corrupt, encrypted, empty): recorded as `failed` with this message. */
export class ConvertError extends Error {
  constructor(message: string, readonly hint = '') {
    super(message);
    this.name = 'ConvertError';
  }
}
