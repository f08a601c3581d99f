/** A cheap look at a document before conversion: what the planner (offline or LLM) decides from. */
import type { FileCard } from '../store/schemas.js';

export interface Sample {
  card: FileCard;
  /** leading text for text-like formats ('' for binary formats not yet converted) */
  text: string;
  /** markdown/setext-style headings spotted in the sample */
  heading_count: number;
  line_count: number;
  /** characters of the whole text (text-like formats; 0 otherwise) */
  char_count?: number;
  /** the store's ingest.max_leaf_pages: the offline planner's granularity for pages */
  maxLeafPages?: number;
  /** PDFs only: opens the document for its outline and first pages (lazy: only the LLM planner asks) */
  pdfPreview?: (limits: PdfPreviewLimits) => Promise<PdfPreview>;
}

export interface PdfPreviewLimits {
  maxPages: number;
  /** characters of page text in all */
  maxChars: number;
  /** outline entries (two levels) */
  maxOutline: number;
}

export interface PdfPreview {
  numPages: number;
  /** outline entries, indented two spaces per level: `- Title` */
  outline: string[];
  /** the first pages' text, in order from page 1 */
  pages: string[];
}
