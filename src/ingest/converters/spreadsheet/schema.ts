/**
 * The schema of one sheet, built row by row so a 100k-row sheet never needs its cells in memory at
 * once: header-row detection over the first rows, column names, inferred types, per-column stats,
 * and the data rows serialized as JSONL (one JSON array per row) for `read_source --rows`.
 * Shared by the xlsx (exceljs streaming) and CSV/TSV (csv-parse) converters.
 */
import { compareStrings } from '../../../store/json.js';

/** Rows buffered before the header row is chosen. */
export const HEADER_SCAN_ROWS = 20;
/** A header row fills at least this share of the widest row in the scan window. */
export const HEADER_MIN_FILL = 0.6;
/** A column gets a type when at least this share of its non-empty cells have it (else text). */
export const TYPE_MAJORITY = 0.8;
/** Distinct values tracked per column; beyond this the distinct count is reported as a lower bound. */
export const DISTINCT_CAP = 10_000;
/** Most frequent values reported per text column. */
export const TOP_VALUES = 5;
/** Data rows kept as `sample_data` and in the Markdown preview. */
export const SAMPLE_ROWS = 5;
/** Longest cell text shown in the Markdown preview. */
export const PREVIEW_CELL_CHARS = 60;
/**
 * A row at the end of a sheet is a note below its table (not a data row) when its cells are all
 * text and fill at most this share of the header's columns (readxl's deaths.xlsx: "Some" / "also
 * like to write stuff" / "at the | bottom," / "too!" under six columns of people).
 */
export const NOTE_MAX_FILL = 0.5;
/** At most this many rows end a table as its notes; a longer run of sparse text rows is data. */
export const NOTE_MAX_ROWS = 10;

/**
 * How exports write a missing value (R's NA, pandas' NaN, SQL's NULL, Excel's #N/A, a lone dash).
 * In a column of numbers, dates or amounts such a cell is empty, not text: the Palmer penguins CSV
 * reported its body masses as 344 filled of 344 though two were "NA". In a text column it is a value
 * ("NA" is also Namibia's code).
 */
