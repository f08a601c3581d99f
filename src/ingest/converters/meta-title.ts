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
const PART_NAME = /^(?:(?:table of )?contents|index|preface|foreword|introduction|abstract|acknowledge?ments?|bibliography|references|glossary|appendix(?:\s+[a-z\d]{1,4})?|chapter\s+[\divxl]{1,4}|title page|cover(?: page)?)[.:]?$/i;

/** Whether a title names a part of a document (PART_NAME) rather than the document. */
export function isPartName(t: string): boolean {
  return PART_NAME.test(t.trim());
}

/** A metadata title worth using: words, not an accession number, a path, a tool's file name or a part's name. */
export function goodMetaTitle(t: string | undefined): t is string {
  if (!t) return false;
  const s = t.trim();
  return s.length >= 4 && /\p{L}{3}/u.test(s) && !/^\d{10}-\d{2}-\d{6}$/.test(s) && !/^(microsoft word|untitled|document\d*)\b/i.test(s) && !FILE_NAME_TITLE.test(s) && !PATH_TITLE.test(s) && !PLACEHOLDER.test(s) && !isPartName(s);
}
