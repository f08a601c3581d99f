/**
 * Manual pages (roff with the man macros): one node per `.SH` section and `.SS` subsection, and, in
 * a section listing many tagged paragraphs (`.TP` / `.IP "term"`: options, commands, variables), one
 * node per term. Text is plain: font escapes and special characters rendered, requests dropped.
 * Title: "name(section) — what the NAME section says". Gzipped pages (`ls.1.gz`) are read as well.
 */
import { gunzipSync } from 'node:zlib';
import { PRIORITY_GENERIC, ConvertError, type ConvertedNode, type Converter, type ConverterRegistration } from './types.js';
import { decodeText, splitLines } from './text-util.js';
import { followPlan, type Capabilities } from './plan-shape.js';

/** A section becomes one node per tagged paragraph from this many tags. */
export const MIN_TAGGED_ITEMS = 4;
/** Longest term kept whole as a node title. */
const TERM_TITLE_CHARS = 100;

const SPECIAL: Record<string, string> = { em: '—', en: '–', hy: '-', bu: '•', lq: '“', rq: '”', oq: '‘', cq: '’', aq: "'", dq: '"', co: '©', rg: '®', tm: '™', mi: '−', pl: '+', mu: '×', di: '÷', '<=': '≤', '>=': '≥', '->': '→', '<-': '←', ga: '`', ha: '^', ti: '~', ba: '|', rs: '\\', sl: '/', fo: '«', fc: '»', de: '°' };

/** One line of roff text as plain text: font changes, escapes and special characters rendered. */
export function roffText(s: string, trim = true): string {
  const t = s
    .replace(/\\f(?:\[[^\]]*\]|\(..|.)/g, '')
    .replace(/\\\((..)/g, (_, n: string) => SPECIAL[n] ?? '')
    .replace(/\\\[([^\]]+)\]/g, (_, n: string) => SPECIAL[n] ?? '')
    .replace(/\\s[-+]?\d/g, '')
    .replace(/\\\*(?:\(..|\[[^\]]*\]|.)/g, '')
    .replace(/\\[&|^)%,/:]/g, '') // zero-width: non-printing, italic corrections (`\,` `\/`), break points
    .replace(/\\[~0 ]/g, ' ')
    .replace(/\\[-e]/g, (m) => (m === '\\-' ? '-' : '\\'))
    .replace(/\\(.)/g, '$1')
    .replace(/\s+/g, ' ');
  return trim ? t.trim() : t;
}

/** mdoc inline macros dropped from a line's text (`Fl` renders as "-"). */
const MDOC_INLINE = /(^|\s)(?:Op|Oo|Oc|Ar|Cm|Ic|Pa|Ev|Va|Li|Em|Sy|Dq|Qq|Sq|Pq|Ql|Nm|Ns|No|Bro|Brc|Dl|Ad|An|Aq|Lk|Mt|Tn|Xo|Xc|Dv|Er|Fa|Fn|Ft|Cd|In|Ot|St|Ux|Bx|At|Pf|Ms|Sx|Xr)(?=\s|$)/g;

/** An mdoc macro line's text: inline macro names dropped, `Fl x` as "-x", `Xr ls 1` as "ls(1)". */
export function mdocText(rest: string): string {
  return roffText(
    rest
      .replace(/\bXr\s+(\S+)\s+(\d\w*)/g, '$1($2)')
      .replace(/(^|\s)Fl\s+/g, '$1-')
      .replace(/(^|\s)Fl(?=\s|$)/g, '$1-')
      .replace(MDOC_INLINE, '$1')
      .replace(/\s+([,.;:)])(?=\s|$)/g, '$1'),
  );
}

/** Arguments of a request line, quotes honoured (`.IP "-o file" 4`). */
function args(rest: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"]|"")*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest))) out.push((m[1] ?? m[2]!).replace(/""/g, '"'));
  return out;
}

/** Font macros (.B, .BR, .IR …): their arguments joined, without spaces for the alternating ones. */
function fontMacro(name: string, rest: string): string {
  const a = args(rest).map((x) => roffText(x, false));
  return (name.length === 2 ? a.join('') : a.join(' ')).replace(/\s+/g, ' ').trim();
}

interface Block {
  title: string;
  level: number;
  start: number;
  end: number;
  lines: string[];
  /** tagged paragraphs inside the block: term, first line, text */
  items: Array<{ term: string; start: number; end: number; lines: string[] }>;
}

