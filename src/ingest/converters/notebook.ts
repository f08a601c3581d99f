/**
 * Jupyter notebooks (.ipynb): the outline from the headings of the Markdown cells, each section
 * holding its cells as a reader of the notebook sees them (Markdown as written, code fenced in the
 * kernel's language, text outputs after it, clipped), and the line range of those cells in the .ipynb
 * file itself, so a citation points into the file. The title is the first level-1 heading (else
 * the notebook metadata's title, else the file name). Read as generic JSON, a notebook's outline was
 * "cells / metadata / nbformat". The tree itself is the Markdown converter's (convertMarkdownText)
 * over the rendered notebook; its line ranges are mapped back to the file's.
 */
import { basename, extname } from 'node:path';
import type { PlanDirectives } from '../../model/plan.js';
import { convertMarkdownText } from './markdown.js';
import { followPlan, type Capabilities } from './plan-shape.js';
import { ConvertError, PRIORITY_SPECIFIC, type ConvertedNode, type Converter, type ConverterRegistration, type ConvertResult } from './types.js';
import { decodeNonEmptyText, lineLocator } from './text-util.js';

/**
 * Characters of a code cell's text outputs kept (a long table or log printed by the cell is clipped,
 * and says so). 20,000 rather than 1,500: the fluids notebook's table of pipe roughnesses, printed as
 * a dict of 160 entries, was cut after 40, and an agent asking for one of the others searched five
 * more times for text the index did not hold, told nothing of the cut.
 */
export const OUTPUT_MAX_CHARS = 20_000;

interface Cell {
  cell_type?: string;
  source?: string | string[];
  /** nbformat 3: a code cell's source, and a heading cell's level */
  input?: string | string[];
  level?: number;
  outputs?: Array<{ output_type?: string; text?: string | string[]; data?: Record<string, unknown>; ename?: string; evalue?: string }>;
}

interface Notebook {
  cells?: Cell[];
  worksheets?: Array<{ cells?: Cell[] }>;
  metadata?: { title?: unknown; kernelspec?: { language?: unknown }; language_info?: { name?: unknown } };
}

const joined = (v: string | string[] | undefined): string => (Array.isArray(v) ? v.join('') : (v ?? ''));

/** Where the JSON value starting at `at` ends (exclusive), strings and nesting honoured. */
function valueEnd(s: string, at: number): number {
  let depth = 0;
  for (let i = at; i < s.length; i++) {
    const c = s[i];
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
      if (depth === 0) return i + 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && (c === ',' || c === '}' || c === ']')) return i;
  }
  return s.length;
}

/** The [start, end) offsets of the elements of the array whose '[' is at `open`. */
function elementSpans(s: string, open: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = open + 1;
  for (;;) {
    while (i < s.length && /[\s,]/.test(s[i]!)) i++;
    if (i >= s.length || s[i] === ']') return out;
    const end = valueEnd(s, i);
    out.push([i, end]);
    i = end;
  }
}

/** The offset of the value of `key` among the members of the object spanning [from, to) (its own members only), or -1. */
function memberValue(s: string, from: number, to: number, key: string): number {
  let i = from + 1;
  while (i < to) {
    while (i < to && /[\s,]/.test(s[i]!)) i++;
    if (s[i] !== '"') return -1;
    const nameEnd = valueEnd(s, i);
    const name = s.slice(i + 1, nameEnd - 1);
    i = nameEnd;
    while (i < to && /[\s:]/.test(s[i]!)) i++;
    if (name === key) return i;
    i = valueEnd(s, i);
  }
  return -1;
}


/**
 * Per cell, the file line of each line of its source: an element of a "source" array written on a
 * line of its own (as Jupyter writes them) gives its lines that line; one string holding many lines
 * gives them all its line. Null when the cells cannot be found in the text as parsed.
 */
function sourceLines(text: string, cellCount: number): number[][] | null {
  const top = text.indexOf('{');
  let cellsAt = top < 0 ? -1 : memberValue(text, top, text.length, 'cells');
  if (cellsAt < 0 && top >= 0) {
    // nbformat 3: the cells of the first worksheet
    const sheets = memberValue(text, top, text.length, 'worksheets');
    const first = sheets >= 0 && text[sheets] === '[' ? elementSpans(text, sheets)[0] : undefined;
    cellsAt = first ? memberValue(text, first[0], first[1], 'cells') : -1;
  }
  if (cellsAt < 0 || text[cellsAt] !== '[') return null;
  const spans = elementSpans(text, cellsAt);
  if (spans.length !== cellCount) return null;
  const line = lineLocator(text).lineAt;
  return spans.map(([a, b]) => {
    let src = memberValue(text, a, b, 'source');
    if (src < 0) src = memberValue(text, a, b, 'input');
    if (src < 0) return [line(a)];
    if (text[src] !== '[') return [line(src)];
    const out: number[] = [];
    for (const [ea, eb] of elementSpans(text, src)) {
      let value: string;
      try {
        value = JSON.parse(text.slice(ea, eb)) as string;
      } catch {
        value = '';
      }
      const n = value.endsWith('\n') ? value.split('\n').length - 1 : value.split('\n').length;
      for (let k = 0; k < Math.max(1, n); k++) out.push(line(ea));
    }
    return out.length ? out : [line(src)];
  });
}

