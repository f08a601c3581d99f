/**
 * The native text reader: poppler's `pdftohtml -xml` (Debian package poppler-utils, installed by
 * scripts/setup.sh) prints every text run of every page with its position, size and font, several
 * times faster than pdfjs's getTextContent. Its runs become the same RawItems pdfjs gives
 * (./lines.ts builds the lines from either), so the layout code does not know which reader ran.
 * When the tool is missing (or MHUB_PDF_NATIVE=0), when the PDF's fonts are ones poppler reads worse
 * than pdfjs (riskyFonts: TeX fonts without Unicode maps), or when it fails on a file, the caller
 * reads the text with pdfjs instead; a missing tool is said once per run through the converter's warnings.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawItem } from './lines.js';
import { decodeEntities } from '../text-util.js';

/** Environment variable: 0 turns the native reader off (pdfjs reads the text). */
export const NATIVE_ENV = 'MHUB_PDF_NATIVE';
export const NATIVE_TOOL = 'pdftohtml';
export const NATIVE_INSTALL = 'apt-get install poppler-utils';
/** pdftohtml's largest zoom: coordinates and font sizes come in thirds of a point. */
export const NATIVE_ZOOM = 3;
/** Share of a run's box height above its baseline (ascent / (ascent + descent) of common fonts). */
export const BASELINE_SHARE = 0.8;
/** Longest one pdftohtml run may take, plus this much per MB of PDF. */
export const NATIVE_TIMEOUT_MS = 60_000;
export const NATIVE_TIMEOUT_MS_PER_MB = 10_000;

export interface NativePage {
  width: number;
  height: number;
  items: RawItem[];
}

const available = new Map<string, Promise<boolean>>();

/** Whether pdftohtml runs here (checked once per thread and PATH), unless turned off by MHUB_PDF_NATIVE=0. */
export function nativeAvailable(): Promise<boolean> {
  if (process.env[NATIVE_ENV] === '0') return Promise.resolve(false);
  const key = process.env.PATH ?? '';
  let found = available.get(key);
  if (!found) {
    found = new Promise((done) => {
      execFile(NATIVE_TOOL, ['-v'], { timeout: 10_000 }, (err) => done(!err || (err as NodeJS.ErrnoException).code !== 'ENOENT'));
    });
    available.set(key, found);
  }
  return found;
}

/** The warning a conversion carries when the native reader is missing (said once per run). */
export const NATIVE_MISSING_WARNING = `${NATIVE_TOOL} (poppler-utils) is not installed: PDF text was read with pdfjs, about 3 times slower. Install it with \`${NATIVE_INSTALL}\`.`;

const PAGE = /<page number="\d+"[^>]*? height="([\d.]+)" width="([\d.]+)"/y;
const FONTSPEC = /<fontspec id="(\d+)" size="(-?[\d.]+)" family="([^"]*)"/y;
const TEXT = /<text top="(-?[\d.]+)" left="(-?[\d.]+)" width="(-?[\d.]+)" height="(-?[\d.]+)" font="(\d+)"[^>]*>(.*)<\/text>/y;

interface Font {
  size: number;
  family: string;
}

/** ",b" / ",i" / ",b,i" for a run printed bold or italic (poppler wraps it in <b>/<i>). */
function styleOf(inner: string): string {
  if (!inner.startsWith('<')) return '';
  return (inner.includes('<b>') ? ',b' : '') + (inner.includes('<i>') ? ',i' : '');
}

