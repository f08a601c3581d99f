/**
 * The print styles (font and size) a document sets its outline's titles in, read from the lines
 * where its bookmarks or printed contents entries were found. A long section is split on headings
 * the layout finds inside it (sections.ts); with an outline to learn from, only candidates printed
 * in one of those styles may split it. Without this, listings, board diagrams, chart labels and
 * numbered code lines in a bold or large face became node titles ("3 KNSQVWLGRHNLF…", "1 SNAQJBMR",
 * "649 \def\horotimetext#1{%", "Proportion of crows": 24 of 33 detected nodes inside the bookmark
 * outlines of 14 manuals nobody had tuned on).
 */
import { styleKey, type Line } from './layout-types.js';
import type { OutlineEntry } from './outline-types.js';
import { matches } from './locate.js';

/** Entries found on their lines needed before their styles are trusted (fewer: no filtering). */
export const MIN_STYLED_ENTRIES = 3;

/**
 * The styles of the lines the entries were located on (the entry's line, or the one below it when
 * the located line is a label such as "Chapter 3"); null when fewer than MIN_STYLED_ENTRIES entries
 * were found where they point.
 */
export function outlineStyles(entries: readonly OutlineEntry[], body: readonly Line[][]): Set<string> | null {
  const styles = new Set<string>();
  let found = 0;
  for (const e of entries) {
    if (e.line === undefined) continue;
    const lines = body[e.page - 1] ?? [];
    const at = [e.line, e.line + 1].find((i) => i < lines.length && matches(e.title, lines as Line[], i));
    if (at === undefined) continue;
    found++;
    styles.add(styleKey(lines[at]!));
    if (at > e.line) styles.add(styleKey(lines[e.line]!));
  }
  return found >= MIN_STYLED_ENTRIES ? styles : null;
}
