/**
 * Argument checks shared by every way of searching (CLI `search`/`list`, skill `search.js`): a
 * `--type` must name a source type or a doc type present in the store, and a query is bounded in
 * length (a pasted document is not a query: it is cut, and the answer says so).
 */
import { SOURCE_TYPES, type CatalogEntry } from '../store/schemas.js';
import { UserError } from '../store/errors.js';
import { compareStrings } from '../store/json.js';
import { EXIT } from '../util/exit-codes.js';

/** Longest query searched; longer ones are cut at a word boundary before this and a warning says so. */
export const MAX_QUERY_CHARS = 2000;
/** Doc types named in an unknown-type error before "…". */
const MAX_LISTED_DOC_TYPES = 12;

/** Throws a usage error naming the known types when a `--type` value matches no source type and no doc type of the store. */
export function checkTypeFilter(types: string[] | undefined, entries: Array<Pick<CatalogEntry, 'doc_type'>>): void {
  if (!types?.length) return;
  const docTypes = new Set(entries.map((e) => (e.doc_type ?? '').toLowerCase()).filter(Boolean));
  const known = new Set<string>([...SOURCE_TYPES, ...docTypes]);
  const bad = types.filter((t) => !known.has(t.toLowerCase()));
  if (bad.length === 0) return;
  const docs = [...docTypes].sort(compareStrings);
  const docList = docs.length ? `; doc types in this store: ${docs.slice(0, MAX_LISTED_DOC_TYPES).join(', ')}${docs.length > MAX_LISTED_DOC_TYPES ? ', …' : ''}` : '';
  throw new UserError(
    `Unknown type ${bad.map((t) => `"${t}"`).join(', ')}.`,
    `Expected one of the source types ${SOURCE_TYPES.filter((t) => t !== 'unknown').join(', ')}${docList}.`,
    EXIT.USAGE,
  );
}

/** The query as searched: at most MAX_QUERY_CHARS, cut at a word boundary, with a warning when cut. */
export function boundQuery(query: string): { query: string; warning: string | null } {
  if (query.length <= MAX_QUERY_CHARS) return { query, warning: null };
  const head = query.slice(0, MAX_QUERY_CHARS);
  const space = head.search(/\s\S*$/);
  const cut = (space > MAX_QUERY_CHARS / 2 ? head.slice(0, space) : head).trim();
  return {
    query: cut,
    warning: `the query was ${query.length} characters; only its first ${cut.length} (up to ${MAX_QUERY_CHARS}) were searched. Ask with the key words, not a whole document.`,
  };
}
