/**
 * OpenDocument XML (content.xml of .odt and .odp) as the HTML it stands for, so the shared section
 * builder (html-tree.ts) reads it: headings at their outline levels, paragraphs, lists and tables;
 * spaces (`text:s`), tabs and line breaks as written. Notes, annotations, tracked deletions and
 * frames anchored in running text are left out.
 */
import type { Element, AnyNode } from 'domhandler';

const MAX_HEADING_LEVEL = 6;

/** Elements whose text is not the document's running text. */
const SKIPPED = new Set(['text:note', 'office:annotation', 'text:tracked-changes', 'text:sequence-decls', 'office:forms', 'draw:frame']);

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
export function odfBlocksHtml(nodes: AnyNode[]): string {
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
    else if (t === 'text:list') out += `<ul>${el.children.filter((c): c is Element => c.type === 'tag' && (c as Element).tagName === 'text:list-item').map((li) => `<li>${odfBlocksHtml(li.children)}</li>`).join('')}</ul>`;
    else if (t === 'table:table') out += `<table>${rowsOf(el).map((r) => `<tr>${r}</tr>`).join('')}</table>`;
    else out += odfBlocksHtml(el.children); // text:section, table:table-header-rows, text:soft-page-break…
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
      if (e.tagName === 'table:table-row') out.push(e.children.filter((x): x is Element => x.type === 'tag' && (x as Element).tagName === 'table:table-cell').map((cell) => `<td>${odfBlocksHtml(cell.children).replace(/<\/?p>/g, ' ').trim()}</td>`).join(''));
      else if (e.tagName !== 'table:table-column') visit(e);
    }
  };
  visit(table);
  return out;
}

