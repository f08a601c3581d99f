/**
 * What converters share to follow the plan (src/model/plan.ts, docs/plan.md): the notes for plan
 * fields a converter cannot honour, the chunk size that meets the planner's estimated_nodes, key
 * sections matched to the lines where they start, and a converted tree flattened into chunks.
 */
import type { Approach } from '../../store/schemas.js';
import type { PlanDirectives, PlanNote } from '../../model/plan.js';
import type { ConvertedNode, ConvertResult } from './types.js';

/** What a converter does with each plan field: null = honoured, a string = why it cannot be. */
export interface Capabilities {
  /** approaches the converter builds; the first is used when the plan's is not among them */
  approaches: readonly Approach[];
  keySections: string | null;
  tablesAsRows: string | null;
  twoColumns: string | null;
  /** the plaintext value the converter produces (null: either), and why the other cannot be */
  plaintext: { native: boolean | null; reason: string };
  estimatedNodes: string | null;
}

/** The approach a converter builds for this plan: the plan's when it can, else its first. */
export function approachFor(plan: PlanDirectives | undefined, caps: Pick<Capabilities, 'approaches'>): Approach {
  if (plan && caps.approaches.includes(plan.approach)) return plan.approach;
  return caps.approaches[0]!;
}

/** The plan fields that ask for something the converter cannot do, each with its reason. */
export function declined(plan: PlanDirectives | undefined, caps: Capabilities, what: string): PlanNote[] {
  if (!plan) return [];
  const notes: PlanNote[] = [];
  if (!caps.approaches.includes(plan.approach)) {
    notes.push({ field: 'recommended_approach', reason: `${plan.approach}: ${what} is converted as ${caps.approaches.join(' or ')}; ${caps.approaches[0]} was used` });
  }
  if (plan.keySections.length && caps.keySections) notes.push({ field: 'key_sections', reason: caps.keySections });
  if (plan.tablesAsRows && caps.tablesAsRows) notes.push({ field: 'special_handling', reason: `tables as rows with header: ${caps.tablesAsRows}` });
  if (plan.twoColumns && caps.twoColumns) notes.push({ field: 'special_handling', reason: `two-column reading: ${caps.twoColumns}` });
  if (caps.plaintext.native !== null && plan.plaintext !== caps.plaintext.native) notes.push({ field: 'convert_to_plaintext', reason: caps.plaintext.reason });
  if (plan.targetNodes !== null && caps.estimatedNodes) notes.push({ field: 'estimated_nodes', reason: caps.estimatedNodes });
  return notes;
}

/** Chunks are never smaller than this many characters, whatever the estimate. */
export const MIN_CHUNK_CHARS = 600;
/** Chunks are never larger than this many characters, whatever the estimate. */
export const MAX_CHUNK_CHARS = 12_000;

/** Characters per chunk so a text of `total` characters gives about `target` chunks (bounded); `fallback` without a target. */
export function chunkChars(total: number, target: number | null, fallback: number): number {
  // an estimate equal to the default size's count (the offline planner's) keeps the default size
  if (!target || target === Math.max(1, Math.ceil(total / fallback))) return fallback;
  return Math.min(MAX_CHUNK_CHARS, Math.max(MIN_CHUNK_CHARS, Math.ceil(total / target)));
}

/** Pages per leaf so `pages` pages give about `target` leaves, never more than `maxLeafPages`. */
export function leafPagesFor(pages: number, target: number | null, maxLeafPages: number): number {
  const max = Math.max(1, maxLeafPages);
  // estimated_nodes only refines: no more leaves than the default size gives → the default size
  if (!target || target <= Math.ceil(pages / max)) return max;
  return Math.min(max, Math.max(1, Math.ceil(pages / target)));
}

/** Lowercase letters and digits only, single spaces: how titles and lines are compared. */
export function normKey(s: string): string {
  return s.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** A key section's characters that must open its line. */
export const ANCHOR_KEY_CHARS = 48;
/** Shortest key (normalised) that can be matched at all. */
export const ANCHOR_MIN_KEY = 3;
/** A matching line may be at most this many normalised characters longer than the key (a heading, not prose). */
export const ANCHOR_LINE_SLACK = 30;
/** A line ending in a page number after the title is a contents entry, not the heading. */
const CONTENTS_ENTRY = /(\.{2,}|\s)\s*\d{1,4}\s*$/;

function opensLine(key: string, line: string): boolean {
  const text = normKey(line);
  if (text.length > key.length + ANCHOR_LINE_SLACK) return false;
  if (!text.startsWith(key.slice(0, ANCHOR_KEY_CHARS))) return false;
  return !(text.length > key.length && CONTENTS_ENTRY.test(line.trim()));
}

/** Every line index a key section could start at, in order. */
function candidates(key: string, lines: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) if (opensLine(key, lines[i]!)) out.push(i);
  return out;
}

