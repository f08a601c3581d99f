/**
 * OpenDocument text (.odt, LibreOffice Writer): content.xml's headings (`text:h` and their outline
 * levels), paragraphs, lists and tables are written as the HTML they stand for and walked by the
 * shared section builder (html-tree.ts), as Word files are after mammoth. The title comes from the
 * document's properties (meta.xml), else its first heading. Notes, annotations and tracked
 * deletions are left out of the text.
 */
import { basename, extname } from 'node:path';
import type { Element } from 'domhandler';
import type { Converter } from './types.js';
import { ConvertError, type ConverterRegistration } from './types.js';
import { assertOdfNotEncrypted, loadXml, packageFormat, partText, withPackage } from './zip-package.js';
import { htmlSections, loadHtml, sectionsResult } from './html-tree.js';
import { odfBlocksHtml } from './odf-html.js';
import { DOCUMENT_CAPS, followPlan } from './plan-shape.js';
import { goodMetaTitle, isPartName, openingTitle } from './meta-title.js';

const ODT_MIMETYPE = 'application/vnd.oasis.opendocument.text';
const REPAIR_HINT = 'Open it in LibreOffice Writer and save it again as .odt.';

/**
 * The text of the document's first paragraph in the Title style (or an automatic style derived from
 * it), when it has one: Abyssinica SIL's "Abyssinica SIL Features" over its first heading "Features".
 */
function titleParagraph($: ReturnType<typeof loadXml>, body: Element): string {
  const titleStyles = new Set(['Title']);
  $('office\\:automatic-styles > style\\:style').each((_, el) => {
    const a = (el as Element).attribs;
    if (a['style:parent-style-name'] === 'Title' && a['style:name']) titleStyles.add(a['style:name']);
  });
  const p = $(body).find('text\\:p').toArray().find((el) => titleStyles.has((el as Element).attribs['text:style-name'] ?? ''));
  return p ? $(p).text().replace(/\s+/g, ' ').trim() : '';
}

export const odtConverter: Converter = {
  name: 'odt',
  version: 14,
  async convert({ bytes, card, options }) {
    const cheerio = await import('cheerio');
    return withPackage(bytes, 'OpenDocument file', REPAIR_HINT, async (zip) => {
      await assertOdfNotEncrypted(zip, 'document');
      const content = await partText(zip, 'content.xml');
      if (content === null) throw new ConvertError('The OpenDocument file has no content part (content.xml).', REPAIR_HINT);
      const warnings: string[] = [];
      const $ = loadXml(cheerio, content, warnings);
      const body = $('office\\:body > office\\:text').toArray()[0] as Element | undefined;
      if (!body) throw new ConvertError('The OpenDocument file holds no text document (a spreadsheet or presentation named .odt?).', 'Check the file type: spreadsheets are read as .ods, presentations as .odp.');
      const html = loadHtml(cheerio, `<body>${odfBlocksHtml(body.children)}</body>`);
      const t = htmlSections(html, html('body'));
      const meta = await partText(zip, 'meta.xml');
      const propsTitle = meta ? loadXml(cheerio, meta)('dc\\:title').first().text().replace(/\s+/g, ' ').trim() : '';
      const first = t.sections[0]?.title;
      const title = (goodMetaTitle(propsTitle) ? propsTitle : '') || titleParagraph($, body) || (first && !isPartName(first) ? first : '') || openingTitle(t.lead) || first || basename(card.filename, extname(card.filename));
      if (!t.lead && t.sections.length === 0) throw new ConvertError('The document has no text.', 'Add content or remove the file from the folder.');
      return followPlan(sectionsResult(t, title, warnings), options.plan, DOCUMENT_CAPS, 'a text document');
    });
  },
};

/** A ZIP package whose first part says it is an OpenDocument text. */
export const odtRegistration: ConverterRegistration = {
  converter: odtConverter,
  formats: [packageFormat('odt', ODT_MIMETYPE, ['.odt'], ODT_MIMETYPE)],
};
