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
import { TblReader } from './man-tbl.js';

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
    // zero-width: non-printing, italic corrections (`\,` `\/`), break points, and `\c`, which joins
    // the line to the next ("to \c" / ".I deg \c" had read "to c deg c degrees" in hebcal(1))
    .replace(/\\[&|^)%,/:c]/g, '')
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
  /** tagged paragraphs inside the block: term, its font (see termFont), first line, text */
  items: Item[];
}

export interface Item {
  term: string;
  font: string;
  start: number;
  end: number;
  lines: string[];
  /** another spelling of the term before it (set under it by `.TQ`, or `.TP` after `.PD 0`, before any text) */
  alias?: boolean;
  /** the body is an indented block of its own (`.RS` … `.RE` under a lone term line), not a tagged paragraph's */
  indented?: boolean;
  /** how many of its block's own lines come before it (the block's text is read in order around its items) */
  at?: number;
}

interface Page {
  name: string;
  section: string;
  blocks: Block[];
}

/** `.IP` tags that are list bullets or numbers, not terms (`\(bu`, `\[ci]`, `•`, the dashes gcloud uses (`\\(em`), `1.`). */
const BULLET = /^(\\\(bu|\\\(ci|\\\[(bu|ci|sq)\]|[•◦○*o—–-]|\d+[.)]?|[a-z][.)])$/;
/** A command-line option as a term spells it: "-D tablespace", "--tablespace=tablespace". */
const OPTION_SPELLING = /^--?[A-Za-z0-9?]/;
/** Longest lone paragraph line read as a term. */
const LONE_TERM_MAX_CHARS = 80;
/** A lone line ending a sentence is no term; a synopsis ending in an ellipsis ("server hostname [option]...") is. */
const SENTENCE_END = /(?<!\.\.)\.$/;
/**
 * A lone line ending on a function word ("The general format of a TCP line is:", "… are printed as")
 * is a sentence leading into the indented example under it, not a term.
 */
