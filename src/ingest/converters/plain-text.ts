/** Plain text: paragraph groups, a heading tree when it has headings, or key sections, as the plan says. */
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_GENERIC, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { decodeText, splitLines } from './text-util.js';
import { markTextHeadings } from './text-headings.js';
import type { PlanDirectives, PlanNote } from '../../model/plan.js';
import { approachFor, chunkChars, declined, missingNote, type Capabilities } from './plan-shape.js';
import { convertMarkdownText } from './markdown.js';
import { GROUP_TARGET_CHARS, convertPlainText, keySectionTree } from './text-chunks.js';

export { GROUP_TARGET_CHARS, GROUP_TITLE_CHARS, paragraphNodes, convertPlainText, keySectionTree } from './text-chunks.js';

/** Headings (Markdown, setext, reStructuredText or capitals, text-headings.ts) this text needs before it is read as a heading tree. */
export const MIN_TEXT_HEADINGS = 2;

/** What the plain-text converter does with each plan field (see ./plan-shape.ts). */
const TEXT_CAPS: Capabilities = {
  approaches: ['chunk_embed', 'tree_index'],
  keySections: null,
  tablesAsRows: 'plain text has no table markup to read rows from',
  twoColumns: 'plain text has no page layout',
  plaintext: { native: null, reason: '' },
  estimatedNodes: null,
};

/** The tree the plan asks for: key sections, else the text's own headings, else null. */
function planTree(text: string, filename: string, plan: PlanDirectives, target: number, notes: PlanNote[]): ConvertResult | null {
  if (plan.keySections.length) {
    const k = keySectionTree(text, filename, plan.keySections, target);
    if (k) {
      const m = missingNote(k.missing, plan.keySections.length, 'at the start of a line');
      if (m) notes.push(m);
      return k.result;
    }
    notes.push({ field: 'key_sections', reason: `none of ${plan.keySections.length} found at the start of a line` });
  }
  const marked = markTextHeadings(splitLines(text), MIN_TEXT_HEADINGS);
  const md = convertMarkdownText(marked ?? text, filename, text);
  if (md.toc_source === 'headings' && countSections(md.root) >= MIN_TEXT_HEADINGS) return { ...md, approach: 'tree_index' };
  return null;
}

function countSections(n: ConvertedNode): number {
  return n.children.reduce((s, c) => s + 1 + countSections(c), 0);
}

/** Plain text as the plan says: a tree (key sections or headings) or paragraph chunks sized to estimated_nodes. */
export function convertTextByPlan(text: string, filename: string, plan: PlanDirectives | undefined): ConvertResult {
  if (!plan) return convertPlainText(text, filename);
  const notes = declined(plan, TEXT_CAPS, 'plain text');
  const target = chunkChars(text.length, plan.targetNodes, GROUP_TARGET_CHARS);
  let result: ConvertResult | null = null;
  if (approachFor(plan, TEXT_CAPS) === 'tree_index') {
    result = planTree(text, filename, plan, target, notes);
    if (!result) notes.push({ field: 'recommended_approach', reason: 'tree_index: the text has no headings and no key section was found; read in paragraph groups (chunk_embed)' });
  } else if (plan.keySections.length) {
    notes.push({ field: 'key_sections', reason: 'not used: the plan asks for chunk_embed (flat chunks)' });
  }
  result ??= { ...convertPlainText(text, filename, target), approach: 'chunk_embed' };
  return notes.length ? { ...result, plan_notes: notes } : result;
}

export const plainTextConverter: Converter = {
  name: 'text',
  version: 10,
  async convert({ bytes, card, options }) {
    const text = decodeText(bytes);
    if (text.trim().length === 0) throw new ConvertError('The file is empty.', 'Add content or remove the file from the inbox.');
    return convertTextByPlan(text, card.filename, options.plan);
  },
};

export const plainTextRegistration: ConverterRegistration = {
  converter: plainTextConverter,
  formats: [
    { type: 'text', mime: 'text/plain', extensions: ['.txt', '.text', '.rst'], sniffText: () => true, priority: PRIORITY_GENERIC },
    { type: 'log', extensions: ['.log'], priority: PRIORITY_GENERIC },
  ],
};
