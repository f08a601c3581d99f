/**
 * read_source / `mhub read`: the text of a node, a page range, a row range or a line range of one
 * source, bounded, with a citation and the index's freshness.
 */
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import { openStoreLookup, loadTree } from './store-read.js';
import { resolveSource } from './resolve.js';
import { sourceFreshness, type Freshness } from '../search/freshness.js';
import type { CatalogEntry, TreeFile, TreeNode } from '../store/schemas.js';
import { requireNode } from './tree-view.js';
import { DEFAULT_READ_CHARS, MAX_READ_CHARS, parseRange } from './bounded.js';
import { linesRendered, readNodeText, readPages, readLines, type NodeRead } from './read-text.js';
import { sheetNames } from './read-rows.js';
import { densestSpan, fileLines, pageAtPos, PASSAGE_SENTENCE_BACK, PASSAGE_SENTENCE_EXTRA, phraseRegExp, phraseSpan, sentenceEnd, sentenceStart, termWeights } from './snippets.js';
import { readContent } from './store-read.js';
import { makeCitation } from './citation.js';
import { base, findPath, followingNode, nodeById, nodeInfo, rangeArg, type ReadAnswer, type ReadRequest } from './read-info.js';
import { readSheetRows, readSheetStats } from './read-sheet.js';

export type { ReadAnswer, ReadRequest, NodeInfo } from './read-info.js';

export function readSource(root: string, ref: string, req: ReadRequest): ReadAnswer {
  const lookup = openStoreLookup(root);
  const entry = resolveSource(lookup, ref);
  const freshness = sourceFreshness(root, lookup, entry);
  const tree = loadTree(root, entry);
  const maxChars = Math.min(Math.max(1, req.maxChars ?? DEFAULT_READ_CHARS), MAX_READ_CHARS);
  const offset = Math.max(0, req.offset ?? 0);
  const given = [req.pages && '--pages', req.lines && '--lines', req.rows && '--rows', req.stats && '--stats'].filter(Boolean);
  if (given.length > 1) throw new UserError(`Give only one of ${given.join(', ')}.`, 'Expected a single range per read.', EXIT.USAGE);
  // a node and a range: the range, when it is inside the node (its page 15, its lines 40-60)
  if (req.nodeId && (req.pages || req.lines)) rangeInNode(entry, tree, req.nodeId, req.pages ? '--pages' : '--lines', (req.pages ?? req.lines)!);
  const path = req.nodeId && !req.pages && !req.lines ? requireNode(tree, req.nodeId).path : null;

  if (req.around !== undefined && (req.stats || req.rows)) throw new UserError('--around applies to text (a node, --pages or --lines), not to rows or stats.', 'Expected `read_source SRC NODE --around "words"`.', EXIT.USAGE);
  if (req.around !== undefined && !req.around.trim()) throw new UserError('--around needs the words to look for.', 'Expected e.g. --around "total current liabilities".', EXIT.USAGE);
  if (req.around !== undefined && offset > 0) throw new UserError('--around and --offset cannot be combined.', 'Read the window with --around, or page through the whole text with --offset.', EXIT.USAGE);
  const ctx = { root, entry, tree, path, req, maxChars: req.around !== undefined ? MAX_READ_CHARS : maxChars, freshness };
  const answer = req.stats ? readSheetStats(ctx) : req.rows ? readSheetRows(ctx) : req.pages || req.lines ? readRange(ctx, offset) : readNode(ctx, offset);
  if (req.around !== undefined) aroundWindow(root, entry, tree, answer, req.around, req.maxChars === undefined ? AROUND_CHARS : maxChars, req.maxChars === undefined);
  if (lookup.warning) answer.warnings = [lookup.warning];
  return answer;
}

/**
 * Checks that a --pages or --lines range given with a node id lies in the node, which is then read
 * by the range (an agent asked for `read_source SRC 0038 --pages 15` and was refused, a call lost).
 */
