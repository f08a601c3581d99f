/** Markdown: the heading tree from a real CommonMark parser (fenced code is not a heading; setext headings count). */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString as mdToString } from 'mdast-util-to-string';
import type { Heading, RootContent } from 'mdast';
import { cleanText, leadSummary, SUMMARY_MAX_CHARS } from '../tree/summarize.js';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_LOOSE, type ConverterRegistration } from './types.js';
import { decodeNonEmptyText, splitLines } from './text-util.js';
import { basename, extname } from 'node:path';
import type { PlanDirectives } from '../../model/plan.js';
import { approachFor, chunkChars, declined, missingNote, type Capabilities } from './plan-shape.js';
import { convertPlainText, keySectionTree, paragraphNodes } from './text-chunks.js';
import { headingLines } from './titles.js';

/** Characters per paragraph group when markdown is read in chunks (the plain-text converter's size). */
export const GROUP_TARGET_CHARS = 2500;

/** Text before a single wrapping H1 (a label, a badge row) short enough to fold into the document with it. */
export const FOLD_LEAD_CHARS = 200;

/** Words a paragraph needs to count as prose (badge rows and link lists do not). */
export const PROSE_MIN_WORDS = 8;

/** Inline HTML in a heading (a logo `<a><img></a>`, a `<sup>`) is markup, not words of its title. */
const INLINE_TAG = /<\/?[a-z][^>]*>/gi;

/** Pandoc's attributes after a heading ("{#linear-panel-model}", "{.unnumbered}", "{-}"): markup, not words of its title. */
const HEADING_ATTRIBUTES = /\s*\{(?:[#.][^{}]*|-)\}\s*$/;

/** A heading's title as a reader sees it: its text without inline HTML, attributes or adornment lines. */
function headingTitle(h: Heading): string {
  const text = h.children.filter((c) => c.type !== 'html').map((c) => mdToString(c)).join('');
  return headingLines(text.replace(INLINE_TAG, '')).replace(/\s+/g, ' ').trim().replace(HEADING_ATTRIBUTES, '');
}

/**
 * Whether the first two top-level headings are entries of one series — the same first word, each
 * with a number ("openxlsx 4.2.5", "openxlsx 4.2.4": a NEWS file): the first is then its newest
 * entry, not the document's title (the file name says more: "openxlsx-NEWS").
 */
function releaseSeries(titles: string[]): boolean {
  if (titles.length < 2) return false;
  const [a, b] = titles.map((t) => t.trim());
  const word = (t: string) => t.split(/\s+/)[0]!.toLowerCase();
  return !!a && !!b && word(a) === word(b) && /\d/.test(a) && /\d/.test(b);
}

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

/** A section whose own text (before its first subsection) is longer than this is read in paragraph groups. */
export const LONG_SECTION_CHARS = 6000;

/** A long section keeps its heading as its text; its own lines become paragraph-group children. */
function splitLongSection(node: ConvertedNode, lines: string[], headEnd: number): void {
  const [start, end] = node.line_range!;
  if ((node.content ?? '').length <= LONG_SECTION_CHARS || headEnd >= end) return;
  node.content = lines.slice(start - 1, headEnd).join('\n');
  node.children = paragraphNodes(lines, GROUP_TARGET_CHARS, headEnd + 1, end);
}

/**
 * Text longer than this is parsed for its headings only (headingSkeleton): the Markdown syntax tree
 * of a 6.7 MB git log (harfbuzz's changelog.gz) took 5.5 s and 1.1 GB.
 */
export const FULL_PARSE_MAX_CHARS = 1_000_000;
/** The opening parsed whole for the card's lead summary when the text is parsed for headings only. */
export const LEAD_PARSE_CHARS = 64_000;

const ATX_LINE = /^ {0,3}#{1,6}(?:\s|$)/;
const SETEXT_LINE = /^ {0,3}(?:=+|-+)\s*$/;
const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,})/;

/** Line i as Markdown may read it: an ATX heading, a setext underline (the line above is its title), or neither. */
export function headingLineKind(lines: readonly string[], i: number): 'atx' | 'setext' | null {
  const l = lines[i]!;
  if (ATX_LINE.test(l)) return 'atx';
  return i > 0 && SETEXT_LINE.test(l) && lines[i - 1]!.trim() !== '' ? 'setext' : null;
}

/**
 * The text with every line blanked but those that can make or hide a heading: ATX headings, setext
 * underlines and the line above each, code fences (a "# comment" inside one stays code). Line
 * numbers are the text's; headings are found as in the whole text but for a setext title over
 * several lines (its last line only).
 */
export function headingSkeleton(text: string): string {
  const lines = splitLines(text);
  const keep = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    const kind = headingLineKind(lines, i);
    if (kind === 'setext') keep[i] = keep[i - 1] = 1;
    else if (kind === 'atx' || FENCE_LINE.test(l)) keep[i] = 1;
  });
  return lines.map((l, i) => (keep[i] ? l : '')).join('\n');
}