/** A code cell's text outputs (streams, plain-text results, errors), clipped to OUTPUT_MAX_CHARS. */
function outputsOf(cell: Cell): string {
  const parts: string[] = [];
  for (const o of cell.outputs ?? []) {
    if (o.output_type === 'stream') parts.push(joined(o.text));
    else if (o.output_type === 'error') parts.push(`${o.ename ?? 'Error'}: ${o.evalue ?? ''}`);
    else if (o.data && typeof o.data === 'object') {
      const plain = o.data['text/plain'];
      if (typeof plain === 'string' || Array.isArray(plain)) parts.push(joined(plain as string | string[]));
      else if (o.data['image/png'] || o.data['image/jpeg'] || o.data['image/svg+xml']) parts.push('[image]');
    }
  }
  const out = parts.join('\n').replace(/\n+$/, '');
  return out.length > OUTPUT_MAX_CHARS ? `${out.slice(0, OUTPUT_MAX_CHARS)}…\n[output cut here: ${(out.length - OUTPUT_MAX_CHARS).toLocaleString('en-US')} more characters are in the notebook file]` : out;
}

/** The notebook rendered as Markdown, with the file line of each rendered line. */
function render(cells: Cell[], language: string, lines: number[][] | null, lastLine: number): { text: string; fileLine: number[] } {
  const text: string[] = [];
  const fileLine: number[] = [];
  const push = (l: string, at: number) => {
    text.push(l);
    fileLine.push(at);
  };
  let before = 1;
  cells.forEach((cell, k) => {
    const own = lines?.[k] ?? [1];
    const first = own[0]!;
    const last = own[own.length - 1]!;
    const src = joined(cell.source ?? cell.input).replace(/\n$/, '').split('\n');
    const at = (i: number) => (lines ? (own[Math.min(i, own.length - 1)] ?? first) : lastLine);
    // the blank line between two cells belongs to the one above (a section ends where the next cell begins)
    if (text.length) push('', before);
    before = last;
    if (cell.cell_type === 'markdown') src.forEach((l, i) => push(l, at(i)));
    // nbformat 3's heading cell: its level as a Markdown heading
    else if (cell.cell_type === 'heading') push(`${'#'.repeat(Math.min(6, Math.max(1, cell.level ?? 1)))} ${src.join(' ').trim()}`, first);
    else if (cell.cell_type === 'code') {
      if (!src.join('').trim()) return;
      push(`\`\`\`${language}`, first);
      src.forEach((l, i) => push(l, at(i)));
      push('```', last);
      const out = outputsOf(cell);
      if (out) {
        push('', last);
        push('Output:', last);
        push('```text', last);
        for (const l of out.split('\n')) push(l, last);
        push('```', last);
      }
    } else src.forEach((l, i) => push(l, at(i)));
  });
  return { text: text.join('\n'), fileLine };
}

/** Rendered-line ranges mapped to the file's lines, through the whole tree. */
function mapLines(n: ConvertedNode, fileLine: number[], whole: [number, number]): void {
  if (n.line_range) {
    const [a, b] = n.line_range;
    n.line_range = n.kind === 'document' ? whole : [fileLine[a - 1] ?? whole[0], Math.max(fileLine[a - 1] ?? whole[0], fileLine[b - 1] ?? whole[1])];
  }
  for (const c of n.children) mapLines(c, fileLine, whole);
}

/** What the notebook converter does with each plan field (see ./plan-shape.ts). */
const NOTEBOOK_CAPS: Capabilities = {
  approaches: ['tree_index', 'chunk_embed'],
  keySections: 'a notebook is split at the headings of its Markdown cells',
  tablesAsRows: 'a notebook\'s tables are kept as their cells print them',
  twoColumns: 'a notebook has no page layout',
  plaintext: { native: null, reason: '' },
  estimatedNodes: 'a notebook tree follows the headings of its Markdown cells',
};

/** A Jupyter notebook as a heading tree (see the file comment). */
export function convertNotebookText(text: string, filename: string, plan?: PlanDirectives): ConvertResult {
  let nb: Notebook;
  try {
    nb = JSON.parse(text) as Notebook;
  } catch (err) {
    throw new ConvertError(`The notebook is not valid JSON (${(err as Error).message}).`, 'Open and save it again in Jupyter, or check that the file is complete.');
  }
  const cells = nb.cells ?? nb.worksheets?.[0]?.cells;
  if (!Array.isArray(cells)) throw new ConvertError('The file has no notebook cells ("cells").', 'Is this a Jupyter notebook? Other JSON files should end in .json.');
  const language = String(nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.language ?? '');
  const lineCount = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const { text: md, fileLine } = render(cells, language, sourceLines(text, cells.length), lineCount);
  const tree = convertMarkdownText(md, filename);
  const metaTitle = typeof nb.metadata?.title === 'string' ? nb.metadata.title.trim() : '';
  const stem = basename(filename, extname(filename));
  const title = tree.title !== stem ? tree.title : metaTitle || stem;
  tree.root.title = title;
  mapLines(tree.root, fileLine, [1, Math.max(1, lineCount)]);
  const result: ConvertResult = {
    ...tree,
    title,
    line_count: lineCount,
    card: { ...tree.card, title, doc_type: 'notebook' },
    meta: { cells: String(cells.length), code_cells: String(cells.filter((c) => c.cell_type === 'code').length), ...(language ? { language } : {}) },
  };
  return followPlan(result, plan, NOTEBOOK_CAPS, 'a notebook');
}

export const notebookConverter: Converter = {
  name: 'notebook',
  version: 4,
  async convert({ bytes, card, options }) {
    const text = decodeNonEmptyText(bytes);
    return convertNotebookText(text, card.filename, options.plan);
  },
};

/** A Jupyter notebook by its name. */
export const notebookRegistration: ConverterRegistration = {
  converter: notebookConverter,
  formats: [{ type: 'notebook', mime: 'application/x-ipynb+json', extensions: ['.ipynb'], priority: PRIORITY_SPECIFIC }],
};
