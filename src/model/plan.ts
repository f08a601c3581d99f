/**
 * The plan as converters see it: the planner's Strategy (src/store/schemas.ts) turned into
 * directives a converter can act on (src/ingest/plan/directives.ts builds them), and the notes a
 * converter returns for the fields it could not honour (stored in the catalog entry's plan_notes).
 * Plain data: it crosses into the PDF worker threads. See docs/plan.md.
 */
import type { Approach } from '../store/schemas.js';

/** special_handling note: tables extracted as rows, each value labelled with its column header. */
export const SPECIAL_TABLE_ROWS = 'tables as rows with header';
/** special_handling note: pages printed in two columns are read column by column. */
export const SPECIAL_TWO_COLUMNS = 'two-column pages read column by column';
/** special_handling note: every node keeps its page range (paged formats). */
export const SPECIAL_PAGE_RANGES = 'page ranges kept on every node';

export interface PlanDirectives {
  /** recommended_approach: tree_index, schema_index, symbol_index, chunk_embed or ocr */
  approach: Approach;
  /** the planner's key_sections: top-level anchors when the document's own structure is weak */
  keySections: string[];
  /** special_handling asks for tables as rows with their header */
  tablesAsRows: boolean;
  /** special_handling asks for two-column pages to be read column by column */
  twoColumns: boolean;
  /** convert_to_plaintext */
  plaintext: boolean;
  /** estimated_nodes: the granularity the planner expects (null: the converter's own) */
  targetNodes: number | null;
}

/** A plan field a converter could not honour, with why (CatalogEntry.plan_notes). */
export interface PlanNote {
  /** the Strategy field: recommended_approach, key_sections, special_handling, convert_to_plaintext, estimated_nodes */
  field: string;
  reason: string;
}

/** The directives of a plan that asks for nothing beyond the given approach (converters' default). */
export function defaultDirectives(approach: Approach = 'tree_index'): PlanDirectives {
  return { approach, keySections: [], tablesAsRows: false, twoColumns: false, plaintext: false, targetNodes: null };
}