function rangeInNode(entry: CatalogEntry, tree: TreeFile, nodeId: string, flag: '--pages' | '--lines', value: string): void {
  const node = requireNode(tree, nodeId).node;
  const [a, b] = parseRange(flag, value);
  const span = flag === '--pages' ? node.page_range : node.line_range;
  const unit = flag === '--pages' ? 'pages' : 'lines';
  if (!span) throw new UserError(`Node ${nodeId} has no ${unit}.`, `Expected \`read_source ${entry.id} ${nodeId}\` or \`read_source ${entry.id} ${flag} ${a}-${b}\`.`, EXIT.USAGE);
  if (b < span[0] || a > span[1]) {
    throw new UserError(`${flag} ${a}-${b} is outside node ${nodeId} (${unit} ${span[0]}-${span[1]}).`, `Read the range alone: \`read_source ${entry.id} ${flag} ${a}-${b}\`; or the node: \`read_source ${entry.id} ${nodeId}\`.`, EXIT.USAGE);
  }
}

/** Characters returned by --around when --max-chars is not given (it sets the window's size). */
export const AROUND_CHARS = 1500;
/**
 * A node read with --around (no --max-chars) at most this long is returned whole, the note saying
 * where the words are: a window of 1,500 characters cut a node of 2,799 before the default an agent
 * needed, which cost an --offset call (cross-domain agent test, stop 47).
 */
export const AROUND_WHOLE_MAX_CHARS = 3000;

/** --around on a short text: all of it, and where the words first occur in it (or where else they do). */
function aroundInWhole(root: string, tree: TreeFile, answer: ReadAnswer, around: string, text: string): void {
  const phrase = phraseSpan(text, around, 1, 0);
  const page = phrase ? pageAtPos(text, phrase.at, answer.citation.pages?.[0]) : undefined;
  const where = phrase ? `"${around}" first occurs at character ${phrase.at}${page !== undefined ? ` (p. ${page})` : ''}` : `"${around}" does not occur in it as written`;
  answer.note = `--around: the text read is ${text.length} characters, shown whole; ${where}.`;
  if (!phrase) answer.note += phraseElsewhere(root, tree, answer, around);
}
/**
 * Share of an --around window placed before the words it is about: what a reader looks for mostly
 * follows them (a definition after its term, a total after its table's caption, a reason after
 * "because"), and a window centred on them cut the answer off.
 */
export const AROUND_LEAD = 0.25;

/**
 * A cut of the text at `pos` moved to the start of the page marker it falls inside ("5 -->" must
 * not open a window, nor "<!-- pa" close one); `pos` itself when it is outside every marker.
 */
export function outsideMark(text: string, pos: number): number {
  const open = text.lastIndexOf('<!--', pos - 1);
  if (open < 0) return pos;
  const close = text.indexOf('-->', open);
  return close >= 0 && pos > open && pos < close + 3 ? open : pos;
}

/**
 * --around: keep only about `chars` characters of the text read, around the first place the words
 * occur as written, else where they are densest (the passage search shows, widened; AROUND_LEAD of
 * it before them), starting with the page marker in force there; the
 * citation names the window's pages. When none of the words occurs, the text is cut to `chars`
 * from its start and the note says so.
 */
