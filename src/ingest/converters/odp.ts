/**
 * OpenDocument presentations (.odp, LibreOffice Impress): one node per slide (`draw:page`), as .pptx
 * decks are: titled by the slide's title frame (else its first line), its text frames in document
 * order, its tables as rows, its pictures by their titles or descriptions, its speaker notes.
 * Slides are the source's pages. Slide XML is read as HTML by the shared section builder.
 */
import { basename, extname } from 'node:path';
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { Converter, ConvertedNode } from './types.js';
import { ConvertError, type ConverterRegistration } from './types.js';
import { assertOdfNotEncrypted, elementText, loadXml, packageFormat, partText, withPackage } from './zip-package.js';
import { htmlSections, loadHtml } from './html-tree.js';
import { odfBlocksHtml } from './odf-html.js';
import { deckResult, deckTitleFromSlides, propertiesTitle, slideOf, type Slide } from './pptx.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';

export const ODP_MIMETYPE = 'application/vnd.oasis.opendocument.presentation';
const REPAIR_HINT = 'Open it in LibreOffice Impress and save it again as .odp (or export it as .pptx), then ingest again.';
/** Shapes that carry text on a slide. */
const SHAPES = new Set(['draw:frame', 'draw:custom-shape', 'draw:rect', 'draw:ellipse', 'draw:polygon', 'draw:path', 'draw:text-box', 'draw:caption']);

const tags = (el: Element): Element[] => el.children.filter((c): c is Element => c.type === 'tag');

/** What one slide's shapes hold: the title frame's text, the rest as HTML in document order. */
interface SlideParts {
  title: string;
  html: string[];
}

function altOf(frame: Element): string {
  const named = tags(frame).filter((c) => c.tagName === 'svg:title' || c.tagName === 'svg:desc');
  return named.map((c) => elementText(c).replace(/\s+/g, ' ').trim()).filter(Boolean).join(' — ');
}

/** A shape's own content as HTML: its text box or paragraphs, its table, or its picture's alt text. */
function shapeHtml(shape: Element): string {
  let out = '';
  for (const c of tags(shape)) {
    if (c.tagName === 'draw:text-box') out += odfBlocksHtml(c.children);
    else if (c.tagName === 'table:table' || c.tagName === 'text:p' || c.tagName === 'text:h' || c.tagName === 'text:list') out += odfBlocksHtml([c]);
  }
  if (!out && tags(shape).some((c) => c.tagName === 'draw:image' || c.tagName === 'draw:object')) {
    const alt = altOf(shape);
    if (alt) out = `<p>[image: ${alt.replace(/&/g, '&amp;').replace(/</g, '&lt;')}]</p>`;
  }
  return out;
}

/** The slide's shapes in document order, groups opened (`draw:g`); notes pages left out. */
function readShapes(parent: Element, into: SlideParts): void {
  for (const el of tags(parent)) {
    if (el.tagName === 'draw:g') readShapes(el, into);
    else if (SHAPES.has(el.tagName)) {
      const html = shapeHtml(el);
      if (!html) continue;
      if (!into.title && el.attribs['presentation:class'] === 'title') into.title = htmlText(html).replace(/\s+/g, ' ').trim();
      else into.html.push(html);
    }
  }
}

/** HTML blocks as the Markdown text the section builder makes of them (lists as "- ", tables as rows). */
function htmlText(html: string, cheerio?: typeof import('cheerio')): string {
  if (!cheerio) return html.replace(/<[^>]+>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const $ = loadHtml(cheerio, `<body>${html}</body>`);
  const t = htmlSections($, $('body'));
  const all = (n: ConvertedNode): string[] => [n.content ?? '', ...n.children.flatMap(all)];
  return [t.lead, ...t.sections.flatMap(all)].filter(Boolean).join('\n\n');
}

/** Page style names the deck marks hidden (`presentation:visibility="hidden"`). */
function hiddenStyles($: CheerioAPI): Set<string> {
  const out = new Set<string>();
  $('style\\:style').each((_, el) => {
    const s = el as Element;
    if (tags(s).some((c) => c.tagName === 'style:drawing-page-properties' && c.attribs['presentation:visibility'] === 'hidden')) out.add(s.attribs['style:name'] ?? '');
  });
  return out;
}

function readSlide(cheerio: typeof import('cheerio'), page: Element, number: number, hidden: Set<string>): Slide {
  const parts: SlideParts = { title: '', html: [] };
  readShapes(page, parts);
  const notesPage = tags(page).find((c) => c.tagName === 'presentation:notes');
  const notes: SlideParts = { title: '', html: [] };
  if (notesPage) readShapes(notesPage, notes);
  const notesText = htmlText(notes.html.join(''), cheerio);
  const body = htmlText(parts.html.join(''), cheerio);
  return slideOf(number, parts.title, body, notesText ? notesText.split('\n').filter((l) => l.trim()) : [], hidden.has(page.attribs['draw:style-name'] ?? ''));
}

export const odpConverter: Converter = {
  name: 'odp',
  version: 10,
  async convert({ bytes, card, options }) {
    const cheerio = await import('cheerio');
    return withPackage(bytes, 'OpenDocument presentation', REPAIR_HINT, async (zip) => {
      await assertOdfNotEncrypted(zip, 'presentation');
      const content = await partText(zip, 'content.xml');
      if (content === null) throw new ConvertError('The OpenDocument presentation has no content part (content.xml).', REPAIR_HINT);
      const warnings: string[] = [];
      const $ = loadXml(cheerio, content, warnings);
      const pages = $('office\\:body > office\\:presentation > draw\\:page').toArray() as Element[];
      if (pages.length === 0) throw new ConvertError('The presentation has no slides (a text document or spreadsheet named .odp?).', 'Check the file type: text documents are read as .odt, spreadsheets as .ods.');
      const hidden = hiddenStyles($);
      const slides = pages.map((p, i) => readSlide(cheerio, p, i + 1, hidden));
      const meta = await partText(zip, 'meta.xml');
      const title = (meta ? propertiesTitle(loadXml(cheerio, meta)) : '') || deckTitleFromSlides(slides) || basename(card.filename, extname(card.filename));
      return followPlan(deckResult(title, slides, warnings), options.plan, DOCUMENT_CAPS, 'a slide deck');
    });
  },
};

/** A ZIP package whose first part says it is an OpenDocument presentation. */
export const odpRegistration: ConverterRegistration = {
  converter: odpConverter,
  formats: [packageFormat('odp', ODP_MIMETYPE, ['.odp'], ODP_MIMETYPE)],
};
