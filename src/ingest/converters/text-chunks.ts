/**
 * Plain text read as paragraph groups (blank-line separated paragraphs gathered up to a size budget),
 * or as a tree under a plan's key sections. Shared by the plain-text and Markdown converters.
 */
import type { ConvertedNode, ConvertResult } from './types.js';
import { splitLines } from './text-util.js';
import { basename, extname } from 'node:path';
import { anchorKeySections } from './plan-shape.js';
import { groupTitle, leadTitle, tableHeaderTitle, TITLE_SCAN_CHARS, TITLE_SCAN_LINES } from './titles.js';

/** Target characters per paragraph group. */
export const GROUP_TARGET_CHARS = 2500;
export { GROUP_TITLE_CHARS } from './titles.js';

/**
 * A group closed early, at a wider gap than the one it is full at, keeps at least this share of the
 * target: a group ends where the text itself leaves more blank lines (between the questions of a
 * FAQ, between sections) rather than between a paragraph and the one that follows on from it.
 */
export const GROUP_MIN_SHARE = 0.5;

/** A paragraph's size in characters and the blank lines before it (0 for the first). */
interface Sized { size: number; gap: number }

/**
 * Paragraphs gathered into groups of about `target` characters. A full group ends at the widest
 * gap among its later paragraphs when that gap is wider than the one before the paragraph that
 * does not fit, and the group keeps GROUP_MIN_SHARE of the target; the paragraphs after that gap
 * open the next group.
 */
export function groupParagraphs<P extends Sized>(paras: P[], target: number): P[][] {
  const groups: P[][] = [];
  let cur: P[] = [];
  let size = 0;
  for (const p of paras) {
    if (cur.length > 0 && size + p.size > target) {
      const cut = widerGapCut(cur, p.gap, target);
      groups.push(cur.slice(0, cut));
      cur = cur.slice(cut);
      size = cur.reduce((s, q) => s + q.size, 0);
    }
    cur.push(p);
    size += p.size;
  }
  if (cur.length) groups.push(cur);
  return groups;
}

/** Where a full group ends: before its last paragraph after a gap wider than `gap` (keeping the minimum share), else at its end. */
function widerGapCut(cur: Sized[], gap: number, target: number): number {
  let kept = cur.reduce((s, q) => s + q.size, 0);
  let best = cur.length;
  let widest = gap;
  for (let j = cur.length - 1; j > 0; j--) {
    kept -= cur[j]!.size;
    if (kept < GROUP_MIN_SHARE * target) break;
    if (cur[j]!.gap > widest) {
      widest = cur[j]!.gap;
      best = j;
    }
  }
  return best;
}

/** A paragraph: 1-based inclusive lines, its length joined with newlines (the text itself is not copied) and the blank lines before it. */
interface Para extends Sized { start: number; end: number }

/**
 * A "paragraph" (lines without a blank one between) longer than this is cut at line ends into
 * pieces of about the group target: a Debian changelog (no blank line inside an entry of 1,289
 * lines) and PostScript or log files (none at all) were one node of up to 12.7 MB.
 */
export const MAX_PARAGRAPH_CHARS = 4 * GROUP_TARGET_CHARS;

/** Line pieces of lines [start, end] (1-based) of about GROUP_TARGET_CHARS each; `len(i)` is line i's length. */
function linePieces(start: number, end: number, len: (line: number) => number): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = [];
  let a = start;
  let size = 0;
  for (let i = start; i <= end; i++) {
    size += len(i) + 1;
    if (size >= GROUP_TARGET_CHARS || i === end) {
      out.push([a, i, size - 1]);
      a = i + 1;
      size = 0;
    }
  }
  return out;
}

/** Paragraphs with each one over MAX_PARAGRAPH_CHARS cut into line pieces (the first keeps its gap, the others none). */
function cutLong(paras: Para[], lines: string[]): Para[] {
  if (!paras.some((p) => p.size > MAX_PARAGRAPH_CHARS)) return paras;
  return paras.flatMap((p) => p.size <= MAX_PARAGRAPH_CHARS ? [p] : linePieces(p.start, p.end, (i) => lines[i - 1]!.length).map(([start, end, size], k) => ({ start, end, size, gap: k === 0 ? p.gap : 0 })));
}

/**
 * Whether the paragraph after a blank run goes on with the sentence before it: the line before
 * ends in a word, a number, a comma or a hyphen and the next opens in lower case. A page break
 * of paged text leaves such a run inside a sentence ("…cast spells and read" / "spellbooks." across
 * NetHack's guidebook pages); the run is then no place to end a group (gap 0), and a group does not
 * open, titled by the sentence's tail, there.
 */