function aroundWindow(root: string, entry: CatalogEntry, tree: TreeFile, answer: ReadAnswer, around: string, chars: number, sentences: boolean): void {
  const text = answer.text ?? '';
  if (!text) return;
  if (sentences && answer.mode === 'node' && text.length <= AROUND_WHOLE_MAX_CHARS) {
    aroundInWhole(root, tree, answer, around, text);
    return;
  }
  const phrase = phraseSpan(text, around, chars, AROUND_LEAD);
  const span = phrase ?? densestSpan(text, termWeights(root, entry.id, around), chars, AROUND_LEAD);
  // the default window has whole sentences at both ends, as search's passages have (one had
  // stopped at "(0.3132 − 0.1108)/.3132", before "= 65%"); a size the caller gave is kept to
  const whole = sentences && span;
  const from = outsideMark(text, whole ? sentenceStart(text, span.from, PASSAGE_SENTENCE_BACK) : (span?.from ?? 0));
  const to = outsideMark(text, whole ? sentenceEnd(text, span.to, PASSAGE_SENTENCE_EXTRA) : (span?.to ?? Math.min(text.length, chars)));
  const first = answer.citation.pages?.[0];
  const p0 = pageAtPos(text, from, first);
  const p1 = pageAtPos(text, Math.max(from, to - 1), first);
  const marker = p0 !== undefined && !/^\s*<!-- page \d+ -->/.test(text.slice(from)) ? `<!-- page ${p0} -->\n` : '';
  answer.text = marker + text.slice(from, to).trim();
  answer.chars = answer.text.length;
  answer.note = span
    ? `--around: characters ${from}-${to} of ${text.length}, ${phrase ? `where "${around}" first occurs ${phrase.joined ? 'written as one word' : phrase.cased || !/\p{Lu}/u.test(around) ? 'as written' : 'as written but in another case'}` : `where the words of "${around}" are densest (it does not occur as written)`}; read without --around for the whole text.`
    : `--around: none of "${around}" occurs here; the first ${to} of ${text.length} characters are returned.`;
  if (!phrase) answer.note += phraseElsewhere(root, tree, answer, around);
  else answer.note += laterOccurrences(text, around, phrase, to, first, chars);
  answer.truncated = to < text.length || from > 0 || answer.truncated;
  // a following part of the whole text is not a following part of the window
  answer.next = null;
  const { node_id, node_title } = answer.citation;
  const named = { ...(node_id ? { node_id } : {}), ...(node_title ? { node_title } : {}) };
  if (p0 !== undefined && p1 !== undefined && answer.citation.pages) answer.citation = makeCitation(entry, { ...named, pages: [p0, p1] });
  // a text or Markdown node's window is cited by its own file lines, not the whole node's (a 56-line section for 6 lines read)
  const lines = !answer.citation.pages ? fileLines(text, LINE_STARTS.get(answer), from, to) : undefined;
  if (lines) answer.citation = makeCitation(entry, { ...named, lines });
}

/** Where each node's own file lines start in a node answer's text (read-text.ts line_starts), for --around's citation. */
const LINE_STARTS = new WeakMap<ReadAnswer, NodeRead['line_starts']>();

/** Later places the --around note names when the words occur as written more than once. */
export const AROUND_LATER_LISTED = 3;

/**
 * The words' places after the window in the text read, for the --around note: the window shows the
 * first (and any close after it), and the one an agent wanted was often another ("Net cash provided
 * by operating activities" in a heading line before its total). '' when none lies past the window
 * (agents were sent with --offset to a place the window already showed). `found`: how the window's
 * first place was matched (words of their own; words written as one; in the case typed), as the later ones are.
 */
function laterOccurrences(text: string, around: string, found: { whole: boolean; joined: boolean; cased: boolean }, windowEnd: number, firstPage: number | undefined, chars: number): string {
  const re = phraseRegExp(around, found.whole, found.joined, found.cased);
  if (!re) return '';
  const all = [...text.matchAll(new RegExp(re.source, `g${re.flags}`))].map((m) => m.index);
  const at = all.filter((i) => i >= windowEnd);
  if (at.length === 0) return '';
  const place = (i: number) => {
    const p = pageAtPos(text, i, firstPage);
    return p === undefined ? `${i}` : `${i} (p. ${p})`;
  };
  const listed = at.slice(0, AROUND_LATER_LISTED).map(place).join(', ');
  const more = at.length > AROUND_LATER_LISTED ? ` and ${at.length - AROUND_LATER_LISTED} more` : '';
  const start = Math.max(0, at[0]! - Math.floor(chars * AROUND_LEAD));
  return ` "${around}" occurs ${all.length} times here, ${at.length} past this window; they start at characters ${listed}${more}: read one with --offset (e.g. --offset ${start} --max-chars ${chars}).`;
}

