/** A flat outline entry from any source (bookmarks, printed TOC, detected headings), in document order. */
export interface OutlineEntry {
  title: string;
  /** 1 = top level; deeper numbers nest under shallower ones */
  level: number;
  /** 1-based physical page where the section's heading is printed */
  page: number;
  /** index of the heading among the page's body lines (furniture left out), when known */
  line?: number;
  /**
   * Where a bookmark's destination points on its page (PDF units from the page bottom; XYZ, FitH,
   * FitBH and FitR destinations): the heading is printed at or just below it.
   */
  top?: number;
  kind?: string;
}
