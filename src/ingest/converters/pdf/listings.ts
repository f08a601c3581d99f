/**
 * Lines of a fixed-width print (code, console sessions, program output) keep their spacing: the
 * wide gaps that split a proportional line into table cells are a listing's indentation and
 * alignment ("+                   + sin(2 * pi * t)", "R> fit <- glm(y ~ x,   family = poisson)"). Written as
 * cells they read "+ | + sin(2 * pi * t)", and `|` is an operator in most languages: code copied
 * from a node would be wrong. Each gap becomes as many blanks as characters fit in it.
 */
import type { PageLayout } from './layout-types.js';
import { styleKey } from './layout-types.js';

/** Most blanks one gap of a listing line becomes (a gap across a page is alignment, not text). */
export const LISTING_MAX_BLANKS = 40;

/** Rewrites each multi-cell line printed in one of `prints` (style keys) as one cell, its gaps as blanks, except on `skip` pages; returns how many. */
export function keepListingSpacing(pages: PageLayout[], prints: ReadonlySet<string>, skip: ReadonlySet<number> = new Set()): number {
  if (prints.size === 0) return 0;
  let changed = 0;
  for (const p of pages) {
    if (skip.has(p.page)) continue;
    for (const l of p.lines) {
      if (l.cells.length < 2 || !l.spans || l.spans.length !== l.cells.length * 2 || !prints.has(styleKey(l))) continue;
      const chars = l.cells.reduce((s, c) => s + c.length, 0);
      const inked = l.cells.reduce((s, _, k) => s + (l.spans![2 * k + 1]! - l.spans![2 * k]!), 0);
      const width = inked / Math.max(1, chars);
      if (!(width > 0)) continue;
      let text = l.cells[0]!;
      for (let k = 1; k < l.cells.length; k++) {
        const gap = l.spans[2 * k]! - l.spans[2 * k - 1]!;
        text += ' '.repeat(Math.min(LISTING_MAX_BLANKS, Math.max(1, Math.round(gap / width)))) + l.cells[k]!;
      }
      l.cells = [text];
      l.text = text;
      l.listing = true;
      delete l.spans;
      changed++;
    }
  }
  return changed;
}
