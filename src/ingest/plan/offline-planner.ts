/**
 * The offline planner: decides a strategy from the file card and a sample, with no LLM. Returns the
 * same zod-validated Strategy object the LLM sampler returns.
 */
import { Strategy, type Approach } from '../../store/schemas.js';
import type { Sample } from './sample.js';

/** Text with fewer headings than this is chunked by paragraphs rather than a heading tree. */
export const MIN_HEADINGS_FOR_TREE = 2;

const NATURE: Record<string, string> = {
  pdf: 'paged document', markdown: 'structured text document', text: 'plain text', docx: 'word-processor document',
  doc: 'legacy Word document', xlsx: 'spreadsheet workbook', xls: 'legacy Excel workbook', csv: 'tabular data',
  tsv: 'tabular data', html: 'web page', code: 'source code', json: 'structured data', yaml: 'structured data',
  xml: 'structured data', log: 'log file', image: 'image', zip: 'archive', unknown: 'unknown binary',
};

export function planOffline(sample: Sample): Strategy {
  const { card } = sample;
  let approach: Approach = 'tree_index';
  let has_structure = true;
  const special: string[] = [];
  switch (card.type) {
    case 'xlsx': case 'xls': case 'csv': case 'tsv':
      approach = 'schema_index';
      break;
    case 'code':
      approach = 'symbol_index';
      break;
    case 'image':
      approach = 'ocr';
      has_structure = false;
      break;
    case 'text': case 'log':
      has_structure = sample.heading_count >= MIN_HEADINGS_FOR_TREE;
      approach = has_structure ? 'tree_index' : 'chunk_embed';
      break;
    case 'markdown':
      has_structure = sample.heading_count >= 1;
      approach = has_structure ? 'tree_index' : 'chunk_embed';
      break;
    case 'pdf':
      special.push('page-aware: keep page ranges on every node');
      break;
    default:
      break;
  }
  return Strategy.parse({
    doc_nature: NATURE[card.type] ?? 'document',
    has_structure,
    recommended_approach: approach,
    convert_to_plaintext: ['pdf', 'docx', 'html'].includes(card.type),
    key_sections: [],
    special_handling: special,
    summary: '',
    planner: 'offline',
  });
}
