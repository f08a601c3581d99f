/** What a role is: versioned instructions, a zod schema for the reply, and a token budget. */
import type * as z from 'zod/v4';

export interface Role<T> {
  /** sampling | card | tree | curation */
  step: string;
  /** bump whenever the instructions or schema change: it is part of the cache key */
  version: number;
  instructions: string;
  schema: z.ZodType<T>;
  maxTokens: number;
}

/** Instructions every role shares (sent first, marked for prompt caching). */
export const SHARED_INSTRUCTIONS = [
  'You are the careful librarian of MetadataHub, a local knowledge index that AI agents search.',
  'You receive a sample or excerpt of one document (or a batch of catalog entries) and return metadata',
  'as one JSON object that follows the given schema exactly.',
  'Rules:',
  '- Ground every statement in the text you are given; never invent names, numbers, dates or sections.',
  '- Write plain, specific English. Summaries say what the document is and what a reader can find in it.',
  '- Titles of sections are copied from the document as printed (same words, same order).',
  '- Page numbers are the physical page numbers in the `<!-- page N -->` markers, never printed folios.',
  '- When unsure, leave a field empty rather than guessing.',
  '- Output JSON only.',
].join('\n');
