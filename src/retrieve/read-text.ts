/**
 * Reading text out of converted files: a node (its own text, then its descendants' in document
 * order, read only as far as needed), a page range (cut at `<!-- page N -->` markers) or a line
 * range (text and code sources, from the nodes' line ranges).
 */
import type { TreeFile, TreeNode } from '../store/schemas.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { readContent } from './store-read.js';
import { textWindow, type TextWindow } from './bounded.js';

/** Pages returned by one --pages read; larger ranges are clamped and a `next` range is given. */
export const MAX_PAGES_PER_READ = 30;
/** Lines returned by one --lines read. */
export const MAX_LINES_PER_READ = 2000;

const PAGE_MARK_LINE = /^<!-- page (\d+) -->$/;
const PAGE_MARK_GLOBAL = /^<!-- page (\d+) -->$/gm;
const NODE_SEPARATOR = '\n\n';
/**
 * Source types whose node text keeps the file's lines one for one from the node's first line on: as
 * written (text, Markdown) or each line rendered as a reader sees it (LaTeX). A man page's text is
 * filled paragraphs.
 */
const LINE_FAITHFUL: ReadonlySet<string> = new Set(['text', 'markdown', 'latex']);
/**
 * Source types whose node text is its lines as written only when it has every line of its range: a
 * code symbol without members (a class elides its members' lines, so its text is shorter).
 */
const WHOLE_RANGE_FAITHFUL: ReadonlySet<string> = new Set(['code']);

export interface NodeRead extends TextWindow {
  /** pages spanned by the returned text (from its page markers), when the source is paged */
  pages?: [number, number];
  /** ids of the nodes whose text is (partly) in the window */
  nodes_read: string[];
  /**
   * Where the text of each node read starts in the joined text (`at`, up to `end`) and the file line
   * it begins on, for nodes whose text is their file's lines as written (text and Markdown sources)
   */
  line_starts?: Array<{ at: number; end: number; line: number }>;
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function preorder(n: TreeNode, out: TreeNode[] = []): TreeNode[] {
  out.push(n);
  for (const c of n.children) preorder(c, out);
  return out;
}

/** Source types whose node texts are their file's lines rendered (an HTML page's text without its markup, a man page's filled paragraphs). */
export function linesRendered(type: string): boolean {
  return !LINE_FAITHFUL.has(type) && !WHOLE_RANGE_FAITHFUL.has(type);
}

/**
 * --lines of a source whose text is not its file's lines one for one: the own text of each node
 * whose lines meet the range, in reading order (the markup of an HTML page's lines is not shown).
 */
function renderedLines(root: string, tree: TreeFile, range: [number, number], next: [number, number] | null, pastEnd: number | null, opts: { offset: number; maxChars: number }): RangeRead {
  const used: string[] = [];
  const texts: string[] = [];
  for (const n of preorder(tree.root)) {
    if (!n.content_ref || !n.line_range || n.line_range[0] > range[1] || n.line_range[1] < range[0]) continue;
    // a node holding the whole range stands for its parts: only the nodes nearest the range are read
    if (n.children.some((c) => c.line_range && c.line_range[0] <= range[1] && c.line_range[1] >= range[0]) && n.line_range[0] < range[0]) continue;
    const text = readContent(root, tree.id, n.content_ref).replace(/\n+$/, '');
    if (!text) continue;
    texts.push(text);
    used.push(n.node_id);
  }
  return { ...textWindow(texts.join(NODE_SEPARATOR), opts.offset, opts.maxChars), range, next_range: next, past_end: pastEnd, nodes_read: used };
}

/** Whether a node's text is its file's lines from the first of its range on (see LINE_FAITHFUL, WHOLE_RANGE_FAITHFUL). */
function linesAsWritten(type: string, raw: string, range: [number, number]): boolean {
  const count = lineCount(raw.endsWith('\n') ? raw.slice(0, -1) : raw);
  const span = range[1] - range[0] + 1;
  return LINE_FAITHFUL.has(type) ? count <= span : WHOLE_RANGE_FAITHFUL.has(type) && count === span;
}

/** Page in force at `pos` in text carrying page markers (the last marker at or before pos). */
function pageAt(text: string, pos: number, fallback: number | undefined): number | undefined {
  let page = fallback;
  PAGE_MARK_GLOBAL.lastIndex = 0;
  for (let m = PAGE_MARK_GLOBAL.exec(text); m && m.index <= pos; m = PAGE_MARK_GLOBAL.exec(text)) page = Number(m[1]);
  return page;
}

/**
 * A node's text: its own content then each descendant's in pre-order, separated by blank lines.
 * Files are read only until the window (offset + maxChars) is filled.
 */
export function readNodeText(root: string, tree: TreeFile, node: TreeNode, opts: { offset: number; maxChars: number; withChildren: boolean }): NodeRead {
  const nodes = opts.withChildren ? preorder(node) : [node];
  const need = opts.offset + opts.maxChars + 1;
  let full = '';
  const starts: Array<{ id: string; at: number; first?: number }> = [];
  const lineStarts: Array<{ at: number; end: number; line: number }> = [];
  let more = false;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (!n.content_ref) continue;
    if (full.length >= need) {
      more = true;
      break;
    }
    const raw = readContent(root, tree.id, n.content_ref);
    const text = raw.replace(/\n+$/, '');
    if (!text) continue;
    if (full) full += NODE_SEPARATOR;
    starts.push({ id: n.node_id, at: full.length, ...(n.page_range ? { first: n.page_range[0] } : {}) });
    // text and Markdown nodes hold the file's own lines from their first on (their sections' lines follow in theirs)
    if (n.line_range && linesAsWritten(tree.type, raw, n.line_range)) lineStarts.push({ at: full.length, end: full.length + text.length, line: n.line_range[0] });
    full += text;
  }
  const win = textWindow(full, opts.offset, opts.maxChars, more);
  const end = win.offset + win.text.length;
  const inWindow = starts.filter((s, i) => s.at < end && (starts[i + 1]?.at ?? Infinity) > win.offset);
  const out: NodeRead = { ...win, nodes_read: inWindow.map((s) => s.id), ...(lineStarts.length ? { line_starts: lineStarts } : {}) };
  if (node.page_range && inWindow.length > 0) {
    const firstNode = [...starts].reverse().find((s) => s.at <= win.offset) ?? starts[0]!;
    const lastNode = [...starts].reverse().find((s) => s.at < end) ?? firstNode;
    const a = pageAt(full, win.offset, firstNode.first ?? node.page_range[0]);
    const b = pageAt(full, Math.max(win.offset, end - 1), lastNode.first ?? node.page_range[0]);
    if (a !== undefined && b !== undefined) out.pages = [Math.min(a, b), Math.max(a, b)];
  }
  return out;
}

