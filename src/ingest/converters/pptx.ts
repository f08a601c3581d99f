/**
 * PowerPoint decks (.pptx): one node per slide, in the deck's order, titled by the slide's title
 * placeholder (else its first line of text). A slide's text boxes in reading order, its tables as rows,
 * its pictures by their descriptions and its speaker notes make the node's text. Slides are the
 * source's pages: node page ranges and citations count slides ("page 3" is slide 3).
 * The package is read with the archive reader; its XML parts with cheerio in XML mode.
 */
import { basename, extname, posix } from 'node:path';
import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { ConvertError, PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import type { OpenZip } from './zip-reader.js';
import { elementText, loadXml, packageFormat, partText, withPackage } from './zip-package.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';

/** Characters of a slide's first line used as its title when it has no title placeholder. */
export const UNTITLED_SLIDE_CHARS = 80;
/** Characters of the deck's summary (its slide titles). */
const ROOT_SUMMARY_CHARS = 400;
/** Titles a deck's properties carry when nobody set one: not a title. */
const PLACEHOLDER_DECK_TITLES = /^(?:powerpoint presentation|presentation\d*|slide \d+|untitled)$/i;

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
const REPAIR_HINT = 'Open it in PowerPoint or LibreOffice Impress and save it again as .pptx.';

/** A part's relationships: id → the target's path inside the package. */
function relationships(cheerio: typeof import('cheerio'), xml: string | null, partPath: string): Map<string, { target: string; type: string }> {
  const out = new Map<string, { target: string; type: string }>();
  if (!xml) return out;
  const $ = loadXml(cheerio, xml);
  const dir = posix.dirname(partPath);
  $('Relationship').each((_, el) => {
    const a = (el as Element).attribs;
    if (!a.Id || !a.Target || a.TargetMode === 'External') return;
    const target = a.Target.startsWith('/') ? a.Target.slice(1) : posix.normalize(posix.join(dir, a.Target));
    out.set(a.Id, { target, type: a.Type ?? '' });
  });
  return out;
}

/** The relationships file of a part (`ppt/slides/slide1.xml` → `ppt/slides/_rels/slide1.xml.rels`). */
function relsPath(partPath: string): string {
  return posix.join(posix.dirname(partPath), '_rels', `${posix.basename(partPath)}.rels`);
}

function tag(el: AnyNode): string {
  return el.type === 'tag' ? (el as Element).tagName : '';
}

function kids(el: AnyNode): Element[] {
  return ((el as Element).children ?? []).filter((c): c is Element => c.type === 'tag');
}

/** A paragraph's text: its runs and fields, line breaks kept. */
function paragraphText(p: Element): string {
  let out = '';
  const visit = (el: Element): void => {
    for (const c of kids(el)) {
      const t = tag(c);
      if (t === 'a:t') out += elementText(c);
      else if (t === 'a:br') out += '\n';
      else if (t === 'a:r' || t === 'a:fld') visit(c);
    }
  };
  visit(p);
  return out.replace(/[ \t\u00a0]+/g, ' ').trim();
}

/** The paragraphs of a text body, list levels as indentation. */
function bodyLines(body: Element | undefined): string[] {
  if (!body) return [];
  const lines: string[] = [];
  for (const p of kids(body).filter((k) => tag(k) === 'a:p')) {
    const text = paragraphText(p);
    if (!text) continue;
    const lvl = Number(kids(p).find((k) => tag(k) === 'a:pPr')?.attribs.lvl ?? 0);
    lines.push(`${'  '.repeat(Math.min(lvl, 8))}${text}`);
  }
  return lines;
}

/** A table as Markdown rows, the first row as its header. */
function tableRows(tbl: Element): string[] {
  const rows = kids(tbl).filter((k) => tag(k) === 'a:tr').map((tr) =>
    kids(tr).filter((k) => tag(k) === 'a:tc').map((tc) => bodyLines(kids(tc).find((k) => tag(k) === 'a:txBody')).join(' ').replace(/\|/g, '\\|')),
  );
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((r) => r.length));
  const line = (r: string[]) => `| ${[...r, ...Array<string>(width - r.length).fill('')].join(' | ')} |`;
  return [line(rows[0]!), `| ${Array<string>(width).fill('---').join(' | ')} |`, ...rows.slice(1).map(line)];
}