interface Page {
  name: string;
  section: string;
  blocks: Block[];
}

/** `.IP` tags that are list bullets or numbers, not terms (`\(bu`, `\[ci]`, `•`, `1.`). */
const BULLET = /^(\\\(bu|\\\(ci|\\\[(bu|ci|sq)\]|[•◦○*o-]|\d+[.)]?|[a-z][.)])$/;
/** Longest lone paragraph line read as a term. */
const LONE_TERM_MAX_CHARS = 80;

/** Builds a Page line by line: blocks from section requests, tagged items, text under the current one. */
class ManParser {
  readonly page: Page = { name: '', section: '', blocks: [] };
  private cur: Block | null = null;
  private item: Block['items'][number] | null = null;
  private pendingTag: number | null = null;
  /** a paragraph (.PP, or a bulleted .IP) that has held one line so far: a term when an indented body follows */
  private lone: { start: number; texts: number; text: string } | null = null;
  /** .RS depth inside the current item */
  private depth = 0;

  line(raw: string, ln: number): void {
    if (/^[.']\s*\\"/.test(raw) || raw.startsWith('\\"') || /^[.']\s*$/.test(raw)) return; // comment, null request
    const req = /^[.']\s*([A-Za-z]{1,3})\b\s*(.*)$/.exec(raw);
    if (!req) {
      const t = roffText(raw);
      if (t) this.emit(t, ln);
      return;
    }
    if (!this.mdocRequest(req[1]!, req[2]!, ln)) this.manRequest(req[1]!, req[2]!, ln);
  }

  private emit(text: string, ln: number): void {
    if (!this.cur) this.cur = { title: '', level: 1, start: ln, end: ln, lines: [], items: [] };
    if (this.pendingTag !== null) {
      this.item = { term: text, start: this.pendingTag, end: ln, lines: [] };
      this.cur.items.push(this.item);
      this.pendingTag = null;
    }
    (this.item ? this.item.lines : this.cur.lines).push(text);
    if (this.item) this.item.end = ln;
    this.cur.end = ln;
    if (this.lone && ++this.lone.texts === 1) this.lone.text = text;
  }

  /**
   * A paragraph of one short line followed by an indented body (DocBook's `.PP` term `.RS 4` text,
   * ronn's bulleted `.IP` term `.IP` text) is a tagged item, as after .TP.
   */
  private promoteLone(ln: number): boolean {
    const l = this.lone;
    this.lone = null;
    if (!l || l.texts !== 1 || this.item || !this.cur || l.text.length > LONE_TERM_MAX_CHARS || /\.$/.test(l.text)) return false;
    if (this.cur.lines[this.cur.lines.length - 1] !== l.text) return false;
    this.cur.lines.pop();
    this.item = { term: l.text.replace(/:$/, ''), start: l.start, end: ln, lines: [l.text] };
    this.cur.items.push(this.item);
    this.depth = 0;
    return true;
  }

  /** A new paragraph: inside an item's indented body it goes on with the item; else it may open a term. */
  private newParagraph(ln: number): void {
    if (this.item && this.depth > 0) {
      this.item.lines.push('');
      return;
    }
    this.paragraph();
    this.lone = { start: ln, texts: 0, text: '' };
  }

  private title(rest: string): void {
    const a = args(rest);
    this.page.name = roffText(a[0] ?? '');
    this.page.section = roffText(a[1] ?? '');
  }

  private section(rest: string, level: number, ln: number): void {
    this.cur = { title: roffText(args(rest).join(' ')), level, start: ln, end: ln, lines: [], items: [] };
    this.page.blocks.push(this.cur);
    this.item = null;
    this.pendingTag = null;
    this.lone = null;
  }

  /** A tagged paragraph whose term is on the request line itself. */
  private taggedTerm(term: string, ln: number): void {
    this.item = null;
    this.lone = null;
    this.pendingTag = ln;
    this.emit(term, ln);
  }

  private paragraph(): void {
    this.item = null;
    if (this.cur) this.cur.lines.push('');
  }

  /** mdoc (BSD) pages: .Dt/.Sh/.Ss/.It/.Nd/.Pp; other mdoc macro lines rendered as text. */
  private mdocRequest(name: string, rest: string, ln: number): boolean {
    switch (name) {
      case 'Dt': this.title(rest); return true;
      case 'Sh': case 'Ss': this.section(rest, name === 'Sh' ? 1 : 2, ln); return true;
      case 'It': {
        const term = mdocText(rest);
        this.item = null;
        if (term) this.taggedTerm(term, ln);
        return true;
      }
      case 'Nd': {
        const t = mdocText(rest);
        if (t) this.emit(`- ${t}`, ln);
        return true;
      }
      case 'Pp': this.paragraph(); return true;
      case 'Dd': case 'Os': case 'Bl': case 'El': case 'Bd': case 'Ed': case 'Ex': case 'Rv':
        return true;
      default: {
        if (!/^[A-Z][a-z]$/.test(name)) return false;
        const t = mdocText(`${name} ${rest}`);
        if (t) this.emit(t, ln);
        return true;
      }
    }
  }

  /** man(7) requests; others (.nf, .fi, .RS, .RE, .in, .ad, .hy, .ds …) carry no text. */
  private manRequest(name: string, rest: string, ln: number): void {
    switch (name) {
      case 'TH': this.title(rest); return;
      case 'SH': case 'SS': this.section(rest, name === 'SH' ? 1 : 2, ln); return;
      // .HP (help2man's options: the term on the next line, its text after an .IP) as .TP
      case 'TP': case 'TQ': case 'HP':
        this.pendingTag = ln;
        this.item = null;
        this.lone = null;
        return;
      case 'IP': {
        const raw = args(rest)[0] ?? '';
        const tag = roffText(raw);
        if (tag && !BULLET.test(tag)) this.taggedTerm(tag, ln);
        else if (raw) this.newParagraph(ln); // a bullet: its first line may be a term
        else if (this.promoteLone(ln)) return;
        else if (this.item) this.item.lines.push(''); // an indented paragraph goes on with the item it follows
        else this.paragraph();
        return;
      }
      case 'RS':
        if (!this.promoteLone(ln) && this.item) this.depth++;
        else if (this.item) this.depth = 1;
        return;
      case 'RE':
        this.depth = Math.max(0, this.depth - 1);
        return;
      case 'PP': case 'LP': case 'P': this.newParagraph(ln); return;
      case 'B': case 'I': case 'SM': case 'SB':
      case 'BR': case 'RB': case 'IR': case 'RI': case 'BI': case 'IB': {
        const t = fontMacro(name, rest);
        if (t) this.emit(t, ln);
        return;
      }
      case 'br': case 'sp':
        if (this.cur) (this.item ? this.item.lines : this.cur.lines).push('');
        return;
      default:
        return;
    }
  }
}

function parse(lines: string[]): Page {
  const p = new ManParser();
  lines.forEach((raw, i) => p.line(raw, i + 1));
  return p.page;
}

/** Source lines of a paragraph joined with spaces (roff fills them); paragraphs apart by a blank line. */
function joinText(lines: string[]): string {
  const paras: string[] = [];
  let cur: string[] = [];
  for (const l of [...lines, '']) {
    if (l) cur.push(l);
    else if (cur.length) {
      paras.push(cur.join(' ').replace(/\s+([,.;:)])/g, '$1'));
      cur = [];
    }
  }
  return paras.join('\n\n');
}

function clipTerm(t: string): string {
  return t.length <= TERM_TITLE_CHARS ? t : `${t.slice(0, TERM_TITLE_CHARS - 1).replace(/\s+\S*$/, '')}…`;
}

function blockNode(b: Block): ConvertedNode {
  const own = joinText(b.lines);
  if (b.items.length >= MIN_TAGGED_ITEMS) {
    const children = b.items.map((it) => ({ title: clipTerm(it.term), kind: 'term', line_range: [it.start, it.end] as [number, number], content: joinText(it.lines), children: [] }));
    return { title: b.title, kind: 'section', line_range: [b.start, b.end], ...(own ? { content: own } : {}), children };
  }
  const all = joinText([...b.lines, ...b.items.flatMap((it) => ['', ...it.lines])]);
  return { title: b.title, kind: 'section', line_range: [b.start, b.end], content: all, children: [] };
}

/** Nests .SS blocks under the .SH before them. */
function outline(blocks: Block[]): ConvertedNode[] {
  const top: ConvertedNode[] = [];
  let parent: ConvertedNode | null = null;
  for (const b of blocks) {
    const node = blockNode(b);
    if (b.level === 2 && parent) {
      parent.children.push(node);
      parent.line_range = [parent.line_range![0], node.line_range![1]];
    } else {
      top.push(node);
      parent = node;
    }
  }
  return top;
}

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** What this converter does with each plan field (see plan-shape.ts). */
const MAN_CAPS: Capabilities = {
  approaches: ['tree_index', 'chunk_embed'],
  keySections: 'a manual page is split at its own .SH/.SS sections',
  tablesAsRows: 'manual-page tables are kept as text lines',
  twoColumns: 'a manual page has no page layout',
  plaintext: { native: null, reason: '' },
  estimatedNodes: 'a manual page tree follows its .SH/.SS sections',
};

export const manConverter: Converter = {
  name: 'man',
  version: 4,
  async convert({ bytes, card, options }) {
    let raw = bytes;
    if (isGzip(bytes)) {
      try {
        raw = gunzipSync(bytes);
      } catch {
        throw new ConvertError('The gzip-compressed manual page could not be decompressed.', 'Check the file with `gzip -t`; re-fetch it if it is truncated.');
      }
    }
    const lines = splitLines(decodeText(raw));
    const page = parse(lines);
    if (page.blocks.length === 0) throw new ConvertError('No manual page sections (.SH) found.', 'Is this a roff manual page? Plain text files should end in .txt.');
    const nameBlock = page.blocks.find((b) => /^name$/i.test(b.title));
    const purpose = nameBlock ? joinText(nameBlock.lines).replace(/\s+/g, ' ').replace(/^.*?\s[-—–]\s/, '') : '';
    const ident = page.name ? `${page.name.toLowerCase()}${page.section ? `(${page.section})` : ''}` : card.filename;
    const title = purpose ? `${ident} — ${purpose}` : ident;
    const root: ConvertedNode = { title, kind: 'document', line_range: [1, Math.max(1, lines.length)], children: outline(page.blocks) };
    return followPlan({
      title,
      toc_source: 'headings',
      root,
      line_count: lines.length,
      card: { title, doc_type: 'manual page', sections_overview: page.blocks.filter((b) => b.level === 1).map((b) => b.title) },
      meta: { man_section: page.section || 'unknown' },
    }, options.plan, MAN_CAPS, 'a manual page');
  },
};

const ROFF_HEAD = /^(?:\.\\"|'\\"|\.TH\s|\.Dd\s)/m;

/** A roff comment line (`.\"`, `'\"`, `\"`) or an empty request (`.`). */
const ROFF_COMMENT = /^(?:[.']\s*\\"|\\"|[.']\s*$)/;

/**
 * Roff text: a comment or .TH/.Dd line and a section request (.TH/.SH/.Dt/.Sh) in the head, or a head
 * that is nothing but roff comments (a long licence comment puts .TH past the bytes sniffed).
 */
export function isRoff(head: string): boolean {
  if (ROFF_HEAD.test(head.slice(0, 2000)) && /^\.(?:TH|SH|Dt|Sh)\s/m.test(head)) return true;
  const whole = head.split('\n').slice(0, -1); // the last line may be cut short
  return whole.length > 0 && ROFF_COMMENT.test(whole[0]!) && whole.every((l) => ROFF_COMMENT.test(l));
}

/** Gzip holding a roff page (`ls.1.gz`, as manual pages are installed). */
function gzippedRoff(bytes: Uint8Array): boolean {
  try {
    return isRoff(new TextDecoder().decode(gunzipSync(bytes).subarray(0, 4096)));
  } catch {
    return false;
  }
}

/**
 * Roff pages are recognised by content (`.TH`/`.SH` requests), not by a section-number extension
 * (`app.log.1` is a rotated log, not a manual page); `.man` names one outright.
 */
export const manRegistration: ConverterRegistration = {
  converter: manConverter,
  formats: [
    { type: 'man', mime: 'text/troff', extensions: ['.man'], sniffText: isRoff, priority: PRIORITY_GENERIC - 1 },
    { type: 'man', mime: 'application/gzip', magic: [[0x1f, 0x8b]], contains: gzippedRoff, priority: PRIORITY_GENERIC },
  ],
};