const MISSING_MARK = /^(?:NA|N\/A|#N\/A|NaN|NULL|null|None|nan|-|—|\.)$/;

export type CellValue = string | number | boolean | null;
export type ColumnType = 'number' | 'date' | 'currency' | 'text' | 'empty';

/** One cell as a reader delivers it: the raw value kept in the rows file plus what the reader knows of its format. */
export interface RawCell {
  value: CellValue;
  /** the reader knows this cell is a date (value is an ISO string) or a currency amount (value is a number) */
  hint?: 'date' | 'currency';
  formula?: boolean;
}

interface Classified {
  type: Exclude<ColumnType, 'empty'> | null;
  num?: number;
  date?: string;
}

const CURRENCY_RE = /^([$€£¥₹]|USD|EUR|GBP|JPY|CHF)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*\.?\d+)([$€£¥₹]|USD|EUR|GBP|JPY|CHF)?$/;
const NUMBER_RE = /^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][-+]?\d+)?%?$/;
/** A spreadsheet's error values (#NUM!, #DIV/0!, #N/A, #VALUE!, #REF!, #NAME?, #NULL!): results, never notes. */
const ERROR_VALUE = /^#(?:NUM!|DIV\/0!|N\/A|VALUE!|REF!|NAME\?|NULL!)$/;
const ISO_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})([T ](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const SLASH_DATE_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const YMD_SLASH_RE = /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/;

function validYmd(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

function ymd(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Parse a date written as text (ISO, US m/d/yyyy, yyyy/m/d) to an ISO string, or null. */
export function parseDateText(s: string): string | null {
  let m = ISO_DATE_RE.exec(s);
  if (m) return validYmd(+m[1]!, +m[2]!, +m[3]!) ? s : null;
  m = SLASH_DATE_RE.exec(s);
  if (m) return validYmd(+m[3]!, +m[1]!, +m[2]!) ? ymd(+m[3]!, +m[1]!, +m[2]!) : null;
  m = YMD_SLASH_RE.exec(s);
  if (m) return validYmd(+m[1]!, +m[2]!, +m[3]!) ? ymd(+m[1]!, +m[2]!, +m[3]!) : null;
  return null;
}

/** What a cell is: number, date, currency or text (null type for an empty cell). */
export function classifyCell(cell: RawCell): Classified {
  const v = cell.value;
  if (v === null || v === '') return { type: null };
  if (cell.hint === 'date' && typeof v === 'string') return { type: 'date', date: v };
  if (typeof v === 'number') return Number.isFinite(v) ? { type: cell.hint === 'currency' ? 'currency' : 'number', num: v } : { type: 'text' };
  if (typeof v === 'boolean') return { type: 'text' };
  const s = v.trim();
  if (s === '') return { type: null };
  if (NUMBER_RE.test(s) && /\d/.test(s)) {
    const pct = s.endsWith('%');
    const n = Number(s.replace(/[,%]/g, ''));
    if (Number.isFinite(n)) return { type: 'number', num: pct ? n / 100 : n };
  }
  // currency: one symbol/code before or after the amount; negatives as -x, x- or (x)
  const parens = /^\(.*\)/.test(s) || /^\(.*\)\s*[A-Z]{3}$/.test(s);
  const bare = s.replace(/[()\s]/g, '');
  const minus = bare.includes('-');
  const c = CURRENCY_RE.exec(bare.replace('-', ''));
  if (c && (c[1] ? !c[3] : !!c[3])) {
    const n = Number(c[2]!.replace(/,/g, ''));
    if (Number.isFinite(n)) return { type: 'currency', num: parens || minus ? -n : n };
  }
  const d = parseDateText(s);
  if (d) return { type: 'date', date: d };
  return { type: 'text' };
}

export interface ColumnStats {
  name: string;
  /** spreadsheet column letter (A, B, …) */
  letter: string;
  type: ColumnType;
  non_empty: number;
  empty: number;
  min?: number;
  max?: number;
  mean?: number;
  date_min?: string;
  date_max?: string;
  distinct: number;
  /** true when distinct values exceeded DISTINCT_CAP and `distinct` is a lower bound */
  distinct_capped?: boolean;
  /** how the column writes a missing value ("NA"), when it does: those cells are counted in `empty` */
  missing_marks?: string[];
  top_values?: { value: string; count: number }[];
}

class ColumnAcc {
  nonEmpty = 0;
  counts: Record<'number' | 'date' | 'currency' | 'text', number> = { number: 0, date: 0, currency: 0, text: 0 };
  min = Infinity;
  max = -Infinity;
  sum = 0;
  numCount = 0;
  dateMin: string | null = null;
  dateMax: string | null = null;
  distinct = new Map<string, number>();
  capped = false;
  /** cells written as a missing-value mark (MISSING_MARK), by mark: empty or text once the column's type is known */
  marks = new Map<string, number>();

  add(cell: RawCell): void {
    if (typeof cell.value === 'string' && MISSING_MARK.test(cell.value.trim())) {
      const m = cell.value.trim();
      this.marks.set(m, (this.marks.get(m) ?? 0) + 1);
      return;
    }
    this.addValue(cell);
  }

  private addValue(cell: RawCell): void {
    const c = classifyCell(cell);
    if (!c.type) return;
    this.nonEmpty++;
    this.counts[c.type]++;
    if (c.num !== undefined) {
      if (c.num < this.min) this.min = c.num;
      if (c.num > this.max) this.max = c.num;
      this.sum += c.num;
      this.numCount++;
    }
    if (c.date) {
      if (this.dateMin === null || compareStrings(c.date, this.dateMin) < 0) this.dateMin = c.date;
      if (this.dateMax === null || compareStrings(c.date, this.dateMax) > 0) this.dateMax = c.date;
    }
    const key = String(cell.value).trim();
    const seen = this.distinct.get(key);
    if (seen !== undefined) this.distinct.set(key, seen + 1);
    else if (this.distinct.size < DISTINCT_CAP) this.distinct.set(key, 1);
    else this.capped = true;
  }

  /**
   * The column's type: the one most of its cells have (TYPE_MAJORITY), else text; empty when no cell
   * is filled. Missing-value marks count only in a text column (settleMarks).
   */
  type(): ColumnType {
    if (this.nonEmpty === 0) return 'empty';
    for (const t of ['number', 'currency', 'date'] as const) {
      // currency columns often mix plain numbers (e.g. 0) with amounts: count both toward currency
      const n = t === 'currency' && this.counts.currency > 0 ? this.counts.currency + this.counts.number : this.counts[t];
      if (n / this.nonEmpty >= TYPE_MAJORITY && (t !== 'number' || this.counts.currency === 0)) return t;
    }
    return 'text';
  }

  /** set by settleMarks: the column is text, so its marks are values */
  private marksAreText = false;

  /** Once every cell is in: marks in a text column become its values; elsewhere (a column of nothing else too) they are empty cells. */
  private settleMarks(): void {
    if (this.marks.size === 0 || this.marksAreText || this.nonEmpty === 0 || this.type() !== 'text') return;
    this.marksAreText = true;
    for (const [m, n] of this.marks) for (let i = 0; i < n; i++) this.addValue({ value: m });
  }

  finish(name: string, letter: string, rows: number): ColumnStats {
    this.settleMarks();
    const type = this.type();
    const out: ColumnStats = { name, letter, type, non_empty: this.nonEmpty, empty: rows - this.nonEmpty, distinct: this.distinct.size };
    if ((type === 'number' || type === 'currency') && this.numCount > 0) {
      out.min = round(this.min);
      out.max = round(this.max);
      out.mean = round(this.sum / this.numCount);
    }
    if (type === 'date' && this.dateMin && this.dateMax) {
      out.date_min = this.dateMin;
      out.date_max = this.dateMax;
    }
    if (this.capped) out.distinct_capped = true;
    if (this.marks.size > 0 && !this.marksAreText) out.missing_marks = [...this.marks.keys()].sort(compareStrings);
    if (type === 'text') {
      out.top_values = [...this.distinct.entries()]
        .sort((a, b) => b[1] - a[1] || compareStrings(a[0], b[0]))
        .slice(0, TOP_VALUES)
        .map(([value, count]) => ({ value, count }));
    }
    return out;
  }
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export interface SheetSchema {
  name: string;
  /** 1-based sheet row holding the header, or null when the sheet has no header row */
  header_row: number | null;
  /** text rows above the header (titles, notes) */
  preamble: string[];
  /** text rows below the table (notes, sources), not counted as data */
  notes: string[];
  columns: ColumnStats[];
  row_count: number;
  sample_data: CellValue[][];
  merged_ranges: string[];
  formula_cells: number;
  /** the rows file: `{"columns":[…]}` then one JSON array per data row */
  rows_jsonl: string;
}

function lastNonEmpty(cells: RawCell[]): number {
  for (let i = cells.length - 1; i >= 0; i--) {
    const v = cells[i]?.value;
    if (v !== null && v !== undefined && v !== '') return i;
  }
  return -1;
}

function isTextCell(c: RawCell | undefined): boolean {
  return classifyCell(c ?? { value: null }).type === 'text';
}

/** A row that may be a header: filled enough, text (or names of text then years), no name twice. `below`: the rows under it. */
function headerShaped(r: RawCell[], n: number, widest: number, below: RawCell[][] = []): boolean {
  if (n === 0 || n < Math.max(widest === 1 ? 1 : 2, Math.ceil(widest * HEADER_MIN_FILL))) return false;
  const cells = r.filter((c) => c.value !== null && c.value !== '');
  if (!cells.every(isTextCell) && !namesThenYears(r, below)) return false;
  return new Set(cells.map((c) => String(c.value).trim().toLowerCase())).size === cells.length;
}

/** Years a header's run of year columns has at least. */
export const HEADER_YEAR_RUN_MIN = 3;
const YEAR_RANGE: readonly [number, number] = [1000, 2999];

/**
 * Text names, then only whole numbers that are years in increasing order ("Country Name | Country
 * Code | … | 1960 | 1961 | … | 2021"): a header of a table with a column per year, as statistics
 * offices publish them (the World Bank's fertility rates had been read headerless, 58 columns named
 * "Column A" to "Column BF" and the names as a data row; an HDI table's "HDI Rank | Country | 2005"
 * over ranks and values in thousandths).
 */
function namesThenYears(row: RawCell[], below: RawCell[][]): boolean {
  const filled = (c: RawCell | undefined) => c !== undefined && c.value !== null && c.value !== '';
  const cells = row.filter(filled);
  const firstNumber = cells.findIndex((c) => !isTextCell(c));
  if (firstNumber < 1 || !cells.slice(0, firstNumber).every(isTextCell)) return false;
  const years = cells.slice(firstNumber).map((c) => Number(String(c.value).trim()));
  const isYear = (y: number) => Number.isInteger(y) && y >= YEAR_RANGE[0] && y <= YEAR_RANGE[1];
  if (!years.every((y, i) => isYear(y) && (i === 0 || y > years[i - 1]!))) return false;
  if (years.length >= HEADER_YEAR_RUN_MIN) return true;
  // fewer years ("HDI Rank | Country | 2005"): a header when the rows below hold no years under them
  // (a data row "Widget | blue | 2005" has years below it: "Gadget | red | 2007")
  const columns = row.map((c, k) => (filled(c) && !isTextCell(c) ? k : -1)).filter((k) => k >= 0);
  const under = below.slice(0, HEADER_YEAR_CHECK_ROWS).flatMap((r) => columns.map((k) => r[k]).filter(filled));
  return under.length > 0 && under.every((c) => !isTextCell(c) && !isYear(Number(String(c!.value).trim())));
}

/** Rows under a header of fewer than HEADER_YEAR_RUN_MIN years looked at for years (namesThenYears). */
export const HEADER_YEAR_CHECK_ROWS = 3;

/**
 * Index (into `rows`) of the header row, or -1. Titles above a table and header rows below row 1 are
 * both common, and so are notes: the header-shaped row right above the first row holding a number,
 * date or boolean is the header when it has more cells filled than the first header-shaped row and
 * only notes lie between them (readxl's deaths.xlsx: the note row "at | the | top | of | their spreadsheets" is first, then
 * "or | merging | merging…", then "Name | Profession | Age | Has kids | Date of birth | Date of death").
 */
export function detectHeaderRow(rows: RawCell[][]): number {
  const filled = rows.map((r) => r.filter((c) => c.value !== null && c.value !== '').length);
  const widest = Math.max(0, ...filled);
  if (widest === 0) return -1;
  const typed = (r: RawCell[]) => r.some((c) => c.value !== null && c.value !== '' && !isTextCell(c));
  const first = rows.findIndex((r, i) => headerShaped(r, filled[i]!, widest, rows.slice(i + 1)));
  if (first < 0) return -1;
  // a header is followed by something: a lone header-shaped last row is one only as the table's first row
  if (!rows.slice(first + 1).some((x) => lastNonEmpty(x) >= 0)) return widest > 1 && first === 0 ? first : -1;
  const dataFrom = rows.findIndex((r, i) => i > first && typed(r));
  if (dataFrom < 0) return first;
  // the row right above the data (empty rows aside), when it is header-shaped and fuller than the first,
  // and no row between them is header-shaped (rows of text like it are the table's first data rows)
  let above = dataFrom - 1;
  while (above > first && filled[above] === 0) above--;
  if (above <= first || filled[above]! <= filled[first]! || !headerShaped(rows[above]!, filled[above]!, widest, rows.slice(above + 1))) return first;
  for (let i = first + 1; i < above; i++) if (headerShaped(rows[i]!, filled[i]!, widest, rows.slice(i + 1))) return first;
  return above;
}

/** Filled cells' texts of a row (trimmed, one space between words), by column; '' for an empty cell. */
function cellNames(r: RawCell[]): string[] {
  return r.slice(0, lastNonEmpty(r) + 1).map((c) => cellText(c.value).replace(/\s+/g, ' ').trim());
}

/**
 * A header over two rows: a row of groups, each spanning the columns under it (merged cells, read as
 * the group in each column or in its first one only), over a row of names that repeat from group to
 * group ("Source | … | Destination | …" over "Rack Group | Rack | Name | … | Rack Group | Rack | Name
 * | …", Omni-Path's topology sheet). Neither row is a header alone (a header names each column once),
 * and the sheet had been read headerless, its names as data. The names row's index and each column's
 * name ("Source Rack Group", "Destination Rack Group"), or null.
 */
export function groupedHeader(rows: RawCell[][]): { index: number; names: string[] } | null {
  const filled = rows.map((r) => r.filter((c) => c.value !== null && c.value !== '').length);
  const widest = Math.max(0, ...filled);
  for (let i = 1; i < rows.length - 1; i++) {
    const names = cellNames(rows[i]!);
    if (filled[i]! < Math.max(2, Math.ceil(widest * HEADER_MIN_FILL)) || !rows[i]!.every((c) => c.value === null || c.value === '' || isTextCell(c))) continue;
    if (new Set(names.filter(Boolean).map((n) => n.toLowerCase())).size === filled[i]) continue;
    const groups = spanningGroups(rows[i - 1]!, names.length);
    if (!groups) continue;
    const whole = names.map((n, k) => (groups[k] && n && groups[k]!.toLowerCase() !== n.toLowerCase() ? `${groups[k]} ${n}` : n || groups[k]!));
    const named = whole.filter(Boolean).map((n) => n.toLowerCase());
    if (new Set(named).size === named.length) return { index: i, names: whole };
  }
  return null;
}

/** The group over each of `width` columns when the row is a row of groups (text; at least two, each over a run of columns), else null. */
function spanningGroups(row: RawCell[], width: number): string[] | null {
  if (!row.every((c) => c.value === null || c.value === '' || isTextCell(c))) return null;
  const cells = cellNames(row);
  if (!cells[0]) return null;
  const out: string[] = [];
  for (let k = 0; k < width; k++) out.push(cells[k] || out[k - 1]!);
  const distinct = new Set(out);
  // every group over a run of its own: a group seen again after another is no span
  const runs = out.filter((g, k) => k === 0 || g !== out[k - 1]).length;
  return distinct.size >= 2 && runs === distinct.size && distinct.size < width ? out : null;
}

/** A comment row: its first filled cell opens with "#", the comment mark CSV readers know (R's comment.char, pandas' comment). */
function isCommentRow(r: RawCell[]): boolean {
  const first = r.find((c) => c.value !== null && c.value !== '');
  return typeof first?.value === 'string' && first.value.trimStart().startsWith('#');
}

/** A comment row's cells with the comment mark taken off its first filled cell ("#proj4name" → "proj4name"). */
function uncommented(r: RawCell[]): RawCell[] {
  const at = r.findIndex((c) => c.value !== null && c.value !== '');
  return r.map((c, k) => (k === at && typeof c.value === 'string' ? { ...c, value: c.value.replace(/^\s*#+\s*/, '') } : c));
}

/**
 * Index of a header written as a comment, or -1: the comment row right above the first row that is
 * none (empty rows aside), header-shaped once its "#" is taken off, as tab- and comma-separated
 * exports write their column names ("#proj4name | fullname | othername | hints | …" over GDL's
 * table of projections, "#CHROM | POS | ID" in a VCF). Taken for a comment, its first data row
 * ("aea | Albers Equal Area | | Conic") had been the header and the names a note. Used when no
 * header of names stands over rows of numbers below it (SheetBuilder.decide).
 */
export function commentedHeader(rows: RawCell[][]): number {
  const firstData = rows.findIndex((r) => lastNonEmpty(r) >= 0 && !isCommentRow(r));
  let i = firstData - 1;
  while (i >= 0 && lastNonEmpty(rows[i]!) < 0) i--;
  if (i < 0 || !isCommentRow(rows[i]!)) return -1;
  const filled = (r: RawCell[]) => r.filter((c) => c.value !== null && c.value !== '').length;
  const widest = Math.max(0, ...rows.slice(i).map(filled));
  const row = uncommented(rows[i]!);
  return headerShaped(row, filled(row), widest, rows.slice(i + 1)) ? i : -1;
}

/**
 * Index of the first data row of a table without a header when the rows above it are notes:
 * comment rows, and rows of text filling at most NOTE_MAX_FILL of the widest row, up to the first
 * row holding a number, date or amount (GEOTRANS' coordinate files open with "COORDINATES: Geodetic",
 * "# Order is Latitude, Longitude", "DATUM: WGE", … "END OF HEADER" above rows of two numbers); 0
 * when a row above the data is not a note.
 */
function leadingNotes(rows: RawCell[][]): number {
  const filled = rows.map((r) => r.filter((c) => c.value !== null && c.value !== '').length);
  const widest = Math.max(0, ...filled);
  const typed = rows.findIndex((r) => !isCommentRow(r) && r.some((c) => c.value !== null && c.value !== '' && !isTextCell(c)));
  if (typed <= 0) return 0;
  for (let i = 0; i < typed; i++) {
    if (filled[i] === 0 || isCommentRow(rows[i]!)) continue;
    if (filled[i]! > NOTE_MAX_FILL * widest || !rows[i]!.every((c) => c.value === null || c.value === '' || isTextCell(c))) return 0;
  }
  return typed;
}

function uniqueNames(raw: string[]): string[] {
  const seen = new Map<string, number>();
  return raw.map((n) => {
    const k = n.toLowerCase();
    const c = (seen.get(k) ?? 0) + 1;
    seen.set(k, c);
    return c === 1 ? n : `${n} (${c})`;
  });
}

function cellText(v: CellValue): string {
  return v === null ? '' : String(v);
}

/** A row of notes as one line: its distinct cell texts in order. */
function rowText(cells: RawCell[]): string {
  return [...new Set(cells.map((c) => cellText(c.value).trim()).filter(Boolean))].join(' ');
}

/** Builds a SheetSchema from rows fed in order. */
export class SheetBuilder {
  private buffered: { rowNo: number; cells: RawCell[] }[] = [];
  private decided = false;
  private headerIndex = -1;
  private headerRowNo: number | null = null;
  private preamble: string[] = [];
  private headerNames: string[] = [];
  private accs: ColumnAcc[] = [];
  private lines: { json: string; width: number }[] = [];
  private pendingEmpty = 0;
  private width = 0;
  private sample: CellValue[][] = [];
  private formulas = 0;

  constructor(readonly name: string, private readonly merged: string[] = []) {}

  /** Feed one sheet row (1-based number; gaps are filled with empty rows). */
  addRow(rowNo: number, cells: RawCell[]): void {
    for (const c of cells) if (c.formula) this.formulas++;
    if (!this.decided) {
      this.buffered.push({ rowNo, cells });
      if (this.buffered.length >= HEADER_SCAN_ROWS) this.decide();
      return;
    }
    for (let gap = this.lastRowNo + 1; gap < rowNo; gap++) this.addData([]);
    this.lastRowNo = Math.max(this.lastRowNo, rowNo);
    this.addData(cells);
  }

  private decide(): void {
    this.decided = true;
    const rows = this.buffered.map((b) => b.cells);
    const detected = detectHeaderRow(rows.map((r) => (isCommentRow(r) ? [] : r)));
    // a header row of names over rows of numbers stands (a comment above it is a note: "# exported 2024");
    // over rows of text alone, or with no header found, a header written as a comment is the header
    const overTyped = detected >= 0 && rows.slice(detected + 1).some((r) => !isCommentRow(r) && r.some((c) => c.value !== null && c.value !== '' && !isTextCell(c)));
    const commented = overTyped ? -1 : commentedHeader(rows);
    const grouped = detected < 0 && commented < 0 ? groupedHeader(rows) : null;
    this.headerIndex = commented >= 0 ? commented : grouped ? grouped.index : detected;
    const buffered = this.buffered;
    this.buffered = [];
    let start = 0;
    if (this.headerIndex >= 0) {
      const header = commented >= 0 ? { ...buffered[commented]!, cells: uncommented(buffered[commented]!.cells) } : buffered[this.headerIndex]!;
      this.headerRowNo = header.rowNo;
      // a header over two rows: its row of groups is part of it, not a note above the table
      this.preamble = buffered.slice(0, this.headerIndex - (grouped ? 1 : 0)).map((b) => rowText(b.cells)).filter(Boolean);
      // a name set over two lines in its cell ("Population" / "in millions") is one line of words: a node title
      this.headerNames = grouped ? grouped.names : cellNames(header.cells);
      this.width = this.headerNames.length;
      start = this.headerIndex + 1;
    } else {
      // no header: notes above the data are its preamble; leading empty rows are skipped
      start = leadingNotes(rows);
      this.preamble = buffered.slice(0, start).map((b) => rowText(b.cells)).filter(Boolean);
      while (start < buffered.length && lastNonEmpty(buffered[start]!.cells) < 0) start++;
    }
    let prevNo = start > 0 ? buffered[start - 1]!.rowNo : (buffered[0]?.rowNo ?? 1) - 1;
    for (const b of buffered.slice(start)) {
      for (let gap = prevNo + 1; gap < b.rowNo; gap++) this.addData([]);
      this.addData(b.cells);
      prevNo = b.rowNo;
    }
    this.lastRowNo = prevNo;
  }

  private lastRowNo = 0;
  /** rows held back as possible notes below the table, each with the count of empty rows after it */
  private tail: Array<{ cells: RawCell[]; emptyAfter: number }> = [];
  /** an empty row separates `tail` from the table */
  private tailAfterGap = false;
  private notes: string[] = [];

  /** Feed with row numbers after the header is decided (fills gaps); rows that may be notes wait in `tail`. */
  private addData(cells: RawCell[]): void {
    if (lastNonEmpty(cells) < 0) {
      const held = this.tail[this.tail.length - 1];
      if (held) held.emptyAfter++;
      else this.pendingEmpty++;
      return;
    }
    if (this.noteShaped(cells) && this.tail.length < NOTE_MAX_ROWS) {
      if (this.tail.length === 0) this.tailAfterGap = this.pendingEmpty > 0;
      this.tail.push({ cells, emptyAfter: 0 });
      return;
    }
    this.flushTail();
    this.commit(cells);
  }

  /** A non-empty data row, after the empty rows before it. */
  private commit(cells: RawCell[]): void {
    for (; this.pendingEmpty > 0; this.pendingEmpty--) this.pushRow([], -1);
    this.pushRow(cells, lastNonEmpty(cells));
  }

  /** The rows held back were data after all. */
  private flushTail(): void {
    const rows = this.tail;
    this.tail = [];
    for (const r of rows) {
      this.commit(r.cells);
      this.pendingEmpty += r.emptyAfter;
    }
  }

  /**
   * A row that may be a note below a table (its header's width, else its widest row's): typed text only (no formula result, no
   * error value such as #NUM!), filling at most NOTE_MAX_FILL of its columns.
   */
  private noteShaped(cells: RawCell[]): boolean {
    const width = this.headerRowNo !== null ? this.headerNames.length : this.width;
    if (width < 2) return false;
    const filled = cells.filter((c) => c.value !== null && c.value !== '');
    return filled.length <= NOTE_MAX_FILL * width && filled.every((c) => isTextCell(c) && !c.formula && !ERROR_VALUE.test(String(c.value)));
  }

  /**
   * The rows held back end the table as its notes when the table has data above them and they are
   * set apart from it: by an empty row, or by text in a column of numbers, dates or amounts.
   */
  private tailIsNotes(): boolean {
    if (this.tail.length === 0 || this.lines.length === 0) return false;
    if (this.tailAfterGap) return true;
    return this.tail.some((r) => r.cells.some((c, i) => c.value !== null && c.value !== '' && !['text', 'empty'].includes(this.accs[i]?.type() ?? 'empty')));
  }

  private pushRow(cells: RawCell[], last: number): void {
    const values = cells.slice(0, last + 1).map((c) => (c?.value === undefined ? null : c.value));
    if (values.length > this.width) this.width = values.length;
    while (this.accs.length < values.length) this.accs.push(new ColumnAcc());
    values.forEach((_, i) => this.accs[i]!.add(cells[i] ?? { value: null }));
    if (this.sample.length < SAMPLE_ROWS) this.sample.push(values);
    this.lines.push({ json: JSON.stringify(values), width: values.length });
  }

  finish(): SheetSchema {
    if (!this.decided) this.decide();
    if (this.tailIsNotes()) {
      this.notes = this.tail.map((r) => rowText(r.cells)).filter(Boolean);
      this.tail = [];
    } else this.flushTail();
    const width = this.width;
    const names = uniqueNames(
      Array.from({ length: width }, (_, i) => this.headerNames[i] || `Column ${columnLetter(i)}`),
    );
    const rowCount = this.lines.length;
    while (this.accs.length < width) this.accs.push(new ColumnAcc());
    const columns = names.map((n, i) => this.accs[i]!.finish(n, columnLetter(i), rowCount));
    const out: string[] = [JSON.stringify({ columns: names })];
    for (const l of this.lines) {
      out.push(l.width >= width ? l.json : l.width === 0 ? `[${Array(width).fill('null').join(',')}]` : `${l.json.slice(0, -1)}${',null'.repeat(width - l.width)}]`);
    }
    const pad = (r: CellValue[]) => [...r, ...Array(Math.max(0, width - r.length)).fill(null)] as CellValue[];
    return {
      name: this.name,
      header_row: this.headerRowNo,
      preamble: this.preamble,
      notes: this.notes,
      columns,
      row_count: rowCount,
      sample_data: this.sample.map(pad),
      merged_ranges: [...this.merged].sort(compareStrings),
      formula_cells: this.formulas,
      rows_jsonl: out.join('\n') + '\n',
    };
  }
}

function escapeCell(v: CellValue): string {
  let s = cellText(v).replace(/\s+/g, ' ').trim();
  if (s.length > PREVIEW_CELL_CHARS) s = s.slice(0, PREVIEW_CELL_CHARS - 1) + '…';
  return s.replace(/\|/g, '\\|');
}

function statLine(c: ColumnStats): string {
  const parts: string[] = [];
  if (c.min !== undefined) parts.push(`min ${c.min}, max ${c.max}, mean ${c.mean}`);
  if (c.date_min) parts.push(`${c.date_min} → ${c.date_max}`);
  parts.push(`${c.distinct}${c.distinct_capped ? '+' : ''} distinct`);
  if (c.top_values?.length) parts.push(`top: ${c.top_values.map((t) => `${t.value} (${t.count})`).join(', ')}`);
  if (c.empty) parts.push(`${c.empty} empty${c.missing_marks ? ` (${c.missing_marks.map((m) => `"${m}"`).join(', ')} read as empty)` : ''}`);
  return parts.join('; ');
}

/** The sheet node's Markdown: preamble, a preview table (header + first rows), the column stats and the notes below the table. */
export function sheetMarkdown(s: SheetSchema): string {
  const lines: string[] = [`## Sheet: ${s.name}`, ''];
  lines.push(`${s.row_count} data rows × ${s.columns.length} columns${s.header_row ? `; header on row ${s.header_row}` : '; no header row'}.`);
  if (s.preamble.length) lines.push('', ...s.preamble.map((p) => `> ${p}`));
  if (s.columns.length) {
    lines.push('', `| ${s.columns.map((c) => escapeCell(c.name)).join(' | ')} |`, `|${s.columns.map(() => ' --- ').join('|')}|`);
    for (const r of s.sample_data) lines.push(`| ${r.map(escapeCell).join(' | ')} |`);
    lines.push('', '### Columns', '', '| Column | Type | Stats |', '| --- | --- | --- |');
    for (const c of s.columns) lines.push(`| ${escapeCell(c.name)} (${c.letter}) | ${c.type} | ${statLine(c).replace(/\|/g, '\\|')} |`);
  }
  if (s.notes.length) lines.push('', '### Notes below the table', '', ...s.notes.map((p) => `> ${p}`));
  return lines.join('\n');
}

/** The columns' stats as written into the sheet node's meta. */
export function columnMeta(c: ColumnStats): Record<string, unknown> {
  return { ...c };
}

/** File-name-safe slug for a sheet name (stable, lowercase). */
export function sheetSlug(name: string, taken: Set<string>): string {
  const base = name.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'sheet';
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  taken.add(slug);
  return slug;
}
