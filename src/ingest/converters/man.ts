/**
 * Manual pages (roff with the man macros): one node per `.SH` section and `.SS` subsection, and, in
 * a section listing many tagged paragraphs (`.TP` / `.IP "term"`: options, commands, variables), one
 * node per term. Text is plain: font escapes and special characters rendered, requests dropped.
 * Title: "name(section) — what the NAME section says". Gzipped pages (`ls.1.gz`) are read as well.
 */
import { gunzipSync } from 'node:zlib';
import { PRIORITY_GENERIC, ConvertError, type ConvertedNode, type Converter, type ConverterRegistration } from './types.js';
import { decodeText, splitLines } from './text-util.js';

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
    .replace(/\\[&|^)%]/g, '')
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

function parse(lines: string[]): Page {
  const page: Page = { name: '', section: '', blocks: [] };
  let cur: Block | null = null;
  let item: Block['items'][number] | null = null;
  let pendingTag: number | null = null;
  const emit = (text: string, ln: number) => {
    if (!cur) cur = { title: '', level: 1, start: ln, end: ln, lines: [], items: [] };
    if (pendingTag !== null) {
      item = { term: text, start: pendingTag, end: ln, lines: [] };
      cur.items.push(item);
      pendingTag = null;
    }
    (item ? item.lines : cur.lines).push(text);
    if (item) item.end = ln;
    cur.end = ln;
  };
  // mdoc (BSD) pages: .Dt/.Sh/.Ss/.It/.Nd/.Pp, other macro lines rendered as text
  const mdocRequest = (name: string, rest: string, ln: number): boolean => {
    switch (name) {
      case 'Dt': {
        const a = args(rest);
        page.name = roffText(a[0] ?? '');
        page.section = roffText(a[1] ?? '');
        return true;
      }
      case 'Sh':
      case 'Ss':
        cur = { title: roffText(args(rest).join(' ')), level: name === 'Sh' ? 1 : 2, start: ln, end: ln, lines: [], items: [] };
        page.blocks.push(cur);
        item = null;
        pendingTag = null;
        return true;
      case 'It': {
        const term = mdocText(rest);
        item = null;
        if (term) {
          pendingTag = ln;
          emit(term, ln);
        }
        return true;
      }
      case 'Nd': {
        const t = mdocText(rest);
        if (t) emit(`- ${t}`, ln);
        return true;
      }
      case 'Pp':
        item = null;
        if (cur) cur.lines.push('');
        return true;
      case 'Dd': case 'Os': case 'Bl': case 'El': case 'Bd': case 'Ed': case 'Ex': case 'Rv':
        return true;
      default: {
        if (!/^[A-Z][a-z]$/.test(name)) return false;
        const t = mdocText(`${name} ${rest}`);
        if (t) emit(t, ln);
        return true;
      }
    }
  };
  lines.forEach((raw, i) => {
    const ln = i + 1;
    if (/^[.']\s*\\"/.test(raw) || raw.startsWith('\\"') || /^[.']\s*$/.test(raw)) return; // comment, null request
    const req = /^[.']\s*([A-Za-z]{1,3})\b\s*(.*)$/.exec(raw);
    if (req && mdocRequest(req[1]!, req[2]!, ln)) return;
    if (!req) {
      const t = roffText(raw);
      if (t) emit(t, ln);
      return;
    }
    const [, name, rest] = req as unknown as [string, string, string];
    switch (name) {
      case 'TH': {
        const a = args(rest);
        page.name = roffText(a[0] ?? '');
        page.section = roffText(a[1] ?? '');
        return;
      }
      case 'SH':
      case 'SS':
        cur = { title: roffText(args(rest).join(' ')), level: name === 'SH' ? 1 : 2, start: ln, end: ln, lines: [], items: [] };
        page.blocks.push(cur);
        item = null;
        pendingTag = null;
        return;
      case 'TP':
      case 'TQ':
        pendingTag = ln;
        item = null;
        return;
      case 'IP': {
        const tag = roffText(args(rest)[0] ?? '');
        item = null;
        if (tag && !/^\\\(bu|^[•*-]$|^\d+\.?$/.test(tag)) {
          pendingTag = ln;
          emit(tag, ln);
        } else if (cur) cur.lines.push('');
        return;
      }
      case 'PP':
      case 'LP':
      case 'P':
        item = null;
        if (cur) cur.lines.push('');
        return;
      case 'B': case 'I': case 'SM': case 'SB':
      case 'BR': case 'RB': case 'IR': case 'RI': case 'BI': case 'IB': {
        const t = fontMacro(name, rest);
        if (t) emit(t, ln);
        return;
      }
      case 'br':
      case 'sp':
        if (cur) (item ? item.lines : cur.lines).push('');
        return;
      default:
        return; // other requests (.nf, .fi, .RS, .RE, .in, .ad, .hy, .ds …) carry no text
    }
  });
  return page;
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

export const manConverter: Converter = {
  name: 'man',
  version: 1,
  async convert({ bytes, card }) {
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
    return {
      title,
      toc_source: 'headings',
      root,
      line_count: lines.length,
      card: { title, doc_type: 'manual page', sections_overview: page.blocks.filter((b) => b.level === 1).map((b) => b.title) },
      meta: { man_section: page.section || 'unknown' },
    };
  },
};

const ROFF_HEAD = /^(?:\.\\"|'\\"|\.TH\s|\.Dd\s)/m;

function isRoff(head: string): boolean {
  return ROFF_HEAD.test(head.slice(0, 2000)) && /^\.(?:TH|SH|Dt|Sh)\s/m.test(head);
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