/** A currency sign spaced off the amount after it ("$  50,000"): pdfjs reads them as one cell, "$50,000". */
const SPACED_CURRENCY = /([$€£¥])\s+(?=[\d(])/g;
/**
 * poppler writes a gap inside a run as blanks in proportion to its width; this many blanks (about
 * an em) are a gap between table columns that pdfjs would give as separate items.
 */
export const WIDE_GAP_BLANKS = 4;
const WIDE_GAP = new RegExp(`\\s{${WIDE_GAP_BLANKS},}`, 'g');

/**
 * One run of text → the RawItems pdfjs would give: baseline transforms in PDF units from the page
 * bottom. A run's characters are not positioned, so pieces between wide gaps get x positions in
 * proportion to their characters, and blanks at the ends are taken off (a trailing blank would
 * reach into the gap before the next column and join the two cells).
 */
function toItems(m: RegExpExecArray, page: NativePage, fonts: Map<string, Font>, out: RawItem[]): void {
  const font = fonts.get(m[5]!);
  const inner = m[6]!;
  const raw = decodeEntities(inner.includes('<') ? inner.replace(/<[^>]*>/g, '') : inner);
  if (!font || raw.trim().length === 0) return;
  const top = Number(m[1]) / NATIVE_ZOOM;
  const h = Number(m[4]) / NATIVE_ZOOM;
  const size = Math.max(font.size / NATIVE_ZOOM, 1 / NATIVE_ZOOM);
  const y = page.height - (top + h * BASELINE_SHARE);
  const x0 = Number(m[2]) / NATIVE_ZOOM;
  const perChar = Number(m[3]) / NATIVE_ZOOM / raw.length;
  // poppler names bold and italic faces of one family alike and marks them with <b>/<i>: they are other fonts
  const fontName = font.family + styleOf(inner);
  const piece = (from: number, to: number) => {
    const text = raw.slice(from, to);
    const lead = text.length - text.trimStart().length;
    const str = text.trim();
    if (str) out.push({ str: str.replace(SPACED_CURRENCY, '$1'), transform: [size, 0, 0, size, x0 + (from + lead) * perChar, y], width: str.length * perChar, fontName });
  };
  let from = 0;
  for (const gap of raw.matchAll(WIDE_GAP)) {
    piece(from, gap.index);
    from = gap.index + gap[0].length;
  }
  piece(from, raw.length);
}

/**
 * Pages and their text runs from pdftohtml's XML (one element per line, as poppler prints it);
 * with `lastPage`, only pages 1…lastPage (the rest of the XML is not read).
 */
export function parseNativeXml(xml: string, lastPage = Infinity): NativePage[] {
  const pages: NativePage[] = [];
  const fonts = new Map<string, Font>();
  let page: NativePage | null = null;
  let at = 0;
  while (at < xml.length) {
    const nl = xml.indexOf('\n', at);
    const end = nl < 0 ? xml.length : nl;
    let i = at;
    while (i < end && (xml.charCodeAt(i) === 32 || xml.charCodeAt(i) === 9)) i++;
    if (xml.startsWith('<text ', i) && page) {
      TEXT.lastIndex = i;
      const m = TEXT.exec(xml);
      if (m && m.index + m[0].length <= end) {
        toItems(m, page, fonts, page.items);
      }
    } else if (xml.startsWith('<fontspec ', i)) {
      FONTSPEC.lastIndex = i;
      const m = FONTSPEC.exec(xml);
      if (m) fonts.set(m[1]!, { size: Number(m[2]), family: decodeEntities(m[3]!) });
    } else if (xml.startsWith('<page ', i)) {
      if (pages.length >= lastPage) break;
      PAGE.lastIndex = i;
      const m = PAGE.exec(xml);
      page = { width: m ? Number(m[2]) / NATIVE_ZOOM : 612, height: m ? Number(m[1]) / NATIVE_ZOOM : 792, items: [] };
      pages.push(page);
    }
    at = end + 1;
  }
  return pages;
}

/** Pages in pdftohtml's XML (the number of the last `<page>` element; 0 when there is none). */
export function nativePageCount(xml: string): number {
  const at = xml.lastIndexOf('<page number="');
  return at < 0 ? 0 : parseInt(xml.slice(at + 14, at + 24), 10) || 0;
}

/** A bookmark as pdftohtml prints it: title and sub-entries (the page is not needed here). */
export interface NativeOutlineItem {
  title: string;
  items: NativeOutlineItem[];
}

const OUTLINE_TOKEN = /<outline>|<\/outline>|<item(?: page="-?\d+")?>([\s\S]*?)<\/item>/g;

/** The document's bookmarks from pdftohtml's XML (printed after the last page), nested as in the PDF. */
export function parseNativeOutline(xml: string): NativeOutlineItem[] {
  const lastPage = xml.lastIndexOf('</page>');
  const start = xml.indexOf('<outline>', lastPage < 0 ? 0 : lastPage);
  if (start < 0) return [];
  const top: NativeOutlineItem[] = [];
  const levels: NativeOutlineItem[][] = [];
  let last: NativeOutlineItem | null = null;
  OUTLINE_TOKEN.lastIndex = start;
  for (let m = OUTLINE_TOKEN.exec(xml); m; m = OUTLINE_TOKEN.exec(xml)) {
    if (m[0] === '<outline>') {
      levels.push(levels.length === 0 ? top : (last?.items ?? []));
    } else if (m[0] === '</outline>') {
      levels.pop();
      if (levels.length === 0) break;
    } else {
      last = { title: decodeEntities(m[1]!), items: [] };
      levels[levels.length - 1]?.push(last);
    }
  }
  return top;
}

/** Run a poppler tool on a file; its stdout as UTF-8. Rejects on a failure or a timeout. */
function runTool(bin: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(new Error(`${bin} ${signal ? `stopped by ${signal}` : `exited with ${code}`}`));
    });
  });
}

