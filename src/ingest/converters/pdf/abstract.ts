/**
 * A paper's or report's abstract printed under its own heading on its first pages ("Abstract",
 * "ABSTRACT", "Abstract. We present…", "Abstract—This paper…", "Executive Summary", "Synopsis"):
 * where outlines leave it out (a journal's bookmarks start at "1 Introduction"; a detected outline
 * takes the title line for the first section), it hid in "Cover and front matter" beside the title,
 * authors and affiliations. The heading's line position lets the section builder (sections.ts
 * splitAbstract) give it a node of its own, titled as printed.
 */
import type { Line } from './layout-types.js';

/** Only the first pages are searched: an abstract opens the document (a thesis's follows its title page and approval page; a report's executive summary its contents and lists). */
export const ABSTRACT_MAX_PAGE = 15;

/** A line that is only the heading: the word (optionally letter-spaced) with at most a closing mark. */
const HEADING_ONLY = /^(abstract|summary|executive summary|synopsis)\s*[.:]?$/i;
/** A run-in heading: "Abstract." / "Abstract:" / "Abstract—" followed by its text on the same line. */
const RUN_IN = /^(abstract)\s*(?:[.:]|\s[—–-]|[—–])\s*\S/i;

/** Dot leaders: a contents entry naming the abstract, not its heading. */
const LEADERS = /(?:\.\s?){3,}/;

/** A line's text with letter-spacing undone ("A B S T R A C T" → "ABSTRACT"). */
function unspaced(text: string): string {
  const t = text.trim();
  return /^(?:\p{L} ){3,}\p{L}$/u.test(t) ? t.replace(/ /g, '') : t;
}

/** The abstract heading's title as a reader would name it ("ABSTRACT" → "Abstract"), or null when the line is none. */
export function abstractTitle(text: string): string | null {
  const t = unspaced(text);
  if (LEADERS.test(t)) return null;
  const m = HEADING_ONLY.exec(t) ?? RUN_IN.exec(t);
  if (!m) return null;
  const word = m[1]!.toLowerCase();
  return word.replace(/(^|\s)\p{L}/gu, (c) => c.toUpperCase());
}

export interface AbstractHeading {
  page: number;
  /** index of the line among the page's body lines */
  line: number;
  title: string;
}

/** Abstract headings on the first ABSTRACT_MAX_PAGE pages of the body lines (page order). */
export function findAbstracts(lines: Line[][]): AbstractHeading[] {
  const out: AbstractHeading[] = [];
  lines.slice(0, ABSTRACT_MAX_PAGE).forEach((page, pi) => {
    page.forEach((l, li) => {
      const title = abstractTitle(l.text);
      if (title) out.push({ page: pi + 1, line: li, title });
    });
  });
  return out;
}
