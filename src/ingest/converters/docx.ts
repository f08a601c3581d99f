/**
 * Word (.docx) via mammoth → semantic HTML → the shared h1–h6 section tree. Heading styles
 * (including custom/numbered variants such as "Heading1", "Numbered Heading 2", "Überschrift 1")
 * become levels; list-numbered headings get their computed numbers ("2.1 Scope"); tables become
 * rows; images are noted by their alt text. Legacy .doc is skipped by the registry with a reason.
 */
import { basename, extname } from 'node:path';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import { ooxmlPartNames } from './zip-sniff.js';
import { ConvertError } from './types.js';
import { htmlSections, loadHtml } from './html-tree.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';
import { openZip } from './zip-reader.js';
import { partText } from './zip-package.js';
import { goodMetaTitle } from './meta-title.js';
import { decodeEntities } from './text-util.js';

/** Style names (case-insensitive) read as heading level N. */
const HEADING_STYLE_PATTERNS: RegExp[] = [
  /^(?:numbered\s*|num\s*|outline\s*)?(?:heading|überschrift|titre|titolo|título|kop)\s*([1-6])(?:\s*(?:numbered|num|char))?$/i,
  /^h([1-6])$/i,
];

export function headingLevelOfStyle(styleName: string | null | undefined): number | null {
  if (!styleName) return null;
  for (const re of HEADING_STYLE_PATTERNS) {
    const m = re.exec(styleName.trim());
    if (m) return Number(m[1]);
  }
  return null;
}

interface MammothElement {
  type: string;
  styleName?: string | null;
  styleId?: string | null;
  numbering?: { level: string | number; isOrdered: boolean; paragraphStyleId?: string } | null;
  children?: MammothElement[];
}

/** Per heading paragraph in document order: its level and, when list-numbered, its computed number. */
interface HeadingInfo {
  level: number;
  number: string | null;
}

/** A numbering level that prints nothing: format "none", or a level text without a number in it. */
const SILENT_LEVEL = /<w:numFmt w:val="none"\s*\/>|<w:lvlText w:val="[^"%]*"\s*\/>/;

/**
 * Paragraph styles whose list numbering prints nothing (numbering.xml): LibreOffice writes its
 * outline numbering, format "none", into every Word file it saves, tied to the heading styles;
 * read as numbered, a handbook's "9.10. Backup" became "0.1 9.10. Backup".
 */
export function silentlyNumberedStyles(numberingXml: string): Set<string> {
  const out = new Set<string>();
  for (const m of numberingXml.matchAll(/<w:lvl\b[^>]*>([\s\S]*?)<\/w:lvl>/g)) {
    const style = /<w:pStyle w:val="([^"]+)"/.exec(m[1]!)?.[1];
    if (style && SILENT_LEVEL.test(m[1]!)) out.add(style);
  }
  return out;
}

/** Longest text before a document's one top heading that still lets the heading title it (a byline, a date). */
export const BYLINE_MAX_CHARS = 120;

/**
 * The title of a document whose text is one top-level section: that section's heading, also under a
 * short line above it (DDS's benchmarking note: "Haglund / Hein November 2014" over "DDS Performance
 * and Benchmarking" had left it titled by its file name); '' otherwise.
 */
function onlyTopTitle(onlyTop: ConvertedNode | null, lead: string | undefined): string {
  if (!onlyTop) return '';
  return !lead || lead.trim().length <= BYLINE_MAX_CHARS ? onlyTop.title : '';
}

/** The parts mammoth does not read for us: the numbering definitions and the document properties' title. */
async function packageParts(bytes: Uint8Array): Promise<{ numbering: string; title: string }> {
  try {
    const zip = await openZip(bytes);
    try {
      const core = (await partText(zip, 'docProps/core.xml')) ?? '';
      const title = decodeEntities(/<dc:title>([^<]*)<\/dc:title>/.exec(core)?.[1] ?? '').replace(/\s+/g, ' ').trim();
      return { numbering: (await partText(zip, 'word/numbering.xml')) ?? '', title };
    } finally {
      zip.close();
    }
  } catch {
    // mammoth reports an unreadable package itself
    return { numbering: '', title: '' };
  }
}

function normalizeHeadings(doc: MammothElement, out: HeadingInfo[], silent: ReadonlySet<string>): MammothElement {
  const counters = [0, 0, 0, 0, 0, 0];
  const visit = (el: MammothElement): MammothElement => {
    if (el.type === 'paragraph') {
      const level = headingLevelOfStyle(el.styleName);
      if (level) {
        let number: string | null = null;
        const style = el.numbering?.paragraphStyleId ?? '';
        if (el.numbering && el.numbering.isOrdered && !silent.has(style)) {
          counters[level - 1]!++;
          for (let i = level; i < counters.length; i++) counters[i] = 0;
          number = counters.slice(0, level).join('.');
        }
        out.push({ level, number });
        return { ...el, styleName: `Heading ${level}` };
      }
      return el;
    }
    return el.children ? { ...el, children: el.children.map(visit) } : el;
  };
  return visit(doc);
}

/**
 * Title and subtitle styles; LibreOffice's definition-list paragraph styles ("List Heading" terms
 * followed by "List Contents" definitions, as DocBook and HTML definition lists convert) become a
 * `<dl>`, which the section tree reads as one node per term when the list is long.
 */
