/**
 * OCR for scanned documents with the system tools `pdftoppm` (poppler-utils) and `tesseract`
 * (tesseract-ocr). Nothing is downloaded: when a tool is missing the source is recorded as skipped
 * with the exact install command. The PDF converter calls `ocrAvailable` / `ocrPdfLines` for PDFs
 * without a readable text layer (each word with its box, so the page is laid out as a PDF's text
 * layer is: columns, headings by size, running heads); images (type 'image') are converted here.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join, extname } from 'node:path';
import { promisify } from 'node:util';
import type { Converter, ConvertResult } from './types.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import { convertPlainText } from './plain-text.js';
import { followPlan, type Capabilities } from './plan-shape.js';
import { clipAtWord } from './titles.js';
import { decodeEntities } from './text-util.js';

const run = promisify(execFile);

/** Rendering resolution for OCR (tesseract is most accurate around 300 dpi). */
export const OCR_DPI = 300;
/** Longest a single tool run may take before it is abandoned. */
export const OCR_TIMEOUT_MS = 180_000;
/** Largest text a tool may print. */
const MAX_OUTPUT_BYTES = 64 << 20;
/** Tesseract language (the Debian package ships English). */
export const OCR_LANGUAGE = 'eng';
/** Pages with fewer letters or digits than this after OCR count as blank. */
export const MIN_OCR_CHARS = 3;

export const OCR_INSTALL_COMMAND = 'apt-get install tesseract-ocr poppler-utils';

const TOOLS: { bin: string; args: string[] }[] = [
  { bin: 'tesseract', args: ['--version'] },
  { bin: 'pdftoppm', args: ['-v'] },
];

const availability = new Map<string, Promise<{ ok: boolean; missing: string[] }>>();

/** Whether `tesseract` and `pdftoppm` can be run (checked once per process and PATH). */
export function ocrAvailable(): Promise<{ ok: boolean; missing: string[] }> {
  const key = process.env.PATH ?? '';
  let found = availability.get(key);
  if (!found) {
    found = (async () => {
      const missing: string[] = [];
      for (const t of TOOLS) {
        try {
          await run(t.bin, t.args, { timeout: 10_000 });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') missing.push(t.bin);
        }
      }
      return { ok: missing.length === 0, missing };
    })();
    availability.set(key, found);
  }
  return found;
}

/** The skip reason recorded when OCR tools are missing. */
export function ocrMissingReason(missing: string[], what: string): string {
  return `${what} has no text layer and needs OCR, but ${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not installed. Install them with \`${OCR_INSTALL_COMMAND}\` and ingest again.`;
}

/**
 * Tesseract runs one thread a page (OMP_THREAD_LIMIT=1) and pages run side by side, one per core:
 * its own OpenMP threads spin against each other on a small machine (a 300 dpi page took 14.5 s
 * with them on 2 cores, 1.7 s without).
 */
const TESSERACT_ENV = { ...process.env, OMP_THREAD_LIMIT: '1' };
/** Pages read by OCR at once. */
export const OCR_PARALLEL_PAGES = Math.max(1, Math.min(4, availableParallelism()));

/** tesseract's output: plain text, or hOCR (each line's box, baseline and size, each word's box and confidence). */
type OcrOutput = 'txt' | 'hocr';

async function tesseract(imagePath: string, output: OcrOutput = 'txt'): Promise<string> {
  const { stdout } = await run('tesseract', [imagePath, 'stdout', '-l', OCR_LANGUAGE, '--psm', '3', ...(output === 'hocr' ? ['hocr'] : [])], { timeout: OCR_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, env: TESSERACT_ENV });
  return stdout;
}

