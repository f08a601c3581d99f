/** Roman numerals as printed in outlines and page numbers ("IV", "xii"). */

const ROMAN: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };

/** The value of a roman numeral of I, V, X, L and C (either case); 0 for an empty string. */
export function romanValue(s: string): number {
  const u = s.toUpperCase();
  let v = 0;
  for (let i = 0; i < u.length; i++) {
    const a = ROMAN[u[i]!] ?? 0;
    const b = ROMAN[u[i + 1]!] ?? 0;
    v += a < b ? -a : a;
  }
  return v;
}

/** A lower-case roman numeral as printed for front-matter pages ("iv", "xii"; up to ccc). */
const ROMAN_NUMERAL = /^(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})$/;

export function isRomanNumeral(s: string): boolean {
  return ROMAN_NUMERAL.test(s);
}
