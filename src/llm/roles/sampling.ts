/** Sampling role: from a sample of the document (not the file), choose the ingest strategy. */
import * as z from 'zod/v4';
import { APPROACHES, Strategy } from '../../store/schemas.js';
import type { Role } from '../role.js';

/** Items kept in the strategy's lists. */
const MAX_LIST = 20;

export const SamplingReply = z.object({
  doc_nature: z.string().describe('what kind of document this is, e.g. "annual report (10-K)", "API reference", "sales ledger"'),
  has_structure: z.boolean().describe('true when the document has its own headings/outline/TOC'),
  recommended_approach: z.enum(APPROACHES),
  convert_to_plaintext: z.boolean(),
  key_sections: z.array(z.string()).describe('main sections seen in the sample or TOC, as printed'),
  estimated_nodes: z.number().int().describe('rough number of tree nodes the document deserves'),
  special_handling: z.array(z.string()).describe('short notes, e.g. "tables span pages", "scanned pages"'),
  summary: z.string().describe('one or two sentences on what the document is'),
});
export type SamplingReply = z.infer<typeof SamplingReply>;

export const samplingRole: Role<SamplingReply> = {
  step: 'sampling',
  version: 1,
  maxTokens: 1024,
  schema: SamplingReply,
  instructions: [
    'ROLE: sampling.',
    'You see a sample of one file: its first pages or first ~2000 characters; for spreadsheets the sheet',
    'names, header rows and first data rows; for code the first 200 lines; and the table of contents when',
    'one was found. Choose how to index it:',
    '- tree_index: documents with sections or pages (reports, manuals, papers, long notes);',
    '- schema_index: tables and spreadsheets;',
    '- symbol_index: source code;',
    '- chunk_embed: short or unstructured text where a tree adds nothing;',
    '- ocr: pages with no text layer.',
    'estimated_nodes counts the sections and subsections you expect (1 for a short note).',
  ].join('\n'),
};

/**
 * The reply as the strategy. The approach is kept as the model chose it, even one the source's
 * converter cannot build: the converter then uses its own and records why in the catalog entry's
 * plan_notes (docs/plan.md), so a judgement the store did not follow stays visible.
 */
export function toStrategy(reply: SamplingReply, offline: Strategy, model: string): Strategy {
  const approach = reply.recommended_approach;
  const clean = (xs: string[]) => xs.map((s) => s.trim()).filter(Boolean).slice(0, MAX_LIST);
  return Strategy.parse({
    doc_nature: reply.doc_nature.trim() || offline.doc_nature,
    has_structure: reply.has_structure,
    recommended_approach: approach,
    convert_to_plaintext: reply.convert_to_plaintext,
    key_sections: clean(reply.key_sections),
    estimated_nodes: Math.max(1, Math.round(reply.estimated_nodes)),
    special_handling: [...new Set([...offline.special_handling, ...clean(reply.special_handling)])],
    summary: reply.summary.trim(),
    planner: `llm:${model}`,
  });
}
