/** Plain text: paragraph groups, a heading tree when it has headings, or key sections, as the plan says. */
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_GENERIC, type ConverterRegistration } from './types.js';
import { decodeNonEmptyText, splitLines } from './text-util.js';
import { markTextHeadings } from './text-headings.js';
import { withoutTextFurniture } from './text-furniture.js';
import type { PlanDirectives, PlanNote } from '../../model/plan.js';
import { approachFor, chunkChars, declined, missingNote, type Capabilities } from './plan-shape.js';
import { LONG_SECTION_CHARS, convertMarkdownText, headingLineKind } from './markdown.js';
import { GROUP_TARGET_CHARS, convertPlainText, keySectionTree } from './text-chunks.js';
import { leadTitle, TITLE_SCAN_LINES } from './titles.js';
import { goodMetaTitle, OPENING_TITLE_MAX_CHARS } from './meta-title.js';
import { basename, extname } from 'node:path';

export { GROUP_TARGET_CHARS, GROUP_TITLE_CHARS, paragraphNodes, convertPlainText, keySectionTree } from './text-chunks.js';

/** Headings (Markdown, setext, reStructuredText or capitals, text-headings.ts) this text needs before it is read as a heading tree. */
export const MIN_TEXT_HEADINGS = 2;

/**
 * Plain-text headings are marked in texts up to this many characters. Marking them builds a second
 * copy of the text and a tree over it: the 200 MB report of the memory benchmark (numbered section
 * headings) peaked at 1.87 GB that way, where the paragraph groups it is read in instead stay at
 * 833 MB (issue 12: at most 1 GB).
 */
export const TEXT_HEADINGS_MAX_CHARS = 32_000_000;

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
  const lines = splitLines(text);
  const uncommented = commentRunsAsText(lines);
  const marked = text.length <= TEXT_HEADINGS_MAX_CHARS ? markTextHeadings(uncommented, MIN_TEXT_HEADINGS) : null;
  // without headings of its own, the text is read as Markdown only when Markdown could find some
  // early enough: the parser took 21 s over a 3.4 MB Debian changelog to find two at its end
  if (!marked && !markdownHeadingsEarly(uncommented, text.length)) return null;
  const md = convertMarkdownText(marked ?? uncommented.join('\n'), filename, text);
  if (md.toc_source !== 'headings' || countSections(md.root) < MIN_TEXT_HEADINGS || !headingsCover(md.root, text.length)) return null;
  // a heading after the text's opening lines ("A primitive non-SI unit", line 424 of the units
  // database, under its licence comment) names a section, not the text
  const at = md.title === basename(filename, extname(filename)) ? -1 : lines.findIndex((l) => l.includes(md.title));
  const headTitle = at >= 0 && lines.slice(0, at).filter((l) => l.trim()).length <= TITLE_LEAD_LINES;
  const title = headTitle ? null : leadLineTitle(uncommented, marked);
  return { ...md, ...(title ? { title, root: { ...md.root, title } } : {}), approach: 'tree_index' };
}

/** Non-blank lines a text's title heading may follow (a date, an author, a version line). */
export const TITLE_LEAD_LINES = 3;

/** A comment line commentRunsAsText kept from being a heading. */
const ESCAPED_HASH = /^\\#/;

/** A line opening with one "#" and a blank (or nothing after it): an ATX heading to Markdown, a comment in a data or config file. */
const HASH_LINE = /^#(?:\s|$)/;
/** A "#" line holding nothing but marks and blanks: the frame of a comment box ("#", "#        #"). */
const HASH_FRAME = /^#[\s#]*$/;

/** The words after a "#" going on with a sentence: a lower-case letter first ("# for sharp."). */
const LOWER_START = /^#\s+\p{Ll}/u;

/**
 * Runs of "#" lines read as Markdown would make every comment line a heading: the GNU units
 * database's licence, its notes and the bare "#" lines framing its section names became 2,093
 * headings, many "(untitled heading)". In plain text such a run is a comment: a box (framing lines
 * around one named line) keeps that line as a heading; any other run of two or more lines is text;
 * a "#" line alone between other lines stays the heading Markdown makes of it (a README written in
 * Markdown), unless it goes on with the line above, lower case first: abc2midi's guide wraps
 * "…followed by b for flat or" / "# for sharp. This specifies a major key.", which had become the
 * guide's title and a section swallowing 1,600 of its 1,723 lines. Lines are rewritten one for
 * one, so line numbers hold.
 */
export function commentRunsAsText(lines: string[]): string[] {
  if (!lines.some((l) => l.startsWith('#'))) return lines;
  const out = [...lines];
  for (let i = 0; i < lines.length; ) {
    if (!HASH_LINE.test(lines[i]!)) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && HASH_LINE.test(lines[j]!)) j++;
    const named: number[] = [];
    for (let k = i; k < j; k++) if (!HASH_FRAME.test(lines[k]!)) named.push(k);
    const box = named.length === 1 && named[0]! > i && named[0]! < j - 1;
    const wrapped = j - i === 1 && i > 0 && lines[i - 1]!.trim() !== '' && LOWER_START.test(lines[i]!);
    for (let k = i; k < j; k++) {
      if (HASH_FRAME.test(lines[k]!)) out[k] = '';
      else if (box) out[k] = lines[k]!.replace(/\s+#+\s*$/, ''); // the box's right edge
      else if (j - i > 1 || wrapped) out[k] = `\\${lines[k]}`;
    }
    i = j;
  }
  return out;
}

