/**
 * The document card offline: title (SEC cover page, PDF metadata when it reads like a title, else
 * the largest text on the first page), doc type (10-K, 10-Q, 8-K, earnings release, annual report,
 * manual, paper, contract…), the period and date printed in the text, and a sections overview.
 */
import type { DocCard } from '../../../store/schemas.js';
import type { PageLayout } from './layout-types.js';
import { tidyOutlineTitle } from './titles.js';

/** Pages read for the card. */
export const CARD_PAGES = 3;
export const MAX_OVERVIEW = 20;
export const CARD_SUMMARY_MAX_CHARS = 400;
/** A first-page headline this many times the page's body size is the title (over PDF metadata)… */
export const HEADLINE_SIZE_RATIO = 1.2;
/** …when it has at least this many characters. */
export const HEADLINE_MIN_CHARS = 20;

const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const DATE = new RegExp(String.raw`\b(${MONTHS})\s+(\d{1,2}),?\s+(\d{4})\b`, 'i');

/** `December 31, 2018` → `2018-12-31`. */
export function isoDate(text: string): string {
  const m = DATE.exec(text);
  if (!m) return '';
  const month = MONTHS.split('|').indexOf(m[1]!.toLowerCase()) + 1;
  return `${m[3]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}`;
}

function docType(text: string): string {
  const t = text.slice(0, 6000);
  if (/\bform\s+10-k\b|annual report pursuant to section 13/i.test(t)) return '10-K';
  if (/\bform\s+10-q\b|quarterly report pursuant to section 13/i.test(t)) return '10-Q';
  if (/\bform\s+8-k\b|current report pursuant to section 13/i.test(t)) return '8-K';
  if (/\b(announces|reports)\b.{0,80}\b(quarter|fiscal|full[- ]year)\b.{0,40}\bresults\b/i.test(t)) return 'earnings release';
  if (/\bannual report\b/i.test(t)) return 'annual report';
  if (/\babstract\b/i.test(t) && /\b(introduction|references)\b/i.test(text)) return 'paper';
  if (/\b(user'?s? guide|manual|handbook|instructions for use)\b/i.test(t)) return 'manual';
  if (/\b(this agreement|whereas|hereinafter|the parties)\b/i.test(t)) return 'contract';
  return 'document';
}

/** Characters allowed between "…period ended" and its date (a form's other cells printed between). */
export const PERIOD_DATE_GAP = 40;

function period(text: string, type: string): string {
  const t = text.slice(0, 8000).replace(/\s+/g, ' ');
  const fy = new RegExp(String.raw`for the (fiscal year|year|quarterly period|quarter|period) ended\b[^]{0,${PERIOD_DATE_GAP}}?((?:${MONTHS})\s+\d{1,2},?\s+\d{4})`, 'i').exec(t);
  if (fy) return `${/quarter/i.test(fy[1]!) ? 'quarter' : 'fiscal year'} ended ${fy[2]!.replace(/\s+/g, ' ')}`;
  const q = /\b(first|second|third|fourth)\s+quarter(?:\s+(?:of\s+)?fiscal)?\s+(\d{4})\b/i.exec(t);
  if (q) return `${q[1]!.toLowerCase()} quarter ${q[2]}`;
  const y = /\bfiscal (?:year )?(\d{4})\b/i.exec(t);
  if (y) return `fiscal ${y[1]}`;
  return type === '8-K' ? '' : '';
}

/** A metadata title worth using: words, not an accession number or a word-processor file name. */
function goodMetaTitle(t: string | undefined): t is string {
  if (!t) return false;
  const s = t.trim();
  return s.length >= 4 && /\p{L}{3}/u.test(s) && !/^\d{10}-\d{2}-\d{6}$/.test(s) && !/^(microsoft word|untitled|document\d*)\b/i.test(s) && !/\.(docx?|pdf|indd)$/i.test(s);
}

const NOT_A_NAME = /^(united states|securities and exchange commission|washington|form\s|\(|commission file|annual report|quarterly report|current report|for the |or$|☐|☒)/i;

function secCompany(lines: string[]): string {
  const i = lines.findIndex((l) => /exact name of registrant/i.test(l));
  if (i <= 0) {
    // no "(Exact name of registrant…)" caption: the first name-like line after the file number
    const f = lines.findIndex((l) => /commission file (number|no)/i.test(l));
    if (f < 0) return '';
    const name = lines.slice(f + 1, f + 4).find((l) => /\p{L}{2}/u.test(l) && l.length <= 80 && !NOT_A_NAME.test(l.trim()) && !/:/.test(l));
    return name?.trim() ?? '';
  }
  for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
    const l = lines[j]!.replace(/\s*\(exact name.*$/i, '').trim();
    if (/\p{L}{2}/u.test(l) && !/commission file|^\d/i.test(l)) return l;
  }
  return '';
}

function largestLines(page: PageLayout | undefined): string {
  if (!page || page.lines.length === 0) return '';
  const max = Math.max(...page.lines.map((l) => l.size));
  return page.lines
    .filter((l) => l.size >= max * 0.95 && /\p{L}{2}/u.test(l.text))
    .slice(0, 3)
    .map((l) => l.text)
    .join(' ')
    .slice(0, 160);
}

/** The first page opens with a headline: its largest text is much larger than its body text. */
function prominent(page: PageLayout | undefined): boolean {
  if (!page || page.lines.length === 0) return false;
  const bySize = new Map<number, number>();
  for (const l of page.lines) bySize.set(l.size, (bySize.get(l.size) ?? 0) + l.text.length);
  const body = [...bySize].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
  const max = Math.max(...page.lines.map((l) => l.size));
  const head = page.lines.filter((l) => l.size >= max * 0.95).map((l) => l.text).join(' ');
  return max >= body * HEADLINE_SIZE_RATIO && head.length >= HEADLINE_MIN_CHARS;
}

function titleCase(s: string): string {
  if (s !== s.toUpperCase()) return s;
  return s
    .split(' ')
    .map((w) => (/\d/.test(w) ? w : w.charAt(0) + w.slice(1).toLowerCase()))
    .join(' ')
    .replace(/\b(Plc|Llc)\b/g, (w) => w.toUpperCase());
}

export interface CardInput {
  layouts: PageLayout[];
  metaTitle: string | undefined;
  fallbackTitle: string;
  topTitles: string[];
}

export function buildCard(input: CardInput): { title: string; card: Partial<DocCard>; company: string } {
  const front = input.layouts.slice(0, CARD_PAGES);
  const lines = front.flatMap((p) => p.lines.map((l) => l.text));
  const text = lines.join('\n');
  const type = docType(text);
  const per = period(text, type);
  const reportDate = /date of report[^:\n]*:?\s*\n?\s*([A-Z][a-z]+\s+\d{1,2},?\s+\d{4})/i.exec(text);
  const date = isoDate(reportDate?.[1] ?? per) || isoDate(text);
  let title = '';
  const company = secCompany(lines);
  if (company && ['10-K', '10-Q', '8-K'].includes(type)) title = `${titleCase(company)} — Form ${type}${per ? ` (${per})` : date && type === '8-K' ? ` (${date})` : ''}`;
  else {
    const headline = largestLines(input.layouts[0]);
    if (headline && prominent(input.layouts[0])) title = headline;
    else if (goodMetaTitle(input.metaTitle)) title = input.metaTitle.trim();
    else title = headline || input.fallbackTitle;
  }
  title = tidyOutlineTitle(title);
  const overview = input.topTitles.slice(0, MAX_OVERVIEW);
  const summaryParts = [`${title}.`, type !== 'document' ? `Type: ${type}.` : '', overview.length ? `Sections: ${overview.join('; ')}.` : ''];
  let summary = summaryParts.filter(Boolean).join(' ');
  if (summary.length > CARD_SUMMARY_MAX_CHARS) summary = `${summary.slice(0, CARD_SUMMARY_MAX_CHARS - 1)}…`;
  return { title, card: { title, summary, doc_type: type, period: per, date, sections_overview: overview }, company: company ? titleCase(company) : '' };
}
