/**
 * Shared by the HTML and Word converters: walks block elements of an HTML document (cheerio) and
 * builds the h1–h6 section tree. Each section's own text is Markdown: paragraphs, lists, tables as
 * rows (`| a | b |`), links kept as their text, images noted by their alt text.
 */
import type { CheerioAPI, Cheerio } from 'cheerio';
import type { AnyNode, Element, Text } from 'domhandler';
import type { ConvertedNode, ConvertResult } from './types.js';
import { groupTitle, TITLE_SCAN_LINES } from './titles.js';
import { groupParagraphs } from './text-chunks.js';
import { capDepth, depthWarning } from './dom-depth.js';

/**
 * How pages are parsed: htmlparser2 (cheerio's `xml` option in HTML mode), not parse5. Measured on
 * node's 8.4 MB all.html: a DOM of 92 MB in 0.46 s against 242 MB in 1.3 s. It also reads
 * XHTML-style self-closed tags as written (`<a name="x"/>`: parse5 leaves such an anchor open, and it
 * swallows the heading's section, tables and all, as inline text; 11 gtk-doc pages of /usr/share/doc).
 */
const PARSE_OPTIONS = { xml: { xmlMode: false, decodeEntities: true } } as const;

/**
 * An HTML text as the converters walk it (`htmlSections`), nested at most `MAX_DOM_DEPTH` deep; when
 * it had to be flattened, `warnings` (the converter's) says so.
 */
export function loadHtml(cheerio: typeof import('cheerio'), html: string, warnings?: string[], positions = false): CheerioAPI {
  // positions: each node's `startIndex` in `html`, for the file lines of its sections (htmlSections' lineAt)
  const $ = cheerio.load(html, positions ? { xml: { ...PARSE_OPTIONS.xml, withStartIndices: true } } : PARSE_OPTIONS);
  const w = depthWarning(capDepth($.root()[0]!), 'page');
  if (w) warnings?.push(w);
  return $;
}

/** Tags whose children are walked as blocks. */
const CONTAINERS = new Set(['div', 'section', 'article', 'main', 'body', 'html', 'center', 'details', 'figure', 'header', 'hgroup', 'form', 'fieldset', 'dialog', 'menu', 'dir', 'address']);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Block-level tags; anything else (a, b, tt, font, span, code, img, br, unknown tags…) is inline text. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'li', 'main',
  'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'caption',
]);

export interface HtmlTree {
  /** text before the first heading */
  lead: string;
  sections: ConvertedNode[];
  headingCount: number;
  tableCount: number;
  imageAlts: string[];
  links: number;
}

/**
 * Permalink marks that documentation generators append to headings (Sphinx "¶", "§", "#", 🔗, or
 * an icon font's glyph from the private use area: BIND's Sphinx theme prints U+F0C1).
 */
