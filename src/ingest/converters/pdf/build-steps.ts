/**
 * Slides revealed step by step: a deck with pauses prints each slide once per step, every page the
 * one before it plus a few lines (groff's slide demo: 27 pages for 6 slides, each text up to 4
 * times). A page whose body lines open the next page, line for line, is an earlier step of it: its
 * lines are dropped so the slide's text is read once, on its last step. The page stays in the
 * document (its page number, its node's range); it just adds nothing the next page does not say.
 */
import type { Line } from './layout-types.js';

/** Fewest lines a page needs before it is taken for a step of the next (a title alone repeats on many pages). */
export const BUILD_STEP_MIN_LINES = 2;

/** Whether `page`'s lines are the first lines of `next`, in order, and `next` has more. */
export function isBuildStep(page: readonly Line[], next: readonly Line[] | undefined): boolean {
  if (!next || page.length < BUILD_STEP_MIN_LINES || next.length <= page.length) return false;
  return page.every((l, i) => l.text === next[i]!.text);
}

/** Empties the body lines of every page that is an earlier step of the next; returns the pages emptied (1-based). */
export function dropBuildSteps(lines: Line[][]): number[] {
  const dropped: number[] = [];
  for (let p = 0; p + 1 < lines.length; p++) {
    if (!isBuildStep(lines[p]!, lines[p + 1])) continue;
    lines[p] = [];
    dropped.push(p + 1);
  }
  return dropped;
}