/** Nodes named by the --around note when the words occur as written outside the text read. */
export const AROUND_ELSEWHERE_NODES = 3;

/**
 * Where else in the source the words occur as written (the first AROUND_ELSEWHERE_NODES nodes
 * outside the text read, in reading order), as a sentence for the --around note; '' when nowhere.
 * An agent that typed a phrase it saw quoted otherwise had no pointer to the section printing it.
 */
function phraseElsewhere(root: string, tree: TreeFile, answer: ReadAnswer, around: string): string {
  const re = phraseRegExp(around);
  if (!re) return '';
  const found: TreeNode[] = [];
  const visit = (n: TreeNode): void => {
    // the node read (and what it holds) was searched already
    if (found.length >= AROUND_ELSEWHERE_NODES || n.node_id === answer.node?.node_id) return;
    if (n.content_ref && re.test(readContent(root, tree.id, n.content_ref))) found.push(n);
    for (const c of n.children ?? []) visit(c);
  };
  visit(tree.root);
  if (found.length === 0) return '';
  const where = found.map((n) => `${n.node_id} "${n.title}"${n.page_range ? ` (${rangeLabel('p.', 'pp.', n.page_range)})` : n.line_range ? ` (${rangeLabel('line', 'lines', n.line_range)})` : ''}`);
  return ` "${around}" occurs as written in node ${where.join(', ')}: read ${found.length > 1 ? 'one of them' : 'it'} with --around.`;
}

function rangeLabel(one: string, many: string, r: [number, number]): string {
  return r[0] === r[1] ? `${one} ${r[0]}` : `${many} ${r[0]}-${r[1]}`;
}

type ReadContext = { root: string; entry: CatalogEntry; tree: TreeFile; path: TreeNode[] | null; req: ReadRequest; maxChars: number; freshness: Freshness };

/** A page or line range (--pages / --lines). */
function readRange(ctx: ReadContext, offset: number): ReadAnswer {
  const { root, entry, tree, req, maxChars, freshness } = ctx;
  const isPages = !!req.pages;
  const flag = isPages ? '--pages' : '--lines';
  const [a, b] = parseRange(flag, (req.pages ?? req.lines)!);
  const got = isPages ? readPages(root, tree, a, b, { offset, maxChars }) : readLines(root, tree, a, b, { offset, maxChars });
  let next: string | null = null;
  if (got.next_offset !== null) next = `${entry.id} ${rangeArg(flag, got.range)} --offset ${got.next_offset}`;
  else if (got.next_range) next = `${entry.id} ${rangeArg(flag, got.next_range)}`;
  const only = got.nodes_read.length === 1 ? findPath(tree, nodeById(tree, got.nodes_read[0]!)) : null;
  return {
    ...base(entry, tree),
    mode: isPages ? 'pages' : 'lines',
    ...(only ? { node: nodeInfo(only) } : {}),
    text: got.text,
    offset: got.offset,
    chars: got.text.length,
    truncated: got.truncated || got.next_range !== null,
    next,
    ...(got.past_end !== null ? { note: `Asked for ${isPages ? 'pages' : 'lines'} ${a}-${b}, but the source has ${got.past_end} ${isPages ? 'pages' : 'lines'}: ${rangeArg(flag, got.range).replace(/^--/, '')} returned.` } : !isPages && linesRendered(tree.type) ? { note: `The ${tree.type === 'html' ? 'page' : 'source'}'s text as read, not its file's lines: the sections over lines ${got.range[0]}-${got.range[1]} (${got.nodes_read.join(', ')}).` } : {}),
    citation: makeCitation(entry, { ...(only ? { node_id: only[only.length - 1]!.node_id, node_title: only[only.length - 1]!.title } : {}), ...(isPages ? { pages: got.range } : { lines: got.range }) }),
    freshness,
  };
}

