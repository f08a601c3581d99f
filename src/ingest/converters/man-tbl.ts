/**
 * tbl(1) tables in a manual page (`.TS` … `.TE`): an options line ("center,tab(@);"), format lines
 * ("c c s s s", "l l.") and rows whose cells the tab character parts ("Ascii@Raw ascii image
 * arrays@'ascii'"). Read as text, the options and formats ran into the rows ("center,tab(@); c c s s
 * s c l l s s s l. Format@Explanation@Notation ------@-----") and became a page's summary (medcon's).
 * Each row is one line, its cells joined by " | " as other converters write table rows; rules
 * ("_", "=", a row of dashes) are dropped, and a `T{` … `T}` text block is one cell.
 */

/** Where a table is: its options and format lines, or its rows. */
type Phase = 'format' | 'rows';

/** A rule row: only rule characters in every cell. */
const RULE_ROW = /^[-=_\s]*$/;
/** The options line: comma- or blank-separated options ending in a semicolon. */
const OPTIONS = /;\s*$/;
const TAB_OPTION = /\btab\s*\((.)\)/;

export class TblReader {
  private phase: Phase = 'format';
  private tab = '\t';
  private first = true;
  /** a row whose `T{` text block is still open: the row's text so far and the block's lines */
  private block: { before: string; lines: string[] } | null = null;

  /**
   * One line inside the table. Returns the row's cells (text, unrendered) when the line ends a data
   * row, or null; `.T&` (a new format part) is read here, `.TE` is the caller's.
   */
  line(raw: string): string[] | null {
    if (this.block) return this.blockLine(raw);
    if (/^[.']\s*T&\s*$/.test(raw)) {
      this.phase = 'format';
      return null;
    }
    if (this.phase === 'format') {
      this.formatLine(raw);
      return null;
    }
    if (/^[.']/.test(raw)) return null; // a request inside the table (`.sp`, `.ft`): no text
    if (raw.trimEnd().endsWith('T{')) {
      this.block = { before: raw.trimEnd().slice(0, -2), lines: [] };
      return null;
    }
    return this.row(raw);
  }

  private formatLine(raw: string): void {
    const first = this.first;
    this.first = false;
    if (first && OPTIONS.test(raw)) {
      this.tab = TAB_OPTION.exec(raw)?.[1] ?? this.tab;
      return;
    }
    if (raw.trimEnd().endsWith('.')) this.phase = 'rows';
  }

  private blockLine(raw: string): string[] | null {
    const b = this.block!;
    if (!raw.startsWith('T}')) {
      b.lines.push(raw);
      return null;
    }
    this.block = null;
    // the block is one cell: its lines joined, whatever tab characters they hold
    const cell = b.lines.filter((l) => !/^[.']/.test(l)).join(' ').split(this.tab).join(' ');
    const text = `${b.before}${cell}${raw.slice(2).trimEnd()}`;
    // "T}:T{": the next cell is a block too
    if (text.endsWith('T{')) {
      this.block = { before: text.slice(0, -2), lines: [] };
      return null;
    }
    return this.row(text);
  }

  private row(raw: string): string[] | null {
    const cells = raw.split(this.tab);
    if (cells.every((c) => RULE_ROW.test(c) || /^\\[_=]$/.test(c.trim()))) return null;
    return cells;
  }
}
