/**
 * Page-tagged text helpers: recover each page's text from a conversion result (node content carries
 * `<!-- page N -->` markers), pack pages into groups that fit one request, and write page ranges back
 * in the same marker format.
 */
import type { ConvertedNode, ConvertResult } from '../model/convert.js';

const PAGE_MARKER = /^<!-- page (\d+) -->[ \t]*$/gm;

/** Page number → that page's text, gathered from every node of the result. */
export function pageTexts(result: ConvertResult): Map<number, string> {
  const pages = new Map<number, string>();
  const add = (p: number, text: string) => {
    const t = text.replace(/^\n+|\s+$/g, '');
    pages.set(p, pages.has(p) ? `${pages.get(p)}\n\n${t}`.trim() : t);
  };
  const visit = (n: ConvertedNode) => {
    const content = n.content ?? '';
    const marks = [...content.matchAll(PAGE_MARKER)];
    if (marks.length > 0) {
      const lead = content.slice(0, marks[0]!.index).trim();
      if (lead && n.page_range) add(n.page_range[0], lead);
      marks.forEach((m, i) => {
        const end = i + 1 < marks.length ? marks[i + 1]!.index : content.length;
        add(Number(m[1]), content.slice(m.index! + m[0].length, end));
      });
    } else if (content.trim() && n.page_range) {
      add(n.page_range[0], content);
    }
    n.children.forEach(visit);
  };
  visit(result.root);
  return pages;
}

export function pagesContent(pages: Map<number, string>, from: number, to: number): string {
  const parts: string[] = [];
  for (let p = from; p <= to; p++) parts.push(`<!-- page ${p} -->\n${pages.get(p) ?? ''}`);
  return parts.join('\n\n');
}

export interface PageGroup {
  from: number;
  to: number;
  text: string;
}

/** Characters of each page always sent whole (headings sit near the top of most pages). */
export const PAGE_HEAD_CHARS = 1200;
/** Past the head, only lines this short can be headings; longer lines are body text. */
export const HEADING_LINE_MAX = 100;

/** A line of figures (3+ numbers, or 2+ with a currency or percent sign): never a heading. */
function isTableRow(line: string): boolean {
  const nums = line.match(/\(?\d[\d,.]*\)?/g) ?? [];
  return nums.length >= 3 || (nums.length >= 2 && /[$€£%]/.test(line));
}

/**
 * A page as the tree role needs it: its first PAGE_HEAD_CHARS characters, then only short lines
 * that could be headings (not numeric table rows), with `[…]` where body text was left out.
 */
export function condensePage(text: string): string {
  if (text.length <= PAGE_HEAD_CHARS) return text;
  const cut = text.lastIndexOf('\n', PAGE_HEAD_CHARS);
  const head = text.slice(0, cut > 0 ? cut : PAGE_HEAD_CHARS);
  const out: string[] = [head];
  let skipped = false;
  for (const line of text.slice(head.length).split('\n')) {
    const l = line.trim();
    const candidate = l.length >= 3 && l.length <= HEADING_LINE_MAX && /\p{L}{3}/u.test(l) && !isTableRow(l);
    if (candidate) {
      if (skipped) out.push('[…]');
      out.push(l);
      skipped = false;
    } else if (l) skipped = true;
  }
  if (skipped) out.push('[…]');
  return out.join('\n');
}

/** Consecutive pages packed into groups of at most `maxChars`, each page condensed and cut to `maxPageChars`. */
export function groupPages(pages: Map<number, string>, pageCount: number, maxChars: number, maxPageChars: number): PageGroup[] {
  const groups: PageGroup[] = [];
  let cur: { from: number; parts: string[]; size: number } | null = null;
  for (let p = 1; p <= pageCount; p++) {
    let t = condensePage(pages.get(p) ?? '');
    if (t.length > maxPageChars) t = `${t.slice(0, maxPageChars)}\n[… rest of page ${p} omitted]`;
    const part = `<!-- page ${p} -->\n${t}`;
    if (cur && cur.size + part.length > maxChars) {
      groups.push({ from: cur.from, to: p - 1, text: cur.parts.join('\n\n') });
      cur = null;
    }
    cur ??= { from: p, parts: [], size: 0 };
    cur.parts.push(part);
    cur.size += part.length + 2;
  }
  if (cur) groups.push({ from: cur.from, to: pageCount, text: cur.parts.join('\n\n') });
  return groups;
}