interface SlideText {
  title: string;
  lines: string[];
}

/** The shapes of a shape tree in document order (groups opened): title, text, tables, pictures. */
function readShapes(tree: Element, into: SlideText): void {
  for (const el of kids(tree)) {
    const t = tag(el);
    if (t === 'p:grpSp') readShapes(el, into);
    else if (t === 'p:sp') {
      const nv = kids(el).find((k) => tag(k) === 'p:nvSpPr');
      const ph = nv ? kids(kids(nv).find((k) => tag(k) === 'p:nvPr') ?? nv).find((k) => tag(k) === 'p:ph') : undefined;
      const lines = bodyLines(kids(el).find((k) => tag(k) === 'p:txBody'));
      if (lines.length === 0) continue;
      if (!into.title && ph && TITLE_PLACEHOLDERS.has(ph.attribs.type ?? '')) into.title = lines.map((l) => l.trim()).join(' ');
      else into.lines.push(...lines, '');
    } else if (t === 'p:graphicFrame') {
      const find = (e: Element): Element | undefined => (tag(e) === 'a:tbl' ? e : kids(e).map(find).find(Boolean));
      const tbl = find(el);
      if (tbl) into.lines.push(...tableRows(tbl), '');
    } else if (t === 'p:pic') {
      const pr = kids(kids(el).find((k) => tag(k) === 'p:nvPicPr') ?? el).find((k) => tag(k) === 'p:cNvPr');
      const alt = (pr?.attribs.descr ?? '').replace(/\s+/g, ' ').trim();
      if (alt) into.lines.push(`[image: ${alt}]`, '');
    }
  }
}

function shapeTree($: CheerioAPI): Element | undefined {
  return $('p\\:cSld > p\\:spTree').toArray()[0] as Element | undefined;
}

/** Speaker notes: the notes page's body placeholder. */
function notesLines($: CheerioAPI): string[] {
  const out: string[] = [];
  $('p\\:sp').each((_, sp) => {
    const ph = $(sp).find('p\\:nvSpPr p\\:ph').first();
    if (ph.attr('type') !== 'body') return;
    out.push(...bodyLines($(sp).children('p\\:txBody').toArray()[0] as Element | undefined));
  });
  return out;
}

/** One slide as both deck converters (.pptx, .odp) read it. */
export interface Slide {
  number: number;
  title: string;
  text: string;
  hidden: boolean;
}

async function readSlide(cheerio: typeof import('cheerio'), zip: OpenZip, path: string, number: number, warnings: string[]): Promise<Slide> {
  const xml = await partText(zip, path);
  if (xml === null) return { number, title: `Slide ${number}`, text: '', hidden: false };
  const $ = loadXml(cheerio, xml, warnings);
  const got: SlideText = { title: '', lines: [] };
  const tree = shapeTree($);
  if (tree) readShapes(tree, got);
  const rels = relationships(cheerio, await partText(zip, relsPath(path)), path);
  const notesPart = [...rels.values()].find((r) => r.type.endsWith('/notesSlide'))?.target;
  const notesXml = notesPart ? await partText(zip, notesPart) : null;
  const notes = notesXml ? notesLines(loadXml(cheerio, notesXml)) : [];
  return slideOf(number, got.title, got.lines.join('\n'), notes, $('p\\:sld').attr('show') === '0');
}

/**
 * A slide from its title (may be empty: then its first line of text, else "Slide N"), body text and
 * speaker notes; its text opens with its page marker (slides are the deck's pages).
 */
export function slideOf(number: number, titleText: string, bodyText: string, notes: string[], hidden: boolean): Slide {
  const body = bodyText.replace(/\n{3,}/g, '\n\n').trim();
  const firstLine = body.split('\n').find((l) => l.trim() && !l.startsWith('|') && !l.startsWith('[image:'))?.trim() ?? '';
  const title = titleText || (firstLine ? firstLine.replace(/^[-*]\s+/, '').slice(0, UNTITLED_SLIDE_CHARS) : `Slide ${number}`);
  const parts = [`<!-- page ${number} -->`, `## ${title}`, body, notes.length ? `Notes:\n${notes.join('\n')}` : ''].filter(Boolean);
  return { number, title, text: parts.join('\n\n'), hidden };
}