const LEAD_IN_END = /\s(?:is|are|was|be|as|of|the|a|an|to|in|on|by|with|for|from|and|or|like|than)\s*:?$/i;
/** A macro definition or appendix (`.de`, groff's `.de1` as rst2man writes, `.am`): its body is no text. */
const DEFINE = /^[.']\s*(?:de|am)(?:i?1?)\s+(\S+)(?:\s+(\S+))?/;
/** The page's own macros run inside one another at most this deep (a macro calling itself stops there). */
const MACRO_DEPTH_MAX = 4;
/**
 * The man macros read here as what they mean (manRequest): a page's own definition of one
 * (SoX's `.de EX` for old groffs) does not replace that reading.
 */
const NATIVE_MACROS = new Set(['B', 'BI', 'BR', 'EE', 'EX', 'HP', 'I', 'IB', 'IP', 'IR', 'LP', 'P', 'PD', 'PP', 'RB', 'RE', 'RI', 'RS', 'SB', 'SH', 'SM', 'SS', 'TH', 'TP', 'TQ']);
/** Requests a heading macro may hold besides its font request: spacing and keep-together ones. */
const SPACING_REQUESTS = /^[.']\s*(?:sp|ne|br|in|ti|PP|LP|P)\b/;
/** The bold request that sets the line after a heading macro in bold (`.B` without arguments). */
const BARE_BOLD = /^[.']\s*(?:B|SB)\s*$/;
/** The font of the first argument of a font macro (`.BR` starts bold, `.RB` roman). */
const MACRO_FONT: Record<string, string> = { B: 'B', BR: 'B', BI: 'B', SB: 'B', I: 'I', IR: 'I', IB: 'I' };
/** The leading font escapes of a term (`\fB\f(CW`), as the font it is set in. */
const LEADING_FONTS = /^(?:\\f(?:\[[^\]]*\]|\(..|.))+/;

/**
 * The font a term is set in, from its leading font escapes or its font macro: "B", "CW", "B+CW", ''
 * for roman. Terms of one list share a font; a value list under an option is set in another.
 */
export function termFont(raw: string, macro = ''): string {
  const fonts = new Set<string>();
  const first = MACRO_FONT[macro];
  if (first) fonts.add(first);
  for (const m of (LEADING_FONTS.exec(raw.trim())?.[0] ?? '').matchAll(/\\f(?:\[([^\]]*)\]|\((..)|(.))/g)) {
    const f = m[1] ?? m[2] ?? m[3]!;
    if (!/^(?:R|P|1|)$/.test(f)) fonts.add(f === '3' ? 'B' : f === '2' ? 'I' : f);
  }
  return [...fonts].sort().join('+');
}

/** Builds a Page line by line: blocks from section requests, tagged items, text under the current one. */
class ManParser {
  readonly page: Page = { name: '', section: '', blocks: [] };
  private cur: Block | null = null;
  private item: Block['items'][number] | null = null;
  private pendingTag: number | null = null;
  /** a paragraph (.PP, or a bulleted .IP) that has held one line so far: a term when an indented body follows */
  private lone: { start: number; texts: number; text: string; font: string; second?: string } | null = null;
  /** .RS depth inside the current item */
  private depth = 0;
  /**
   * The item whose indented body closed just before the paragraph break being read: an indented
   * block opening right after the break (Asciidoctor's list continuation: `.RE` `.sp` `.RS 4`
   * "The refclock directive supports the following options:") goes on with it, as it is printed.
   */
  private resumable: Item | null = null;
  /** the page's own macro being defined (`.de NAME` … `..`): its name and body requests */
  private defining: { name: string; body: string[]; end: string } | null = null;
  /**
   * No-fill mode (`.nf` … `.fi`, `.EX` … `.EE`, mdoc's `.Bd -literal` … `.Ed`): each text line is a
   * line of its own. Filled into one paragraph, proc(5)'s shell sessions read "$ echo test | sudo -u
   * nobody cat test $ echo test | …".
   */
  private noFill = false;
  /** the tbl table being read (`.TS` … `.TE`) */
  private table: TblReader | null = null;
  /** macros the page defines as subheadings: a bold line after spacing (tcpdump's `.HD`) */
  private readonly headingMacros = new Set<string>();
  /** a heading macro was called without text: the next text line is the subheading */
  private pendingHeading = false;
  /** macros the page defines whose bodies are requests only (rst2man's `.INDENT` → `.RS`): run where called */
  private readonly requestMacros = new Map<string, string[]>();
  /** depth of the page's own macros being run (one may call another) */
  private expanding = 0;
  /** `.PD 0` in effect: tagged paragraphs follow one another without space */
  private noSpace = false;
  /** the pending tag is set right under a term that has no text yet (`.TQ`, `.PD 0`): an alias of it */
  private pendingAlias = false;

  line(raw: string, ln: number): void {
    if (this.table) {
      if (/^[.']\s*TE\b/.test(raw)) this.table = null;
      else {
        const cells = this.table.line(raw);
        const text = cells?.map((c) => roffText(c)).join(' | ');
        if (text && /[^\s|]/.test(text)) this.tableRow(text, ln);
      }
      return;
    }
    if (/^[.']\s*TS\b/.test(raw)) {
      this.table = new TblReader();
      return;
    }
    if (this.defining) {
      if (/^[.']/.test(raw) && raw.slice(1).trim() === this.defining.end) this.endDefinition(); // `..`, `.  .` or `.END`
      else this.defining.body.push(raw);
      return;
    }
    if (/^[.']\s*\\"/.test(raw) || raw.startsWith('\\"') || /^[.']\s*$/.test(raw)) return; // comment, null request
    const def = DEFINE.exec(raw.replace(/\\".*$/, '')); // `.de EX \"Begin example`: the comment is no end macro
    if (def) {
      this.defining = { name: def[1]!, body: [], end: def[2] ?? '.' }; // ends at `..` or at `.END` when named
      return;
    }
    if (this.pageMacro(raw, ln)) return;
    const req = /^[.']\s*([A-Za-z]{1,3})\b\s*(.*)$/.exec(raw);
    if (!req) {
      const t = roffText(raw);
      if (t) this.emit(t, ln, termFont(raw));
      return;
    }
    // a heading macro's title is the line right after it; a request first (`.RS`, `.nf`) means a misused call
    if (this.pendingHeading && !MACRO_FONT[req[1]!]) this.pendingHeading = false;
    if (this.headingMacros.has(req[1]!)) {
      this.headingMacro(req[2]!, ln);
      return;
    }
    if (!this.mdocRequest(req[1]!, req[2]!, ln)) this.manRequest(req[1]!, req[2]!, ln);
  }

  /**
   * A macro whose body is spacing requests and a bare `.B` sets the line after it apart in bold: the
   * page's own subheading macro. Other definitions are dropped (their bodies are not text).
   */
  private endDefinition(): void {
    const d = this.defining!;
    this.defining = null;
    const body = d.body.filter((l) => !/^[.']\s*\\"/.test(l) && l.trim());
    const last = body[body.length - 1] ?? '';
    if (d.name && BARE_BOLD.test(last) && body.slice(0, -1).every((l) => SPACING_REQUESTS.test(l))) this.headingMacros.add(d.name);
    else if (d.name && !NATIVE_MACROS.has(d.name) && body.every((l) => /^[.']/.test(l))) this.requestMacros.set(d.name, body);
  }

  /**
   * A call of a macro the page defined, or of a long-named one it did not: a control line is never
   * text (rst2man's `.INDENT 0.0` and `.UNINDENT` had been printed in every option's text). A macro
   * whose body is requests is run with its arguments (`\\$1`); any other is left out.
   */
  private pageMacro(raw: string, ln: number): boolean {
    const call = /^[.']\s*([A-Za-z][\w.-]*)\s*(.*)$/.exec(raw);
    if (!call || this.headingMacros.has(call[1]!)) return false;
    const body = this.requestMacros.get(call[1]!);
    if (!body) return call[1]!.length > 3;
    if (this.expanding >= MACRO_DEPTH_MAX) return true;
    const a = args(call[2]!);
    this.expanding++;
    for (const l of body) this.line(l.replace(/\\\\?\$(\d)/g, (_, k: string) => a[Number(k) - 1] ?? ''), ln);
    this.expanding--;
    return true;
  }

  /** A call of a heading macro: a subsection titled by its arguments or by the next text line. */
  private headingMacro(rest: string, ln: number): void {
    const t = roffText(args(rest).join(' '));
    if (t) this.section(t, this.cur && this.cur.level > 1 ? this.cur.level : 2, ln, false);
    else this.pendingHeading = true;
  }

  private emit(text: string, ln: number, font = ''): void {
    if (this.pendingHeading) {
      this.pendingHeading = false;
      this.section(text, this.cur && this.cur.level > 1 ? this.cur.level : 2, ln, false);
      return;
    }
    if (!this.cur) this.cur = { title: '', level: 1, start: ln, end: ln, lines: [], items: [] };
    if (this.pendingTag !== null) {
      this.item = { term: text, font, start: this.pendingTag, end: ln, lines: [], at: this.cur.lines.length, ...(this.pendingAlias ? { alias: true } : {}) };
      this.pendingAlias = false;
      this.cur.items.push(this.item);
      this.pendingTag = null;
    }
    this.append(this.noFill ? `${KEPT_LINE}${text}` : text, ln);
    if (this.lone && ++this.lone.texts === 1) {
      this.lone.text = text;
      this.lone.font = font;
    } else if (this.lone?.texts === 2) this.lone.second = text;
  }

  /** A line of text at the end of the current item, else of the current block. */
  private append(line: string, ln: number): void {
    if (!this.cur) this.cur = { title: '', level: 1, start: ln, end: ln, lines: [], items: [] };
    if (!this.item) this.resumable = null; // the section's own text came between: an indented block after it is its own
    (this.item ? this.item.lines : this.cur.lines).push(line);
    if (this.item) this.item.end = ln;
    this.cur.end = ln;
  }

  /** A table's row: a line of its own (joinText keeps KEPT_LINE lines apart), never a heading or a term. */
  private tableRow(text: string, ln: number): void {
    this.pendingHeading = false;
    this.pendingTag = null;
    this.append(`${KEPT_LINE}${text}`, ln);
  }

  /**
   * A paragraph of one short line followed by an indented body (DocBook's `.PP` term `.RS 4` text,
   * ronn's bulleted `.IP` term `.IP` text) is a tagged item, as after .TP.
   */
  private promoteLone(ln: number): boolean {
    if (this.promoteSpellings(ln)) return true;
    const l = this.lone;
    this.lone = null;
    if (!l || l.texts !== 1 || this.item || !this.cur || l.text.length > LONE_TERM_MAX_CHARS || SENTENCE_END.test(l.text) || LEAD_IN_END.test(l.text)) return false;
    if (this.cur.lines[this.cur.lines.length - 1] !== l.text) return false;
    this.cur.lines.pop();
    this.item = { term: l.text.replace(/:$/, ''), font: l.font, start: l.start, end: ln, lines: [l.text], indented: true, at: this.cur.lines.length };
    this.cur.items.push(this.item);
    this.depth = 0;
    return true;
  }

  /**
   * Two option spellings on lines of their own (`.br` between them) over an indented body: DocBook's
   * term list with two terms ("-D tablespace" / "--tablespace=tablespace" in PostgreSQL's pages), one
   * item named by both.
   */
  private promoteSpellings(ln: number): boolean {
    const l = this.lone;
    if (!l || l.texts !== 2 || !l.second || this.item || !this.cur) return false;
    const n = this.cur.lines.length;
    const [a, gap, b] = this.cur.lines.slice(n - 3);
    if (a !== l.text || gap !== '' || b !== l.second || ![a, b].every((t) => OPTION_SPELLING.test(t) && t.length <= LONE_TERM_MAX_CHARS)) return false;
    this.lone = null;
    this.cur.lines.splice(n - 3, 3);
    this.item = { term: `${a}, ${b}`, font: l.font, start: l.start, end: ln, lines: [`${a}, ${b}`], indented: true, at: this.cur.lines.length };
    this.cur.items.push(this.item);
    this.depth = 0;
    return true;
  }

  /** An indented block right after a paragraph break that closed an item's body: the item goes on (see `resumable`). */
  private resumeItem(): boolean {
    const it = this.resumable;
    this.resumable = null;
    if (!it || !this.lone || this.lone.texts !== 0 || this.cur?.items[this.cur.items.length - 1] !== it) return false;
    this.lone = null;
    this.item = it;
    this.item.lines.push('');
    this.depth = 1;
    return true;
  }

  /** A new paragraph: inside an item's indented body it goes on with the item; else it may open a term. */
  private newParagraph(ln: number): void {
    if (this.item && this.depth > 0) {
      this.item.lines.push('');
      return;
    }
    this.paragraph();
    this.lone = { start: ln, texts: 0, text: '', font: '' };
  }

  private title(rest: string): void {
    const a = args(rest);
    this.page.name = roffText(a[0] ?? '');
    this.page.section = roffText(a[1] ?? '');
  }

  /** A new block; `rest` is the request's arguments, or (raw false) a title already rendered. */
  private section(rest: string, level: number, ln: number, raw = true): void {
    this.noFill = false; // a heading macro restores filling
    this.cur = { title: raw ? roffText(args(rest).join(' ')) : rest, level, start: ln, end: ln, lines: [], items: [] };
    this.page.blocks.push(this.cur);
    this.item = null;
    this.pendingTag = null;
    this.pendingAlias = false;
    this.lone = null;
  }

  /** A tagged paragraph whose term is on the request line itself. */
  private taggedTerm(term: string, ln: number, font = ''): void {
    this.pendingAlias = false;
    this.item = null;
    this.lone = null;
    this.pendingTag = ln;
    this.emit(term, ln, font);
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
      case 'Bd':
        if (/-(?:literal|unfilled|code)\b/.test(rest)) this.noFill = true;
        return true;
      case 'Ed':
        this.noFill = false;
        return true;
      case 'Dd': case 'Os': case 'Bl': case 'El': case 'Ex': case 'Rv':
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
        this.pendingAlias = (name === 'TQ' || this.noSpace) && !!this.item && this.item.lines.length === 1;
        this.pendingTag = ln;
        this.item = null;
        this.lone = null;
        return;
      case 'IP': {
        const raw = args(rest)[0] ?? '';
        const tag = roffText(raw);
        if (tag && !BULLET.test(tag)) this.taggedTerm(tag, ln, termFont(raw));
        else if (raw) this.newParagraph(ln); // a bullet: its first line may be a term
        else if (this.promoteLone(ln)) return;
        else if (this.item) this.item.lines.push(''); // an indented paragraph goes on with the item it follows
        else this.paragraph();
        return;
      }
      case 'RS':
        if (this.resumeItem()) return;
        if (!this.promoteLone(ln) && this.item) this.depth++;
        else if (this.item) this.depth = 1;
        return;
      case 'RE':
        this.depth = Math.max(0, this.depth - 1);
        // an indented body closed: after a paragraph break an indented block may still continue the item (resumeItem)
        if (this.depth === 0 && this.item?.indented) this.resumable = this.item;
        return;
      case 'PD':
        this.noSpace = /^\s*0\s*$/.test(rest);
        return;
      case 'PP': case 'LP': case 'P': this.newParagraph(ln); return;
      case 'B': case 'I': case 'SM': case 'SB':
      case 'BR': case 'RB': case 'IR': case 'RI': case 'BI': case 'IB': {
        const t = fontMacro(name, rest);
        if (t) this.emit(t, ln, termFont(rest, name));
        return;
      }
      // Asciidoctor writes `.sp` where DocBook writes `.PP`: between items, outside a no-fill block, it opens a paragraph (which may be a term)
      case 'sp':
        if ((!this.item || (this.item.indented && this.depth === 0)) && !this.noFill) this.newParagraph(ln);
        else if (this.cur) (this.item ? this.item.lines : this.cur.lines).push('');
        return;
      case 'br':
        if (this.cur) (this.item ? this.item.lines : this.cur.lines).push('');
        return;
      case 'nf': case 'EX':
        this.noFill = true;
        return;
      case 'fi': case 'EE':
        this.noFill = false;
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

/** A line kept as a line of its own (a table's row, man-tbl.ts; a line of a no-fill block) starts with this mark. */
const KEPT_LINE = '\u001e';

/** Lines as paragraphs (filled text joined, a blank line between), kept lines (table rows, no-fill blocks) one to a line. */
function joinText(lines: string[]): string {
  const paras: string[] = [];
  let cur: string[] = [];
  let rows: string[] = [];
  const flush = () => {
    if (cur.length) paras.push(cur.join(' ').replace(/\s+([,.;:)])/g, '$1'));
    if (rows.length) paras.push(rows.join('\n'));
    cur = [];
    rows = [];
  };
  for (const l of [...lines, '']) {
    if (l.startsWith(KEPT_LINE)) {
      if (cur.length) flush();
      rows.push(l.slice(KEPT_LINE.length));
    } else if (l) {
      if (rows.length) flush();
      cur.push(l);
    } else flush();
  }
  return paras.join('\n\n');
}

function clipTerm(t: string): string {
  return t.length <= TERM_TITLE_CHARS ? t : `${t.slice(0, TERM_TITLE_CHARS - 1).replace(/\s+\S*$/, '')}…`;
}

/**
 * A label standing as a term ("Example:", "Note:"): a word or two and a colon. help2man renders the
 * `Example:` paragraphs of an option's help as tagged paragraphs of their own.
 */
const LABEL_TERM = /^\p{L}+(?: \p{L}+)?:$/u;

/** Items folded into the one before them (`into[i]` for item i): its term and body go on with that item's text. */
function foldItems(items: Item[], into: (number | null)[]): Item[] {
  const out: Item[] = [];
  const merged = new Map<number, Item>();
  items.forEach((it, i) => {
    const host = into[i];
    const target = host === null || host === undefined ? undefined : merged.get(host);
    if (!target) {
      const copy = { ...it, lines: [...it.lines] };
      merged.set(i, copy);
      out.push(copy);
      return;
    }
    merged.set(i, target);
    target.lines.push('', ...it.lines);
    target.end = Math.max(target.end, it.end);
  });
  return out;
}

/**
 * Labels that are not the list's own terms go on with the item before them: in a list whose terms
 * are mostly something else (options), "Example:" is part of the option it follows. A list made of
 * labels ("Linux:", "BSD:") keeps them as its terms.
 */
export function foldLabels(items: Item[]): Item[] {
  const isLabel = items.map((it) => LABEL_TERM.test(it.term));
  if (2 * isLabel.filter(Boolean).length >= items.length) return items;
  return foldItems(items, items.map((_, i) => (isLabel[i] && i > 0 ? i - 1 : null)));
}

/**
 * Terms set right under one another (`.TP -s snaplen` `.PD 0` `.TP --snapshot-length=snaplen`, or
 * `.TQ`) render as two tag lines over one paragraph: spellings of one entry. They become one item
 * titled by all of them ("-s snaplen, --snapshot-length=snaplen").
 */
export function joinAliasTerms(items: Item[]): Item[] {
  const out: Item[] = [];
  for (const it of items) {
    const prev = out[out.length - 1];
    if (it.alias && prev) out[out.length - 1] = { ...it, term: `${prev.term}, ${it.term}`, font: prev.font, start: prev.start, lines: [...prev.lines, ...it.lines], alias: false };
    else out.push(it);
  }
  return out;
}

/** The last text line of an item's body. */
function lastLine(it: Item): string {
  for (let i = it.lines.length - 1; i > 0; i--) if (it.lines[i]) return it.lines[i]!;
  return '';
}

/** True when a term's font (termFont) is bold, as man-pages(7) sets options and commands. */
const isBold = (font: string): boolean => font.split('+').includes('B');

/**
 * The values an option lists go on with the option: a bold item whose text ends with a colon ("Valid
 * strings are:") followed by terms in a plainer font (socat's `SSL2`, `TLS1` under
 * `method=<ssl-method>` and again under `min-proto-version`) holds those terms, up to the next bold
 * term. A plain head (gcloud's "Update X. At most one of these can be specified:") over bold options
 * is a group of options, kept apart; terms in the list's own bold font are its next entries.
 */
export function foldValueLists(items: Item[]): Item[] {
  const into: (number | null)[] = items.map(() => null);
  for (let i = 0; i < items.length; i++) {
    const head = items[i]!;
    if (!isBold(head.font) || !/:$/.test(lastLine(head))) continue;
    let j = i + 1;
    while (j < items.length && !isBold(items[j]!.font)) into[j++] = i;
    i = j - 1;
  }
  return foldItems(items, into);
}

function blockNode(b: Block): ConvertedNode {
  const items = foldValueLists(foldLabels(joinAliasTerms(b.items)));
  if (items.length >= MIN_TAGGED_ITEMS) {
    // the block's text printed after an item's body and before the next item goes on with that item
    // (Hunspell's "Note I/II" and example table under REP had been moved ahead of every item, into the section's own text)
    const at = items.map((it) => Math.min(b.lines.length, it.at ?? b.lines.length));
    const between = items.map((_, k) => b.lines.slice(Math.max(at[k]!, k > 0 ? at[k - 1]! : 0), k + 1 < items.length ? Math.max(at[k]!, at[k + 1]!) : b.lines.length));
    // …but a paragraph leading into the next items ("FORMAT controls the output. Interpreted sequences are:") opens the next one
    const leadIns = between.map((lines, k) => (k + 1 < items.length ? leadInTail(lines) : 0));
    // more text than a note or an example runs on past the item: terms the page sets in a way not read
    // as terms (createdb's "-D tablespace" over "--tablespace=…"), which stay the section's text
    const rest: string[] = [];
    const children = items.map((it, k) => {
      const leadIn = k > 0 ? between[k - 1]!.slice(between[k - 1]!.length - leadIns[k - 1]!) : [];
      let own = between[k]!.slice(0, between[k]!.length - leadIns[k]!);
      // (text after the last item is after the list: the section's, as before)
      if (k + 1 === items.length || joinText(own).length > ITEM_TAIL_MAX_CHARS) {
        rest.push('', ...own);
        own = [];
      }
      // its lines run on to the next item's (the block's end) when text after its body is its own
      const end = own.some((l) => l.trim()) ? Math.max(it.end, (items[k + 1]?.start ?? b.end + 1) - 1) : it.end;
      return { title: clipTerm(it.term), kind: 'term', line_range: [it.start, end] as [number, number], content: joinText([...leadIn, ...(leadIn.length ? [''] : []), ...it.lines, '', ...own]), children: [] };
    });
    const lead = joinText([...b.lines.slice(0, at[0]), ...rest]);
    return { title: b.title, kind: 'section', line_range: [b.start, b.end], ...(lead ? { content: lead } : {}), children };
  }
  return { title: b.title, kind: 'section', line_range: [b.start, b.end], content: joinText(inReadingOrder(b.lines, items)), children: [] };
}

/** Most characters of a block's text after an item's body taken as the item's own (a note, an example table). */
export const ITEM_TAIL_MAX_CHARS = 1500;

/** How many of `lines` (a block's text between two items) form its last paragraph when that leads into what follows (ends in ":"). */
function leadInTail(lines: string[]): number {
  let end = lines.length;
  while (end > 0 && !lines[end - 1]!.trim()) end--;
  if (end === 0 || !/:\s*$/.test(lines[end - 1]!)) return 0;
  let start = end;
  while (start > 0 && lines[start - 1]!.trim()) start--;
  return lines.length - start;
}

/** A block's own lines and its items' lines in the order they are printed (text after a list stays after it). */
function inReadingOrder(lines: string[], items: Item[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const it of items) {
    const at = Math.min(lines.length, Math.max(from, it.at ?? lines.length));
    out.push(...lines.slice(from, at), '', ...it.lines);
    from = at;
  }
  out.push(...lines.slice(from));
  return out;
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

/**
 * The first sentence of a NAME section that says more than its purpose: pandoc's pages write prose
 * there (hledger(1): "This is the command-line interface (CLI) for the hledger accounting tool. Here
 * we also describe hledger's concepts and file formats. This manual is for hledger 1.25." had
 * titled the page whole).
 */
export function firstSentence(text: string): string {
  const m = /^(.{20,}?[^.\s]{2})\.\s+(?=\p{Lu})/u.exec(text);
  return m ? m[1]! : text;
}

export const manConverter: Converter = {
  name: 'man',
  version: 13,
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
    const purpose = nameBlock ? firstSentence(joinText(nameBlock.lines).replace(/\s+/g, ' ').replace(/^.*?\s[-—–]\s/, '')) : '';
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

/** A roff control line: a request or macro call (`.de SP`, `.if t .sp .5`, `..`, `'br`). */
const ROFF_CONTROL = /^[.'][A-Za-z.\\]/;

/**
 * Roff text: a comment or .TH/.Dd line and a section request (.TH/.SH/.Dt/.Sh) in the head, or a head
 * that opens with a roff comment and holds nothing but comments and requests: a long licence
 * comment, or the macros a page defines for itself, put .TH past the bytes sniffed (SoX's sox.1
 * defines .SP, .EX and .EE first, and was read as plain text, its requests as words).
 */
export function isRoff(head: string): boolean {
  if (ROFF_HEAD.test(head.slice(0, 2000)) && /^\.(?:TH|SH|Dt|Sh)\s/m.test(head)) return true;
  const whole = head.split('\n').slice(0, -1); // the last line may be cut short
  return whole.length > 0 && ROFF_COMMENT.test(whole[0]!) && outsideMacroBodies(whole).every((l) => ROFF_COMMENT.test(l) || ROFF_CONTROL.test(l));
}

/** A request opening a macro definition or an ignored block, whose lines run to a `..` line. */
const MACRO_BLOCK_START = /^[.']\s*(?:de|de1|dei|am|am1|ig)(?:\s|$)/;

/**
 * The lines of a roff head outside macro definitions: a definition's body is whatever the macro
 * prints (docutils' rst2man defines rstReportMargin with lines such as "level \\n[an-margin]"), not
 * text, and put PROJ's cs2cs.1 .TH past the bytes sniffed.
 */
function outsideMacroBodies(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inBlock = false;
  for (const l of lines) {
    if (inBlock) inBlock = !/^[.']\.\s*$/.test(l) && l.trim() !== '..';
    else if (MACRO_BLOCK_START.test(l)) inBlock = true;
    else out.push(l);
  }
  return out;
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
