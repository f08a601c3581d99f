/**
 * Period matching for tier-1: the fiscal year(s) and quarter a query asks about ("FY2018",
 * "fiscal 2022", "Q2 of FY2024", "2021 Q1") against the period of each source (its file name,
 * title, period text, date and type). A source whose period is the asked year wins; one that only
 * reports the asked year as a comparative gets less; one whose period contradicts the asked year
 * (it predates it, or is too recent to report it) loses. A question about a whole year prefers
 * full-year documents (annual reports, fourth-quarter / full-year releases) to partial quarters.
 */
import type { CatalogEntry } from '../store/schemas.js';

/** Four digits 1900–2099 not inside a longer number, nor after a word that makes it a number ("port 2049"). */
const YEAR_RE = /(?<!\d|#\s?|\b(?:port|no|number|id|code|room|suite|route|page|p|pp)[.:]?\s?)((?:19|20)\d{2})(?!\d)/gi;
/** Years later than this many years after the present are not read as periods (targets such as 2050 are not periods of a document either). */
export const MAX_YEARS_AHEAD = 5;
/** Earliest year read as a period. */
export const MIN_YEAR = 1900;
/**
 * Two-digit years written with a fiscal or period code: "FY18", "FY 18", "FY'18", "fiscal '22",
 * "3Q22", "2Q 23", "Q3-22", "Q3'22", "1H22", "H2 '23" → 2018, 2022, …; "FY99" → 1999 (two-digit
 * years beyond the present + MAX_YEARS_AHEAD are the last century). A bare "22" is not a year.
 */
const SHORT_YEAR_RES: RegExp[] = [
  /\b(?:fy|fiscal)\s*[-'’]?\s*(\d{2})(?![\d.,]|-?[a-z])/gi,
  /(?:^|[^a-z0-9])[1-4]q\s*[-'’]?\s*(\d{2})(?!\d)/gi,
  /(?:^|[^a-z])q[1-4]\s*(?:[-'’/]\s*|\s')(\d{2})(?!\d)/gi,
  /(?:^|[^a-z0-9])(?:[12]h|h[12])\s*[-'’]?\s*(\d{2})(?!\d)/gi,
];
/**
 * Weight of a period read only from the file name (no period, title or date says so): a weak hint
 * — names like "report_2019_final" are often right, but the content is what counts.
 */
export const FILE_NAME_PERIOD_WEIGHT = 0.5;

/**
 * A fiscal year across two calendar years: "2022-23", "2019/20", "FY22-23" (the first year as four
 * digits, or two after FY / fiscal). Both years are read when the second follows the first.
 */
const SPLIT_YEAR_RE = /(?:\b((?:19|20)\d{2})|\b(?:fy|fiscal)\s*'?(\d{2}))\s*[-/–]\s*'?(\d{2})(?![\d/-])/gi;

function splitYears(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(SPLIT_YEAR_RE)) {
    const first = m[1] ? Number(m[1]) : expandTwoDigitYear(Number(m[2]));
    if ((first + 1) % 100 === Number(m[3])) out.push(first, first + 1);
  }
  return out;
}

function latestPlausibleYear(): number {
  return new Date().getUTCFullYear() + MAX_YEARS_AHEAD;
}

/** "99" → 1999, "18" → 2018 (relative to the present). */
export function expandTwoDigitYear(yy: number): number {
  const y = 2000 + yy;
  return y > latestPlausibleYear() ? 1900 + yy : y;
}
const QUARTER_RES: [RegExp, number][] = [
  [/\b(?:first|1st)[\s-]+(?:fiscal\s+)?quarter\b/i, 1],
  [/\b(?:second|2nd)[\s-]+(?:fiscal\s+)?quarter\b/i, 2],
  [/\b(?:third|3rd)[\s-]+(?:fiscal\s+)?quarter\b/i, 3],
  [/\b(?:fourth|4th)[\s-]+(?:fiscal\s+)?quarter\b/i, 4],
];
/**
 * "Q2", "2023Q4", "q3-2021", "FY24Q1", "Q3'22" (a Q followed by 1–4 not inside a word, a
 * following two-digit year allowed after an apostrophe, hyphen or slash).
 */
const Q_CODE_RE = /(?:^|[^a-z])q([1-4])(?![0-9])/i;
/** "3Q22", "2Q 2023", "4Q" (the quarter's number before the Q, not inside a word or number) */
const Q_FIRST_RE = /(?:^|[^a-z0-9])([1-4])q(?![a-z])/i;
const HALF_RE = /\b(?:first|second)\s+half\b|\bh[12]\b|\b[12]h\s*[-'’]?\s*(?:\d{2}(?:\d{2})?(?!\d)|fy)|\bsix\s+months\b|\bnine\s+months\b/i;
/** doc types that cover a whole fiscal year */
const ANNUAL_TYPE_RE = /^(?:10-?k|20-?f|40-?f|annual[ -]report|ars)\b/i;
const PARTIAL_TYPE_RE = /^(?:10-?q)\b/i;
const ANNUAL_PERIOD_RE = /\bfiscal\s+year\b|\bfull[ -]year\b|\bannual\b|\byear\s+ended\b|\btwelve\s+months\b/i;
const QUARTER_PERIOD_RE = /\bquarter\b|\bthree\s+months\b/i;

/** How many earlier years a filing reports as comparatives (income and cash-flow statements show three). */
export const COMPARATIVE_YEARS = 2;
/** Scores of the period signal, in [-1, 1]. */
export const PERIOD_SCORES = {
  /** the source's period is the latest year asked */
  latest: 1,
  /** the source's period is one of the years asked, not the latest */
  asked: 0.6,
  /** the asked years are only comparatives in the source */
  comparative: 0.2,
  /** the source cannot report the asked years */
  contradicts: -1,
  /** a whole year is asked and the source covers part of one */
  partialYear: -0.75,
  /** a quarter is asked and the source is another quarter */
  otherQuarter: -0.5,
  /** a quarter (not the fourth) is asked and the source is an annual document */
  annualForQuarter: -0.2,
} as const;

export interface QueryPeriod {
  years: number[];
  /** full dates the query names, as ISO dates ("year ended January 3, 2016" → 2016-01-03) */
  dates?: string[];
  /** 1–4 when the query names a quarter */
  quarter: number | null;
  /** the query names a part of a year (a quarter, a half, "nine months") */
  partial: boolean;
}

export interface SourcePeriod {
  years: number[];
  quarter: number | null;
  /** covers a whole fiscal year (annual report, fourth-quarter / full-year release) */
  annual: boolean;
  /** covers part of a year only (10-Q, first–third quarter release) */
  partial: boolean;
  /** the years come from the file name alone (a weak hint) */
  nameOnly?: boolean;
  /** the day the period ended (catalog `date`, ISO), when known */
  date?: string;
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** "January 3, 2016", "Jan. 3 2016", "3 January 2016", "2016-01-03" (month names at least three letters). */
const MONTH_DAY_YEAR_RE = /\b([a-z]{3,9})\.?\s+(\d{1,2}),?\s+((?:19|20)\d{2})\b/gi;
const DAY_MONTH_YEAR_RE = /\b(\d{1,2})\s+([a-z]{3,9})\.?,?\s+((?:19|20)\d{2})\b/gi;
const ISO_DATE_RE = /\b((?:19|20)\d{2})-(\d{2})-(\d{2})\b/g;

/** 1–12 for a month's name or its first three or more letters ("Jan", "Sept"), else 0. */
function monthOf(word: string): number {
  const w = word.toLowerCase();
  return MONTH_NAMES.findIndex((m) => m.startsWith(w)) + 1;
}

function iso(y: string, m: number, d: string): string | null {
  const day = Number(d);
  return m >= 1 && m <= 12 && day >= 1 && day <= 31 ? `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}` : null;
}

/** The full dates a text names, as ISO dates, sorted and distinct. */
export function datesIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(MONTH_DAY_YEAR_RE)) { const d = iso(m[3]!, monthOf(m[1]!), m[2]!); if (d) out.add(d); }
  for (const m of text.matchAll(DAY_MONTH_YEAR_RE)) { const d = iso(m[3]!, monthOf(m[2]!), m[1]!); if (d) out.add(d); }
  for (const m of text.matchAll(ISO_DATE_RE)) { const d = iso(m[1]!, Number(m[2]), m[3]!); if (d) out.add(d); }
  return [...out].sort();
}

export function yearsIn(text: string): number[] {
  const out = new Set<number>();
  const max = latestPlausibleYear();
  for (const m of text.matchAll(YEAR_RE)) {
    const y = Number(m[1]);
    if (y >= MIN_YEAR && y <= max) out.add(y);
  }
  for (const re of SHORT_YEAR_RES) for (const m of text.matchAll(re)) out.add(expandTwoDigitYear(Number(m[1])));
  for (const y of splitYears(text)) if (y >= MIN_YEAR && y <= max) out.add(y);
  return [...out].sort((a, b) => a - b);
}

function quarterIn(text: string): number | null {
  const code = Q_CODE_RE.exec(text) ?? Q_FIRST_RE.exec(text);
  if (code) return Number(code[1]);
  for (const [re, q] of QUARTER_RES) if (re.test(text)) return q;
  return null;
}

export function queryPeriod(query: string): QueryPeriod {
  const years = yearsIn(query);
  const quarter = quarterIn(query);
  const dates = datesIn(query);
  return { years, quarter, partial: quarter !== null || HALF_RE.test(query), ...(dates.length > 0 ? { dates } : {}) };
}

/**
 * The fiscal label a period carries after the date it ended ("quarter ended July 29, 2023; Q2
 * fiscal 2024", read from the report's text at ingest): when present it names the period, and the
 * end date's calendar year does not.
 */
function fiscalLabelOf(period: string): string {
  const i = period.lastIndexOf(';');
  if (i < 0) return '';
  const label = period.slice(i + 1).trim();
  return yearsIn(label).length > 0 ? label : '';
}

export function sourcePeriod(e: Pick<CatalogEntry, 'filename' | 'title' | 'period' | 'date' | 'doc_type'>): SourcePeriod {
  const name = e.filename.replace(/\.[^.]+$/, '').replace(/[_]+/g, ' ');
  const period = e.period ?? '';
  const label = fiscalLabelOf(period);
  const fromContent = new Set<number>(label ? yearsIn(label) : [...yearsIn(period), ...yearsIn(e.title ?? '')]);
  if (e.date && !label) {
    const y = Number(e.date.slice(0, 4));
    if (y >= MIN_YEAR && y <= latestPlausibleYear()) fromContent.add(y);
  }
  const fromName = yearsIn(name);
  const years = new Set<number>([...fromContent, ...fromName]);
  const quarter = (label ? quarterIn(label) : null) ?? quarterIn(name) ?? quarterIn(period);
  const type = e.doc_type ?? '';
  const annual = ANNUAL_TYPE_RE.test(type) || quarter === 4 || (quarter === null && ANNUAL_PERIOD_RE.test(period));
  const partial = !annual && (PARTIAL_TYPE_RE.test(type) || (quarter !== null && quarter < 4) || QUARTER_PERIOD_RE.test(period));
  const out: SourcePeriod = { years: [...years].sort((a, b) => a - b), quarter, annual, partial };
  if (fromContent.size === 0 && fromName.length > 0) out.nameOnly = true;
  if (e.date) out.date = e.date;
  return out;
}

/**
 * How well a source's period fits the asked period, in [-1, 1]; 0 when the query names no year or
 * the source's period is unknown.
 */
export function periodMatch(q: QueryPeriod, s: SourcePeriod): number {
  if (q.years.length === 0 || s.years.length === 0) return 0;
  // the day the period ended, named in the query: the period itself, whatever its fiscal label
  // ("fiscal 2015 (year ended January 3, 2016)" is the 10-K labelled fiscal 2015, not a 2016 one)
  if (s.date && q.dates?.includes(s.date)) return PERIOD_SCORES.latest;
  const latest = q.years[q.years.length - 1]!;
  const have = new Set(s.years);
  const lo = s.years[0]! - COMPARATIVE_YEARS;
  const hi = s.years[s.years.length - 1]!;
  let score: number;
  if (have.has(latest)) score = PERIOD_SCORES.latest;
  else if (q.years.some((y) => have.has(y))) score = PERIOD_SCORES.asked;
  else if (q.years.every((y) => y >= lo && y <= hi)) score = PERIOD_SCORES.comparative;
  else return PERIOD_SCORES.contradicts * (s.nameOnly ? FILE_NAME_PERIOD_WEIGHT : 1);
  if (q.quarter !== null) {
    if (s.quarter !== null && s.quarter !== q.quarter) score += PERIOD_SCORES.otherQuarter;
    else if (s.quarter === null && s.annual && q.quarter < 4) score += PERIOD_SCORES.annualForQuarter;
  } else if (!q.partial && s.partial) {
    score += PERIOD_SCORES.partialYear;
  }
  return Math.max(-1, Math.min(1, score)) * (s.nameOnly ? FILE_NAME_PERIOD_WEIGHT : 1);
}