function overlaps(r: [number, number] | undefined, a: number, b: number): boolean {
  return !!r && r[0] <= b && r[1] >= a;
}

export interface RangeRead extends TextWindow {
  range: [number, number];
  /** the range to ask for next when this one was clamped */
  next_range: [number, number] | null;
  /** the source's last page/line, when the range asked for went past it (the answer stops there) */
  past_end: number | null;
  nodes_read: string[];
}

function clampRange(a: number, b: number, last: number | undefined, maxSpan: number, what: string, id: string): { a: number; b: number; next: [number, number] | null; pastEnd: number | null } {
  if (last !== undefined && a > last) {
    throw new UserError(`Source ${id} has ${last} ${what}s; ${what} ${a} does not exist.`, `Expected a ${what} range within 1-${last}.`, EXIT.NOT_FOUND);
  }
  const pastEnd = last !== undefined && b > last ? last : null;
  let end = last !== undefined ? Math.min(b, last) : b;
  let next: [number, number] | null = null;
  if (end - a + 1 > maxSpan) {
    const cut = a + maxSpan - 1;
    next = [cut + 1, end];
    end = cut;
  }
  return { a, b: end, next, pastEnd };
}

/** Pages A-B of a paged source, each introduced by its `<!-- page N -->` marker. */
export function readPages(root: string, tree: TreeFile, from: number, to: number, opts: { offset: number; maxChars: number }): RangeRead {
  if (!tree.root.page_range && tree.page_count === undefined) {
    throw new UserError(`Source ${tree.id} (${tree.file}) has no pages.`, tree.root.line_range ? 'Expected --lines A-B for this text source.' : tree.root.row_range ? 'Expected --rows A-B for this spreadsheet.' : 'Read it by node id instead.', EXIT.USAGE);
  }
  const last = tree.page_count ?? tree.root.page_range?.[1];
  const { a, b, next, pastEnd } = clampRange(from, to, last, MAX_PAGES_PER_READ, 'page', tree.id);
  const parts = new Map<number, string[]>();
  const used: string[] = [];
  for (const n of preorder(tree.root)) {
    if (!n.content_ref || !overlaps(n.page_range, a, b)) continue;
    const text = readContent(root, tree.id, n.content_ref);
    let page = n.page_range![0];
    let buf: string[] = [];
    let took = false;
    const flush = () => {
      const t = buf.join('\n').trim();
      if (t && page >= a && page <= b) {
        const list = parts.get(page) ?? [];
        list.push(t);
        parts.set(page, list);
        took = true;
      }
      buf = [];
    };
    for (const line of text.split('\n')) {
      const m = PAGE_MARK_LINE.exec(line);
      if (m) {
        flush();
        page = Number(m[1]);
      } else buf.push(line);
    }
    flush();
    if (took) used.push(n.node_id);
  }
  const pages: string[] = [];
  for (let p = a; p <= b; p++) pages.push(`<!-- page ${p} -->\n${(parts.get(p) ?? []).join(NODE_SEPARATOR)}`);
  const win = textWindow(pages.join('\n\n'), opts.offset, opts.maxChars);
  return { ...win, range: [a, b], next_range: next, past_end: pastEnd, nodes_read: used };
}

