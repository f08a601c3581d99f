/**
 * How a spreadsheet column node's summary names the values it shows (written by the spreadsheet
 * converter, read by the keyword index): "top values" when values repeat (the most frequent, with
 * their counts: what the column holds), "values include" when none does (the first few in sort
 * order: an arbitrary sample, as likely "bookworm" as not "trixie").
 */
export const TOP_VALUES_LABEL = 'top values';
export const SAMPLE_VALUES_LABEL = 'values include';

const SAMPLE_CLAUSE = new RegExp(`;\\s*${SAMPLE_VALUES_LABEL} [^;]*`);

/**
 * A column summary as the keyword index reads it: without the sample of values, so a value is found
 * in the rows that hold it, not in a column that happened to list it first (the rows are indexed
 * by their cells).
 */
export function summaryWithoutSample(summary: string): string {
  return summary.replace(SAMPLE_CLAUSE, '');
}