/** Front matter is looked for within this many lines of the top. */
export const FRONT_MATTER_MAX_LINES = 200;
const FRONT_MATTER_CLOSE: Record<string, string[]> = { '---': ['---', '...'], '+++': ['+++'] };
/** A metadata line: a key, then a colon and a blank or the end ("title: …", "output:"), or TOML's "key = …". */
const FRONT_MATTER_KEY = /^[^\s#][^:=]*(?::(?:\s|$)|\s*=)/;

/**
 * The last line of YAML (---) or TOML (+++) front matter opening the file, or 0: metadata for a
 * site generator or R Markdown, not text. Parsed as Markdown its closing "---" underlines the
 * block as one setext heading, and Swiss Ephemeris's programmer's guide opened with a section
 * titled ":xtitle: Programming Interface … output: html_document: toc: true toc_depth: 3".
 */
export function frontMatterEnd(lines: readonly string[]): number {
  const closes = FRONT_MATTER_CLOSE[lines[0]?.trimEnd() ?? ''];
  if (!closes || !FRONT_MATTER_KEY.test(lines[1] ?? '')) return 0;
  const last = Math.min(lines.length, FRONT_MATTER_MAX_LINES);
  for (let i = 2; i < last; i++) if (closes.includes(lines[i]!.trimEnd())) return i + 1;
  return 0;
}

/** A top-level front matter value on one line ("title: …" / "title = …"), unquoted, or undefined. */
function frontMatterValue(lines: readonly string[], end: number, key: string): string | undefined {
  const field = new RegExp(`^${key}\\s*[:=]\\s*(.+)$`, 'i');
  for (const l of lines.slice(1, end - 1)) {
    const t = field.exec(l.trimEnd())?.[1]!.trim().replace(/^(["'])(.*)\1$/, '$2').trim();
    if (t) return t;
  }
  return undefined;
}

/**
 * The front matter's title, with its subtitle when it has one: what the page is published under.
 * It outranks the first H1, which then is a section: plm's R Markdown vignette, titled "Panel data
 * econometrics in R: the plm package" there, was titled by its first section, "Introduction".
 */
function frontMatterTitle(lines: readonly string[], end: number): string | undefined {
  const title = frontMatterValue(lines, end, 'title');
  const sub = title && frontMatterValue(lines, end, 'subtitle');
  if (!title || !sub) return title;
  return /[:—–-]$/.test(title) ? `${title} ${sub}` : `${title}: ${sub}`;
}

/**
 * The headings that open sections: those at the top level, and one opening an item of a top-level
 * list ("  * #### SyzygyPath", as Stockfish's README lists its options: each is a heading to a
 * reader, and the option's text runs to the next one). In document order.
 */
function outlineHeadings(children: RootContent[]): Heading[] {
  const out: Heading[] = [];
  for (const c of children) {
    if (c.type === 'heading' && c.position) out.push(c);
    else if (c.type === 'list') {
      for (const item of c.children) {
        const first = item.children[0];
        if (first?.type === 'heading' && first.position) out.push(first);
      }
    }
  }
  return out;
}

interface Open {
  depth: number;
  node: ConvertedNode;
  startLine: number;
}

/**
 * The heading tree of Markdown `text`. `source` is the file's own text when `text` is a line-for-line
 * rewrite of it (plain text with its headings marked, text-headings.ts): node text comes from it.
 */
export function convertMarkdownText(text: string, filename: string, source = text): ConvertResult {
  const lines = splitLines(source);
  const front = frontMatterEnd(lines);
  // the front matter's lines parsed as blank ones, so line numbers stay the file's
  if (front > 0) text = [...new Array<string>(front).fill(''), ...splitLines(text).slice(front)].join('\n');
  const big = text.length > FULL_PARSE_MAX_CHARS;
  const tree = fromMarkdown(big ? headingSkeleton(text) : text);
  const lead = big ? fromMarkdown(text.slice(0, LEAD_PARSE_CHARS)).children : tree.children;
  const headings = outlineHeadings(tree.children);
  const lineCount = lines.length;
  const slice = (a: number, b: number) => lines.slice(a - 1, b).join('\n');

  const fallbackTitle = basename(filename, extname(filename));
  const h1s = headings.filter((h) => h.depth === 1);
  const firstH1 = h1s[0];
  const titleH1 = firstH1 && !releaseSeries(h1s.slice(0, 2).map(headingTitle)) ? firstH1 : undefined;
  const root: ConvertedNode = { title: (front > 0 ? frontMatterTitle(lines, front) : undefined) || (titleH1 && headingTitle(titleH1)) || fallbackTitle, kind: 'document', children: [], line_range: [1, Math.max(1, lineCount)] };
  const firstLine = headings[0]?.position?.start.line ?? lineCount + 1;
  if (firstLine > 1) {
    const pre = slice(1, firstLine - 1);
    // a long text before the first heading is read in paragraph groups, as a long section's is
    if (pre.length > LONG_SECTION_CHARS) root.children.push(...paragraphNodes(lines, GROUP_TARGET_CHARS, 1, firstLine - 1));
    else if (pre.trim()) root.content = pre;
  }
  const stack: Open[] = [{ depth: 0, node: root, startLine: 1 }];
  headings.forEach((h, i) => {
    const start = h.position!.start.line;
    const ownEnd = (headings[i + 1]?.position?.start.line ?? lineCount + 1) - 1;
    const node: ConvertedNode = {
      title: headingTitle(h) || `(untitled heading, line ${start})`,
      kind: 'section',
      line_range: [start, Math.max(start, ownEnd)],
      content: slice(start, ownEnd),
      meta: { level: h.depth },
      children: [],
    };
    splitLongSection(node, lines, h.position!.end.line);
    while (stack.length > 1 && stack[stack.length - 1]!.depth >= h.depth) stack.pop();
    stack[stack.length - 1]!.node.children.push(node);
    stack.push({ depth: h.depth, node, startLine: start });
  });
  // A single H1 that wraps everything: its children become the document's sections.
  const frontChars = front > 0 ? slice(1, front).length : 0;
  if (root.children.length === 1 && firstH1 && root.children[0]!.title === root.title && (root.content ?? '').length - frontChars <= FOLD_LEAD_CHARS) {
    const only = root.children[0]!;
    root.content = [root.content, only.content].filter(Boolean).join('\n');
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
      ...(leadProse(lead) ? { summary: leadSummary(leadProse(lead)!) } : {}),
    },
  };
}

/** What the markdown converter does with each plan field (see ./plan-shape.ts). */
const MARKDOWN_CAPS: Capabilities = {
  approaches: ['tree_index', 'chunk_embed'],
  keySections: null,
  tablesAsRows: 'markdown tables are kept as written so quoted lines match the file',
  twoColumns: 'markdown has no page layout',
  plaintext: { native: false, reason: 'markdown is kept as written so line ranges and quotes match the file' },
  estimatedNodes: null,
};

/** Markdown as the plan says: the heading tree (key sections when it has no headings), or paragraph chunks. */
export async function convertMarkdownByPlan(text: string, filename: string, plan: PlanDirectives | undefined): Promise<ConvertResult> {
  const tree = convertMarkdownText(text, filename);
  if (!plan) return tree;
  const notes = declined(plan, MARKDOWN_CAPS, 'markdown');
  const target = chunkChars(text.length, plan.targetNodes, GROUP_TARGET_CHARS);
  let result: ConvertResult = { ...tree, approach: 'tree_index' };
  if (approachFor(plan, MARKDOWN_CAPS) === 'chunk_embed') {
    result = { ...convertPlainText(text, filename, target), title: tree.title, card: tree.card, approach: 'chunk_embed' };
    if (plan.keySections.length) notes.push({ field: 'key_sections', reason: 'not used: the plan asks for chunk_embed (flat chunks)' });
  } else if (tree.toc_source !== 'headings' && plan.keySections.length) {
    const k = keySectionTree(text, filename, plan.keySections, target);
    const m = k ? missingNote(k.missing, plan.keySections.length, 'at the start of a line') : { field: 'key_sections', reason: `none of ${plan.keySections.length} found at the start of a line` };
    if (k) result = { ...k.result, title: tree.title, card: tree.card };
    if (m) notes.push(m);
  } else if (tree.toc_source !== 'headings') {
    notes.push({ field: 'recommended_approach', reason: 'tree_index: the document has no headings and no key section was given; its text is one node' });
  } else if (plan.targetNodes !== null) {
    notes.push({ field: 'estimated_nodes', reason: 'a markdown tree follows the document\'s own headings' });
  }
  return notes.length ? { ...result, plan_notes: notes } : result;
}

export const markdownConverter: Converter = {
  name: 'markdown',
  version: 22,
  async convert({ bytes, card, options }) {
    const text = decodeNonEmptyText(bytes);
    return convertMarkdownByPlan(text, card.filename, options.plan);
  },
};

/** Markdown by name; a text file whose name says nothing is markdown when it has an ATX heading. */
export const markdownRegistration: ConverterRegistration = {
  converter: markdownConverter,
  formats: [
    { type: 'markdown', mime: 'text/markdown', extensions: ['.md', '.markdown', '.mdx'], sniffText: (s) => /^#{1,6} \S/m.test(s), priority: PRIORITY_LOOSE },
  ],
};
