/**
 * E-books (.epub): the package's reading order (the OPF spine), one node per chapter file, titled
 * by the book's own table of contents (EPUB 3 nav or EPUB 2 NCX), else the chapter's first heading;
 * each chapter's headings below it as in the HTML converter (html-tree.ts). The book's title and
 * authors come from the package metadata. A book has no fixed pages: nodes are cited by node and,
 * where a heading has an id, by its anchor.
 */
import { basename, extname, posix } from 'node:path';
import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { ConvertError, type ConverterRegistration } from './types.js';
import type { OpenZip } from './zip-reader.js';
import { elementText, loadXml, packageFormat, partText, withPackage } from './zip-package.js';
import { htmlSections, loadHtml } from './html-tree.js';
import { DROP_SELECTORS } from './html.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';

/** Characters of the book's summary (its chapter titles). */
const ROOT_SUMMARY_CHARS = 400;
const EPUB_MIMETYPE = 'application/epub+zip';
const XHTML_TYPES = new Set(['application/xhtml+xml', 'text/html']);
/** Creators e-book tools write when nobody set one (LibreOffice: "Unknown Author"): not an author. */
const PLACEHOLDER_AUTHORS = /^(?:unknown(?: author)?|anonymous|author)$/i;
const REPAIR_HINT = 'Open it in an e-book editor such as Calibre or Sigil and save it again.';

/** A path inside the package from an href relative to a part (fragment and query dropped, %-escapes read). */
function resolveHref(fromPart: string, href: string): string {
  const path = href.split('#')[0]!.split('?')[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // a malformed escape stays as written
  }
  return posix.normalize(posix.join(posix.dirname(fromPart), decoded));
}

/** Elements by local name, whatever namespace prefix the file uses (`dc:title`, `opf:item`, `item`). */
function byName($: CheerioAPI, local: string): Element[] {
  return $('*').toArray().filter((e): e is Element => e.type === 'tag' && (e.tagName === local || e.tagName.endsWith(`:${local}`)));
}

interface Package {
  opfPath: string;
  title: string;
  authors: string[];
  /** chapter files in reading order */
  spine: string[];
  /** the table of contents: chapter file → its first entry's label */
  tocTitles: Map<string, string>;
}

const CONTAINER = 'META-INF/container.xml';

/**
 * Where the package's files start: the zip's top, or the one folder holding them when the book was
 * zipped from outside its folder (Debian Edu's ITIL manual: "epub/META-INF/container.xml",
 * "epub/OEBPS/…"), which readers open all the same. Null when there is no container document.
 */
function packageRoot(zip: OpenZip): string | null {
  if (zip.entries.some((e) => e.name === CONTAINER)) return '';
  const nested = zip.entries.filter((e) => e.name.endsWith(`/${CONTAINER}`) && e.name.split('/').length === 3);
  return nested.length === 1 ? nested[0]!.name.slice(0, -CONTAINER.length) : null;
}

async function readPackage(cheerio: typeof import('cheerio'), zip: OpenZip, warnings: string[]): Promise<Package> {
  const root = packageRoot(zip);
  if (root) warnings.push(`The e-book's files sit in the folder "${root}" inside the zip, not at its top: read from there (e-book readers may refuse the file; saving it again in Calibre or Sigil fixes that).`);
  const container = root === null ? null : await partText(zip, `${root}${CONTAINER}`);
  const fullPath = container ? byName(loadXml(cheerio, container), 'rootfile')[0]?.attribs['full-path'] : undefined;
  const opfPath = fullPath ? posix.join(root ?? '', fullPath) : undefined;
  const opfText = opfPath ? await partText(zip, opfPath) : null;
  if (!opfPath || opfText === null) throw new ConvertError('The e-book has no package document (META-INF/container.xml names none, or it is missing).', REPAIR_HINT);
  const $ = loadXml(cheerio, opfText);
  const manifest = new Map<string, { href: string; type: string; props: string }>();
  for (const it of byName($, 'item')) manifest.set(it.attribs.id ?? '', { href: resolveHref(opfPath, it.attribs.href ?? ''), type: it.attribs['media-type'] ?? '', props: it.attribs.properties ?? '' });
  const spineEl = byName($, 'spine')[0];
  const spine = byName($, 'itemref').map((r) => manifest.get(r.attribs.idref ?? '')).filter((m) => m && XHTML_TYPES.has(m.type)).map((m) => m!.href);
  const nav = [...manifest.values()].find((m) => m.props.split(/\s+/).includes('nav'));
  const ncx = manifest.get(spineEl?.attribs.toc ?? '') ?? [...manifest.values()].find((m) => m.type === 'application/x-dtbncx+xml');
  const tocTitles = nav ? await navTitles(cheerio, zip, nav.href) : ncx ? await ncxTitles(cheerio, zip, ncx.href) : new Map<string, string>();
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  return {
    opfPath,
    title: clean(elementText(byName($, 'title')[0])),
    authors: byName($, 'creator').map((c) => clean(elementText(c))).filter((a) => a && !PLACEHOLDER_AUTHORS.test(a)),
    spine,
    tocTitles,
  };
}

