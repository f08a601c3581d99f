/** The LLM card step: title, summary, doc type, period/date, key topics and sections overview. */
import type { FileCard } from '../store/schemas.js';
import type { ConvertedNode, ConvertResult } from '../model/convert.js';
import type { LlmRunner } from './runner.js';
import { cardRole, toDocCard } from './roles/card.js';

/** Characters of document text the card role reads. */
export const CARD_TEXT_CHARS = 12_000;
/** Section titles listed (two levels deep). */
export const CARD_SECTIONS = 60;

function range(n: ConvertedNode): string {
  if (n.page_range) return ` (p. ${n.page_range[0]}-${n.page_range[1]})`;
  if (n.line_range) return ` (lines ${n.line_range[0]}-${n.line_range[1]})`;
  return '';
}

export function cardInput(card: FileCard, result: ConvertResult): string {
  const sections: string[] = [];
  for (const c of result.root.children) {
    if (sections.length >= CARD_SECTIONS) break;
    sections.push(`- ${c.title}${range(c)}`);
    for (const g of c.children) {
      if (sections.length >= CARD_SECTIONS || g.kind === 'page_group') break;
      sections.push(`  - ${g.title}${range(g)}`);
    }
  }
  let text = '';
  const visit = (n: ConvertedNode) => {
    if (text.length >= CARD_TEXT_CHARS) return;
    if (n.content) text += (text ? '\n\n' : '') + n.content.slice(0, CARD_TEXT_CHARS - text.length);
    n.children.forEach(visit);
  };
  visit(result.root);
  return [
    `File: ${card.original_path}`,
    `Type: ${card.type}${result.pages ? `, ${result.pages} pages` : ''}${result.line_count ? `, ${result.line_count} lines` : ''}`,
    `Title found offline: ${result.title}`,
    sections.length ? `Sections:\n${sections.join('\n')}` : 'Sections: none found',
    `Text excerpt:\n${text}`,
  ].join('\n\n');
}

export async function llmCard(runner: LlmRunner, card: FileCard, result: ConvertResult): Promise<{ result: ConvertResult } | { reason: string }> {
  const r = await runner.run(cardRole, cardInput(card, result));
  if (!r.ok) return { reason: r.reason };
  const docCard = toDocCard(r.value, result.card ?? {});
  const root = docCard.summary && !result.root.summary ? { ...result.root, summary: docCard.summary } : result.root;
  return { result: { ...result, card: docCard, root } };
}