/** A line standing for children's elided text in a parent's own content (code skeletons). */
const ELISION_LINE = /^\s*(\/\/|#|--|;|\/\*)?\s*(…|\.\.\.)\s*(\*\/)?\s*$/;

/**
 * Place a node's own content lines on source lines: from the start of its range, in order,
 * skipping the lines its children cover (their own text places them). An elision line (`// …`)
 * stands for the next child and is not itself a source line.
 */
function placeOwnLines(n: TreeNode, own: string[], into: Map<number, string>): boolean {
  const kids = n.children.map((c) => c.line_range).filter((r): r is [number, number] => !!r).sort((x, y) => x[0] - y[0]);
  const end = n.line_range![1];
  let pos = n.line_range![0];
  let took = false;
  const skipChildren = () => {
    for (let moved = true; moved; ) {
      moved = false;
      for (const r of kids) {
        if (pos >= r[0] && pos <= r[1]) {
          pos = r[1] + 1;
          moved = true;
        }
      }
    }
  };
  for (const line of own) {
    if (ELISION_LINE.test(line) && kids.some((r) => r[0] >= pos)) {
      const next = kids.find((r) => r[0] >= pos)!;
      pos = next[1] + 1;
      continue;
    }
    skipChildren();
    if (pos > end) break;
    if (!into.has(pos)) {
      into.set(pos, line);
      took = true;
    }
    pos++;
  }
  return took;
}

/** Lines A-B of a text or code source, rebuilt from the nodes' own text and line ranges. */
export function readLines(root: string, tree: TreeFile, from: number, to: number, opts: { offset: number; maxChars: number }): RangeRead {
  if (!tree.root.line_range) {
    throw new UserError(`Source ${tree.id} (${tree.file}) has no line ranges.`, tree.root.page_range ? 'Expected --pages A-B for this paged source.' : tree.root.row_range ? 'Expected --rows A-B for this spreadsheet.' : 'Read it by node id instead.', EXIT.USAGE);
  }
  const last = tree.line_count ?? tree.root.line_range[1];
  const { a, b, next, pastEnd } = clampRange(from, to, last, MAX_LINES_PER_READ, 'line', tree.id);
  if (linesRendered(tree.type)) return renderedLines(root, tree, [a, b], next, pastEnd, opts);
  const lines = new Map<number, string>();
  const used: string[] = [];
  for (const n of preorder(tree.root)) {
    if (!n.content_ref || !n.line_range || n.line_range[0] > b || n.line_range[1] < a) continue;
    const own = readContent(root, tree.id, n.content_ref).replace(/\n$/, '').split('\n');
    const mine = new Map<number, string>();
    placeOwnLines(n, own, mine);
    let took = false;
    for (const [ln, text] of mine) {
      if (ln >= a && ln <= b && !lines.has(ln)) {
        lines.set(ln, text);
        took = true;
      }
    }
    if (took) used.push(n.node_id);
  }
  const out: string[] = [];
  for (let ln = a; ln <= b; ln++) out.push(lines.get(ln) ?? '');
  const win = textWindow(out.join('\n'), opts.offset, opts.maxChars);
  return { ...win, range: [a, b], next_range: next, past_end: pastEnd, nodes_read: used };
}