/** Each image read by `read`, in order, OCR_PARALLEL_PAGES at a time. */
async function readImages<T>(paths: string[], read: (path: string) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array<T>(paths.length);
  let next = 0;
  const lane = async () => {
    while (next < paths.length) {
      const i = next++;
      out[i] = await read(paths[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(OCR_PARALLEL_PAGES, paths.length) }, lane));
  return out;
}

/** One word tesseract read: its text, left and right edge (pixels of the page image) and confidence (0–100). */
export interface OcrWord {
  text: string;
  x0: number;
  x1: number;
  conf: number;
}

/** One line tesseract read, in pixels of the page image from its top. */
export interface OcrLine {
  words: OcrWord[];
  /** the baseline's height at the line's left end */
  baseline: number;
  /** tesseract's size of the line's print (x_size: ascender to descender) */
  size: number;
  /** the paragraph (tesseract's ocr_par, numbered on the page) the line belongs to */
  par: number;
}

/** One page as tesseract read it: the image's size and its lines in tesseract's reading order. */
export interface OcrPage {
  width: number;
  height: number;
  lines: OcrLine[];
}

const HOCR_ELEMENT = /<\w+ class='(ocr_page|ocr_par|ocr_line|ocr_header|ocr_caption|ocr_textfloat|ocrx_word)'[^>]*? title=(["'])(.*?)\2[^>]*>/g;
const HOCR_LINES = new Set(['ocr_line', 'ocr_header', 'ocr_caption', 'ocr_textfloat']);
/** An hOCR element's title properties ("bbox 0 0 10 20; x_wconf 96") by name, each as its numbers. */
function hocrProps(title: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const part of title.split(';')) {
    const [key, ...values] = part.trim().split(/\s+/);
    if (key) out.set(key, values.map(Number));
  }
  return out;
}

/**
 * A page of tesseract's hOCR → its lines and words. Lines set at an angle (`textangle`: labels of a
 * rotated axis, text in a figure) are left out, as the PDF reader leaves out rotated text.
 */
export function parseHocr(hocr: string): OcrPage {
  const page: OcrPage = { width: 0, height: 0, lines: [] };
  let par = 0;
  let line: OcrLine | null = null;
  for (const m of hocr.matchAll(HOCR_ELEMENT)) {
    const [, kind, , title = ''] = m;
    const props = hocrProps(title);
    const box = props.get('bbox') ?? [];
    if (kind === 'ocr_page') {
      page.width = box[2] ?? 0;
      page.height = box[3] ?? 0;
    } else if (kind === 'ocr_par') par++;
    else if (HOCR_LINES.has(kind!)) {
      const offset = props.get('baseline')?.[1] ?? 0;
      line = props.has('textangle') ? null : { words: [], baseline: (box[3] ?? 0) + offset, size: props.get('x_size')?.[0] ?? (box[3]! - box[1]!), par };
      if (line) page.lines.push(line);
    } else if (kind === 'ocrx_word' && line) {
      const end = hocr.indexOf('</span>', m.index + m[0].length);
      const text = decodeEntities(hocr.slice(m.index + m[0].length, end < 0 ? undefined : end).replace(/<[^>]*>/g, '')).trim();
      if (text) line.words.push({ text, x0: box[0] ?? 0, x1: box[2] ?? 0, conf: props.get('x_wconf')?.[0] ?? 0 });
    }
  }
  page.lines = page.lines.filter((l) => l.words.length > 0);
  return page;
}

function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Every page of a PDF rendered by pdftoppm and read by `read`, in page order. */
async function readPdfPages<T>(bytes: Uint8Array, read: (path: string) => Promise<T>): Promise<T[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-ocr-'));
  try {
    const pdf = join(dir, 'in.pdf');
    writeFileSync(pdf, bytes);
    await run('pdftoppm', ['-r', String(OCR_DPI), '-gray', '-png', pdf, join(dir, 'page')], { timeout: OCR_TIMEOUT_MS * 4, maxBuffer: MAX_OUTPUT_BYTES });
    const pages = readdirSync(dir)
      .filter((f) => /^page-\d+\.png$/.test(f))
      .sort((a, b) => Number(/\d+/.exec(a)![0]) - Number(/\d+/.exec(b)![0]));
    return await readImages(pages.map((p) => join(dir, p)), read);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** OCR every page of a PDF: render with pdftoppm, read with tesseract. Returns one text per page. */
export function ocrPdfPages(bytes: Uint8Array): Promise<string[]> {
  return readPdfPages(bytes, async (path) => tidy(await tesseract(path)));
}

/** OCR every page of a PDF into lines of words with their boxes (hOCR), for the PDF converter's layout. */
export function ocrPdfLines(bytes: Uint8Array): Promise<OcrPage[]> {
  return readPdfPages(bytes, async (path) => parseHocr(await tesseract(path, 'hocr')));
}

/** OCR an image file; multi-page TIFFs give one text per page. */
export async function ocrImagePages(bytes: Uint8Array, ext: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-ocr-'));
  try {
    const img = join(dir, `in${ext || '.png'}`);
    writeFileSync(img, bytes);
    return (await tesseract(img)).split('\f').map(tidy).filter((t, i, a) => t || i < a.length - 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function hasText(pages: string[]): boolean {
  return pages.join('').replace(/[^\p{L}\p{N}]/gu, '').length >= MIN_OCR_CHARS;
}

/** Page texts → a paged result: paragraph groups with page ranges, re-classified as an OCR'd document. */
export function ocrResult(pages: string[], filename: string): ConvertResult {
  const marked = pages.map((t, i) => `<!-- page ${i + 1} -->\n${t}`).join('\n\n');
  const base = convertPlainText(marked, filename);
  const pageOfLine: number[] = [];
  let page = 0;
  for (const l of marked.split('\n')) {
    const m = /^<!-- page (\d+) -->$/.exec(l);
    if (m) page = Number(m[1]);
    pageOfLine.push(page || 1);
  }
  const withPages = (n: ConvertResult['root']): ConvertResult['root'] => {
    const lr = n.line_range;
    const out = { ...n, children: n.children.map(withPages) };
    if (lr) {
      out.page_range = [pageOfLine[lr[0] - 1] ?? 1, pageOfLine[lr[1] - 1] ?? pages.length];
      delete out.line_range;
    }
    return out;
  };
  return {
    ...base,
    root: withPages(base.root),
    toc_source: 'pages',
    approach: 'ocr',
    pages: pages.length,
    line_count: undefined,
    meta: { ocr: 'tesseract', ocr_language: OCR_LANGUAGE },
  };
}

/** Characters of an image's first line of text kept in its title, before its file name. */
export const IMAGE_TITLE_TEXT_CHARS = 60;

/**
 * An image's title: its first line of text and its file name ("Transaction Report —
 * txns_TransactionRptChecking.png"). Screenshots of one program open with the same window title or
 * menu bar, and OCR garbles them ("Eo file> ~ Accounts ox"); the file name tells them apart.
 */
function withFileName(r: ConvertResult, filename: string): ConvertResult {
  const text = r.title === basename(filename, extname(filename)) ? '' : clipAtWord(r.title, IMAGE_TITLE_TEXT_CHARS);
  const title = text ? `${text} — ${filename}` : filename;
  return { ...r, title, root: { ...r.root, title } };
}

/** What this converter does with each plan field (see plan-shape.ts). */
const IMAGE_CAPS: Capabilities = {
  approaches: ['ocr'],
  keySections: 'an image is read by OCR as one node per image or page',
  tablesAsRows: 'OCR text has no table structure',
  twoColumns: 'OCR reads the text in tesseract\'s own reading order',
  plaintext: { native: true, reason: 'OCR yields plain text only' },
  estimatedNodes: 'an image is one node per page',
};

export const imageConverter: Converter = {
  name: 'image-ocr',
  version: 8,
  async convert({ bytes, card, options }) {
    const title = card.filename;
    const avail = await ocrAvailable();
    if (avail.missing.includes('tesseract')) {
      // images need only tesseract; pdftoppm is for PDFs
      return { title, toc_source: 'pages', approach: 'ocr', root: { title, children: [] }, skip_reason: ocrMissingReason(['tesseract'], 'This image') };
    }
    let pages: string[];
    try {
      pages = await ocrImagePages(bytes, extname(card.filename).toLowerCase());
    } catch (err) {
      const { ConvertError } = await import('./types.js');
      throw new ConvertError(`OCR could not read the image: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, 'Convert it to PNG or TIFF and ingest again.');
    }
    if (!hasText(pages)) {
      return { title, toc_source: 'pages', approach: 'ocr', pages: pages.length || 1, root: { title, children: [] }, skip_reason: 'OCR found no text in this image (a photo or drawing without words); nothing to index.' };
    }
    const result = withFileName(ocrResult(pages, card.filename), card.filename);
    if (result.root.children.length === 0 && !result.root.content) result.root.content = pages.join('\n\n');
    return followPlan(result, options.plan, IMAGE_CAPS, 'an image');
  },
};

/** Raster images (PNG, JPEG, GIF, TIFF by signature; also BMP and WebP by name), read by OCR. */
export const imageRegistration: ConverterRegistration = {
  converter: imageConverter,
  formats: [
    {
      type: 'image', extensions: ['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.gif', '.bmp', '.webp'],
      magic: [[0x89, 0x50, 0x4e, 0x47], [0xff, 0xd8, 0xff], [0x47, 0x49, 0x46, 0x38], [0x49, 0x49, 0x2a, 0x00], [0x4d, 0x4d, 0x00, 0x2a]],
      priority: PRIORITY_SPECIFIC,
    },
  ],
};
