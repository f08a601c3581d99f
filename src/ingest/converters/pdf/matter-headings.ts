/**
 * Front- and back-matter headings outlines leave out. A paper's or report's abstract printed under its own heading on its first pages ("Abstract",
 * "ABSTRACT", "Abstract. We present…", "Abstract—This paper…", "Executive Summary", "Synopsis"):
 * where outlines leave it out (a journal's bookmarks start at "1 Introduction"; a detected outline
 * takes the title line for the first section), it hid in "Cover and front matter" beside the title,
 * authors and affiliations. The heading's line position lets the section builder (sections.ts
 * splitAbstract) give it a node of its own, titled as printed.
 */
import { styleKey, type Line } from './layout-types.js';

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

/** A front- or back-matter heading: its page, its index among the page's body lines, its title. */
export interface MatterHeading {
  page: number;
  line: number;
  title: string;
}

/** Abstract headings on the first ABSTRACT_MAX_PAGE pages of the body lines (page order). */
export function findAbstracts(lines: Line[][]): MatterHeading[] {
  const out: MatterHeading[] = [];
  lines.slice(0, ABSTRACT_MAX_PAGE).forEach((page, pi) => {
    page.forEach((l, li) => {
      const title = abstractTitle(l.text);
      if (title) out.push({ page: pi + 1, line: li, title });
    });
  });
  return out;
}

/**
 * Back matter under a heading of its own: "References", "Bibliography", "Acknowledgments",
 * "Appendix A: Instrument" (a labelled appendix; "Appendix: How to Apply These Terms" is a part of
 * a licence), "Appendices", "Literature Cited". Journal bookmarks often stop at the
 * last numbered section (a bibliography set without a bookmark), so the references of 16 of 172
 * dev and audit PDFs hid at the end of their "Discussion" or "Conclusions".
 */
const BACK_MATTER = /^(?:(?:\d{1,2}|[A-Z])\.?\s+)?(references|bibliography|acknowledge?ments?|appendix|appendices|literature cited|works cited|appendix\s+[A-Z0-9]{1,3}\b(?:\s*[.:—–-]\s*\S.*)?)\s*:?$/i;
/** A back-matter title is a short line. */
export const BACK_MATTER_MAX_CHARS = 80;
/** Printed at least this much larger than the body, a back-matter line is a heading whatever the outline's styles. */
export const BACK_MATTER_SIZE_SHARE = 1.1;

/**
 * Back-matter headings among the body lines: a line of its own reading as one, printed in a style the
 * outline's titles use (`styled`) or larger than the body text.
 */
export function findBackMatter(lines: Line[][], bodySize: number, styled: ReadonlySet<string> | null): MatterHeading[] {
  const out: MatterHeading[] = [];
  lines.forEach((page, pi) => {
    page.forEach((l, li) => {
      const t = l.text.trim();
      // (a title broken at a hyphen goes on below: "Appendix A: How to Apply These Terms to Your New Pro-")
      if (l.cells.length !== 1 || t.length > BACK_MATTER_MAX_CHARS || !BACK_MATTER.test(t) || /-$/.test(t)) return;
      if (!(styled?.has(styleKey(l)) || l.size >= BACK_MATTER_SIZE_SHARE * bodySize)) return;
      out.push({ page: pi + 1, line: li, title: t.replace(/\s*:$/, '') });
    });
  });
  return out;
}
