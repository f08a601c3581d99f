/**
 * Labels a converter adds to a node's title to say where the node sits in its section, not what
 * it is about: the text before a section's first sub-section ("Close Book (introduction)") and the
 * first page window of a section too long for one node ("2.2 Examples (beginning)"), the entries a window
 * of a long keyed table or list holds ("(entries 30–84)"). Indexes read
 * the heading without them (its words are the document's; the label's are not).
 */
export const INTRO_SUFFIX = ' (introduction)';
export const BEGINNING_SUFFIX = ' (beginning)';
/** A later page window of a long section, with no heading of its own. */
export const CONTINUED_SUFFIX = ' (continued)';
/** A page window of a long table or list ordered by number: the keys it holds ("Table of space group symbols (entries 30–84)"). */
export const entriesLabel = (range: string): string => ` (entries ${range})`;

const PLACE_LABEL = / \((?:introduction|beginning|entries \d+–\d+)\)$/;

const ENTRIES_LABEL = / \(entries (\d+)–(\d+)\)$/;

/** The keys a node titled with an entries label holds ([first, last]), else null. */
export function entriesRange(title: string): [number, number] | null {
  const m = ENTRIES_LABEL.exec(title);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

/** The heading a node title was made from, without a place label. */
export function headingOf(title: string): string {
  return title.replace(PLACE_LABEL, '');
}

/**
 * Between a page's own title and the manual or site it names ("8.11. Curves — GNU Image Manipulation
 * Program"): written by the HTML converter, read by the eval to match a page by its own heading.
 */
export const MANUAL_SEPARATOR = ' — ';

/** Where a sheet's notes are set: above its table (meta.preamble) or below it (meta.notes). */
export type NotesPlace = 'above' | 'below';
/** The entry of a sheet's notes in the node index (indexing/source-text.ts): "Fabric Links: notes below the table". */
export const sheetNotesTitle = (sheet: string, where: NotesPlace): string => `${sheet}: notes ${where} the table`;
/** Where the notes a node-index entry titled by sheetNotesTitle are, else null. */
export function notesPlace(title: string): NotesPlace | null {
  return /: notes above the table$/.test(title) ? 'above' : /: notes below the table$/.test(title) ? 'below' : null;
}