export interface Anchor {
  title: string;
  /** 0-based index into the lines searched */
  index: number;
}

function greedy(keys: string[], cands: number[][], from: number): Array<Anchor | null> {
  let after = from - 1;
  return keys.map((title, k) => {
    const i = cands[k]!.find((c) => c > after);
    if (i === undefined) return null;
    after = i;
    return { title, index: i };
  });
}

/**
 * Where each key section starts: the first line after the previous key's that opens with the key
 * (not longer prose, not a contents entry). When all keys sit in a block of a few lines and each
 * recurs later, the block is a contents list and the later occurrences are taken.
 */
export function anchorKeySections(keySections: readonly string[], lines: readonly string[]): { anchors: Anchor[]; missing: string[] } {
  const keys = keySections.filter((k) => normKey(k).length >= ANCHOR_MIN_KEY);
  const cands = keys.map((k) => candidates(normKey(k), lines));
  let found = greedy(keys, cands, 0);
  const hits = found.filter((a): a is Anchor => a !== null);
  if (hits.length >= 2) {
    const span = hits[hits.length - 1]!.index - hits[0]!.index;
    const recurs = hits.every((a) => cands[keys.indexOf(a.title)]!.some((c) => c > hits[hits.length - 1]!.index));
    if (span < hits.length * 3 && recurs) found = greedy(keys, cands, hits[hits.length - 1]!.index + 1);
  }
  const anchors = found.filter((a): a is Anchor => a !== null);
  const missing = keys.filter((_, k) => found[k] === null);
  return { anchors, missing: [...missing, ...keySections.filter((k) => normKey(k).length < ANCHOR_MIN_KEY)] };
}

/** The note for key sections not found where the converter looked. */
export function missingNote(missing: string[], total: number, where: string): PlanNote | null {
  if (missing.length === 0) return null;
  return { field: 'key_sections', reason: `${missing.length} of ${total} not found ${where}: ${missing.map((m) => `"${m}"`).join(', ')}` };
}

function collect(n: ConvertedNode, out: ConvertedNode[]): void {
  if (n.content && n.content.trim()) out.push(n);
  for (const c of n.children) collect(c, out);
}

function cover(a: [number, number] | undefined, b: [number, number] | undefined): [number, number] | undefined {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
}

/** Characters of a chunk's first line used as its title. */
export const CHUNK_TITLE_CHARS = 80;

function chunkNode(parts: ConvertedNode[]): ConvertedNode {
  const first = parts[0]!;
  const firstLine = first.content!.split('\n').map((l) => l.trim()).find(Boolean) ?? first.title;
  const title = firstLine.length > CHUNK_TITLE_CHARS ? `${firstLine.slice(0, CHUNK_TITLE_CHARS - 1).trimEnd()}…` : firstLine;
  const node: ConvertedNode = { title, kind: 'chunk', content: parts.map((p) => p.content!.trim()).join('\n\n'), children: [] };
  let pages: [number, number] | undefined;
  let lines: [number, number] | undefined;
  for (const p of parts) {
    pages = cover(pages, p.page_range);
    lines = cover(lines, p.line_range);
  }
  if (pages) node.page_range = pages;
  if (lines) node.line_range = lines;
  return node;
}

/** The tree's text in reading order, packed into flat chunks of about `target` characters (chunk_embed). */
export function flattenToChunks(root: ConvertedNode, target: number): ConvertedNode {
  const parts: ConvertedNode[] = [];
  collect(root, parts);
  const chunks: ConvertedNode[] = [];
  let cur: ConvertedNode[] = [];
  let size = 0;
  for (const p of parts) {
    const len = p.content!.length;
    if (cur.length && size + len > target) {
      chunks.push(chunkNode(cur));
      cur = [];
      size = 0;
    }
    cur.push(p);
    size += len;
  }
  if (cur.length) chunks.push(chunkNode(cur));
  const out: ConvertedNode = { title: root.title, kind: root.kind ?? 'document', children: chunks };
  if (root.summary) out.summary = root.summary;
  if (root.page_range) out.page_range = root.page_range;
  if (root.line_range) out.line_range = root.line_range;
  if (root.meta) out.meta = root.meta;
  if (chunks.length === 1) {
    out.content = chunks[0]!.content;
    out.children = [];
  }
  return out;
}

