/**
 * The tokenizer shared by the keyword index (built at ingest, src/indexing) and queries (src/search). Exact tokens users type
 * count: "FY2018" is indexed as "fy2018" and "2018", "10-K" as "10", "k" and "10k", tickers and
 * codes stay whole. Light plural stemming on words only (never on tokens with digits).
 * Every word is kept: stopwords are dropped from queries only (src/search/query.ts).
 * A Greek letter standing as a symbol ("θ", "σ2", "Λ") is also indexed by its name, as people type
 * it ("theta"): formulas in papers of any field write the letter, questions spell it out.
 * Bump TOKENIZER_VERSION whenever output changes: the keyword index records it and is rebuilt.
 */
export const TOKENIZER_VERSION = 9;

/**
 * A word as typed: letters/digits joined by . ' & - / ("10-K", "AT&T", "2018-12-31"). The hyphen's
 * look-alikes join as it does: typeset text prints U+2010 (hyphen), U+2011 (non-breaking hyphen) and,
 * from TeX math, U+2212 (minus) where a user types "-" ("p−value" is found by "p-value").
 */
export const WORD_RE = /[\p{L}\p{N}]+(?:[.'’&\-/\u2010\u2011\u2212][\p{L}\p{N}]+)*/gu;
const JOINERS_RE = /[.'’&\-/\u2010\u2011\u2212]/;
const DIGITS_RE = /^\p{N}+$/u;
const DECIMAL_RE = /^\p{N}+\.\p{N}+$/u;
/** A date written year first ("2018-12-31", "2018/12/31") or last, as in the US ("12/31/2018"). */
const ISO_DATE_RE = /^(?:1[89]|2\d)\d\d([-/])[01]?\d\1[0-3]?\d$|^[01]?\d\/[0-3]?\d\/(?:1[89]|2\d)\d\d$/;
const LETTER_THEN_DIGITS_RE = /\p{L}+\p{N}+/gu;
const LETTER_DIGIT_RE = /(\p{L}+|\p{N}+)/gu;
/** tokens longer than this are dropped (hashes, base64 noise) */
const MAX_TOKEN_LENGTH = 32;
/** parts of compound tokens shorter than this are not emitted on their own (except digits) */
const MIN_PART_LENGTH = 2;
/** letter parts of letter-digit tokens ("fy" of "fy2018") shorter than this are not emitted */
const MIN_LETTER_PART_LENGTH = 3;

/** Names of the Greek letters (lower case; final sigma and the symbol variants included). */
const GREEK_NAMES: Record<string, string> = {
  α: 'alpha', β: 'beta', γ: 'gamma', δ: 'delta', ε: 'epsilon', ϵ: 'epsilon', ζ: 'zeta', η: 'eta', θ: 'theta', ϑ: 'theta',
  ι: 'iota', κ: 'kappa', ϰ: 'kappa', λ: 'lambda', μ: 'mu', ν: 'nu', ξ: 'xi', ο: 'omicron', π: 'pi', ϖ: 'pi', ρ: 'rho',
  ϱ: 'rho', σ: 'sigma', ς: 'sigma', τ: 'tau', υ: 'upsilon', φ: 'phi', ϕ: 'phi', χ: 'chi', ψ: 'psi', ω: 'omega',
};
/**
 * Text that compatibility normalisation (NFKC) reads as the letters typed: the mathematical
 * alphanumeric symbols (U+1D400–1D7FF, high surrogate D835: italic 𝜃 and the like) and Unicode's
 * ligature letters (U+FB00–FB06: "ﬁle" → file).
 */
const COMPATIBILITY_FORMS_RE = /\uD835|[\uFB00-\uFB06]/;
const GREEK_FIRST = 0x370;
const GREEK_LAST = 0x3ff;
/** A part that is one Greek letter, alone or with digits after it ("θ", "σ2"). */
const GREEK_SYMBOL_RE = /^([\u0370-\u03ff])\p{N}*$/u;

/** A date's one token, however it was written: "2015-03-15" for 2015/3/15 and 03/15/2015 alike (query.ts builds it for "15 March 2015"). */
export function dateToken(year: string, month: string | number, day: string | number): string {
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Plural / simple suffix stripping for alphabetic words. */
export function stem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

function emit(out: string[], t: string): void {
  if (t.length === 0 || t.length > MAX_TOKEN_LENGTH) return;
  out.push(stem(t));
}

/** Split one alphanumeric run into letter and digit parts: "fy2018" → ["fy", "2018"]. */
function alnumParts(t: string): string[] {
  return t.match(LETTER_DIGIT_RE) ?? [t];
}

/** Letter+digit chunks of a mixed token: "2023q4" → ["q4"], "fy2018q3" → ["fy2018", "q3"]. */
function letterDigitChunks(t: string): string[] {
  return t.match(LETTER_THEN_DIGITS_RE) ?? [];
}

/** The name of a part that is a Greek letter used as a symbol, else undefined. */
function greekName(part: string): string | undefined {
  const c = part.charCodeAt(0);
  if (c < GREEK_FIRST || c > GREEK_LAST) return undefined;
  const m = GREEK_SYMBOL_RE.exec(part);
  return m ? GREEK_NAMES[m[1]!] : undefined;
}

/**
 * Three or more pairs of hex digits apart by one colon or one hyphen throughout: a MAC address, an
 * OUI or a byte string ("08:00:27", "00-1b-21-3a-4f-5e"). The pairs are indexed joined too, as
 * registries and tables print them ("080027"): a question typed "08:00:27" found no row.
 */
const HEX_PAIRS_RE = /(?<![\p{L}\p{N}:-])[0-9a-f]{2}([:-])[0-9a-f]{2}(?:\1[0-9a-f]{2})+(?![\p{L}\p{N}]|[:-][\p{L}\p{N}])/giu;

/** Where each run of hex pairs starts in `text` (either case), with its pairs joined (lower case) and where it ends. */
export function hexPairRuns(text: string): Map<number, { joined: string; end: number }> {
  const out = new Map<number, { joined: string; end: number }>();
  if (!text.includes(':') && !text.includes('-')) return out;
  for (const m of text.matchAll(HEX_PAIRS_RE)) out.set(m.index, { joined: m[0].replace(/[:-]/g, '').toLowerCase(), end: m.index + m[0].length });
  return out;
}

/** Tokens of a text, in order, with duplicates (term frequencies matter). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const plain = COMPATIBILITY_FORMS_RE.test(text) ? text.normalize('NFKC') : text;
  const lower = plain.toLowerCase();
  const hexRuns = hexPairRuns(lower);
  for (const m of lower.matchAll(WORD_RE)) {
    const raw = m[0];
    const parts = JOINERS_RE.test(raw) ? raw.split(JOINERS_RE).filter(Boolean) : [raw];
    const digitRun = parts.length > 1 && parts.every((p) => DIGITS_RE.test(p));
    // a run of pairs written with hyphens and letters ("dc-a6-32") is joined below, as any such word
    const joined = hexRuns.size ? hexRuns.get(m.index)?.joined : undefined;
    if (joined && (parts.length === 1 || digitRun)) emit(out, joined);
    if (digitRun) {
      // numbers and dates: "234.5" stays whole; a date ("2018-12-31", "12/31/2018") is its one token
      // (dateToken) and its year, not its month and day ("Debian 12" found the rows whose dates hold a
      // 12 before the row of version 12); other runs ("3-5", "1.2.3") give their parts
      if (DECIMAL_RE.test(raw)) emit(out, raw);
      else if (ISO_DATE_RE.test(raw)) {
        const [y, m, d] = parts[0]!.length === 4 ? parts : [parts[2]!, parts[0]!, parts[1]!];
        emit(out, dateToken(y!, m!, d!));
        emit(out, y!);
      } else for (const p of parts) emit(out, p);
      continue;
    }
    if (parts.length > 1) emit(out, parts.join(''));
    for (const p of parts) {
      const greek = greekName(p);
      if (greek) emit(out, greek);
      const sub = alnumParts(p);
      if (sub.length > 1) {
        emit(out, p);
        if (sub.length > 2) for (const c of letterDigitChunks(p)) if (c !== p) emit(out, c);
        for (const s of sub) if (DIGITS_RE.test(s) ? s.length >= MIN_PART_LENGTH : s.length >= MIN_LETTER_PART_LENGTH) emit(out, s);
      } else if (p.length >= MIN_PART_LENGTH || /\d/.test(p) || parts.length === 1) {
        emit(out, p);
      }
    }
  }
  return out;
}

/** Term → frequency map of a token list. */
export function termFrequencies(tokens: string[]): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return tf;
}
