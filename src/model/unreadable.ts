/**
 * A text layer whose characters are mostly symbols cannot be read: a font whose character map sends
 * its letters to dingbats ("❆♥❛❧②s✐♥❣ r❡♣❧✐❝❛t❡❞" for "Analysing replicated"). Indexed as it is,
 * its words match nothing and its headings are stray labels: the planner asks for OCR and the PDF
 * converter reads the pages by OCR. Over 178 dev and audit PDFs the share is at most 0.05; the one
 * such PDF found measured 0.75.
 */
export const UNREADABLE_SYMBOL_SHARE = 0.5;
/** Characters sampled at most. */
export const SYMBOL_SAMPLE_CHARS = 60_000;

const SYMBOLS = /[\p{So}\p{Co}]/gu;
const LETTERS = /[\p{L}\p{N}]/gu;

/** Share of symbols (other symbols, private use) among the letters, digits and symbols of `texts` (up to SYMBOL_SAMPLE_CHARS). */
export function symbolShare(texts: Iterable<string>): number {
  let symbols = 0;
  let letters = 0;
  let chars = 0;
  for (const t of texts) {
    if (chars >= SYMBOL_SAMPLE_CHARS) break;
    symbols += t.match(SYMBOLS)?.length ?? 0;
    letters += t.match(LETTERS)?.length ?? 0;
    chars += t.length;
  }
  return symbols + letters === 0 ? 0 : symbols / (symbols + letters);
}

/** Why a text layer with that share of symbols is not used, for warnings and plan notes. */
export function unreadableReason(share: number): string {
  return `the text layer is unreadable (${Math.round(share * 100)}% of its characters are symbols: a font without a usable character map)`;
}