/** Web pages and Word documents (HTML through cheerio): headings tree or chunks, tables as labelled rows on request. */
export const DOCUMENT_CAPS: Capabilities = {
  approaches: ['tree_index', 'chunk_embed'],
  keySections: null,
  tablesAsRows: null,
  twoColumns: 'the document has no page layout: text is read in source order',
  plaintext: { native: true, reason: 'the markup is not kept: sections hold the extracted text' },
  estimatedNodes: 'sections follow the document\'s own headings',
};

/** Characters per chunk when a tree is flattened for chunk_embed without an estimate. */
export const FLAT_CHUNK_CHARS = 2500;

function textChars(n: ConvertedNode): number {
  return (n.content?.length ?? 0) + n.children.reduce((s, c) => s + textChars(c), 0);
}

/** Tree sources that are the document's own structure: key sections are not needed there. */
const STRONG_TOC = new Set<ConvertResult['toc_source']>(['bookmarks', 'printed_toc', 'headings', 'symbols', 'schema', 'llm']);

/**
 * Key sections over a tree whose structure is weak (paragraph groups, no line ranges): its text in
 * reading order, cut where each key section starts. Null when none is found.
 */
export function keySectionsOverText(root: ConvertedNode, keys: string[]): { root: ConvertedNode; missing: string[] } | null {
  const parts: ConvertedNode[] = [];
  collect(root, parts);
  const lines = parts.flatMap((p) => p.content!.split('\n'));
  const { anchors, missing } = anchorKeySections(keys, lines);
  if (anchors.length === 0) return null;
  const children = anchors.map((a, i): ConvertedNode => {
    const end = i + 1 < anchors.length ? anchors[i + 1]!.index : lines.length;
    return { title: lines[a.index]!.trim(), kind: 'section', content: lines.slice(a.index, end).join('\n'), children: [] };
  });
  const out: ConvertedNode = { ...root, children };
  const front = lines.slice(0, anchors[0]!.index).join('\n');
  if (front.trim()) out.content = front;
  else delete out.content;
  return { root: out, missing };
}

function withKeySections(out: ConvertResult, plan: PlanDirectives, caps: Capabilities, notes: PlanNote[]): ConvertResult {
  if (!plan.keySections.length || caps.keySections || STRONG_TOC.has(out.toc_source)) return out;
  const k = keySectionsOverText(out.root, plan.keySections);
  const m = k ? missingNote(k.missing, plan.keySections.length, 'at the start of a line') : { field: 'key_sections', reason: `none of ${plan.keySections.length} found at the start of a line` };
  if (m) notes.push(m);
  return k ? { ...out, root: k.root, toc_source: 'plan' } : out;
}

/**
 * The plan applied to a converter's natural result: flat chunks when the plan asks for chunk_embed
 * (and the converter can give them), key sections as the top level when its structure is weak, the
 * approach used, and notes for the fields not honoured.
 */
export function followPlan(result: ConvertResult, plan: PlanDirectives | undefined, caps: Capabilities, what: string): ConvertResult {
  if (!plan || result.skip_reason) return result;
  const approach = approachFor(plan, caps);
  const strong = STRONG_TOC.has(result.toc_source);
  const notes = [...(result.plan_notes ?? []), ...declined(plan, caps, what).filter((n) => !(strong && n.field === 'key_sections'))];
  let out: ConvertResult = { ...result, approach };
  if (approach === 'chunk_embed' && result.approach !== 'chunk_embed') {
    const target = chunkChars(textChars(result.root), plan.targetNodes, FLAT_CHUNK_CHARS);
    out = { ...out, root: flattenToChunks(result.root, target), toc_source: 'paragraphs' };
    if (plan.keySections.length) notes.push({ field: 'key_sections', reason: 'not used: the plan asks for chunk_embed (flat chunks)' });
  } else if (approach === 'tree_index') {
    out = withKeySections(out, plan, caps, notes);
  }
  return notes.length ? { ...out, plan_notes: notes } : out;
}
