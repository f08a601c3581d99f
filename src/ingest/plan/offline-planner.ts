/**
 * The offline planner: decides a strategy from the file card and a sample, with no LLM. Returns the
 * same zod-validated Strategy object the LLM sampler returns.
 */
import { Strategy, type Approach } from '../../store/schemas.js';
import type { Sample } from './sample.js';
import { TREE_SITTER_LANGUAGES } from '../converters/code/tree-sitter-symbols.js';

/** Languages the code converter parses into symbol trees (TypeScript compiler API + tree-sitter grammars). */
const SYMBOL_LANGUAGES = new Set<string>(['typescript', 'javascript', ...TREE_SITTER_LANGUAGES]);

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
      special.push('schema tree: header row detection, column types and stats; rows kept as JSON lines for read_source --rows');
      break;
    case 'code':
      // languages with a real parser get symbol trees; others are read in line windows
      approach = SYMBOL_LANGUAGES.has(card.language ?? '') ? 'symbol_index' : 'chunk_embed';
      has_structure = approach === 'symbol_index';
      break;
    case 'image':
      approach = 'ocr';
      has_structure = false;
      special.push('OCR with tesseract when installed; otherwise recorded as skipped with the install command');
      break;
    case 'zip':
      special.push('members are ingested as their own sources (archive.zip!/member) within zip-bomb limits');
      break;
    case 'json': case 'yaml': case 'xml':
      special.push('structure-aware: top-level keys / elements become nodes with line ranges');
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