/** The converted deck: one node per slide (slides are its pages), the root summarised by the slide titles. */
export function deckResult(title: string, slides: Slide[], warnings: string[]): ConvertResult {
  const children: ConvertedNode[] = slides.map((s) => ({
    title: s.title, kind: 'slide', page_range: [s.number, s.number], content: s.text, children: [], ...(s.hidden ? { meta: { hidden: true } } : {}),
  }));
  return {
    title,
    toc_source: 'detected',
    root: { title, kind: 'document', summary: `${slides.length} slide${slides.length === 1 ? '' : 's'}: ${slides.map((s) => s.title).join('; ')}`.slice(0, ROOT_SUMMARY_CHARS), page_range: [1, slides.length], children },
    pages: slides.length,
    card: { sections_overview: slides.map((s) => s.title).slice(0, 20) },
    meta: { slides: String(slides.length) },
    ...(warnings.length ? { warnings: [...new Set(warnings)] } : {}),
  };
}

/** The slides' part paths in the deck's order (presentation.xml's slide list). */
async function slidePaths(cheerio: typeof import('cheerio'), zip: OpenZip): Promise<string[]> {
  const pres = await partText(zip, 'ppt/presentation.xml');
  if (pres === null) throw new ConvertError('The PowerPoint file has no presentation part (ppt/presentation.xml).', REPAIR_HINT);
  const rels = relationships(cheerio, await partText(zip, 'ppt/_rels/presentation.xml.rels'), 'ppt/presentation.xml');
  const $ = loadXml(cheerio, pres);
  return $('p\\:sldIdLst > p\\:sldId').toArray().map((el) => rels.get((el as Element).attribs['r:id'] ?? '')?.target).filter((p): p is string => !!p);
}

/** A deck without a title in its properties is titled by its first titled slide. */
export function deckTitleFromSlides(slides: Slide[]): string {
  return slides.find((s) => !/^Slide \d+$/.test(s.title))?.title ?? '';
}

/** The deck's title from its document properties, when somebody set one. */
async function deckTitle(cheerio: typeof import('cheerio'), zip: OpenZip): Promise<string> {
  const core = await partText(zip, 'docProps/core.xml');
  if (!core) return '';
  return propertiesTitle(loadXml(cheerio, core));
}

/** `dc:title` of a package's properties part, unless it is a placeholder nobody set. */
export function propertiesTitle($: CheerioAPI): string {
  const t = $('dc\\:title').first().text().replace(/\s+/g, ' ').trim();
  return PLACEHOLDER_DECK_TITLES.test(t) ? '' : t;
}

export const pptxConverter: Converter = {
  name: 'pptx',
  version: 2,
  async convert({ bytes, card, options }) {
    const cheerio = await import('cheerio');
    return withPackage(bytes, 'PowerPoint file', REPAIR_HINT, async (zip) => {
      const paths = await slidePaths(cheerio, zip);
      if (paths.length === 0) throw new ConvertError('The deck has no slides.', 'Add slides or remove the file from the folder.');
      const slides: Slide[] = [];
      const warnings: string[] = [];
      for (const [i, p] of paths.entries()) slides.push(await readSlide(cheerio, zip, p, i + 1, warnings));
      const title = (await deckTitle(cheerio, zip)) || deckTitleFromSlides(slides) || basename(card.filename, extname(card.filename));
      return followPlan(deckResult(title, slides, warnings), options.plan, DOCUMENT_CAPS, 'a slide deck');
    });
  },
};

/** A ZIP package whose main part is a PowerPoint presentation. */
export const pptxRegistration: ConverterRegistration = {
  converter: pptxConverter,
  formats: [packageFormat('pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ['.pptx', '.pptm'], 'ppt/presentation.xml')],
};

export const LEGACY_PPT_REASON =
  'Legacy PowerPoint .ppt (binary) is not read directly. Convert it to .pptx and ingest again: `soffice --headless --convert-to pptx file.ppt` (LibreOffice), or save as .pptx from PowerPoint.';

/** Legacy binary PowerPoint files (OLE compound documents): recognised, not converted. */
export const legacyPptRegistration: ConverterRegistration = {
  converter: null,
  skipReason: LEGACY_PPT_REASON,
  formats: [{ type: 'ppt', mime: 'application/vnd.ms-powerpoint', extensions: ['.ppt', '.pps'], magic: [[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]], priority: PRIORITY_SPECIFIC }],
};