/**
 * Fonts poppler reads differently from pdfjs: embedded Type 1 (or CFF) fonts with no ToUnicode map
 * and their own (Builtin/Custom) encoding, or Type 3 — TeX fonts, whose ligatures come as control
 * codes that XML cannot hold ("Coefficients" → "Coecients") and whose math symbols come as raw
 * codes ("∑" → "X"). pdfjs maps them by glyph name, so such PDFs are read with pdfjs. A font that is
 * not embedded (Times-Roman, Helvetica, Arial named with a Custom encoding's glyph names, as many
 * filings use) has no encoding of its own to misread, and an embedded TrueType font is mapped
 * through its cmap by both (a check-box symbol font on a cover): poppler reads them as pdfjs does
 * (53 filings: the four such files, 99.9% of pdfjs's words). `pdffonts` prints one font a line:
 * name, type (may have spaces), encoding, emb, sub, uni, object id.
 */
const TYPE1 = /\sType 1C?\s/;

export function riskyFonts(pdffontsOut: string): boolean {
  for (const line of pdffontsOut.split('\n').slice(2)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 7) continue;
    const uni = f[f.length - 3];
    const emb = f[f.length - 5];
    const enc = f[f.length - 6];
    if (uni !== 'no') continue;
    if (line.includes('Type 3') || (emb === 'yes' && TYPE1.test(line) && (enc === 'Custom' || enc === 'Builtin'))) return true;
  }
  return false;
}

/** A token (hyphenated parts taken apart) of at least this many letters, with no address characters, looks like words run together. */
export const RUN_TOGETHER_LETTERS = 20;
/** A page with at least this many run-together tokens … */
export const RUN_TOGETHER_MIN_TOKENS = 4;
/** … making up at least this share of its tokens is read badly by pdftohtml. */
export const RUN_TOGETHER_SHARE = 0.02;
/**
 * Or: at least this many letters in run-together tokens … A run with no blank at all is one token
 * however many words it holds, so a page with two such lines ("MGMResortsInternationalisreferredto…",
 * or a bold heading "WearesubjecttoU.S.governmentinquiries…") was kept by the token count.
 */
