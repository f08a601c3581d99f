/** Markdown: the heading tree from a real CommonMark parser (fenced code is not a heading; setext headings count). */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as mdToString } from 'mdast-util-to-string';
import type { Heading, RootContent } from 'mdast';
import { cleanText, leadSummary, SUMMARY_MAX_CHARS } from '../tree/summarize.js';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_LOOSE, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { decodeText, splitLines } from './text-util.js';
import { basename, extname } from 'node:path';

/** Words a paragraph needs to count as prose (badge rows and link lists do not). */
export const PROSE_MIN_WORDS = 8;

/** The first paragraphs of real prose (not badges, link rows or code), for the document card summary. */
function leadProse(nodes: RootContent[]): string | null {
  const parts: string[] = [];
  for (const n of nodes) {
    if (n.type !== 'paragraph') continue;
    // badge rows and link lists: nothing but images and links
    if (n.children.every((c) => ['image', 'imageReference', 'link', 'linkReference', 'break'].includes(c.type) || (c.type === 'text' && c.value.trim() === ''))) continue;
    const text = cleanText(mdToString(n));
    if (text.split(/\s+/).filter((w) => /[a-z]{2,}/i.test(w)).length < PROSE_MIN_WORDS) continue;
    parts.push(text);
    if (parts.join(' ').length >= SUMMARY_MAX_CHARS) break;
  }
  return parts.length ? parts.join(' ') : null;
}

interface Open {
  depth: number;
  node: ConvertedNode;
  startLine: number;
}

export function convertMarkdownText(text: string, filename: string): ConvertResult {
  const lines = splitLines(text);
  const tree = fromMarkdown(text);
  const headings = tree.children.filter((c): c is Heading => c.type === 'heading' && !!c.position);
  const lineCount = lines.length;
  const slice = (a: number, b: number) => lines.slice(a - 1, b).join('\n');

  const fallbackTitle = basename(filename, extname(filename));
  const firstH1 = headings.find((h) => h.depth === 1);
  const root: ConvertedNode = { title: firstH1 ? mdToString(firstH1).trim() : fallbackTitle, kind: 'document', children: [], line_range: [1, Math.max(1, lineCount)] };
  const firstLine = headings[0]?.position?.start.line ?? lineCount + 1;
  if (firstLine > 1) {
    const pre = slice(1, firstLine - 1);
    if (pre.trim()) root.content = pre;
  }
  const stack: Open[] = [{ depth: 0, node: root, startLine: 1 }];
  headings.forEach((h, i) => {
    const start = h.position!.start.line;
    const ownEnd = (headings[i + 1]?.position?.start.line ?? lineCount + 1) - 1;
    const node: ConvertedNode = {
      title: mdToString(h).trim() || `(untitled heading, line ${start})`,
      kind: 'section',
      line_range: [start, Math.max(start, ownEnd)],
      content: slice(start, ownEnd),
      meta: { level: h.depth },
      children: [],
    };
    while (stack.length > 1 && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
    stack[stack.length - 1]!.node.children.push(node);
    stack.push({ depth: h.depth, node, startLine: start });
  });
  // A single H1 that wraps everything: its children become the document's sections.
  if (root.children.length === 1 && firstH1 && root.children[0]!.title === root.title && !root.content) {
    const only = root.children[0]!;
    root.content = only.content;
    root.children = only.children;
    root.meta = only.meta;
  }
  return {
    title: root.title,
    toc_source: headings.length > 0 ? 'headings' : 'paragraphs',
    root,
    line_count: lineCount,
    card: {
      sections_overview: root.children.map((c) => c.title).slice(0, 20),
      ...(leadProse(tree.children) ? { summary: leadSummary(leadProse(tree.children)!) } : {}),
    },
  };
}

export const markdownConverter: Converter = {
  name: 'markdown',
  version: 1,
  async convert({ bytes, card }) {
    const text = decodeText(bytes);
    if (text.trim().length === 0) throw new ConvertError('The file is empty.', 'Add content or remove the file from the inbox.');
    return convertMarkdownText(text, card.filename);
  },
};

/** Markdown by name; a text file whose name says nothing is markdown when it has an ATX heading. */
export const markdownRegistration: ConverterRegistration = {
  converter: markdownConverter,
  formats: [
    { type: 'markdown', mime: 'text/markdown', extensions: ['.md', '.markdown', '.mdx'], sniffText: (s) => /^#{1,6} \S/m.test(s), priority: PRIORITY_LOOSE },
  ],
};