const PERMALINK = /^[¶§#🔗\u{E000}-\u{F8FF}]$/u;

/** A heading's text without a trailing permalink mark. */
export function headingText(s: string): string {
  return s.replace(/(?:\s*[¶§🔗\u{E000}-\u{F8FF}])+\s*$/u, '').replace(/\s+#\s*$/, '').trim();
}

/** A URL fragment an id may be cited by (no blanks, quotes or angle brackets; at most 200 characters). */
const ANCHOR = /^[^\s#"'<>]{1,200}$/;

/**
 * Where a heading or term can be linked to (`file.html#anchor`): the target of its own permalink
 * ("¶", href="#…"), its id, the id of an `<a name|id>` inside it, or the id of the section it opens
 * (Sphinx puts the id on `<section>`, the heading first inside it). Null when it has none.
 */
export function anchorOf($: CheerioAPI, el: Element): string | null {
  const e = $(el);
  const own = e.find('a[href^="#"]').toArray().filter((a) => PERMALINK.test(collapse($(a).text()))).map((a) => (a as Element).attribs.href!.slice(1)).find((h) => ANCHOR.test(h));
  const candidates = [own, el.attribs.id, ...e.find('a[id], a[name]').toArray().map((a) => (a as Element).attribs.id ?? (a as Element).attribs.name)];
  const parent = el.parent as Element | null;
  if (parent?.type === 'tag' && parent.attribs.id && parent.children.find((c) => c.type === 'tag') === el) candidates.push(parent.attribs.id);
  return candidates.find((c): c is string => typeof c === 'string' && ANCHOR.test(c)) ?? null;
}

function collapse(s: string): string {
  return s.replace(/[ \t\r\n\u00a0]+/g, ' ').trim();
}

interface Ctx {
  $: CheerioAPI;
  imageAlts: string[];
  links: number;
  tables: number;
  /** the plan's "tables as rows with header": each data row labelled with its column headers */
  tablesAsRows: boolean;
  /** keep each section's and term's link target (`meta.anchor`): HTML pages, not Word files (their bookmarks are not addresses) */
  anchors: boolean;
  /**
   * written for a browser (HTML pages, EPUB), not converted from an office file: its tables may lay
   * the page out (layoutCells) and bold paragraphs may title its sections (boldHeadingPage). A Word
   * table's cells hold several paragraphs of data, and a Word file without heading styles bolds
   * words that are no headings.
   */
  webPage: boolean;
  /** the file line of a character of the page's source (an HTML file's own; none for pages made from other formats) */
  lineAt?: (index: number) => number;
  /** the page marks its sections with bold paragraphs, not heading tags (boldHeadingPage) */
  boldHeadings: boolean;
  /** the page titles parts of its sections with bold paragraphs over indented blocks (boldSubHeadingPage) */
  boldSubHeadings: boolean;
}

/** Longest bold paragraph read as a section heading on a page without heading tags. */
export const BOLD_HEADING_MAX_CHARS = 80;
/** Bold paragraphs a page without heading tags needs before they are read as its headings. */
export const BOLD_HEADINGS_MIN = 2;
const BOLD_TAGS = new Set(['b', 'strong']);
/** Tags that may wrap the bold run without changing what it is (<font><b>…</b></font>). */
const BOLD_WRAPPERS = new Set(['font', 'u', 'span', 'a', 'big']);
/** Text closing a sentence or announcing what follows: a bold lead-in ("Note:"), not a heading. */
const NOT_A_HEADING_END = /[.!?,;:]\s*$/;

/**
 * A paragraph that is nothing but a short bold run (<p><b>Installation</b></p>): how pages written
 * by hand before stylesheets, and some generators, title their sections. Its text, else null.
 */
function boldParagraphText($: CheerioAPI, el: Element): string | null {
  if (el.tagName.toLowerCase() !== 'p') return null;
  let inner: Element = el;
  for (;;) {
    const kids = inner.children.filter((c) => !(c.type === 'text' && !/\S/.test((c as Text).data)) && c.type !== 'comment');
    if (kids.length !== 1 || kids[0]!.type !== 'tag') return null;
    const tag = (kids[0] as Element).tagName.toLowerCase();
    inner = kids[0] as Element;
    if (BOLD_TAGS.has(tag)) break;
    if (!BOLD_WRAPPERS.has(tag)) return null;
  }
  const text = collapse($(inner).text());
  return text && text.length <= BOLD_HEADING_MAX_CHARS && !NOT_A_HEADING_END.test(text) ? text : null;
}

/**
 * A page with no heading tags whose sections open with bold paragraphs (MRIcron's dcm2nii manual:
 * "Installation", "Running DCM2NII", … each <p><b>…</b></p>): at least BOLD_HEADINGS_MIN of them.
 * Its outline had been paragraph groups titled by their first sentences, and one 17,000-character node.
 */
function boldHeadingPage($: CheerioAPI, root: Cheerio<AnyNode>): boolean {
  if (root.find('h1, h2, h3, h4, h5, h6').length > 0) return false;
  return enoughParagraphs(root, (el) => boldParagraphText($, el) !== null);
}

/** At least BOLD_HEADINGS_MIN paragraphs under `root` pass `test` (the walk stops at that many). */
function enoughParagraphs(root: Cheerio<AnyNode>, test: (el: Element) => boolean): boolean {
  let n = 0;
  root.find('p').each((_, el) => {
    if (test(el as Element)) n++;
    return n < BOLD_HEADINGS_MIN;
  });
  return n >= BOLD_HEADINGS_MIN;
}

/** The element after `el` among its siblings (text of white space and comments skipped), or null. */
function nextElement(el: Element): Element | null {
  for (let n = el.nextSibling; n; n = n.nextSibling) {
    if (n.type === 'tag') return n as Element;
    if (n.type === 'text' && /\S/.test((n as Text).data)) return null;
  }
  return null;
}

/** A block indenting what it holds: a list used as an indent (text and paragraphs, not items), a quotation. */
function indentBlock(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName.toLowerCase();
  return tag === 'blockquote' || ((tag === 'ul' || tag === 'ol') && looseList(el));
}

/** A bold paragraph over an indented block (<p><strong>Step 1: …</strong><ul>…</ul>): a run-in sub-heading. */
function boldOverIndent($: CheerioAPI, el: Element): boolean {
  return boldParagraphText($, el) !== null && indentBlock(nextElement(el));
}

/**
 * A page with heading tags whose sections title their parts with bold paragraphs, each over an
 * indented block (NIST sclite's "THE ALIGNMENT PROCESS": "Step 1: Selection of matching REF and HYP
 * texts", then its text in a <ul> used as an indent): at least BOLD_HEADINGS_MIN of them. Its
 * parts had been paragraph groups titled by their first sentences.
 */
function boldSubHeadingPage($: CheerioAPI, root: Cheerio<AnyNode>): boolean {
  return enoughParagraphs(root, (el) => boldOverIndent($, el));
}

/**
 * An image whose alt text is TeX math between dollars is a formula set as a picture (LaTeX2HTML's
 * pages: "kg [image: $ /$] m [image: $ ^3$]"): its math is the text ("kg/m^3"), not an image.
 */
const TEX_MATH_ALT = /^\$([^$]+)\$$/;
const DISPLAY_STYLE = /^\s*\\displaystyle\b/;

/** Inline text of an element: links as their text, images as `[image: alt]` (formulas as their TeX), <br> as a newline. */
function inlineText(ctx: Ctx, nodes: AnyNode[]): string {
  let out = '';
  for (const n of nodes) {
    // source line breaks are just whitespace in HTML; only <br> breaks a line
    if (n.type === 'text') out += (n as unknown as { data: string }).data.replace(/[ \t\r\n]+/g, ' ');
    else if (n.type === 'tag') {
      const el = n as Element;
      const tag = el.tagName.toLowerCase();
      if (tag === 'br') out += '\n';
      else if (tag === 'img') {
        const alt = collapse(el.attribs.alt ?? '');
        const math = TEX_MATH_ALT.exec(alt);
        if (math) {
          out += math[1]!.replace(DISPLAY_STYLE, '').trim();
          continue;
        }
        ctx.imageAlts.push(alt);
        out += alt ? ` [image: ${alt}] ` : ' [image] ';
      } else {
        if (tag === 'a') {
          // a permalink anchor ("¶") is navigation, not text
          if (PERMALINK.test(collapse(ctx.$(el).text()))) continue;
          ctx.links++;
        }
        // a block inside inline text (a <dl> or <p> in a definition, a list in a cell) is a line of
        // its own: ctest's "until-pass" and "Allow each test…" had been read as "until-passAllow"
        const inner = inlineText(ctx, el.children);
        out += BLOCKS.has(tag) ? `\n${inner}\n` : inner;
      }
    }
  }
  return out;
}

function lineText(ctx: Ctx, el: Element): string {
  return inlineText(ctx, el.children)
    .split('\n')
    .map(collapse)
    .filter(Boolean)
    .join('\n');
}

/** Rows as `header: value; header: value` lines, the first row being the header (empty cells left out). */
function labelledRows(rows: string[][]): string {
  const head = rows[0]!;
  return rows
    .slice(1)
    .map((r) => r.map((v, i) => (v ? (head[i] ? `${head[i]}: ${v}` : v) : '')).filter(Boolean).join('; '))
    .filter(Boolean)
    .join('\n');
}

function tableRows(ctx: Ctx, table: Element): string {
  const $ = ctx.$;
  ctx.tables++;
  const rows: string[][] = [];
  // nested tables are rendered by their own cells' text
  for (const tr of ownRows($, table)) {
    const cells = $(tr)
      .children('th,td')
      .toArray()
      .map((c) => collapse(inlineText(ctx, (c as Element).children)).replace(/\|/g, '\\|'));
    if (cells.some(Boolean)) rows.push(cells);
  }
  if (rows.length === 0) return '';
  if (ctx.tablesAsRows && rows.length > 1) return labelledRows(rows);
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r: string[]) => [...r, ...Array(width - r.length).fill('')];
  const lines = [`| ${pad(rows[0]!).join(' | ')} |`, `|${Array(width).fill(' --- ').join('|')}|`];
  for (const r of rows.slice(1)) lines.push(`| ${pad(r).join(' | ')} |`);
  return lines.join('\n');
}

/** A table cell holding more text than this, in at least LAYOUT_CELL_BLOCKS blocks, is a page's layout, not data. */
export const LAYOUT_CELL_CHARS = 1500;
export const LAYOUT_CELL_BLOCKS = 2;
/** …in a table of at most this many rows (a page's frame: a menu beside the text); a question-and-answer table has a row per question. */
export const LAYOUT_MAX_ROWS = 3;
const CELL_BLOCKS = new Set(['p', 'ul', 'ol', 'dl', 'table', 'pre', 'blockquote', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** A table's own rows (not those of tables nested in it). */
function ownRows($: CheerioAPI, table: Element): Element[] {
  return $(table).find('tr').toArray().filter((tr) => $(tr).closest('table')[0] === table) as Element[];
}

/** The cells of rows, in reading order. */
function cellsOf($: CheerioAPI, rows: Element[]): Element[] {
  return rows.flatMap((tr) => $(tr).children('th,td').toArray() as Element[]);
}

/**
 * A table used to lay a page out (a column of text beside a menu, as pages were built before
 * stylesheets): a few rows, one of whose cells holds a long text in several paragraphs, lists or tables. Read as
 * table rows its text became one cell per line, its lists and headings flattened (MRIcron's dcm2nii
 * manual: the whole page in one cell). A data table's cells hold values or a paragraph each.
 * Its cells when it is one, else null.
 */
function layoutCells($: CheerioAPI, table: Element): Element[] | null {
  const rows = ownRows($, table);
  if (rows.length > LAYOUT_MAX_ROWS) return null;
  const cells = cellsOf($, rows);
  return cells.some((c) => {
    const blocks = c.children.filter((k) => k.type === 'tag' && CELL_BLOCKS.has((k as Element).tagName.toLowerCase())).length;
    return blocks >= LAYOUT_CELL_BLOCKS && $(c).text().length > LAYOUT_CELL_CHARS;
  }) ? cells : null;
}

/** An element with a block-level child: an inline tag used as a wrapper (<a name="x"><h1>, <font><p>). */
function holdsBlocks(el: Element): boolean {
  return el.children.some((c) => c.type === 'tag' && BLOCKS.has((c as Element).tagName.toLowerCase()));
}

/**
 * A list used as an indent, as old hand-written pages do (sclite's manual: text, paragraphs and
 * tables inside <UL> with no <li>): it holds text or blocks outside any item, which listText, reading
 * items only, would drop. It is walked as a container instead.
 */
function looseList(list: Element): boolean {
  return list.children.some((c) => {
    if (c.type === 'text') return /\S/.test((c as Text).data);
    if (c.type !== 'tag') return false;
    const t = (c as Element).tagName.toLowerCase();
    return t !== 'li' && t !== 'ul' && t !== 'ol' && t !== 'script' && t !== 'template';
  });
}

function listText(ctx: Ctx, list: Element, depth: number): string {
  const ordered = list.tagName.toLowerCase() === 'ol';
  const out: string[] = [];
  let i = 1;
  for (const li of list.children) {
    // a list nested straight in a list, not in an item (<ul><li>…</li><ul>…</ul></ul>)
    if (li.type === 'tag' && ['ul', 'ol'].includes((li as Element).tagName.toLowerCase())) {
      out.push(listText(ctx, li as Element, depth + 1));
      continue;
    }
    if (li.type !== 'tag' || (li as Element).tagName.toLowerCase() !== 'li') continue;
    const el = li as Element;
    const own = el.children.filter((c) => !(c.type === 'tag' && ['ul', 'ol'].includes((c as Element).tagName.toLowerCase())));
    // the item's first line, then its blocks and <br> lines under it, indented: a term over its
    // description (GNU Go's "‘--replay color’" over a quoted paragraph) had run into one line
    const [first = '', ...more] = inlineText(ctx, own).split('\n').map(collapse).filter(Boolean);
    out.push(`${'  '.repeat(depth)}${ordered ? `${i++}.` : '-'} ${first}`);
    for (const line of more) out.push(`${'  '.repeat(depth + 1)}${line}`);
    for (const c of el.children) {
      if (c.type === 'tag' && ['ul', 'ol'].includes((c as Element).tagName.toLowerCase())) out.push(listText(ctx, c as Element, depth + 1));
    }
  }
  return out.join('\n');
}

/** A section whose own text is longer than this is split into paragraph-group children. */
export const SECTION_SPLIT_CHARS = 6000;
/** Target size of those paragraph groups. */
export const GROUP_TARGET_CHARS = 2500;

/**
 * Blocks gathered into groups of about GROUP_TARGET_CHARS (text-chunks.ts groupParagraphs; blocks are
 * one blank line apart), each a 'paragraphs' node titled by its first prose line; a group of code
 * alone is "<section> (part i of n)" (a listing's first line, ");" or "CREATE TABLE parent(x);", named
 * nothing an agent could choose by).
 */
export function paragraphGroups(blocks: string[], section?: string, starts?: ReadonlyArray<number | undefined>): ConvertedNode[] {
  const groups = groupParagraphs(blocks.map((b) => ({ b, size: b.length, gap: 0 })), GROUP_TARGET_CHARS).map((g) => g.map((x) => x.b));
  const heads = groups.map((g) => g.join('\n\n').split('\n', TITLE_SCAN_LINES));
  const shared = sharedLines(heads);
  let first = 0;
  return groups.map((g, i) => {
    const title = groupTitle(heads[i]!, undefined, shared, !section) || (section ? `${section} (part ${i + 1} of ${groups.length})` : '(text)');
    const line = starts?.[first];
    first += g.length;
    return { title, kind: 'paragraphs', ...opensAt(line), content: g.join('\n\n'), children: [] };
  });
}

/**
 * Lines that open two groups or more: boilerplate, not what a group holds (a classification banner
 * atop every table of a Word test procedure: 8 of its 9 nodes were titled "| THIS TABLE IS
 * UNCLASSIFIED IN ITS ENTIREITY |  |  |  |", then each table's "Step | Input/Action | …" header row).
 */
function sharedLines(heads: string[][]): Set<string> {
  const seen = new Map<string, number>();
  for (const h of heads) for (const k of new Set(h.map(lineKey).filter(Boolean))) seen.set(k, (seen.get(k) ?? 0) + 1);
  const shared = new Set<string>();
  for (const h of heads) for (const l of h) if ((seen.get(lineKey(l)) ?? 0) >= 2) shared.add(l.trim());
  return shared;
}

/** A line's words, lower-cased, without marks, pipes or empty cells: table rows that differ in their padding or slashes are one line. */
function lineKey(l: string): string {
  return l.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** Empty same-level headings in a row from which the run is lines of text, not sections. */
export const EMPTY_HEADING_RUN = 2;

const isEmptySection = (n: ConvertedNode) => n.kind === 'section' && n.children.length === 0 && !(n.content ?? '').includes('\n');

/**
 * Sibling headings of one level with nothing under them, several in a row (a title page's author
 * lines that a converted document styles as headings: "Joey Hess", "Colin Watson", …), are text of
 * their parent, not sections: the run and the sibling that closes it (which holds the text after
 * them) become plain lines.
 */
export function foldHeadingRuns(children: ConvertedNode[]): { children: ConvertedNode[]; text: string[]; lines: Array<number | undefined> } {
  const out: ConvertedNode[] = [];
  const text: string[] = [];
  const lines: Array<number | undefined> = [];
  for (let i = 0; i < children.length; i++) {
    const level = children[i]!.meta?.level;
    let j = i;
    while (j < children.length && isEmptySection(children[j]!) && children[j]!.meta?.level === level) j++;
    const closing = children[j];
    if (j - i >= EMPTY_HEADING_RUN && closing && closing.kind === 'section' && closing.children.length === 0 && closing.meta?.level === level) {
      const body = (closing.content ?? '').split('\n').slice(1).join('\n').trim();
      text.push([...children.slice(i, j + 1).map((n) => n.title), ...(body ? ['', body] : [])].join('\n'));
      lines.push(children[i]!.line_range?.[0]);
      i = j;
    } else out.push(children[i]!);
  }
  return { children: out, text, lines };
}

/** A definition list becomes one node per term from this many terms… */
export const DL_MIN_TERMS = 4;
/** …holding at least this many characters of definitions. */
export const DL_MIN_CHARS = 1500;
/** Longest term kept whole as a node title. */
const TERM_TITLE_CHARS = 120;

/** The terms of a `<dl>` with their definitions (several `<dt>` before one `<dd>` share it). */
function definitions(ctx: Ctx, dl: Element): Definition[] {
  const out: Definition[] = [];
  let terms: string[] = [];
  let anchor: string | null = null;
  let at: number | undefined;
  const flush = (text: string) => {
    const joined = sharedLabelOnce(terms).join(', ');
    if (terms.length) out.push({ term: clipTitle(joined), full: joined, text, ...(anchor ? { anchor } : {}), ...(at !== undefined ? { at } : {}) });
    else if (out.length && text) out[out.length - 1]!.text += `\n\n${text}`;
    terms = [];
    anchor = null;
    at = undefined;
  };
  for (const c of dl.children) {
    if (c.type !== 'tag') continue;
    const el = c as Element;
    const tag = el.tagName.toLowerCase();
    if (tag === 'dt') {
      const t = headingText(collapse(inlineText(ctx, el.children)));
      if (t) terms.push(t);
      at ??= lineOf(ctx, el);
      if (ctx.anchors) anchor ??= anchorOf(ctx.$, el);
    } else if (tag === 'dd') flush(lineText(ctx, el));
    else if (tag === 'div') for (const d of definitions(ctx, el)) out.push(d); // <div> wrapping dt/dd pairs (HTML 5.2)
  }
  flush('');
  return out;
}

/** A definition list's entry: its title (its terms, clipped), its terms whole, definition, link target and the file line its first term is on. */
interface Definition { term: string; full: string; text: string; anchor?: string; at?: number }

/** A label several terms open with ("Function: "), at most this long. */
const TERM_LABEL = /^([^:]{1,20}:\s+)\S/;

/**
 * Terms sharing one label ("Function: PDF.LAPLACE (x, a, b)", "Function: CDF.LAPLACE …", as Texinfo
 * sets a @deftypefn group) with the label said once, so the title holds every term: PSPP's four
 * Laplace functions had been titled "Function: PDF.LAPLACE (x, a, b), …, Function:…", the fourth cut.
 */
function sharedLabelOnce(terms: string[]): string[] {
  const label = TERM_LABEL.exec(terms[0] ?? '')?.[1];
  if (!label || terms.length < 2 || !terms.every((t) => t.startsWith(label))) return terms;
  return terms.map((t, i) => (i === 0 ? t : t.slice(label.length)));
}

/** The file line a node of the page starts on, when the page's lines are known (Ctx.lineAt). */
function lineOf(ctx: Ctx, n: AnyNode): number | undefined {
  return ctx.lineAt && typeof n.startIndex === 'number' ? ctx.lineAt(n.startIndex) : undefined;
}

/** A node's line range opened at `line` (its end is set when the whole page is read: fillLineEnds). */
function opensAt(line: number | undefined): { line_range?: [number, number] } {
  return line !== undefined ? { line_range: [line, line] } : {};
}

function clipTitle(t: string, max = TERM_TITLE_CHARS): string {
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return `${sp > max / 2 ? cut.slice(0, sp) : cut}…`;
}

/** DocBook's reference entry (a function, command or type) and the block holding its "name — purpose" line. */
const REFENTRY = /(?:^|\s)refentry(?:\s|$)/;
/**
 * A heading that is only a footnote's mark ("(12)", "[3]"): Texinfo sets each footnote under an
 * <h5>(N)</h5>, and NCO's manual had 97 sections titled "(1)"…"(97)". The mark is text of the
 * Footnotes section, before the note it numbers.
 */
const FOOTNOTE_MARK = /^[([]\d{1,3}[)\]]$/;

/**
 * A DocBook title page sets its credits as headings (`<h3 class="author">Thomas T. Wetmore, IV</h3>`,
 * editor, corpauthor, othercredit): text of the title page, not sections under it.
 */
const CREDIT_HEADING = /(?:^|\s)(?:author|corpauthor|editor|othercredit|authorgroup|collab)(?:\s|$)/i;
const REFNAMEDIV = '.refnamediv';
/**
 * A block set off from the text it is printed in (DocBook's div.note, div.tip, div.warning; an
 * `<aside>`): its heading ("Note", "Tip") is the block's label, not a section. As sections they took
 * the rest of the enclosing section's text: PostgreSQL's "25.1.5. Preventing Transaction ID
 * Wraparound Failures" ended at its first Note, and its next three paragraphs were the Note's.
 */
const ASIDE_CLASS = /(?:^|\s)(?:note|tip|hint|warning|caution|important|attention|danger|admonition|sidebar)(?:\s|$)/i;
const isAside = (el: Element, tag: string): boolean => tag === 'aside' || ((tag === 'div' || tag === 'section') && ASIDE_CLASS.test(el.attribs.class ?? ''));
const REFNAME_LINE = /^\S.{0,100}?\s+[—–-]{1,2}\s+\S/;
/** Longest reference-entry title ("ST_Distance — Returns the distance between two geometry or…"). */
const ENTRY_TITLE_CHARS = 100;

/** A refentry's "name — purpose" line (null when it has none), and the level of its first heading. */
function refentryHead(ctx: Ctx, el: Element): { line: string; level: number } | null {
  const e = ctx.$(el);
  const line = collapse(e.find(REFNAMEDIV).first().find('p').first().text());
  if (!REFNAME_LINE.test(line)) return null;
  const first = e.find('h1, h2, h3, h4, h5, h6').first().get(0) as Element | undefined;
  return { line, level: first ? HEADINGS[first.tagName.toLowerCase()]! : 2 };
}

function ownLength(parts: string[]): number {
  return parts.reduce((n, p) => n + p.length + 2, 0);
}

interface Open {
  level: number;
  node: ConvertedNode;
  parts: string[];
  /** the file line each part starts on, when known (Ctx.lineAt) */
  lines: Array<number | undefined>;
  /** a reference entry's section (SectionBuilder.referenceEntry) */
  entry?: true;
  /** opened by a bold paragraph, not a heading tag (boldSubHeading) */
  bold?: true;
  /** its text so far is a list of links to places in this page (an in-page contents list), and only that */
  contentsOnly?: boolean;
}

/** A list is the page's own contents when it has this many items… */
export const CONTENTS_MIN_LINKS = 5;
/** …and this share of them are each one link to an id in the page ("FAQ.html#faq_libm" on FAQ.html). */
export const CONTENTS_LINK_SHARE = 0.8;

/** The ids a link's fragment may name in the page (`id`, `<a name>`). */
function pageIds($: CheerioAPI): Set<string> {
  const ids = new Set<string>();
  $('[id]').each((_, e) => void ids.add((e as Element).attribs.id!));
  $('a[name]').each((_, e) => void ids.add((e as Element).attribs.name!));
  return ids;
}

/**
 * A list whose items are links to places in the page itself (Doxygen's "FAQ Index", a local table of
 * contents): it lists the page's sections, it holds none of them.
 */
function inPageContents($: CheerioAPI, list: Element, ids: () => Set<string>): boolean {
  const items = $(list).children('li').toArray();
  if (items.length < CONTENTS_MIN_LINKS) return false;
  const linked = items.filter((li) => {
    const a = $(li).children('a[href*="#"]');
    if (a.length !== 1 || collapse($(li).text()) !== collapse(a.text())) return false;
    return ids().has(a.attr('href')!.split('#')[1] ?? '');
  });
  return linked.length >= CONTENTS_LINK_SHARE * items.length;
}

type HeadingTitle = (text: string, level: number, index: number) => string;

/** Builds the heading tree block by block: text goes to the innermost open section (or the lead). */
class SectionBuilder {
  readonly lead: string[] = [];
  readonly leadLines: Array<number | undefined> = [];
  readonly top: ConvertedNode[] = [];
  /** the file line of the block being read, and of the first node of the inline run waiting (Ctx.lineAt) */
  private at: number | undefined;
  private inlineAt: number | undefined;
  headingCount = 0;
  private readonly stack: Open[] = [];
  /** levels added to the headings inside reference entries (each entry is a section above its parts) */
  private levelShift = 0;
  /** asides (isAside) the walk is inside: their headings are labels in the text */
  private asides = 0;
  private pendingTerms: Definition[] = [];
  private inline: AnyNode[] = [];
  /** the page's ids, read once when a list may link into the page */
  private ids: Set<string> | undefined;

  constructor(
    private readonly ctx: Ctx,
    private readonly headingTitle?: HeadingTitle,
  ) {}

  /** Text into the innermost open section (or the lead); `contents`: it is a list of links into the page. */
  private emit(text: string, contents = false): void {
    if (!text.trim()) return;
    this.flushTerms();
    const open = this.stack[this.stack.length - 1];
    if (open) open.contentsOnly = contents && (open.contentsOnly ?? open.parts.length === 1);
    (open ? open.parts : this.lead).push(text);
    (open ? open.lines : this.leadLines).push(this.at);
  }

  private children(): ConvertedNode[] {
    return this.stack.length ? this.stack[this.stack.length - 1]!.node.children : this.top;
  }

  closeTo(level: number): void {
    this.flushTerms();
    while (this.stack.length && this.stack[this.stack.length - 1]!.level >= level) {
      const o = this.stack.pop()!;
      if (o.contentsOnly && o.node.children.length === 0) o.node.kind = 'contents';
      const folded = foldHeadingRuns(o.node.children);
      o.node.children = folded.children;
      o.parts.push(...folded.text);
      o.lines.push(...folded.lines);
      if (ownLength(o.parts) > SECTION_SPLIT_CHARS) {
        // a long section keeps its heading; its text becomes paragraph groups ahead of its subsections
        o.node.content = o.parts[0]!;
        o.node.children = [...paragraphGroups(o.parts.slice(1), o.node.title, o.lines.slice(1)), ...o.node.children];
      } else o.node.content = o.parts.join('\n\n');
    }
  }

  private flushInline(): void {
    if (!this.inline.length) return;
    const block = this.at;
    this.at = this.inlineAt ?? block;
    this.emit(inlineText(this.ctx, this.inline).split('\n').map(collapse).filter(Boolean).join('\n'));
    this.at = block;
    this.inline = [];
    this.inlineAt = undefined;
  }

  private heading(el: Element, level: number): void {
    // a heading holding blocks was left open by its page (`<h5>(1)</h3><p>…`): its title is the
    // text before the first block, the blocks are the section's text
    const firstBlock = el.children.findIndex((c) => c.type === 'tag' && BLOCKS.has((c as Element).tagName.toLowerCase()));
    const own = firstBlock < 0 ? el.children : el.children.slice(0, firstBlock);
    const text = headingText(collapse(inlineText(this.ctx, own)));
    if (!text) {
      if (firstBlock >= 0) this.walk(el.children.slice(firstBlock));
      return;
    }
    const title = this.headingTitle ? this.headingTitle(text, level, this.headingCount) : text;
    this.headingCount++;
    this.closeTo(level);
    const anchor = this.ctx.anchors ? anchorOf(this.ctx.$, el) : null;
    const line = lineOf(this.ctx, el);
    const node: ConvertedNode = { title, kind: 'section', ...opensAt(line), meta: { level, ...(anchor ? { anchor } : {}) }, children: [] };
    this.children().push(node);
    this.stack.push({ level, node, parts: [`${'#'.repeat(level)} ${title}`], lines: [line] });
    if (firstBlock >= 0) this.walk(el.children.slice(firstBlock));
  }

  /**
   * A bold paragraph over an indented block: a part of the innermost section a heading tag opened,
   * one level further in for each indented block it sits in (a part of "Step 1", printed in its indent).
   */
  private boldSubHeading(el: Element): void {
    const tagged = this.stack.filter((o) => !o.bold);
    let depth = 0;
    for (let a = el.parent; a && a.type === 'tag'; a = a.parent) if (indentBlock(a as Element)) depth++;
    this.heading(el, (tagged[tagged.length - 1]?.level ?? 1) + 1 + depth);
    this.stack[this.stack.length - 1]!.bold = true;
  }

  /**
   * A `<dl>`: its entries wait for the next block, so that consecutive lists make one (Sphinx and
   * Doxygen give each function or class a `<dl>` of its own).
   */
  private definitionList(el: Element): void {
    this.pendingTerms.push(...definitions(this.ctx, el));
  }

  /** The waiting definition-list entries: one node per term when the run is long, else text. */
  private flushTerms(): void {
    const entries = this.pendingTerms;
    if (!entries.length) return;
    this.pendingTerms = [];
    if (entries.length >= DL_MIN_TERMS && entries.reduce((n, e) => n + e.text.length, 0) >= DL_MIN_CHARS) {
      // a long definition list (options, functions, glossary terms) is an outline: one node per term
      const parent = this.children();
      // the node's text names every term whole (its title may be clipped)
      for (const e of entries) parent.push({ title: e.term, kind: 'term', ...opensAt(e.at), content: `**${e.full}**\n\n${e.text}`, ...(e.anchor ? { meta: { anchor: e.anchor } } : {}), children: [] });
    } else {
      const block = this.at;
      this.at = entries[0]!.at ?? block;
      this.emit(entries.map((e) => `**${e.full}**${e.text ? `\n${e.text}` : ''}`).join('\n\n'));
      this.at = block;
    }
  }

  /**
   * A DocBook reference entry (`div.refentry`: Name / Synopsis / Description / Examples / See Also as
   * sibling headings; PostGIS has 618, its function names only in each Name's text) is one section
   * titled by its "name — purpose" line, its parts one level under it. False when it has no such line.
   */
  private referenceEntry(el: Element): boolean {
    const head = refentryHead(this.ctx, el);
    if (!head) return false;
    // under the section it is printed in, though its headings are at that section's level (DocBook's sect1 and refentry both use <h2>)
    const open = this.stack.filter((o) => o.level < head.level + this.levelShift + 1 && o.node.kind === 'section' && !o.entry);
    const level = Math.max(head.level + this.levelShift, (open[open.length - 1]?.level ?? 0) + 1);
    const title = clipTitle(head.line, ENTRY_TITLE_CHARS);
    this.closeTo(level);
    // its id, or the `<a name>` it opens with (DocBook: <a name="ST_Distance">)
    const named = el.children.find((c): c is Element => c.type === 'tag' && (c as Element).tagName.toLowerCase() === 'a' && !!((c as Element).attribs.name ?? (c as Element).attribs.id));
    const anchor = this.ctx.anchors ? [el.attribs.id, named?.attribs.name, named?.attribs.id].find((a): a is string => typeof a === 'string' && ANCHOR.test(a)) : undefined;
    const line = lineOf(this.ctx, el);
    const node: ConvertedNode = { title, kind: 'section', ...opensAt(line), meta: { level, ...(anchor ? { anchor } : {}) }, children: [] };
    this.children().push(node);
    this.stack.push({ level, node, parts: [`${'#'.repeat(level)} ${title}`, head.line], lines: [line, line], entry: true });
    const shift = level + 1 - head.level - this.levelShift;
    this.levelShift += shift;
    this.walk(el.children.filter((c) => !(c.type === 'tag' && this.ctx.$(c).is(REFNAMEDIV))));
    this.levelShift -= shift;
    this.closeTo(level);
    return true;
  }

  /** An aside's blocks, in the section it is printed in, its headings as labels. */
  private aside(el: Element): void {
    this.asides++;
    this.walk(el.children);
    this.asides--;
  }

  /** A list as lines; a section holding nothing but a list of links into the page is its contents (kind `contents`, never suggested). */
  private list(el: Element): void {
    const contents = this.stack.length > 0 && inPageContents(this.ctx.$, el, () => (this.ids ??= pageIds(this.ctx.$)));
    this.emit(listText(this.ctx, el, 0), contents);
  }

  /** A table as rows, or, on a web page laid out in it, its cells' blocks as the page. */
  private table(el: Element): void {
    const cells = this.ctx.webPage ? layoutCells(this.ctx.$, el) : null;
    if (cells) for (const cell of cells) this.walk(cell.children);
    else this.emit(tableRows(this.ctx, el));
  }

  private block(el: Element, tag: string): void {
    const ctx = this.ctx;
    const level = HEADINGS[tag];
    if (level && (CREDIT_HEADING.test(el.attribs.class ?? '') || FOOTNOTE_MARK.test(lineText(ctx, el).trim()))) this.emit(lineText(ctx, el));
    else if (level && this.asides > 0) this.emit(`**${headingText(collapse(lineText(ctx, el)))}**`);
    else if (level) this.heading(el, level + this.levelShift);
    else if (isAside(el, tag)) this.aside(el);
    else if (tag === 'div' && REFENTRY.test(el.attribs.class ?? '') && this.referenceEntry(el)) return;
    else if (tag === 'p' && ctx.boldHeadings && boldParagraphText(ctx.$, el)) this.heading(el, 2 + this.levelShift);
    else if (tag === 'p' && ctx.boldSubHeadings && boldOverIndent(ctx.$, el)) this.boldSubHeading(el);
    else if (tag === 'table') this.table(el);
    else if ((tag === 'ul' || tag === 'ol') && !looseList(el)) this.list(el);
    else if (tag === 'ul' || tag === 'ol') this.walk(el.children);
    else if (tag === 'pre') this.emit('```\n' + ctx.$(el).text().replace(/^(?:[ \t]*\r?\n)+/, '').replace(/\n+$/, '') + '\n```');
    else if (tag === 'blockquote') this.emit(lineText(ctx, el).split('\n').map((l) => `> ${l}`).join('\n'));
    else if (tag === 'dl') this.definitionList(el);
    else if (CONTAINERS.has(tag)) this.walk(el.children);
    else if (tag !== 'hr') this.emit(lineText(ctx, el));
  }

  private pushInline(n: AnyNode): void {
    if (!this.inline.length) this.inlineAt = lineOf(this.ctx, n);
    this.inline.push(n);
  }

  walk(nodes: AnyNode[]): void {
    for (const n of nodes) {
      if (n.type === 'text') {
        this.pushInline(n);
        continue;
      }
      if (n.type !== 'tag') continue;
      const el = n as Element;
      const tag = el.tagName.toLowerCase();
      const wraps = !BLOCKS.has(tag) && holdsBlocks(el);
      if (!BLOCKS.has(tag) && !wraps) {
        this.pushInline(n);
        continue;
      }
      this.flushInline();
      this.at = lineOf(this.ctx, el) ?? this.at;
      // an inline tag wrapping blocks (<a name="x"><h1>…</h1></a>) is walked as their container
      if (wraps) this.walk(el.children);
      else this.block(el, tag);
    }
    this.flushInline();
  }
}

/** Walk the blocks under `root` into a heading tree. `headingTitle` may rewrite titles (e.g. to add numbers). */
export function htmlSections($: CheerioAPI, root: Cheerio<AnyNode>, headingTitle?: HeadingTitle, opts: { tablesAsRows?: boolean; anchors?: boolean; webPage?: boolean; lineAt?: (index: number) => number } = {}): HtmlTree {
  const ctx: Ctx = { $, imageAlts: [], links: 0, tables: 0, tablesAsRows: opts.tablesAsRows ?? false, anchors: opts.anchors ?? false, webPage: opts.webPage ?? false, boldHeadings: false, boldSubHeadings: false, ...(opts.lineAt ? { lineAt: opts.lineAt } : {}) };
  if (ctx.webPage) {
    ctx.boldHeadings = boldHeadingPage($, root);
    ctx.boldSubHeadings = !ctx.boldHeadings && boldSubHeadingPage($, root);
  }
  const b = new SectionBuilder(ctx, headingTitle);
  // (a page without <html> or <body> is walked from the document itself: htmlparser2 adds neither)
  b.walk(root.toArray().flatMap((r) => (r.type === 'tag' || r.type === 'root' ? (r as Element).children : [r])));
  b.closeTo(0);
  const folded = foldHeadingRuns(b.top);
  b.top.splice(0, b.top.length, ...folded.children);
  b.lead.push(...folded.text);
  b.leadLines.push(...folded.lines);
  const longLead = ownLength(b.lead) > SECTION_SPLIT_CHARS;
  return {
    lead: longLead ? '' : b.lead.join('\n\n'),
    sections: longLead ? [...paragraphGroups(b.lead, undefined, b.leadLines), ...b.top] : b.top,
    headingCount: b.headingCount,
    tableCount: ctx.tables,
    imageAlts: ctx.imageAlts,
    links: ctx.links,
  };
}

/**
 * The converter result of a document walked by htmlSections under `title` (OpenDocument text, RTF):
 * its lead as the root's text, its sections as the root's children, their counts as meta.
 */
export function sectionsResult(t: HtmlTree, title: string, warnings: string[]): ConvertResult {
  return {
    title,
    toc_source: t.headingCount > 0 ? 'headings' : 'paragraphs',
    root: { title, kind: 'document', ...(t.lead ? { content: t.lead } : {}), children: t.sections },
    card: { sections_overview: t.sections.map((s) => s.title).slice(0, 20) },
    meta: { headings: String(t.headingCount), tables: String(t.tableCount) },
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * The ends of the line ranges htmlSections opened (each node's start line): a node runs to the line
 * before the next node's start in reading order, its parts included, and the last to `after - 1`.
 * Nodes with no start line keep none.
 */
export function fillLineEnds(nodes: ConvertedNode[], after: number): void {
  nodes.forEach((n, i) => {
    const next = nodes.slice(i + 1).find((x) => x.line_range)?.line_range?.[0] ?? after;
    fillLineEnds(n.children, next);
    // (several sections on one line of the file: a part starting on the line the next section does stays inside its parent)
    const parts = n.children.flatMap((c) => (c.line_range ? [c.line_range[1]] : []));
    if (n.line_range) n.line_range = [n.line_range[0], Math.max(n.line_range[0], next - 1, ...parts)];
  });
}