export const RUN_TOGETHER_MIN_LETTERS = 60;
/** … making up at least this share of the page's letters. */
export const RUN_TOGETHER_LETTER_SHARE = 0.01;
const ADDRESS_CHARS = /[@/_:\\]|www\.|\.com/i;
/** True when `s` has `n` characters in a row that are not ASCII blanks (a regex \S{n} backtracks at every position). */
function hasLongRun(s: string, n: number): boolean {
  if (s.length < n) return false;
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    run = c === 32 || (c >= 9 && c <= 13) ? 0 : run + 1;
    if (run >= n) return true;
  }
  return false;
}
const letterCount = (s: string): number => s.replace(/[^A-Za-z]/g, '').length;
const looksJoined = (part: string): boolean => letterCount(part) >= RUN_TOGETHER_LETTERS && !ADDRESS_CHARS.test(part);

/**
 * A shorter run of capitalised words with no blank between them ("LiquidityandCapitalResources",
 * "YearEndedDecember31,") is also a reading fault: pdftohtml loses the gaps of some italic and bold
 * faces, so a filing's run-in headings and column heads came out joined while its prose did not,
 * one or two to a page (MGM Resorts 2015, Corning 2015, American Water 2015). A token counts when it
 * opens with a capitalised word and holds at least this many letters …
 */
