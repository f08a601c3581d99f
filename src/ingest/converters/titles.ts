/**
 * Titles for stretches of text that have no heading of their own (paragraph groups of plain text,
 * Markdown and HTML): the first line a reader would take for prose, without Markdown markup, cut at
 * a word boundary. Code, table rows, rules and fenced blocks are passed over, so a group that opens
 * with `#if defined(MSDOS)` or `/* allocate state *\/` is titled by the sentence that follows it.
 */

/** Longest group title. */
export const GROUP_TITLE_CHARS = 80;
/** Lines of a group looked at for a prose line. */
export const TITLE_SCAN_LINES = 40;
/** Characters of a group looked at for a prose line (a paragraph may be one huge line). */
export const TITLE_SCAN_CHARS = 4000;
/** A cut may fall back to the last space only past this share of the limit. */
const WORD_CUT_MIN_SHARE = 0.5;
/** Share of code punctuation above which a line reads as code. */
const CODE_SYMBOL_SHARE = 0.12;
/** Letters a prose line needs. */
const PROSE_MIN_LETTERS = 3;
/**
 * A prose line at least this long that does not end a sentence was wrapped by the author's editor
 * (hard-wrapped README, NEWS and Markdown text): its sentence goes on in the next line.
 */
const WRAPPED_LINE_MIN_CHARS = 50;
/** A line that ends a sentence or introduces what follows: the title does not go on past it. */
const LINE_END_STOP = /[.!?:]["')\]]?$/;

const FENCE = /^(```|~~~)/;
const LIST_OR_QUOTE = /^([-*+>]|\d+[.)])\s/;
const BOLD_TERM = /^\*\*[^*].*\*\*$/;
/** Lines that open like code: preprocessor lines, comments, statements and braces. */
const CODE_START = /^(#\s*(if|ifdef|ifndef|else|elif|endif|include|define|undef|pragma)\b|\/\*|\*\/|\/\/|[{}]|(var|let|const|import|return|def|class|function|for|while|if)\b.*[({:=;]\s*$)/;
/** Lines that close like code statements. */
const CODE_END = /(;|\{|\}|\)\s*\{|\*\/)\s*$/;
const CODE_SYMBOLS = /[{}()[\];=<>*&|\\/$#@]/g;
/** Table rows, rules and adornment lines (`| a | b |`, `----`, `====`, `****`). */
const NOT_PROSE = /^(\||[-=*_~+#.:^`'"]{3,}\s*$)/;
/** A line of nothing but one adornment character repeated (reStructuredText over- and underlines). */
const ADORNMENT = /^([-=*_~+#.:^`'"])\1+$/;

/** A heading's text without reStructuredText-style adornment lines (`====` over `Title`). */
export function headingLines(text: string): string {
  return text.split('\n').map((l) => l.trim()).filter((l) => l && !ADORNMENT.test(l)).join(' ');
}

/** True when a line reads as code rather than prose. */
export function isCodeLine(line: string): boolean {
  const t = line.trim();
  if (CODE_START.test(t) || CODE_END.test(t)) return true;
  const symbols = t.match(CODE_SYMBOLS)?.length ?? 0;
  return symbols / Math.max(1, t.length) > CODE_SYMBOL_SHARE;
}

/** A line without Markdown markup: heading marks, quote marks, list bullets, emphasis and code ticks. */
export function plainLine(line: string): string {
  return line
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(>\s*)+/, '')
    .replace(/^[-*+]\s+/, '')
    .replace(/(?<!\w)(\*\*|__)(?=\S)(.+?)(?<=\S)\1(?!\w)/g, '$2')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The shortest first sentence kept as a title on its own (shorter ones are numbers or abbreviations). */
const TITLE_MIN_SENTENCE = 12;
/** The end of a sentence followed by the next one. */
const SENTENCE_END = /[.!?](?=\s+[\p{Lu}\d])/gu;

/** The first sentence of `s` when one ends inside it (past TITLE_MIN_SENTENCE characters), else `s`. */
export function firstSentence(s: string): string {
  for (const m of s.matchAll(SENTENCE_END)) if (m.index + 1 >= TITLE_MIN_SENTENCE) return s.slice(0, m.index + 1);
  return s;
}

/** A function word left at the end of a cut ("… application followed a"): it only says the cut fell mid-phrase. */
const DANGLING_WORD = /(?:\s+(?:the|a|an|of|to|in|on|at|by|for|with|from|and|or|as|that|which))+$/i;

/**
 * `s` cut to at most `max` characters: at the end of its first sentence when that fits, else at a
 * word boundary with an ellipsis.
 */
export function clipAtWord(s: string, max = GROUP_TITLE_CHARS): string {
  if (s.length <= max) return s;
  const first = firstSentence(s);
  if (first.length < s.length && first.length <= max) return first;
  return cutAtWord(s, max);
}

/** `s` cut at a word boundary to at most `max` characters, with an ellipsis (unchanged when it fits). */
export function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  const kept = sp > max * WORD_CUT_MIN_SHARE ? cut.slice(0, sp) : cut;
  return `${kept.replace(/[\s,;:(–—-]+$/, '').replace(DANGLING_WORD, '')}…`;
}

/**
 * A prose line with the lines its sentence is wrapped onto (see WRAPPED_LINE_MIN_CHARS), without
 * markup, up to what a title can hold: a title cut where the editor wrapped the line ("… metadata
 * application followed a") reads as a cut sentence. A blank line, a new list item, quote, heading,
 * table row, fence or code line ends the paragraph.
 */
function unwrapped(lines: readonly string[], at: number, max: number): string {
  let text = plainLine(lines[at]!);
  let last = lines[at]!.trim();
  for (let i = at + 1; i < lines.length && text.length <= max; i++) {
    const t = lines[i]!.trim();
    if (last.length < WRAPPED_LINE_MIN_CHARS || LINE_END_STOP.test(last) || firstSentence(text).length < text.length) break;
    if (!t || FENCE.test(t) || LIST_OR_QUOTE.test(t) || /^#{1,6}\s/.test(t) || NOT_PROSE.test(t) || isCodeLine(t)) break;
    text = `${text} ${plainLine(t)}`;
    last = t;
  }
  return text;
}

/** A line that is a comment alone (an OCR'd page's "<!-- page 2 -->" marker): never a title. */
const COMMENT_LINE = /^<!--.*-->$/;

/**
 * The title of a group from its lines: the first prose line (with its wrapped sentence), else the
 * first non-blank line (a table row by its cells; not a code line unless `codeFallback`; not a line
 * of marks); cut at a word, '' when none. Lines in `skip` (boilerplate the groups share) and table
 * rules are passed over.
 */
export function groupTitle(lines: readonly string[], max = GROUP_TITLE_CHARS, skip?: ReadonlySet<string>, codeFallback = true): string {
  let inFence = false;
  let fallback = '';
  let fallbackIsCode = false;
  const scanned = lines.slice(0, TITLE_SCAN_LINES);
  for (const [at, raw] of scanned.entries()) {
    const t = raw.trim();
    if (FENCE.test(t)) {
      inFence = !inFence;
      continue;
    }
    if (!t || COMMENT_LINE.test(t) || skip?.has(t) || TABLE_RULE.test(t)) continue;
    const plain = plainLine(t);
    if (IMAGE_ONLY.test(plain)) continue;
    if (!fallback) {
      fallback = t.startsWith('|') ? tableRowText(t) : t;
      // (a comment in a listing says what it does: "-- raw xml output for creator options for GeoTiff --")
      fallbackIsCode = (inFence || (!t.startsWith('|') && isCodeLine(t))) && !CODE_COMMENT_TITLE.test(t);
    }
    // a bold line alone is a term being defined (`**csv.writer(csvfile)**`): it names the group
    if (!inFence && BOLD_TERM.test(t)) return clipAtWord(plainLine(t.slice(2, -2)), max);
    // list items and quotes are judged without their marks and emphasis; other lines as written
    if (inFence || NOT_PROSE.test(t) || isCodeLine(LIST_OR_QUOTE.test(t) ? plain : t)) continue;
    if ((plain.match(/\p{L}/gu)?.length ?? 0) < PROSE_MIN_LETTERS) continue;
    return clipAtWord(firstSentence(unwrapped(scanned, at, max)), max);
  }
  // a line of a few marks (");", "}", "---") names nothing; a code line names a group only where the caller has nothing better
  if ((fallback.match(/\p{L}/gu)?.length ?? 0) < FALLBACK_MIN_LETTERS || (fallbackIsCode && !codeFallback)) return '';
  return clipAtWord(fallback, max);
}

/** A line that is only an image: the HTML converters' "[image: alt]" or Markdown's `![alt](src)` (FontForge's "[image: _images/bowlweb.gif]"). */
const IMAGE_ONLY = /^(?:\[image(?::[^\]]*)?\]|!\[[^\]]*\]\([^)]*\))$/;

/** A comment line of code in words (SQL, shell, C and Python comments; at least three words). */
const CODE_COMMENT_TITLE = /^(?:--+|#+|\/\/+|\/\*+)\s*\p{L}+(?:[\s,]+\p{L}+){2}/u;

/** Letters a group's first line needs to title it when the group has no prose line. */
export const FALLBACK_MIN_LETTERS = 3;

/** A Markdown table's rule row ("| --- | :---: |"). */
const TABLE_RULE = /^\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/;

/** A Markdown table row as a title: its filled cells, without the pipes ("| Step | Input |" → "Step; Input"; "| Test ID: | CCA-1 |" → "Test ID: CCA-1"). */
function tableRowText(row: string): string {
  const cells = row.replace(/^\||\|$/g, '').split('|').map((c) => c.trim()).filter(Boolean);
  return cells.reduce((a, c) => (a ? `${a}${a.endsWith(':') ? ' ' : '; '}${c}` : c), '');
}

/** Cells of a header row: apart by a tab or two blanks or more. */
const HEADER_CELLS = /\t+| {2,}/;
/** A data value: a number, a date or a time. */
const DATA_VALUE = /^[-+]?\d[\d.,:/-]*$/;

/**
 * A table's header row as a document's title ("week    observed state" over "199001  1  0"): not a
 * title, but what the data holds. The file name with its column names ("salmonella.agona: columns
 * week, observed, state") tells the file apart; null when the text does not open on a header over data.
 */
export function tableHeaderTitle(lines: readonly string[], base: string, max = GROUP_TITLE_CHARS): string | null {
  const [head, next] = lines.filter((l) => l.trim() !== '');
  if (!head || !next || head.trim().split(HEADER_CELLS).length < 2) return null;
  if (next.trim().split(/\s+/).filter((v) => DATA_VALUE.test(v)).length < 2) return null;
  const columns = head.trim().split(/\s+/).filter((c) => !DATA_VALUE.test(c));
  return columns.length >= 2 ? clipAtWord(`${base}: columns ${columns.join(', ')}`, max) : null;
}

/** A document's title from its first lines: the first that is not blank or an adornment line; '' when none fits. */
export function leadTitle(lines: readonly string[], max = GROUP_TITLE_CHARS): string {
  const line = lines.find((l) => WORDY.test(l) && !ADORNMENT.test(l.trim()) && !COMMENT_LINE.test(l.trim()))?.trim() ?? '';
  // a banner framed in marks ("*** IMPORTANT ***", "*  TODO  *") keeps them
  const first = BANNER_END.test(line) ? line : line.replace(COMMENT_LEAD, '');
  return first.length <= max ? first : '';
}

/** A line closing with the marks a banner is framed in. */
const BANNER_END = /[*#]\s*$/;

/** A line with a letter or digit: a comment's opening "/*" alone titles nothing. */
const WORDY = /[\p{L}\p{N}]/u;
/** A comment's marks before its words (" * History" under "/*", "# Title", "// Title", "; Title"): not part of the title. */
const COMMENT_LEAD = /^(?:\/\/+|\/?\*+|#+|;+|--+|%+)\s+(?=\S)/;
