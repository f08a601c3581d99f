/** Tree role: the sections that start within a group of page-tagged pages. */
import * as z from 'zod/v4';
import type { Role } from '../role.js';

export const TreeReply = z.object({
  sections: z.array(
    z.object({
      title: z.string().describe('the heading exactly as printed on its page'),
      start_page: z.number().int().describe('the N of the <!-- page N --> marker of the page where the heading is printed'),
      level: z.number().int().describe('1 = top-level part/chapter/item, 2 = section, 3 = subsection'),
      summary: z.string().describe('one sentence on what the section contains'),
    }),
  ),
});
export type TreeReply = z.infer<typeof TreeReply>;

export const treeRole: Role<TreeReply> = {
  step: 'tree',
  version: 3,
  maxTokens: 8000,
  schema: TreeReply,
  instructions: [
    'ROLE: tree.',
    'You get consecutive pages of one document, each after a `<!-- page N -->` marker. List, in page',
    'order, every real section heading that is printed on these pages (chapters, parts, items, numbered',
    'sections, headed subsections). Skip running headers/footers, table column headings, and entries of a',
    'table of contents (a TOC page lists headings of other pages: those are not sections starting here).',
    'start_page is the marker number of the page where the heading itself appears. Copy titles exactly.',
    'The first page may continue a section that started earlier: do not invent a heading for it.',
    'To save space, long pages show their top, then only their short lines; `[…]` marks body text left out.',
    'When key sections are listed, they are the document\'s top-level sections: where one is printed on these',
    'pages, give it level 1 and nest the sections after it below it. An expected count is a rough guide to',
    'how fine the outline should be, never a reason to invent headings.',
  ].join('\n'),
};
