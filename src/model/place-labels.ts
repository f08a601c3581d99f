/**
 * Labels a converter adds to a node's title to say where the node sits in its section, not what
 * it is about: the text before a section's first sub-section ("Close Book (introduction)") and the
 * first page window of a section too long for one node ("2.2 Examples (beginning)"). Indexes read
 * the heading without them (its words are the document's; the label's are not).
 */
export const INTRO_SUFFIX = ' (introduction)';
export const BEGINNING_SUFFIX = ' (beginning)';

const PLACE_LABEL = / \((?:introduction|beginning)\)$/;

/** The heading a node title was made from, without a place label. */
export function headingOf(title: string): string {
  return title.replace(PLACE_LABEL, '');
}

/**
 * Between a page's own title and the manual or site it names ("8.11. Curves — GNU Image Manipulation
 * Program"): written by the HTML converter, read by the eval to match a page by its own heading.
 */
export const MANUAL_SEPARATOR = ' — ';
