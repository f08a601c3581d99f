/** Curation role: tags, a shelf and related sources for a batch of catalog entries. */
import * as z from 'zod/v4';
import type { Role } from '../role.js';

export const MAX_TAGS = 8;
export const MAX_RELATED = 5;

export const CurationReply = z.object({
  sources: z.array(
    z.object({
      id: z.string(),
      tags: z.array(z.string()).describe('3-8 lowercase tags: entity, domain, document kind, period'),
      shelf: z.string().describe('one broad domain/shelf, e.g. "finance/annual-reports", "engineering/docs"'),
      related: z.array(z.object({ id: z.string(), reason: z.string().describe('one line: why they belong together') })),
    }),
  ),
});
export type CurationReply = z.infer<typeof CurationReply>;

export const curationRole: Role<CurationReply> = {
  step: 'curation',
  version: 2,
  maxTokens: 6000,
  schema: CurationReply,
  instructions: [
    'ROLE: curation.',
    'You get CATALOG: every source in the store (id and title), then BATCH: the entries to curate.',
    'For each BATCH entry return tags, one shelf (a short "domain/subdomain" path; reuse the same shelf',
    'names across sources), and up to 5 related sources from CATALOG (never itself) with a one-line reason',
    '(same company, same period, same topic, newer version, …). Return every BATCH id exactly once.',
  ].join('\n'),
};

/** Lowercase, dash-separated tag; empty when nothing usable is left. */
export function normalizeTag(tag: string): string {
  return tag
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}/.+&]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
}