/** First label per chapter file in an EPUB 3 navigation document (`<nav epub:type="toc">`). */
async function navTitles(cheerio: typeof import('cheerio'), zip: OpenZip, path: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const text = await partText(zip, path);
  if (text === null) return out;
  const $ = loadHtml(cheerio, text);
  const toc = $('nav').toArray().find((n) => /\btoc\b/.test((n as Element).attribs['epub:type'] ?? '')) ?? $('nav').toArray()[0];
  if (!toc) return out;
  $(toc).find('a[href]').each((_, a) => {
    const file = resolveHref(path, (a as Element).attribs.href!);
    const label = $(a).text().replace(/\s+/g, ' ').trim();
    if (label && !out.has(file)) out.set(file, label);
  });
  return out;
}

/** The first element below `el` (depth first) with that local name. */
function firstDescendant(el: Element, local: string): Element | undefined {
  for (const c of el.children) {
    if (c.type !== 'tag') continue;
    const e = c as Element;
    if (e.tagName === local || e.tagName.endsWith(`:${local}`)) return e;
    const found = firstDescendant(e, local);
    if (found) return found;
  }
  return undefined;
}

/** First label per chapter file in an EPUB 2 NCX. */
async function ncxTitles(cheerio: typeof import('cheerio'), zip: OpenZip, path: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const text = await partText(zip, path);
  if (text === null) return out;
  const $ = loadXml(cheerio, text);
  for (const point of byName($, 'navPoint')) {
    const label = elementText(firstDescendant(point, 'text')).replace(/\s+/g, ' ').trim();
    const src = firstDescendant(point, 'content')?.attribs.src;
    if (!label || !src) continue;
    const file = resolveHref(path, src);
    if (!out.has(file)) out.set(file, label);
  }
  return out;
}

/** One chapter file as a node: its headings' sections below it (a single top heading is the chapter itself). */
function chapterNode(cheerio: typeof import('cheerio'), text: string, tocTitle: string | undefined, number: number, warnings: string[]): ConvertedNode | null {
  const $ = loadHtml(cheerio, text, warnings);
  $(DROP_SELECTORS).remove();
  const body = $('body').length ? $('body') : $.root();
  const t = htmlSections($, body, undefined, { anchors: true, webPage: true });
  const only = t.sections.length === 1 ? t.sections[0]! : null;
  if (!t.lead && t.sections.length === 0) return null;
  const title = tocTitle || only?.title || t.sections[0]?.title || `Chapter ${number}`;
  if (only && (!tocTitle || only.title.toLowerCase() === tocTitle.toLowerCase() || t.lead.length === 0)) {
    return { ...only, title, kind: 'chapter', content: [t.lead, only.content].filter(Boolean).join('\n\n') };
  }
  return { title, kind: 'chapter', ...(t.lead ? { content: t.lead } : {}), children: t.sections };
}

export const epubConverter: Converter = {
  name: 'epub',
  version: 16,
  async convert({ bytes, card, options }) {
    const cheerio = await import('cheerio');
    return withPackage(bytes, 'e-book', REPAIR_HINT, async (zip) => {
      if (zip.entries.some((e) => e.encrypted) || zip.entries.some((e) => e.name === 'META-INF/encryption.xml')) {
        throw new ConvertError('The e-book is encrypted (DRM): its chapters cannot be read.', 'Ingest a DRM-free copy of the book.');
      }
      const warnings: string[] = [];
      const pkg = await readPackage(cheerio, zip, warnings);
      const children: ConvertedNode[] = [];
      for (const path of pkg.spine) {
        const text = await partText(zip, path);
        const node = text === null ? null : chapterNode(cheerio, text, pkg.tocTitles.get(path), children.length + 1, warnings);
        if (node) children.push(node);
      }
      if (children.length === 0) throw new ConvertError('The e-book has no readable chapters in its reading order.', 'Check that the file is a complete EPUB (its spine lists the chapter files).');
      const title = pkg.title || basename(card.filename, extname(card.filename));
      const byline = pkg.authors.length ? ` by ${pkg.authors.join(', ')}` : '';
      const result: ConvertResult = {
        title,
        toc_source: pkg.tocTitles.size > 0 ? 'bookmarks' : 'headings',
        root: { title, kind: 'document', summary: `${title}${byline}. ${children.length} chapters: ${children.map((c) => c.title).join('; ')}`.slice(0, ROOT_SUMMARY_CHARS), children },
        card: { sections_overview: children.map((c) => c.title).slice(0, 20), ...(byline ? { summary: `${title}${byline}.` } : {}) },
        meta: { chapters: String(children.length), ...(pkg.authors.length ? { author: pkg.authors.join('; ') } : {}) },
        ...(warnings.length ? { warnings: [...new Set(warnings)] } : {}),
      };
      return followPlan(result, options.plan, DOCUMENT_CAPS, 'an e-book');
    });
  },
};

/** A ZIP package whose first part says it is an EPUB (`mimetype`: application/epub+zip). */
export const epubRegistration: ConverterRegistration = {
  converter: epubConverter,
  formats: [packageFormat('epub', EPUB_MIMETYPE, ['.epub'], EPUB_MIMETYPE)],
};
