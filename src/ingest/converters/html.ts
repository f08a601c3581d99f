/**
 * HTML via cheerio: the page's main content (nav, header/footer chrome, scripts, styles, forms and
 * asides dropped), an h1–h6 section tree, tables as rows, links kept as their text.
 */
import { basename, extname } from 'node:path';
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { decodeNonEmptyText, lineLocator } from './text-util.js';
import { fillLineEnds, htmlSections, loadHtml } from './html-tree.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';
import { MANUAL_SEPARATOR } from '../../model/place-labels.js';

/** Elements never part of the content. */
export const DROP_SELECTORS = [
  // (not <form>: ASP.NET-style pages wrap the whole body in one)
  'script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'nav', 'footer', 'aside', 'button', 'select', 'input', 'textarea',
  'link', 'meta', 'head', 'title', '[role=navigation]', '[role=banner]', '[role=contentinfo]', '[role=search]', '[aria-hidden=true]',
  'body > header', '.cookie-banner', '.skip-link',
  // the navigation bars documentation generators print on every page (DocBook's "<<< Prev | Next >>>",
  // Texinfo's "Next: … Up: …", Javadoc's, Sphinx's relation bar and sidebar, breadcrumbs)
  '.navheader', '.navfooter', '.nav-panel', '.topNav', '.bottomNav', '.subNav', '.related', '.sphinxsidebar', '.breadcrumb', '.breadcrumbs',
].join(',');

/**
 * Texinfo 6 prints its navigation bar as `<div class="header">` ("Next: Annual Average over Regions,
 * Previous: Combine Files, Up: CMIP5 Example [Contents][Index]"), which NCO's manual carried 164
 * times, once as a node of its own. A header is dropped only when it reads as one (NAV_LINE): a
 * site's `div.header` may hold the page's title.
 */
const NAV_HEADER_SELECTOR = 'div.header';
const NAV_LINE = /^\s*(?:Next|Previous|Prev|Up):\s/;

/** Main-content candidates, in order of trust. */
const MAIN_SELECTORS = ['main', '[role=main]', 'article'];

export function convertHtmlWith(cheerio: typeof import('cheerio'), html: string, filename: string, opts: { tablesAsRows?: boolean } = {}): ConvertResult {
  const warnings: string[] = [];
  const $ = loadHtml(cheerio, html, warnings, true);
  // (htmlparser2 adds no <head> a page left out)
  const docTitle = $('title').filter((_, e) => $(e).closest('svg').length === 0).first().text().replace(/\s+/g, ' ').trim();
  const description = $('meta[name=description]').attr('content')?.trim() ?? '';
  const manual = ($('link[rel=home]').first().attr('title') || $('a[accesskey=h]').first().attr('title'))?.replace(/\s+/g, ' ').trim() ?? '';
  const lang = $('html').attr('lang')?.trim() ?? '';
  $(DROP_SELECTORS).remove();
  $(NAV_HEADER_SELECTOR).filter((_, e) => NAV_LINE.test($(e).text())).remove();
  let main: import('cheerio').Cheerio<import('domhandler').AnyNode> = $('body');
  for (const sel of MAIN_SELECTORS) {
    const found = $(sel);
    if (found.length === 1) {
      main = found;
      break;
    }
  }
  if (main.length === 0) main = $.root();
  const lines = lineLocator(html);
  const t = htmlSections($, main, undefined, { ...opts, anchors: true, webPage: true, lineAt: lines.lineAt });
  const only = t.sections.length === 1 ? t.sections[0]! : null;
  const pageTitle = docTitle || (only?.meta?.level === 1 ? only.title : '') || basename(filename, extname(filename));
  const title = docTitle ? inManual(docTitle, manual) : pageTitle;
  let root: ConvertedNode = { title, kind: 'document', children: t.sections };
  if (t.lead) root.content = t.lead;
  // a single top heading that is the page's title (any level) is the document itself, not a child
  if (only && (only.meta?.level === 1 || only.title.toLowerCase() === pageTitle.toLowerCase())) {
    root = { ...only, title, kind: 'document', content: [t.lead, only.content].filter(Boolean).join('\n\n') };
  }
  // each section runs over the file's lines from its heading to the next one's: a citation a reader can check in the file
  fillLineEnds(root.children, lines.count + 1);
  root.line_range = [1, lines.count];
  if (!root.content && root.children.length === 0) throw new ConvertError('The page has no readable text after removing navigation, scripts and styles.', 'Check that the HTML is a content page, not a redirect or script-only shell.');
  return {
    title,
    toc_source: t.headingCount > 0 ? 'headings' : 'paragraphs',
    root,
    line_count: lines.count,
    card: {
      ...(description ? { summary: description } : {}),
      sections_overview: root.children.map((c) => c.title).slice(0, 20),
    },
    meta: { headings: String(t.headingCount), tables: String(t.tableCount), links: String(t.links), ...(lang ? { lang } : {}) },
    ...(warnings.length ? { warnings } : {}),
  };
}

/** A home link's title that names no manual ("Home", "Index", "Top", "Table of Contents"). */
const GENERIC_HOME = /^(?:home(?: page)?|index|top|start|main(?: page)?|(?:table of )?contents|up|back)$/i;

/**
 * A page of a manual split into pages (DocBook's chunked HTML) names the manual in its home link
 * (`<link rel="home" title="GNU Image Manipulation Program">`, or the navigation bar's Home link,
 * `<a accesskey="h" title="PostgreSQL 15.20 Documentation">`): its title says which manual it is
 * part of, as Sphinx pages do in theirs ("ctest(1) — CMake 3.25.1 Documentation"). GIMP's "8.11.
 * Curves" and Wireshark's "6.4. Building Display Filter Expressions" had named neither program.
 */
export function inManual(title: string, manual: string): string {
  if (!manual || GENERIC_HOME.test(manual) || title.toLowerCase().includes(manual.toLowerCase())) return title;
  return `${title}${MANUAL_SEPARATOR}${manual}`;
}

export const htmlConverter: Converter = {
  name: 'html',
  version: 28,
  async convert({ bytes, card, options }) {
    const text = decodeNonEmptyText(bytes);
    const cheerio = await import('cheerio');
    const result = convertHtmlWith(cheerio, text, card.filename, { tablesAsRows: options.plan?.tablesAsRows ?? false });
    return followPlan(result, options.plan, DOCUMENT_CAPS, 'a web page');
  },
};

/** HTML by name, or a text file that opens with a doctype or an <html> tag. */
export const htmlRegistration: ConverterRegistration = {
  converter: htmlConverter,
  formats: [
    {
      type: 'html', mime: 'text/html', extensions: ['.html', '.htm', '.xhtml'],
      sniffText: (s) => s.startsWith('<!DOCTYPE html') || /^<html[\s>]/i.test(s), priority: PRIORITY_SPECIFIC,
    },
  ],
};
