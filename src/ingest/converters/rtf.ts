/**
 * Rich Text Format (.rtf, as Word, WordPad, LibreOffice and many case-management and clinical
 * systems write it): paragraphs, headings and tables are read from the RTF stream and written as the
 * HTML they stand for, then walked by the shared section builder (html-tree.ts), as Word and
 * OpenDocument files are. A heading is a paragraph in a style named like a heading ("heading 2",
 * "Überschrift 1": docx.ts headingLevelOfStyle) or with an outline level (\outlinelevel); the title
 * is the document's \info title, else a paragraph in the Title style, else the first heading. Fonts,
 * colours, pictures, headers and footers, field instructions and other ignorable destinations are
 * no text. Read as plain text, an RTF file had been its control words.
 */
import { basename, extname } from 'node:path';
import type { Converter } from './types.js';
import { ConvertError, PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import { htmlSections, loadHtml, sectionsResult } from './html-tree.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';
import { headingLevelOfStyle } from './docx.js';

/** Destinations whose text is not the document's (tables of fonts, colours, styles are read apart). */
const SKIPPED = new Set([
  'fonttbl', 'colortbl', 'pict', 'object', 'themedata', 'colorschememapping', 'latentstyles', 'datastore', 'listtable',
  'listoverridetable', 'rsidtbl', 'generator', 'xmlnstbl', 'mmathPr', 'header', 'headerl', 'headerr', 'headerf', 'footer',
  'footerl', 'footerr', 'footerf', 'fldinst', 'footnote', 'annotation', 'atnid', 'atnauthor', 'bkmkstart', 'bkmkend',
  'nonshppict', 'shpinst', 'revtbl', 'pgdsctbl', 'filetbl', 'listtext', 'pntext', 'pntxta', 'pntxtb', 'userprops', 'docvar',
]);
/** Characters a control word prints. */
const PRINTED: Readonly<Record<string, string>> = { tab: '\t', emdash: '—', endash: '–', bullet: '•', lquote: '‘', rquote: '’', ldblquote: '“', rdblquote: '”', emspace: ' ', enspace: ' ', qmspace: ' ', line: '\n' };
const REPAIR_HINT = 'Open it in Word or LibreOffice and save it again as .rtf or .docx.';

interface Block {
  kind: 'p' | 'row';
  text: string;
  cells?: string[];
  /** heading level 1–6 */
  level?: number;
  /** every character of the paragraph printed bold */
  bold?: boolean;
  style?: number;
}

interface GroupState {
  skip: boolean;
  bold: boolean;
  /** characters to skip after a \u escape */
  uc: number;
  /** the group is the style sheet's, or its entries */
  styles: boolean;
  /** the group is \info's \title */
  title: boolean;
}

interface Parsed {
  blocks: Block[];
  title: string;
  /** style number → name */
  styleNames: Map<number, string>;
}

/** The code page the document's \ansicpg names, for \'hh escapes (Windows-1252 by default). */
function decoderFor(cp: number): { decode(bytes: Uint8Array): string } {
  try {
    return new TextDecoder(cp === 65001 ? 'utf-8' : `windows-${cp}`);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

/** Reads the RTF stream: paragraphs with their style, outline level and boldness; table rows; the styles; the \info title. */
export function parseRtf(src: string): Parsed {
  const blocks: Block[] = [];
  const styleNames = new Map<number, string>();
  let title = '';
  let decoder = decoderFor(1252);
  const stack: GroupState[] = [];
  let g: GroupState = { skip: false, bold: false, uc: 1, styles: false, title: false };
  // the paragraph being read
  let text = '';
  let allBold = true;
  let anyText = false;
  let style = 0;
  let outline: number | null = null;
  let inTable = false;
  let cells: string[] = [];
  // a style sheet entry being read
  let entryStyle: number | null = null;
  let entryName = '';
  let pendingBytes: number[] = [];
  let skipChars = 0;
  let destinationNext = false;

  const flushBytes = () => {
    if (!pendingBytes.length) return;
    put(decoder.decode(new Uint8Array(pendingBytes)));
    pendingBytes = [];
  };
  const put = (s: string) => {
    if (g.skip) return;
    if (g.styles) {
      entryName += s;
      return;
    }
    if (g.title) {
      title += s;
      return;
    }
    text += s;
    if (s.trim()) {
      anyText = true;
      if (!g.bold) allBold = false;
    }
  };
  const endParagraph = () => {
    flushBytes();
    const t = text.replace(/[ \t]+/g, ' ').trim();
    if (inTable) {
      // a paragraph inside a cell: the cell goes on
      text += '\n';
      return;
    }
    if (t) {
      const level = headingLevelOfStyle(styleNames.get(style)) ?? (outline !== null && outline < 9 ? outline + 1 : undefined);
      blocks.push({ kind: 'p', text: t, ...(level ? { level: Math.min(level, 6) } : {}), ...(anyText && allBold ? { bold: true } : {}), style });
    }
    text = '';
    allBold = true;
    anyText = false;
  };
  const endCell = () => {
    flushBytes();
    cells.push(text.replace(/[ \t]+/g, ' ').replace(/\s*\n\s*/g, ' ').trim());
    text = '';
    allBold = true;
    anyText = false;
  };
  const endRow = () => {
    if (cells.some((c) => c)) blocks.push({ kind: 'row', text: cells.join(' | '), cells });
    cells = [];
    inTable = false;
  };

  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '{') {
      flushBytes();
      stack.push(g);
      g = { ...g };
      destinationNext = true;
      continue;
    }
    if (c === '}') {
      flushBytes();
      g = stack.pop() ?? g;
      destinationNext = false;
      continue;
    }
    if (c === '\r' || c === '\n') continue;
    if (c !== '\\') {
      if (skipChars > 0) {
        skipChars--;
        continue;
      }
      flushBytes();
      if (g.styles && c === ';') {
        if (entryStyle !== null) styleNames.set(entryStyle, entryName.trim());
        entryStyle = null;
        entryName = '';
        continue;
      }
      put(c);
      destinationNext = false;
      continue;
    }
    // a control symbol or word
    const next = src[i + 1] ?? '';
    if (next === "'") {
      const hex = src.slice(i + 2, i + 4);
      i += 3;
      if (skipChars > 0) {
        skipChars--;
        continue;
      }
      const byte = parseInt(hex, 16);
      if (!Number.isNaN(byte)) pendingBytes.push(byte);
      continue;
    }
    if (!/[A-Za-z]/.test(next)) {
      i++;
      if (next === '*') {
        // an ignorable destination: skipped unless it is one this reader knows
        if (destinationNext) g.skip = g.skip || !/^\\(?:cs|ds|ts)\d/.test(src.slice(i + 1, i + 6));
        continue;
      }
      flushBytes();
      if (next === '~') put(' ');
      else if (next === '_') put('-');
      else if (next === '\\' || next === '{' || next === '}') put(next);
      else if (next === '\n' || next === '\r') endParagraph();
      continue;
    }
    const m = /^([A-Za-z]+)(-?\d+)? ?/.exec(src.slice(i + 1, i + 40))!;
    i += m[0].length;
    const word = m[1]!;
    const num = m[2] === undefined ? null : Number(m[2]);
    const wasDestination = destinationNext;
    destinationNext = false;
    if (word === 'bin' && num !== null && num > 0) {
      // raw binary data of that many bytes (a picture's): never text
      i += num;
      continue;
    }
    if (word === 'u' && num !== null) {
      flushBytes();
      put(String.fromCharCode(num < 0 ? num + 65536 : num));
      skipChars = g.uc;
      continue;
    }
    if (SKIPPED.has(word) && wasDestination) {
      g.skip = true;
      continue;
    }
    // nothing in a skipped destination sets the document's state (a list label's own \pard)
    if (g.skip && word !== 'title') continue;
    switch (word) {
      case 'ansicpg':
        if (num !== null) decoder = decoderFor(num);
        break;
      case 'uc':
        g.uc = num ?? 1;
        break;
      case 'stylesheet':
        g.styles = true;
        break;
      case 'info':
        g.skip = true;
        break;
      case 'title':
        if (wasDestination) {
          g.skip = false;
          g.title = true;
        }
        break;
      case 's':
        if (g.styles) entryStyle = num ?? 0;
        else style = num ?? 0;
        break;
      case 'cs':
      case 'ds':
      case 'ts':
        if (g.styles) entryStyle = null;
        break;
      case 'outlinelevel':
        if (!g.styles) outline = num;
        break;
      case 'pard':
        style = 0;
        outline = null;
        inTable = false;
        break;
      case 'intbl':
        inTable = true;
        break;
      case 'b':
        g.bold = num !== 0;
        break;
      case 'plain':
        g.bold = false;
        break;
      case 'par':
        endParagraph();
        break;
      case 'cell':
      case 'nestcell':
        endCell();
        break;
      case 'row':
      case 'nestrow':
        endRow();
        break;
      default:
        if (word in PRINTED) put(PRINTED[word]!);
    }
  }
  flushBytes();
  endParagraph();
  return { blocks, title: title.replace(/\s+/g, ' ').trim(), styleNames };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Characters of rows in one table block at most: a longer run of rows is cut into tables of this size (read in groups, html-tree.ts). */
export const TABLE_PART_CHARS = 6000;

/** The blocks as the HTML they stand for: headings, paragraphs (bold ones as bold), runs of rows as tables. */
function blocksHtml(blocks: Block[], titleStyles: Set<number>): string {
  const out: string[] = [];
  let rows: string[] = [];
  let size = 0;
  const flushRows = () => {
    if (rows.length) out.push(`<table>${rows.join('')}</table>`);
    rows = [];
    size = 0;
  };
  let width = 0;
  for (const b of blocks) {
    if (b.kind === 'row') {
      // RTF runs the rows of tables printed one under another together: a row of another width starts
      // another table, so a document of tables (a test procedure's) is not one block of 190,000 characters
      if (rows.length && (b.cells!.length !== width || size + b.text.length > TABLE_PART_CHARS)) flushRows();
      width = b.cells!.length;
      size += b.text.length;
      rows.push(`<tr>${b.cells!.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`);
      continue;
    }
    flushRows();
    if (b.style !== undefined && titleStyles.has(b.style)) continue;
    if (b.level) out.push(`<h${b.level}>${esc(b.text)}</h${b.level}>`);
    else out.push(b.bold ? `<p><b>${esc(b.text)}</b></p>` : `<p>${esc(b.text).replace(/\n/g, '<br>')}</p>`);
  }
  flushRows();
  return out.join('\n');
}

/** A document-properties title worth using: words, not a form label left by a template ("Test ID:"). */
function usableTitle(t: string): boolean {
  return /\p{L}{3}/u.test(t) && !/[:\-–—]$/.test(t) && t.split(/\s+/).length >= 2;
}

export const rtfConverter: Converter = {
  name: 'rtf',
  version: 7,
  async convert({ bytes, card, options }) {
    const src = new TextDecoder('latin1').decode(bytes);
    if (!/^\s*\{\\rtf/.test(src)) throw new ConvertError('The file does not start with an RTF header ({\\rtf).', REPAIR_HINT);
    const parsed = parseRtf(src);
    const titleStyles = new Set([...parsed.styleNames].filter(([, n]) => /^title$/i.test(n)).map(([s]) => s));
    const titleParagraph = parsed.blocks.find((b) => b.kind === 'p' && b.style !== undefined && titleStyles.has(b.style))?.text ?? '';
    const cheerio = await import('cheerio');
    const warnings: string[] = [];
    const $ = loadHtml(cheerio, `<body>${blocksHtml(parsed.blocks, titleStyles)}</body>`, warnings);
    const t = htmlSections($, $('body'));
    const title = titleParagraph || (usableTitle(parsed.title) ? parsed.title : '') || t.sections[0]?.title || basename(card.filename, extname(card.filename));
    if (!t.lead && t.sections.length === 0) throw new ConvertError('The RTF document has no text.', 'Check that it is not only images or empty.');
    return followPlan(sectionsResult(t, title, warnings), options.plan, DOCUMENT_CAPS, 'an RTF document');
  },
};

/** RTF by its header ("{\rtf1"), whatever its name. */
export const rtfRegistration: ConverterRegistration = {
  converter: rtfConverter,
  formats: [{ type: 'rtf', mime: 'application/rtf', extensions: ['.rtf'], magic: [[0x7b, 0x5c, 0x72, 0x74, 0x66]], priority: PRIORITY_SPECIFIC }],
};
