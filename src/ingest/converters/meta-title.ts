/**
 * Whether a title a document's metadata or its first lines give names the document: not a tool's
 * file name or path, not a template placeholder, not the name of a part every document may hold.
 * Shared by the converters that read a metadata title (PDF, Word, OpenDocument).
 */

/** A file name as tools write it into the title field: "report.doc", "0.dvi", "thesis.tex". */
const FILE_NAME_TITLE = /\.(?:docx?|odt|rtf|pdf|indd|qxd|qxp|pub|wpd|pages|dvi|tex|ps|eps|ai|txt|html?|xlsx?|pptx?|md)$/i;
/** A path: from a drive letter or a root ("C:/USERS/JOHN/MAN/0.dvi", "/tmp/x.tex"), or folders without spaces ("build/out/a"). */
const PATH_TITLE = /^(?:[a-z]:[\\/]|[\\/]\S)|^\S*[\\/]\S*[\\/]\S*$/i;

/** Template placeholders left in a title ("Click here to enter text", "单击此处输入文字"): never a title. */
const PLACEHOLDER = /click here|type here|enter (?:text|a? ?title)|insert (?:a )?title|your title here|^title$|^\[?placeholder|单击此处|点击此处|在此处键入|输入文字/i;

/**
 * The name of a part of a document, which every document may hold, not of the document: htmldoc's
 * xfig reference carries "Contents" as its metadata title and "Table of Contents" as its first
 * page's headline, and was titled "Contents".
 */
const PART_NAME = /^(?:\d{1,2}\.?\s+)?(?:(?:table of )?contents|index|preface|foreword|introduction|abstract|acknowledge?ments?|bibliography|references|glossary|appendix(?:\s+[a-z\d]{1,4})?|chapter\s+[\divxl]{1,4}|title page|cover(?: page)?|front matter)[.:]?$/i;

/** Whether a title names a part of a document (PART_NAME) rather than the document. */
export function isPartName(t: string): boolean {
  return PART_NAME.test(t.trim());
}

/** A metadata title worth using: words, not an accession number, a path, a tool's file name, a part's name or a date. */
export function goodMetaTitle(t: string | undefined): t is string {
  if (!t) return false;
  const s = t.trim();
  return s.length >= 4 && /\p{L}{3}/u.test(s) && !/^\d{10}-\d{2}-\d{6}$/.test(s) && !/^(microsoft word|untitled|document\d*)\b/i.test(s) && !FILE_NAME_TITLE.test(s) && !PATH_TITLE.test(s) && !PLACEHOLDER.test(s) && !isPartName(s) && !onlyDate(s);
}

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
/** A date and nothing else: "29th October 2006", "June 28, 2026", "6/4/2018", "2006-10-29", "APRIL 2020". */
const DATE_ONLY = new RegExp(`^(?:(?:\\d{1,2}(?:st|nd|rd|th)?\\s+)?${MONTH}(?:\\s+\\d{1,2}(?:st|nd|rd|th)?)?,?\\s+\\d{4}|\\d{1,4}[/.-]\\d{1,2}[/.-]\\d{1,4})$`, 'i');

/**
 * Whether a title is only a date: the day a Word file was saved, put in its title field (the SRF
 * specification's "29th October 2006"), or printed atop its cover ("19th June 2008").
 */
export function onlyDate(t: string): boolean {
  return DATE_ONLY.test(t.trim());
}

/** A line of text ending in a word that goes on to the next line ("User's manual for"). */
const OPEN_END = /\b(?:for|of|to|and|or|the|a|an|on|in|with|by|from)$/i;
/** Longest opening taken as a title. */
export const OPENING_TITLE_MAX_CHARS = 120;

/**
 * The title a document prints atop its first page in plain paragraphs, before its first heading (as
 * titles.ts leadTitle reads a plain text's first line, here joined on when it ends open)
 * (Writer2LaTeX's manual: "User's manual for" / its logo / "Writer2LaTeX, Writer2BibTeX, Writer2xhtml
 * and Calc2xhtml", then "Table of Contents"; its first heading, "Introduction", had titled it): its
 * first line, joined with the next when it ends open; images left out. '' when that is no title.
 */
export function openingTitle(lead: string): string {
  const all = lead.split('\n').map((l) => l.replace(/\[image:[^\]]*\]/g, '').trim());
  // what follows a part's name ("Table of Contents") is that part, not the title
  const part = all.findIndex(isPartName);
  const lines = (part < 0 ? all : all.slice(0, part)).filter(Boolean);
  let title = lines[0] ?? '';
  if (OPEN_END.test(title) && lines[1]) title = `${title} ${lines[1]}`;
  return title.length <= OPENING_TITLE_MAX_CHARS && /\p{L}{3}/u.test(title) && title.includes(' ') && !onlyDate(title) ? title : '';
}