const STYLE_MAP = [
  "p[style-name='Title'] => h1.doc-title:fresh",
  "p[style-name='Subtitle'] => p.doc-subtitle:fresh",
  "p[style-name='List Heading'] => dl > dt:fresh",
  "p[style-name='List Contents'] => dl > dd:fresh",
];

export async function convertDocxBytes(bytes: Uint8Array, filename: string, opts: { tablesAsRows?: boolean } = {}): Promise<ConvertResult> {
  const mammoth = (await import('mammoth')).default;
  const cheerio = await import('cheerio');
  const headings: HeadingInfo[] = [];
  const parts = await packageParts(bytes);
  const silent = silentlyNumberedStyles(parts.numbering);
  let html: string;
  const warnings: string[] = [];
  try {
    const res = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes) },
      {
        styleMap: STYLE_MAP,
        transformDocument: (doc: MammothElement) => normalizeHeadings(doc, headings, silent),
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        ignoreEmptyParagraphs: true,
      },
    );
    html = res.value;
    for (const m of res.messages) if (m.type === 'error') warnings.push(m.message);
  } catch (err) {
    throw new ConvertError(`The Word file could not be read: ${err instanceof Error ? err.message : String(err)}`, 'Open it in Word or LibreOffice and save it again as .docx (password-protected files must be saved without the password).');
  }
  const $ = loadHtml(cheerio, `<body>${html}</body>`, warnings);
  const docTitle = $('h1.doc-title').first().text().replace(/\s+/g, ' ').trim();
  $('h1.doc-title').remove();
  let headingIndex = 0;
  const t = htmlSections($, $('body'), (text, level) => {
    // mammoth emits headings in document order, matching the paragraphs recorded by the transform
    const info = headings[headingIndex++];
    const n = info && info.level === level ? info.number : null;
    return n && !text.startsWith(n) ? `${n} ${text}` : text;
  }, opts);
  // one section holding the whole text, at whatever level its heading is set ("Heading 2" in DDS's note)
  const onlyTop = t.sections.length === 1 ? t.sections[0]! : null;
  const single = onlyTop && onlyTop.meta?.level === 1 && !t.lead ? onlyTop : null;
  // a Title paragraph is printed; the properties' title is the author's own (LibreOffice's from the page it saved), when it names the document
  const title = docTitle || (goodMetaTitle(parts.title) ? parts.title : '') || onlyTopTitle(onlyTop, t.lead) || basename(filename, extname(filename));
  let root: ConvertedNode = { title, kind: 'document', children: t.sections };
  if (t.lead) root.content = t.lead;
  if (single) root = { ...single, title, kind: 'document' };
  if (!root.content && root.children.length === 0) throw new ConvertError('The Word document has no text.', 'Check that the document is not only images (scan it to PDF and use OCR) or empty.');
  return {
    title,
    toc_source: t.headingCount > 0 ? 'headings' : 'paragraphs',
    root,
    card: { sections_overview: root.children.map((c) => c.title).slice(0, 20) },
    meta: { headings: String(t.headingCount), tables: String(t.tableCount), images: String(t.imageAlts.length) },
    ...(warnings.length ? { warnings } : {}),
  };
}

export const docxConverter: Converter = {
  name: 'docx',
  version: 20,
  async convert({ bytes, card, options }) {
    const result = await convertDocxBytes(bytes, card.filename, { tablesAsRows: options.plan?.tablesAsRows ?? false });
    return followPlan(result, options.plan, DOCUMENT_CAPS, 'a Word document');
  },
};

/** Recorded for legacy binary Word files. */
export const LEGACY_DOC_REASON =
  'Legacy Word .doc (binary) is not read directly. Convert it to .docx and ingest again: `soffice --headless --convert-to docx file.doc` (LibreOffice), or save as .docx from Word.';
/** Recorded for legacy binary Excel files. */
export const LEGACY_XLS_REASON =
  'Legacy Excel .xls (binary) is not read directly. Convert it to .xlsx and ingest again: `soffice --headless --convert-to xlsx file.xls` (LibreOffice), or save as .xlsx from Excel.';

/** A ZIP package whose main part is a Word document. */
export const docxRegistration: ConverterRegistration = {
  converter: docxConverter,
  formats: [
    {
      type: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extensions: ['.docx'],
      magic: [[0x50, 0x4b, 0x03, 0x04], [0x50, 0x4b, 0x05, 0x06]], contains: (b) => ooxmlPartNames(b).includes('word/document.xml'), priority: PRIORITY_SPECIFIC,
    },
  ],
};

/** Legacy binary Office files (OLE compound documents): recognised, not converted. */
export const legacyDocRegistration: ConverterRegistration = {
  converter: null,
  skipReason: LEGACY_DOC_REASON,
  formats: [{ type: 'doc', mime: 'application/msword', extensions: ['.doc'], magic: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]], priority: PRIORITY_SPECIFIC }],
};
export const legacyXlsRegistration: ConverterRegistration = {
  converter: null,
  skipReason: LEGACY_XLS_REASON,
  formats: [{ type: 'xls', mime: 'application/vnd.ms-excel', extensions: ['.xls'], magic: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]], priority: PRIORITY_SPECIFIC }],
};