export const GLUED_TITLE_LETTERS = 15;
/** … and at least this many places where a lower-case letter meets a capital. */
export const GLUED_TITLE_JOINS = 2;
/** A capitalised word, then letters only, as far as the token's first character that is not a letter. */
const GLUED_TITLE = /^[(“"‘']?([A-Z][a-z][A-Za-z]*)/;
/**
 * Typewriter faces (LaTeX's cmtt, txtt, SFTT, Latin Modern Mono, Courier, Consolas): their joined
 * capitals are identifiers printed as code ("\AtBeginDocument", "ExponentiationBySquaring"), not words
 * run together, and pdfjs reads them alike.
 */
const TYPEWRITER_FONT = /mono|courier|consol|menlo|typewriter|(?:^|\+)[a-z0-9]*tt\d*(?:,|$)/i;

/** True when `str` (one text run, in font `fontName`, with GLUED_TITLE_LETTERS characters between blanks somewhere) holds capitalised words run together. */
function gluedTitleWords(str: string, fontName: string): boolean {
  if (TYPEWRITER_FONT.test(fontName)) return false;
  for (const tok of str.split(/\s+/)) {
    const word = GLUED_TITLE.exec(tok)?.[1];
    if (!word || word.length < GLUED_TITLE_LETTERS) continue;
    let joins = 0;
    for (let i = 1; i < word.length; i++) if (word.charCodeAt(i) <= 90 && word.charCodeAt(i - 1) >= 97) joins++;
    if (joins >= GLUED_TITLE_JOINS) return true;
  }
  return false;
}

/**
 * True when some page's text came out with its words run together: pdftohtml joins words that a
 * PDF places by position without blank characters ("ForthefiscalyearendedDecember31,2015"), where
 * pdfjs (like pdftotext) breaks them at the gaps. Such files are read with pdfjs. Long compounds,
 * e-mail addresses and URLs are too few on a page to count.
 */
export function runTogether(pages: NativePage[]): boolean {
  return pages.some(pageRunTogether);
}

/** One page of runTogether: its words came out joined, so the converter reads this page with pdfjs. */
export function pageRunTogether(page: NativePage): boolean {
  let joined = 0;
  let joinedLetters = 0;
  for (const item of page.items) {
    const str = item.str ?? '';
    // a token of GLUED_TITLE_LETTERS (≤ RUN_TOGETHER_LETTERS) letters needs as many characters between blanks: most runs have none
    if (!hasLongRun(str, GLUED_TITLE_LETTERS)) continue;
    if (gluedTitleWords(str, item.fontName ?? '')) return true;
    if (!hasLongRun(str, RUN_TOGETHER_LETTERS)) continue;
    for (const tok of str.split(/\s+/)) {
      const parts = tok.split(/[-\u2013\u2014]/).filter(looksJoined);
      if (parts.length > 0) joined++;
      for (const part of parts) joinedLetters += letterCount(part);
    }
  }
  if (joined === 0 || (joined < RUN_TOGETHER_MIN_TOKENS && joinedLetters < RUN_TOGETHER_MIN_LETTERS)) return false;
  let tokens = 0;
  let letters = 0;
  for (const item of page.items) {
    const str = item.str ?? '';
    letters += letterCount(str);
    for (const tok of str.split(/\s+/)) if (tok) tokens++;
  }
  return (joined >= RUN_TOGETHER_MIN_TOKENS && joined >= tokens * RUN_TOGETHER_SHARE) || (joinedLetters >= RUN_TOGETHER_MIN_LETTERS && joinedLetters >= letters * RUN_TOGETHER_LETTER_SHARE);
}

/** The arguments of a pdftohtml run over `file` (pages 1…lastPage when given). */
function nativeArgs(file: string, lastPage?: number): string[] {
  const range = lastPage ? ['-f', '1', '-l', String(lastPage)] : [];
  return ['-xml', '-i', '-hidden', '-noroundcoord', '-q', '-stdout', '-zoom', String(NATIVE_ZOOM), ...range, file];
}

/** The timeout of one poppler run over `bytes`. */
const timeoutFor = (bytes: Uint8Array): number => Math.round(NATIVE_TIMEOUT_MS + (bytes.length / (1 << 20)) * NATIVE_TIMEOUT_MS_PER_MB);

/** Runs `read` on the bytes written to a temporary file (poppler reads files, not pipes), then removes it. */
async function withTempPdf<T>(bytes: Uint8Array, read: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-pdf-'));
  try {
    const file = join(dir, 'in.pdf');
    writeFileSync(file, bytes);
    return await read(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every page's text runs read by pdftohtml (pages 1…lastPage when given), or null when the tool is
 * not available, the fonts are ones poppler reads worse than pdfjs (riskyFonts), or it fails on this
 * file (encrypted, damaged, unusual), or its words come out run together (runTogether): the caller then reads the text with pdfjs, which says what is wrong.
 */
export async function readNativePages(bytes: Uint8Array, lastPage?: number): Promise<NativePage[] | null> {
  if (!lastPage) return nativePages(await readNative(bytes));
  if (!(await nativeAvailable())) return null;
  try {
    return await withTempPdf(bytes, async (file) => {
      const range = ['-f', '1', '-l', String(lastPage)];
      if (riskyFonts(await runTool('pdffonts', [...range, file], timeoutFor(bytes)))) return null;
      const pages = parseNativeXml(await runTool(NATIVE_TOOL, nativeArgs(file, lastPage), timeoutFor(bytes)));
      return pages.length > 0 && !runTogether(pages) ? pages : null;
    });
  } catch {
    return null;
  }
}

/**
 * Every page's text runs read by pdftohtml whatever the fonts (riskyFonts not asked): for a file
 * read with pdfjs whose pages need a second reading (convert.ts pdfjsLayout). Null when the tool is
 * missing or fails.
 */
export async function readNativePagesAnyFonts(bytes: Uint8Array): Promise<NativePage[] | null> {
  if (!(await nativeAvailable())) return null;
  try {
    return await withTempPdf(bytes, async (file) => parseNativeXml(await runTool(NATIVE_TOOL, nativeArgs(file), timeoutFor(bytes))));
  } catch {
    return null;
  }
}

/**
 * What the native reader made of a whole file: pdftohtml's XML (UTF-8), or why there is none —
 * the tool is missing, the fonts are ones poppler reads worse than pdfjs (riskyFonts), or it failed.
 * Plain data, so it can be handed to a worker thread.
 */
export type NativeRead = { status: 'ok'; xml: Uint8Array } | { status: 'missing' | 'risky' | 'failed' };

/** Printed by the one shell that runs both tools, between pdffonts' table and pdftohtml's XML. */
const FONTS_END = '<!-- mhub: end of pdffonts -->';
/** pdffonts, then (exec) pdftohtml, in one child: forking a large Node process costs tens of ms, a shell's fork almost nothing. */
const BOTH_TOOLS = `f=$1; shift; pdffonts "$f" && echo '${FONTS_END}' && exec ${NATIVE_TOOL} "$@" "$f"`;

/**
 * One child process reads the fonts and then the text: the fonts' table is checked as soon as it
 * is out, and pdftohtml is stopped before it reads anything when they are risky.
 */
function runBothTools(file: string, timeoutMs: number): Promise<NativeRead> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', BOTH_TOOLS, 'sh', file, ...nativeArgs(file).slice(0, -1)], { stdio: ['ignore', 'pipe', 'ignore'], timeout: timeoutMs });
    const chunks: Buffer[] = [];
    let head: Buffer | null = Buffer.alloc(0);
    let settled = false;
    const done = (r: NativeRead) => {
      settled = true;
      resolve(r);
    };
    child.stdout.on('data', (c: Buffer) => {
      if (settled) return;
      if (!head) return void chunks.push(c);
      head = Buffer.concat([head, c]);
      const at = head.indexOf(FONTS_END);
      if (at < 0) return;
      const rest = head.subarray(at + FONTS_END.length + 1);
      if (riskyFonts(head.toString('utf8', 0, at))) {
        child.kill('SIGKILL');
        return done({ status: 'risky' });
      }
      head = null;
      if (rest.length) chunks.push(rest);
    });
    child.on('error', (err) => {
      if (!settled) reject(err);
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      if (code === 0 && head === null) done({ status: 'ok', xml: Buffer.concat(chunks) });
      else reject(new Error(`pdffonts/${NATIVE_TOOL} ${signal ? `stopped by ${signal}` : `exited with ${code}`}`));
    });
  });
}

/** pdffonts and pdftohtml over the whole file, in one child process. */
export async function readNative(bytes: Uint8Array): Promise<NativeRead> {
  if (!(await nativeAvailable())) return { status: 'missing' };
  try {
    return await withTempPdf(bytes, (file) => runBothTools(file, timeoutFor(bytes)));
  } catch {
    return { status: 'failed' };
  }
}

/** The XML as text (Buffer's decoder is several times faster than TextDecoder on large inputs). */
export function nativeXmlText(xml: Uint8Array): string {
  return Buffer.from(xml.buffer, xml.byteOffset, xml.byteLength).toString('utf8');
}

/** The pages of a read (pages 1…lastPage when given), or null when there are none or their words run together (runTogether). */
export function nativePages(read: NativeRead, lastPage?: number): NativePage[] | null {
  if (read.status !== 'ok') return null;
  const pages = parseNativeXml(nativeXmlText(read.xml), lastPage);
  return pages.length > 0 && !runTogether(pages) ? pages : null;
}

/**
 * Every page of a read, or null when it has none. Unlike nativePages, pages whose words run
 * together are kept: the converter reads just those again with pdfjs (pageRunTogether), not the
 * whole file (MGM's 2015 10-K: 14 of 231 pages; Walmart's 2018 10-K: 1 of 304).
 */
export function nativeReadPages(read: NativeRead): NativePage[] | null {
  if (read.status !== 'ok') return null;
  const pages = parseNativeXml(nativeXmlText(read.xml));
  return pages.length > 0 ? pages : null;
}

const reads = new WeakMap<Uint8Array, Promise<NativeRead>>();

/**
 * readNative once per file (per bytes object): the planner's preview (first pages, bookmarks) and
 * the converter read the same run of poppler instead of running it twice.
 */
export function nativeReadOf(bytes: Uint8Array): Promise<NativeRead> {
  let read = reads.get(bytes);
  if (!read) reads.set(bytes, (read = readNative(bytes)));
  return read;
}

/** The shared read for the converter, which is its last user: it is let go here. */
export function takeNativeRead(bytes: Uint8Array): Promise<NativeRead> {
  const read = nativeReadOf(bytes);
  reads.delete(bytes);
  return read;
}
