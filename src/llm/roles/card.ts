/** Card role: the document-level metadata card (what the vector index embeds). */
import * as z from 'zod/v4';
import type { DocCard } from '../../store/schemas.js';
import type { Role } from '../role.js';

export const MAX_TOPICS = 10;
export const MAX_OVERVIEW = 20;

export const CardReply = z.object({
  title: z.string().describe('the document title as printed, or a precise descriptive title'),
  summary: z.string().describe('3-5 sentences: what it is, who issued it, what period, what a reader finds in it'),
  doc_type: z.string().describe('e.g. "10-K annual report", "earnings release", "meeting notes", "README"'),
  period: z.string().describe('period covered, e.g. "FY2022", "Q2 2023", or empty'),
  date: z.string().describe('ISO date (YYYY-MM-DD or YYYY-MM or YYYY) the document was issued, or empty'),
  key_topics: z.array(z.string()).describe('up to 10 specific topics, entities or metrics'),
  sections_overview: z.array(z.string()).describe('the main sections in order, as printed, up to 20'),
});
export type CardReply = z.infer<typeof CardReply>;

export const cardRole: Role<CardReply> = {
  step: 'card',
  version: 1,
  maxTokens: 1500,
  schema: CardReply,
  instructions: [
    'ROLE: card.',
    'Write the metadata card of one document from its section list and the excerpt of its text.',
    'The card is embedded for search: the summary must name the issuer/author, the subject, the period',
    'and the kinds of facts inside (figures, tables, procedures), in plain words.',
  ].join('\n'),
};

export function toDocCard(reply: CardReply, offline: Partial<DocCard>): Partial<DocCard> {
  const clean = (xs: string[], max: number) => [...new Set(xs.map((s) => s.trim()).filter(Boolean))].slice(0, max);
  const pick = (v: string, o: string | undefined) => (v.trim() ? v.trim() : (o ?? ''));
  const date = /^\d{4}(-\d{2}(-\d{2})?)?$/.test(reply.date.trim()) ? reply.date.trim() : (offline.date ?? '');
  return {
    ...offline,
    title: pick(reply.title, offline.title),
    summary: pick(reply.summary, offline.summary),
    doc_type: pick(reply.doc_type, offline.doc_type),
    period: pick(reply.period, offline.period),
    date,
    key_topics: clean(reply.key_topics, MAX_TOPICS).length ? clean(reply.key_topics, MAX_TOPICS) : (offline.key_topics ?? []),
    sections_overview: clean(reply.sections_overview, MAX_OVERVIEW).length ? clean(reply.sections_overview, MAX_OVERVIEW) : (offline.sections_overview ?? []),
  };
}
