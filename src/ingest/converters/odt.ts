/**
 * OpenDocument text (.odt, LibreOffice Writer): content.xml's headings (`text:h` and their outline
 * levels), paragraphs, lists and tables are written as the HTML they stand for and walked by the
 * shared section builder (html-tree.ts), as Word files are after mammoth. The title comes from the
 * document's properties (meta.xml), else its first heading. Notes, annotations and tracked
 * deletions are left out of the text.
 */
import { basename, extname } from 'node:path';
import type { Element, AnyNode } from 'domhandler';
import type { Converter, ConvertResult } from './types.js';
import { ConvertError, type ConverterRegistration } from './types.js';
import { loadXml, packageFormat, partText, withPackage } from './zip-package.js';
import { htmlSections, loadHtml } from './html-tree.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';

const ODT_MIMETYPE = 'application/vnd.oasis.opendocument.text';
/** Elements whose text is not the document's running text. */
const SKIPPED = new Set(['text:note', 'office:annotation', 'text:tracked-changes', 'text:sequence-decls', 'office:forms', 'draw:frame']);
const MAX_HEADING_LEVEL = 6;
const REPAIR_HINT = 'Open it in LibreOffice Writer and save it again as .odt.';

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Inline content: text, spaces (`text:s c="3"`), tabs, line breaks, spans and links. */
function inline(nodes: AnyNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.type === 'text') out += escapeHtml((n as unknown as { data: string }).data);
    if (n.type !== 'tag') continue;
    const el = n as Element;
    if (SKIPPED.has(el.tagName)) continue;
    if (el.tagName === 'text:s') out += ' '.repeat(Math.max(1, Number(el.attribs['text:c'] ?? 1)));
    else if (el.tagName === 'text:tab') out += ' ';
    else if (el.tagName === 'text:line-break') out += '<br>';
    else out += inline(el.children);
  }
  return out;
}

/** Block content as HTML: headings at their outline level, paragraphs, lists, tables, sections. */
function blocks(nodes: AnyNode[]): string {
  let out = '';
  for (const n of nodes) {
    if (n.type !== 'tag') continue;
    const el = n as Element;
    const t = el.tagName;
    if (SKIPPED.has(t)) continue;
    if (t === 'text:h') {
      const level = Math.min(MAX_HEADING_LEVEL, Math.max(1, Number(el.attribs['text:outline-level'] ?? 1)));
      out += `<h${level}>${inline(el.children)}</h${level}>`;
    } else if (t === 'text:p') out += `<p>${inline(el.children)}</p>`;
    else if (t === 'text:list') out += `<ul>${el.children.filter((c): c is Element => c.type === 'tag' && (c as Element).tagName === 'text:list-item').map((li) => `<li>${blocks(li.children)}</li>`).join('')}</ul>`;
    else if (t === 'table:table') out += `<table>${rowsOf(el).map((r) => `<tr>${r}</tr>`).join('')}</table>`;
    else out += blocks(el.children); // text:section, table:table-header-rows, text:soft-page-break…
  }
  return out;
}

/** A table's rows as HTML cells (header rows first, as written). */
function rowsOf(table: Element): string[] {
  const out: string[] = [];
  const visit = (el: Element): void => {
    for (const c of el.children) {
      if (c.type !== 'tag') continue;
      const e = c as Element;
      if (e.tagName === 'table:table-row') out.push(e.children.filter((x): x is Element => x.type === 'tag' && (x as Element).tagName === 'table:table-cell').map((cell) => `<td>${blocks(cell.children).replace(/<\/?p>/g, ' ').trim()}</td>`).join(''));
      else if (e.tagName !== 'table:table-column') visit(e);
    }
  };
  visit(table);
  return out;
}

export const odtConverter: Converter = {
  name: 'odt',
  version: 1,
  async convert({ bytes, card, options }) {
    const cheerio = await import('cheerio');
    return withPackage(bytes, 'OpenDocument file', REPAIR_HINT, async (zip) => {
      const content = await partText(zip, 'content.xml');
      if (content === null) throw new ConvertError('The OpenDocument file has no content part (content.xml).', REPAIR_HINT);
      const $ = loadXml(cheerio, content);
      const body = $('office\\:body > office\\:text').toArray()[0] as Element | undefined;
      if (!body) throw new ConvertError('The OpenDocument file holds no text document (a spreadsheet or presentation named .odt?).', 'Check the file type: .ods and .odp are not read; export them as .xlsx or .pptx.');
      const html = loadHtml(cheerio, `<body>${blocks(body.children)}</body>`);
      const t = htmlSections(html, html('body'));
      const meta = await partText(zip, 'meta.xml');
      const propsTitle = meta ? loadXml(cheerio, meta)('dc\\:title').first().text().replace(/\s+/g, ' ').trim() : '';
      const title = propsTitle || t.sections[0]?.title || basename(card.filename, extname(card.filename));
      if (!t.lead && t.sections.length === 0) throw new ConvertError('The document has no text.', 'Add content or remove the file from the folder.');
      const result: ConvertResult = {
        title,
        toc_source: t.headingCount > 0 ? 'headings' : 'paragraphs',
        root: { title, kind: 'document', ...(t.lead ? { content: t.lead } : {}), children: t.sections },
        card: { sections_overview: t.sections.map((s) => s.title).slice(0, 20) },
        meta: { headings: String(t.headingCount), tables: String(t.tableCount) },
      };
      return followPlan(result, options.plan, DOCUMENT_CAPS, 'a text document');
    });
  },
};

/** A ZIP package whose first part says it is an OpenDocument text. */
export const odtRegistration: ConverterRegistration = {
  converter: odtConverter,
  formats: [packageFormat('odt', ODT_MIMETYPE, ['.odt'], ODT_MIMETYPE)],
};

const ODF_MIMETYPE = 'application/vnd.oasis.opendocument.';

export const ODF_OTHER_REASON =
  'OpenDocument spreadsheets and presentations (.ods, .odp) are not read directly. Convert them and ingest again: `soffice --headless --convert-to xlsx file.ods` or `--convert-to pptx file.odp` (LibreOffice).';

/** OpenDocument spreadsheets and presentations: recognised (not read as a ZIP of XML parts), not converted. */
export const odfOtherRegistration: ConverterRegistration = {
  converter: null,
  skipReason: ODF_OTHER_REASON,
  formats: [
    packageFormat('ods', `${ODF_MIMETYPE}spreadsheet`, ['.ods'], `${ODF_MIMETYPE}spreadsheet`),
    packageFormat('odp', `${ODF_MIMETYPE}presentation`, ['.odp'], `${ODF_MIMETYPE}presentation`),
  ],
};