export function continuesSentence(before: string, after: string): boolean {
  return /[\p{L}\p{N},-]\s*$/u.test(before) && /^\s*\p{Ll}/u.test(after);
}

function paragraphs(lines: string[]): Para[] {
  const out: Para[] = [];
  let start = -1;
  let size = 0;
  let blank = 0;
  let gap = 0;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      if (start >= 0) {
        out.push({ start: start + 1, end: i, size: size - 1, gap });
        blank = 0;
      }
      blank++;
      start = -1;
    } else {
      if (start < 0) {
        start = i;
        size = 0;
        gap = out.length === 0 ? 0 : continuesSentence(lines[out[out.length - 1]!.end - 1]!, l) ? 0 : blank;
        blank = 0;
      }
      size += l.length + 1;
    }
  });
  if (start >= 0) out.push({ start: start + 1, end: lines.length, size: size - 1, gap });
  return cutLong(out, lines);
}

/** Title of a group of lines [start, end] (1-based): its first prose line (titles.ts). */
function titleOf(lines: string[], start: number, end: number): string {
  return groupTitle(lines.slice(start - 1, Math.min(end, start - 1 + TITLE_SCAN_LINES))) || `lines ${start}–${end}`;
}

/** Paragraph groups of about `target` characters over lines [from, to] (1-based, inclusive). */
export function paragraphNodes(lines: string[], target: number, from = 1, to = lines.length): ConvertedNode[] {
  const paras = paragraphs(lines.slice(from - 1, to)).map((p) => ({ ...p, start: p.start + from - 1, end: p.end + from - 1 }));
  return groupParagraphs(paras, target).map((g) => {
    const start = g[0]!.start;
    const end = g[g.length - 1]!.end;
    return { title: titleOf(lines, start, end), kind: 'paragraphs', line_range: [start, end], content: lines.slice(start - 1, end).join('\n'), children: [] };
  });
}

/**
 * A paragraph of the whole text: 1-based inclusive lines and its character range [from, to) (line
 * breaks inside included, the last one not). The chunked reading of a whole file slices node text
 * from the decoded text by range instead of copying it line by line: a 200 MB file is held once.
 */
interface TextPara extends Sized { start: number; end: number; from: number; to: number }

/** White space as String.prototype.trim (and \s) sees it. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Paragraphs of the text and its number of lines, as splitLines would count them. */
function textParagraphs(text: string): { paras: TextPara[]; lineCount: number } {
  const paras: TextPara[] = [];
  let cur: TextPara | null = null;
  let line = 0;
  let blank = 0;
  for (let pos = 0; ;) {
    const nl = text.indexOf('\n', pos);
    if (nl < 0 && pos === text.length && line > 0) break; // the empty "line" after a final newline
    const end = nl < 0 ? text.length : nl;
    line++;
    if (isBlank(text, pos, end)) {
      if (cur) {
        paras.push(cur);
        blank = 0;
      }
      blank++;
      cur = null;
    } else if (!cur) {
      const prev = paras[paras.length - 1];
      const gap = !prev ? 0 : continuesSentence(text.slice(text.lastIndexOf('\n', prev.to - 1) + 1, prev.to), text.slice(pos, end)) ? 0 : blank;
      cur = { start: line, end: line, from: pos, to: end, size: 0, gap };
      blank = 0;
    } else {
      cur.end = line;
      cur.to = end;
    }
    if (nl < 0) break;
    pos = nl + 1;
  }
  if (cur) paras.push(cur);
  for (const p of paras) p.size = p.to - p.from;
  return { paras: paras.some((p) => p.size > MAX_PARAGRAPH_CHARS) ? paras.flatMap((p) => (p.size > MAX_PARAGRAPH_CHARS ? cutTextPara(text, p) : [p])) : paras, lineCount: line };
}

/** A long paragraph of the whole text cut into linePieces (the same cuts as by lines), with their character ranges. */
function cutTextPara(text: string, p: TextPara): TextPara[] {
  const starts: number[] = [];
  for (let pos = p.from; pos <= p.to; ) {
    starts.push(pos);
    const nl = text.indexOf('\n', pos);
    if (nl < 0 || nl >= p.to) break;
    pos = nl + 1;
  }
  const lineStart = (line: number) => starts[line - p.start]!;
  const lineEnd = (line: number) => (line === p.end ? p.to : lineStart(line + 1) - 1);
  return linePieces(p.start, p.end, (i) => lineEnd(i) - lineStart(i)).map(([start, end], k) => {
    const from = lineStart(start);
    const to = lineEnd(end);
    return { start, end, from, to, size: to - from, gap: k === 0 ? p.gap : 0 };
  });
}

