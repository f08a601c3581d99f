/**
 * A small lexicon of financial-statement concepts for tier-2 ranking. Questions about filings often
 * name a statement in one of its many spellings ("income statement", "statement of operations",
 * "P&L") or only a metric that lives in one ("capex" → cash-flow statement, "quick ratio" →
 * balance sheet, "operating margin" → income statement). The query is mapped to the statements it
 * needs; node titles are classified by statement (any spelling, "Consolidated"/"Condensed" forms
 * counting as the primary statement), and a node whose title is a needed statement gains.
 */

export type Statement = 'income' | 'balance' | 'cash_flow' | 'equity' | 'comprehensive_income';

/** Node-title patterns of each statement (tested on the lower-cased title). */
const TITLE_PATTERNS: [Statement, RegExp][] = [
  ['comprehensive_income', /\bstatements?\s+of\s+(?:consolidated\s+)?comprehensive\s+(?:income|loss|earnings)\b|\bcomprehensive\s+income\s+statements?\b/],
  ['cash_flow', /\bstatements?\s+of\s+(?:consolidated\s+)?cash\s+flows?\b|\bcash\s+flows?\s+statements?\b/],
  ['balance', /\bbalance\s+sheets?\b|\bstatements?\s+of\s+(?:consolidated\s+)?financial\s+(?:position|condition)\b/],
  ['equity', /\bstatements?\s+of\s+(?:consolidated\s+)?(?:changes\s+in\s+)?(?:(?:stock|share)holders['’]?|share\s*owners['’]?|shareowners['’]?)?\s*equity\b/],
  ['income', /\bstatements?\s+of\s+(?:consolidated\s+)?(?:operations|earnings|income)\b|\bincome\s+statements?\b|\bstatements?\s+of\s+(?:profit|loss)\b|\bprofit\s+and\s+loss\s+(?:statement|account)s?\b/],
];

/**
 * A title is the primary statement when, after numbering and qualifiers, it starts with the
 * statement's name ("Consolidated Statements of Cash Flows", "d) Condensed Consolidated Balance
 * Sheets"); a note or section merely mentioning it ("Supplemental Balance Sheet Information") is not.
 */
const PRIMARY_PREFIX_RE = /^[\s\W\d]*(?:[a-z][).]\s+|(?:item|part|note)\s+[\w.]+\s*[.:–—-]?\s*)?(?:(?:the|condensed|consolidated|combined|interim|unaudited|selected)\s+)*(?:statements?\s+of|balance\s+sheets?|income\s+statements?|cash\s+flows?\s+statements?)/;
const NOTE_RE = /\b(?:note|notes|supplemental|supplementary|schedule|quarterly|segment)\b/;

/** Which query phrases call for which statements (tested on the lower-cased query). */
const QUERY_LEXICON: [RegExp, Statement[]][] = [
  // statements named directly
  [/\bincome\s+statements?\b|\bstatements?\s+of\s+(?:consolidated\s+)?(?:operations|earnings|income)\b|\bp\s*&\s*l\b|\bprofit\s+and\s+loss\b/, ['income']],
  [/\bbalance\s+sheets?\b|\bstatements?\s+of\s+financial\s+(?:position|condition)\b/, ['balance']],
  [/\bcash\s*flows?\s+statements?\b|\bstatements?\s+of\s+cash\s*flows?\b/, ['cash_flow']],
  [/\bstatements?\s+of\s+(?:changes\s+in\s+)?(?:stock|share)holders['’]?\s+equity\b|\bequity\s+statements?\b/, ['equity']],
  [/\bcomprehensive\s+income\b/, ['comprehensive_income']],
  // income-statement metrics
  [/\brevenues?\b|\bnet\s+sales\b|\btop\s*-?\s*line\b|\bgross\s+(?:margin|profit)\b|\boperating\s+(?:margin|income|profit|expenses?)\b|\bebit(?:da|dar)?\b|\bnet\s+(?:income|earnings|profit|loss)\b|\bprofit\s+margin\b|\bearnings\s+per\s+share\b|\beps\b|\bcost\s+of\s+(?:goods\s+sold|sales|revenues?)\b|\bcogs\b|\bsg\s*&\s*a\b|\bselling,?\s+general\b|\bresearch\s+and\s+development\b|\binterest\s+expense\b|\binterest\s+coverage\b|\beffective\s+tax\s+rate\b|\bincome\s+tax(?:es)?\b|\brestructuring\s+(?:costs?|charges?)\b/, ['income']],
  // balance-sheet metrics
  [/\btotal\s+(?:assets|liabilities)\b|\bcurrent\s+(?:assets|liabilities|ratio)\b|\bquick\s+ratio\b|\bcash\s+ratio\b|\bworking\s+capital\b|\bpp\s*&\s*e\b|\bppne\b|\bproperty,?\s+plant\b|\binventor(?:y|ies)\b|\baccounts\s+(?:receivable|payable)\b|\breceivables\b|\bpayables\b|\b(?:long[- ]term\s+)?debt\b|\bshareholders['’]?\s+equity\b|\bstockholders['’]?\s+equity\b|\bbook\s+value\b|\bgoodwill\b|\bretained\s+earnings\b|\bcash\s+and\s+cash\s+equivalents\b|\bleverage\b|\bliquidat/, ['balance']],
  // ratios that need both
  [/\bdays\s+(?:payable|sales|inventory)\s+outstanding\b|\bdpo\b|\bdso\b|\bdio\b|\binventory\s+turnover\b|\basset\s+turnover\b|\breturn\s+on\s+(?:assets|equity|invested\s+capital)\b|\broa\b|\broe\b|\broic\b/, ['income', 'balance']],
  // cash-flow metrics
  [/\bcapex\b|\bcapital\s+expenditures?\b|\bpurchases?\s+of\s+property\b|\bfree\s+cash\s*flows?\b|\bfcf\b|\boperating\s+cash\s*flows?\b|\bcash\s+(?:from|provided\s+by|generated\s+by|used\s+in)\s+(?:operations|operating|investing|financing)\b|\bdividends?\s+paid\b|\bcash\s+dividends?\b|\b(?:share|stock)\s+repurchases?\b|\bbuybacks?\b|\bdepreciation\s+and\s+amortization\b|\bd\s*&\s*a\b|\bcash\s+conversion\b/, ['cash_flow']],
];

/** The statements a query needs (empty when it names none and no metric that lives in one). */
export function queryStatements(query: string): Set<Statement> {
  const q = query.toLowerCase().replace(/\s+/g, ' ');
  const out = new Set<Statement>();
  for (const [re, sts] of QUERY_LEXICON) if (re.test(q)) for (const s of sts) out.add(s);
  return out;
}

const QUALIFIED_RE = /\b(?:consolidated|condensed|combined)\b/;

/**
 * How surely a title is each statement: 1 for the qualified primary statement ("Consolidated
 * Statements of Cash Flows"), 0.7 for a bare one ("Balance Sheet": often the statement in a short
 * release, but also an MD&A heading), 0.3 for a note or section mentioning it.
 */
export const TITLE_MATCH = { qualified: 1, bare: 0.7, mention: 0.3 } as const;

export interface TitleStatement {
  statement: Statement;
  /** TITLE_MATCH grade */
  strength: number;
}

/** The statement a node title names, if any. */
export function titleStatement(title: string): TitleStatement | null {
  const t = title.toLowerCase().replace(/\s+/g, ' ').trim();
  for (const [statement, re] of TITLE_PATTERNS) {
    if (!re.test(t)) continue;
    const primary = PRIMARY_PREFIX_RE.test(t) && !NOTE_RE.test(t);
    const strength = !primary ? TITLE_MATCH.mention : QUALIFIED_RE.test(t) ? TITLE_MATCH.qualified : TITLE_MATCH.bare;
    return { statement, strength };
  }
  return null;
}

/**
 * Metric → the line items and words a filing prints for it (query expansion for node scoring):
 * filings say "purchases of property, plant and equipment", questions say "capex".
 */
const EXPANSIONS: [RegExp, string][] = [
  [/\bcapex\b|\bcapital\s+expenditures?\b/, 'purchases of property plant and equipment additions capital expenditures'],
  [/\bppne\b|\bpp\s*&\s*e\b|\bnet\s+ppe\b/, 'property plant and equipment net'],
  [/\bfree\s+cash\s*flows?\b|\bfcf\b/, 'net cash provided by operating activities purchases of property plant and equipment'],
  [/\boperating\s+cash\s*flows?\b|\bcash\s+from\s+operations\b/, 'net cash provided by operating activities'],
  [/\bquick\s+ratio\b/, 'cash equivalents short-term investments receivables total current liabilities'],
  [/\bcurrent\s+ratio\b|\bworking\s+capital\b/, 'total current assets total current liabilities'],
  [/\bdays\s+payable\s+outstanding\b|\bdpo\b/, 'accounts payable cost of sales'],
  [/\bdays\s+sales\s+outstanding\b|\bdso\b/, 'accounts receivable revenue'],
  [/\binventory\s+turnover\b|\bdays\s+inventory\b|\bdio\b/, 'inventories cost of sales'],
  [/\bgross\s+margin\b/, 'gross profit cost of sales'],
  [/\boperating\s+margin\b/, 'operating income operating profit revenue'],
  [/\bebitda\b/, 'operating income depreciation amortization'],
  [/\binterest\s+coverage\b/, 'interest expense operating income'],
  [/\btop\s*-?\s*line\b|\brevenue\s+growth\b|\bsales\s+growth\b|\bhigh[- ]growth\b/, 'revenue net sales'],
  [/\b(?:share|stock)\s+repurchases?\b|\bbuybacks?\b/, 'repurchases of common stock'],
  [/\bdividends?\s+paid\b|\bcash\s+dividends?\b|\bdividend\s+payout\b/, 'dividends paid'],
  [/\bgeograph(?:y|ies|ic)\b|\bregions?\b/, 'geographic region segment'],
];

/** Words filings print for the metrics a query names (empty when it names none). */
export function expansionText(query: string): string {
  const q = query.toLowerCase().replace(/\s+/g, ' ');
  return EXPANSIONS.filter(([re]) => re.test(q)).map(([, words]) => words).join(' ');
}