/**
 * The first line of a text whose headings give it no title, when that line is no heading itself and
 * reads as a title (text-chunks' first-line rule, as for text without headings): "OFL FAQ - Frequently
 * Asked Questions about the SIL Open Font License (OFL)" rather than the file name "OFL-FAQ".
 * `lines` are the text as Markdown reads it: its comment lines escaped (commentRunsAsText), read as written.
 */
function leadLineTitle(lines: string[], marked: string | null): string | null {
  const i = lines.findIndex((l) => l.trim() !== '');
  if (i < 0) return null;
  const markedLine = marked?.split('\n', i + 1)[i] ?? '';
  const isHeading = marked ? /^#{1,6}\s/.test(markedLine) : headingLineKind(lines, i) !== null || (i + 1 < lines.length && headingLineKind(lines, i + 1) !== null);
  if (isHeading) return marked ? openingHeadingTitle(markedLine) : null;
  const t = leadTitle(lines.slice(i, i + TITLE_SCAN_LINES).map((l) => l.replace(ESCAPED_HASH, '#')));
  return t && !/[.,;:]$/.test(t) ? t : null;
}

/**
 * A heading opening the text, of the style its sections use ("Guide to writing abc for abc2midi -
 * minor revision [JA] 2021-05-24", underlined as "The Body of the Tune" is), titles it rather than
 * the file name; not a part's name ("Introduction", "Contents") or a date, which tell nothing apart.
 */
function openingHeadingTitle(markedLine: string): string | null {
  const t = markedLine.replace(/^#{1,6}\s+/, '').trim();
  return goodMetaTitle(t) && t.includes(' ') && t.length <= OPENING_TITLE_MAX_CHARS ? t : null;
}

/**
 * Text before the first heading longer than this share of the whole (and than LONG_SECTION_CHARS)
 * means the headings do not structure the text: a changelog of 58,688 lines whose last two lines
 * Markdown reads as headings was one node titled "Older entries have been removed from this
 * changelog.". Such text is read in paragraph groups.
 */
export const MAX_FRONT_SHARE = 0.5;

function headingsCover(root: ConvertedNode, chars: number): boolean {
  const front = (root.content ?? '').length + root.children.filter((c) => c.kind === 'paragraphs').reduce((a, c) => a + (c.content ?? '').length, 0);
  return front <= LONG_SECTION_CHARS || front <= MAX_FRONT_SHARE * chars;
}

/** Whether Markdown could find MIN_TEXT_HEADINGS headings in the text, the first within its first MAX_FRONT_SHARE (or LONG_SECTION_CHARS). */
function markdownHeadingsEarly(lines: string[], chars: number): boolean {
  const limit = Math.max(LONG_SECTION_CHARS, MAX_FRONT_SHARE * chars);
  let at = 0;
  let first = -1;
  let found = 0;
  for (let i = 0; i < lines.length && found < MIN_TEXT_HEADINGS; i++) {
    if (headingLineKind(lines, i)) {
      if (first < 0) first = at;
      found++;
    }
    at += lines[i]!.length + 1;
  }
  return found >= MIN_TEXT_HEADINGS && first <= limit;
}

function countSections(n: ConvertedNode): number {
  return n.children.reduce((s, c) => s + 1 + countSections(c), 0);
}

/**
 * Plain text as the plan says: a tree (key sections or headings) or paragraph chunks sized to
 * estimated_nodes; running heads and feet of paged text are left out first (text-furniture.ts).
 */
export function convertTextByPlan(source: string, filename: string, plan: PlanDirectives | undefined): ConvertResult {
  const text = withoutTextFurniture(source);
  if (!plan) return convertPlainText(text, filename);
  const notes = declined(plan, TEXT_CAPS, 'plain text');
  const target = chunkChars(text.length, plan.targetNodes, GROUP_TARGET_CHARS);
  let result: ConvertResult | null = null;
  if (approachFor(plan, TEXT_CAPS) === 'tree_index') {
    result = planTree(text, filename, plan, target, notes);
    if (!result) notes.push({ field: 'recommended_approach', reason: text.length > TEXT_HEADINGS_MAX_CHARS ? `tree_index: plain-text headings are read in texts up to ${TEXT_HEADINGS_MAX_CHARS / 1_000_000} MB (this one: ${Math.round(text.length / 1_000_000)} MB) and it has no Markdown headings; read in paragraph groups (chunk_embed)` : 'tree_index: the text has no headings and no key section was found; read in paragraph groups (chunk_embed)' });
  } else if (plan.keySections.length) {
    notes.push({ field: 'key_sections', reason: 'not used: the plan asks for chunk_embed (flat chunks)' });
  }
  result ??= { ...convertPlainText(text, filename, target), approach: 'chunk_embed' };
  return notes.length ? { ...result, plan_notes: notes } : result;
}

export const plainTextConverter: Converter = {
  name: 'text',
  version: 31,
  async convert({ bytes, card, options }) {
    const text = decodeNonEmptyText(bytes);
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
