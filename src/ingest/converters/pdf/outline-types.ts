/** A flat outline entry from any source (bookmarks, printed TOC, detected headings), in document order. */
export interface OutlineEntry {
  title: string;
  /** 1 = top level; deeper numbers nest under shallower ones */
  level: number;
  /** 1-based physical page where the section's heading is printed */
  page: number;
  /** index of the heading among the page's body lines (furniture left out), when known */
  line?: number;
  kind?: string;
}
