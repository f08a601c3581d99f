/**
 * Which fiscal year or quarter a report covers, read from its text when the cover gives only the
 * date the period ended. Companies name periods their own way: a quarter ended July 29, 2023 is
 * Best Buy's "second quarter of fiscal 2024", a year ended January 1, 2023 Johnson & Johnson's
 * "fiscal 2022". The report says so itself, over and over; the name it uses most (clearly more
 * than any other) is the label. Without one, a quarter ending on a calendar quarter's last day is
 * that calendar quarter, and a 52/53-week year ending in the first days of January is named by the
 * year before. The file name plays no part (issue 18).
 */

/** Mentions a label needs… */
export const LABEL_MIN_MENTIONS = 3;
/** …and how many times more often than the next most mentioned label. */
export const LABEL_MIN_LEAD = 2;
/** A fiscal year ending on or before this day of January is named by the year before. */
export const JANUARY_YEAR_END_DAY = 7;

const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };
const QUARTER_RE = /\b(first|second|third|fourth)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(fiscal\s+)?(?:year\s+)?((?:19|20)\d\d)\b|\bfiscal\s+(?:year\s+)?((?:19|20)\d\d)\s+(first|second|third|fourth)\s+quarter\b/gi;
const FISCAL_YEAR_RE = /\bfiscal\s+(?:year\s+)?((?:19|20)\d\d)\b/gi;

/** The most mentioned key when it is mentioned often enough and clearly more than the next. */
function decisive(counts: Map<string, number>): string | null {
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (!first || first[1] < LABEL_MIN_MENTIONS) return null;
  return !second || first[1] >= LABEL_MIN_LEAD * second[1] ? first[0] : null;
}

function quarterLabel(text: string, endYear: number, endMonth: number, endDay: number): string {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(QUARTER_RE)) {
    const q = ORDINALS[(m[1] ?? m[5])!.toLowerCase()]!;
    const y = Number(m[3] ?? m[4]);
    if (Math.abs(y - endYear) > 1) continue;
    const key = `Q${q} ${m[2] || m[4] ? 'fiscal ' : ''}${y}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const label = decisive(counts);
  if (label) return label;
  // the last day of March, June, September or December: that calendar quarter
  const last = new Date(Date.UTC(endYear, endMonth, 0)).getUTCDate();
  return endMonth % 3 === 0 && endDay === last ? `Q${endMonth / 3} ${endYear}` : '';
}

function yearLabel(text: string, endYear: number, endMonth: number, endDay: number): string {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(FISCAL_YEAR_RE)) {
    const y = Number(m[1]);
    if (y === endYear || y === endYear - 1) counts.set(String(y), (counts.get(String(y)) ?? 0) + 1);
  }
  const named = decisive(counts);
  const year = named ? Number(named) : endMonth === 1 && endDay <= JANUARY_YEAR_END_DAY ? endYear - 1 : endYear;
  return year === endYear ? '' : `fiscal ${year}`;
}

/**
 * The label of the period ended on `endIso` (YYYY-MM-DD) as the report names it: "Q2 fiscal 2024",
 * "Q1 2021", "fiscal 2022"; '' when it is the plain end year (a year ended December 31, 2022) or
 * the text does not tell.
 */
export function fiscalLabel(text: string, endIso: string, quarter: boolean): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(endIso);
  if (!m) return '';
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = text.replace(/\s+/g, ' ');
  return quarter ? quarterLabel(t, y, mo, d) : yearLabel(t, y, mo, d);
}