/** One node's text (with its sub-sections unless --no-children), the root when no node is given. */
function readNode(ctx: ReadContext, offset: number): ReadAnswer {
  const { root, entry, tree, path, req, maxChars, freshness } = ctx;
  const nodePath = path ?? [tree.root];
  const node = nodePath[nodePath.length - 1]!;
  const got = readNodeText(root, tree, node, { offset, maxChars, withChildren: req.children ?? true });
  const answer: ReadAnswer = {
    ...base(entry, tree),
    mode: 'node',
    node: nodeInfo(nodePath),
    text: got.text,
    offset: got.offset,
    chars: got.text.length,
    truncated: got.truncated,
    next: got.next_offset !== null ? `${entry.id} ${node.node_id} --offset ${got.next_offset}${req.children === false ? ' --no-children' : ''}` : null,
    // read to the node's end: the section after it, to read on to
    ...(got.next_offset === null && path ? { following: followingNode(nodePath) } : {}),
    citation: makeCitation(entry, {
      node_id: node.node_id,
      node_title: node.title,
      pages: got.pages ?? node.page_range,
      rows: node.row_range,
      lines: node.line_range,
      anchor: typeof node.meta?.['anchor'] === 'string' ? node.meta['anchor'] : undefined,
    }),
    freshness,
  };
  if (got.line_starts && got.offset === 0) LINE_STARTS.set(answer, got.line_starts);
  if (!got.text && got.offset === 0) {
    answer.note = node.children.length > 0 ? 'This node has no text of its own or below it.' : 'This node has no text; its title, summary and meta are all there is.';
    if (sheetNames(tree).length > 0) answer.note += ' For spreadsheet data ask for rows (--rows A-B) or column stats (--stats).';
  }
  return answer;
}

/** Most parts one read_source call returns (nodes, or comma-separated page or line ranges). */
export const MAX_READ_PARTS = 4;

/**
 * The read requests of one call naming several parts of a source: several node ids, or a
 * comma-separated list of page or line ranges ("59,63", "12-13,40"). One part: one request, as
 * before. Each part is bounded by maxChars on its own.
 */
export function splitReadRequest(nodeIds: string[], req: ReadRequest): ReadRequest[] {
  const list = (v: string | undefined) => (v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const pages = list(req.pages);
  const lines = list(req.lines);
  const parts: ReadRequest[] = nodeIds.length > 1
    ? nodeIds.map((nodeId) => ({ ...req, nodeId }))
    : pages.length > 1 ? pages.map((p) => ({ ...req, pages: p }))
      : lines.length > 1 ? lines.map((l) => ({ ...req, lines: l }))
        : [{ ...req, ...(nodeIds[0] ? { nodeId: nodeIds[0] } : {}) }];
  if (parts.length > 1) {
    if (nodeIds.length > 1 && (pages.length > 1 || lines.length > 1)) {
      throw new UserError('Give several node ids or several ranges, not both.', 'Expected `read_source SRC 0012 0015` or `read_source SRC --pages 59,63`.', EXIT.USAGE);
    }
    if (parts.length > MAX_READ_PARTS) {
      throw new UserError(`At most ${MAX_READ_PARTS} parts per call (got ${parts.length}).`, 'Expected fewer node ids or ranges; read the rest in a second call.', EXIT.USAGE);
    }
    if ((req.offset ?? 0) > 0) {
      throw new UserError('--offset continues one part, not several.', 'Expected the `next` arguments of the part to continue, alone.', EXIT.USAGE);
    }
  }
  return parts;
}

/** Several parts of one source in one call (splitReadRequest), in the order asked. */
export function readSourceParts(root: string, ref: string, parts: ReadRequest[]): { parts: ReadAnswer[] } {
  return { parts: parts.map((p) => readSource(root, ref, p)) };
}
