/** Shapes shared by the PDF layout modules (plain data: they cross worker-thread boundaries), and a line's print-style key. */

/** One visual line of a page, rebuilt from pdfjs text items. */
export interface Line {
  /** cells separated by wide gaps (table columns, TOC page numbers); one cell for ordinary prose */
  cells: string[];
  /** the cells joined by single spaces */
  text: string;
  x: number;
  x2: number;
  /** baseline, PDF units from the page bottom */
  y: number;
  /** dominant font size of the line */
  size: number;
  /** dominant font (pdfjs loaded name) of the line */
  font: string;
  /** vertical gap to the line above, in multiples of this line's size (Infinity for the first line) */
  gapAbove: number;
  /** each cell's x range, flat ([x, x2, x, x2, …]), for a line of two or more cells */
  spans?: number[];
  /** a fixed-width line whose gaps were written as blanks (./listings.ts): code or program output, not prose */
  listing?: true;
  /** the line's opening run printed in another font than the rest (a run-in heading: "2.2. Advanced configuration."), when it has one */
  lead?: { text: string; font: string };
}

/** A line's print style: its dominant font and size (tenths of a point). */
export function styleKey(l: Pick<Line, 'font' | 'size'>): string {
  return `${l.font}|${Math.round(l.size * 10) / 10}`;
}

export interface PageLayout {
  /** 1-based physical page number */
  page: number;
  width: number;
  height: number;
  lines: Line[];
  /** true when the page was read as two columns */
  twoColumn: boolean;
}
