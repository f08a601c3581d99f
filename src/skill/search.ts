/** search: which sources in the store answer a question, with their best nodes. */
import { skillConfig } from './boot.js';
import { parse, runScript, emitJson, writeOut, intOption, strOption, locateStore, EXIT_CODES_HELP, COMMON_OPTIONS_HELP, type Parsed } from './runtime.js';
import { runSearch, renderSearchText, DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_MAX_CHARS, SEARCH_MODES } from '../retrieve/search-answer.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';
import type { SearchFilters, SearchOptions } from '../search/types.js';
import { parseFilterFlags } from '../search/filter-flags.js';

const USAGE = 'search.js "question or keywords" [--limit N] [--offset N] [--type T] [--tag T] [--since YYYY] [--until YYYY] [--path GLOB]';

const HELP = `Usage: ${USAGE}
       search.js --overview

Finds the sources (documents, spreadsheets, code, notes) that answer a question: same ranking and
filters as \`mhub search\` (keyword BM25 fused with vectors when the store has them).
  --query Q        the query (same as the positional argument)
  --limit N        results per call (default ${DEFAULT_SEARCH_LIMIT})
  --offset N       skip the first N results (paging: pass the previous answer's next_offset)
  --nodes N        best-matching nodes shown per source (default 3)
  --type T         only sources of type T (pdf, xlsx, csv, markdown, docx, html, code, text, …); repeatable
  --tag T          only sources tagged T (any of; repeatable); --all-tags T (all of; repeatable)
  --since D        only documents dated/period on or after D (YYYY, YYYY-MM or YYYY-MM-DD); --until D
  --indexed-since D / --indexed-until D   only sources indexed in that date range
  --path GLOB      only sources whose path matches GLOB, e.g. "reports/**/*.pdf"
  --meta K=V       only sources whose metadata K equals V; repeatable
  --mode M         ${SEARCH_MODES.join(' | ')} (default auto: hybrid when vectors and model exist)
  --explain        each signal's contribution per result
  --overview       what the library holds (sources by type, topics, dates) instead of a search
  --max-chars N    bound on the whole answer (default ${DEFAULT_SEARCH_MAX_CHARS})

Output (JSON): query, mode, verdict (strong | weak | none), results [{id, title, file, type, score,
relevance, verdict, summary, nodes [{node_id, title, page_range|line_range|row_range, score,
relevance, verdict, passage {page, text} (first two results), path (when titles repeat)}]}],
next_offset (or null), warnings, freshness {built_at, stale, warning}.
Only the first result can be strong (it clearly leads; its period and name agree with the query);
relevance never rises down the list.
Next step: read_source.js <id> <node_id> for the node whose passage shows the answer (several node
ids in one call when unsure); deep_retrieve.js <id> --query "…" when no listed node fits.

${COMMON_OPTIONS_HELP}

${EXIT_CODES_HELP}`;

function filtersOf(values: Parsed['values']): SearchFilters {
  const str = (name: string) => strOption(values, name);
  const arr = (name: string) => values[name] as string[] | undefined;
  return parseFilterFlags({
    type: arr('type'), tag: arr('tag'), allTags: arr('all-tags'), since: str('since'), until: str('until'),
    indexedSince: str('indexed-since'), indexedUntil: str('indexed-until'), path: str('path'), meta: arr('meta'),
  });
}

await runScript(async (argv) => {
  const { values, positionals } = parse(
    argv,
    {
      query: { type: 'string', short: 'q' },
      limit: { type: 'string', short: 'k' },
      offset: { type: 'string' },
      nodes: { type: 'string' },
      type: { type: 'string', multiple: true },
      tag: { type: 'string', multiple: true },
      'all-tags': { type: 'string', multiple: true },
      since: { type: 'string' },
      until: { type: 'string' },
      'indexed-since': { type: 'string' },
      'indexed-until': { type: 'string' },
      path: { type: 'string' },
      meta: { type: 'string', multiple: true },
      mode: { type: 'string' },
      explain: { type: 'boolean' },
      overview: { type: 'boolean' },
    },
    USAGE,
  );
  if (values['help']) return writeOut(HELP);
  const root = locateStore(strOption(values, 'store'));
  const maxChars = intOption(values, 'max-chars', DEFAULT_SEARCH_MAX_CHARS, 200);
  if (values['overview']) {
    const { overviewAnswer, renderOverviewText } = await import('../retrieve/overview-answer.js');
    const answer = await overviewAnswer(root, maxChars);
    if (values['text']) writeOut(renderOverviewText(answer));
    else emitJson(answer);
    return;
  }
  const query = [strOption(values, 'query') ?? '', ...positionals].join(' ').trim();
  if (!query) throw new UserError('Missing the query.', `Expected: ${USAGE}`, EXIT.USAGE);
  const mode = strOption(values, 'mode') ?? 'auto';
  if (!(SEARCH_MODES as readonly string[]).includes(mode)) throw new UserError(`Unknown --mode "${mode}".`, `Expected one of: ${SEARCH_MODES.join(', ')}.`, EXIT.USAGE);
  const answer = await runSearch(root, query, {
    limit: intOption(values, 'limit', DEFAULT_SEARCH_LIMIT, 1),
    offset: intOption(values, 'offset', 0),
    nodesPerSource: intOption(values, 'nodes', 3, 0),
    filters: filtersOf(values),
    mode: mode as NonNullable<SearchOptions['mode']>,
    explain: !!values['explain'],
    maxChars,
  });
  if (answer.mode === 'keyword' && mode !== 'keyword' && !skillConfig.mhub_home && !process.env['MHUB_HOME'] && answer.warnings.some((w) => /not available|not installed/.test(w))) {
    answer.warnings.push('this copy of the skill does not know where MetadataHub is installed (no "mhub_home" in its config.json), so it cannot load the embedding model; reinstall it with `mhub skill install` or set $MHUB_HOME');
  }
  if (values['text']) writeOut(renderSearchText(answer));
  else emitJson(answer);
});