/**
 * A copy of a short string that does not keep the string it was cut from alive (V8 represents a
 * slice as a view of its parent): titles outlive the source's text in the catalog.
 */
function detached(s: string): string {
  return s.split('').join('');
}

/** Offset of the first character at or after `from` (before `to`) that is not white space; `from` when there is none. */
function firstVisible(text: string, from: number, to: number): number {
  const re = /\S/g;
  re.lastIndex = from;
  const m = re.exec(text);
  return m && m.index < to ? m.index : from;
}

/** paragraphNodes over the whole text, by character ranges (same nodes, no copies of the text). */
function textParagraphNodes(text: string, paras: TextPara[], target: number): ConvertedNode[] {
  return groupParagraphs(paras, target).map((g) => {
    const first = g[0]!;
    const last = g[g.length - 1]!;
    // (the scan starts at the group's first visible character: a line indented by thousands of blanks still gets a title)
    const from = firstVisible(text, first.from, last.to);
    const found = groupTitle(text.slice(from, Math.min(last.to, from + TITLE_SCAN_CHARS)).split('\n', TITLE_SCAN_LINES));
    const title = found ? detached(found) : `lines ${first.start}–${last.end}`;
    return { title, kind: 'paragraphs', line_range: [first.start, last.end], content: text.slice(first.from, last.to), children: [] };
  });
}

/** A text's title from its first lines `head` (of `lineCount`): a table's file name and columns, else its first line, else the file name. */
function documentTitle(head: readonly string[], filename: string, lineCount: number): string {
  const base = basename(filename, extname(filename));
  const firstLine = leadTitle(head);
  return tableHeaderTitle(head, base) ?? (firstLine && lineCount > 1 ? detached(firstLine) : base);
}

/** A root over `children`; a single child is folded into the root. */
function rootOver(title: string, lineCount: number, children: ConvertedNode[]): ConvertedNode {
  const root: ConvertedNode = { title, kind: 'document', line_range: [1, Math.max(1, lineCount)], children };
  if (children.length === 1 && children[0]!.children.length === 0) {
    root.content = children[0]!.content;
    root.children = [];
  }
  return root;
}

export function convertPlainText(text: string, filename: string, target = GROUP_TARGET_CHARS): ConvertResult {
  const { paras, lineCount } = textParagraphs(text);
  const from = paras.length ? firstVisible(text, paras[0]!.from, text.length) : 0;
  const head = paras.length ? text.slice(from, from + TITLE_SCAN_CHARS).split('\n', TITLE_SCAN_LINES) : [];
  const title = documentTitle(head, filename, lineCount);
  return { title, toc_source: 'paragraphs', root: rootOver(title, lineCount, textParagraphNodes(text, paras, target)), line_count: lineCount };
}

/**
 * Top-level sections at the lines where the plan's key sections start (text before the first is
 * the document's own text); a section longer than `target` characters is read in paragraph groups.
 * Null when no key section is found.
 */
export function keySectionTree(text: string, filename: string, keys: string[], target: number): { result: ConvertResult; missing: string[] } | null {
  const lines = splitLines(text);
  const { anchors, missing } = anchorKeySections(keys, lines);
  if (anchors.length === 0) return null;
  const title = documentTitle(lines.slice(0, TITLE_SCAN_LINES), filename, lines.length);
  const children = anchors.map((a, i): ConvertedNode => {
    const start = a.index + 1;
    const end = i + 1 < anchors.length ? anchors[i + 1]!.index : lines.length;
    const body = lines.slice(start - 1, end).join('\n');
    const node: ConvertedNode = { title: lines[a.index]!.trim(), kind: 'section', line_range: [start, end], children: [] };
    if (body.length <= target) node.content = body;
    else node.children = paragraphNodes(lines, target, start, end);
    return node;
  });
  const root = rootOver(title, lines.length, children);
  const front = anchors[0]!.index;
  if (front > 0 && lines.slice(0, front).some((l) => l.trim())) root.content = lines.slice(0, front).join('\n');
  return { result: { title, toc_source: 'plan', approach: 'tree_index', root, line_count: lines.length }, missing };
}

