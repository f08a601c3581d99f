/** deep_retrieve: a source's tree with summaries, and the nodes best matching a question. */
import './boot.js';
import { parse, runScript, emitJson, writeOut, intOption, strOption, locateStore, EXIT_CODES_HELP, COMMON_OPTIONS_HELP } from './runtime.js';
import { deepRetrieve, DEFAULT_SUGGESTIONS, DEFAULT_TREE_MAX_CHARS } from '../retrieve/deep.js';
import { renderDeepText } from '../retrieve/render.js';
import { DEFAULT_TREE_DEPTH, DEFAULT_TREE_MAX_NODES, QUERY_TREE_DEPTH } from '../retrieve/tree-view.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

const USAGE = 'deep_retrieve.js <source> [--query "question"] [--depth N] [--node ID] [--limit N] [--k N] [--no-vectors]';

const HELP = `Usage: ${USAGE}

Shows the outline of one source (node ids, titles, pages/lines/rows, summaries) and, with --query,
the nodes that best answer the question (keyword scoring over titles, summaries and text, fused
with node vectors when the store has them).
Read the chosen nodes with read_source.js.
  <source>         source id (src_…) or file name from search.js
  --query Q        rank this source's nodes for Q ("suggestions"; each spans at most a few pages)
  --k N            number of suggestions (default ${DEFAULT_SUGGESTIONS})
  --depth N        outline levels below the start node (default ${DEFAULT_TREE_DEPTH}, ${QUERY_TREE_DEPTH} with --query; 0 = the node only)
  --node ID        start the outline at this node (to expand a part marked hidden_descendants)
  --limit N        at most N outline nodes, breadth first (default ${DEFAULT_TREE_MAX_NODES})
  --no-vectors     keyword ranking only (skips loading the embedding model); by default node
                   vectors are used when the store has them and the model is installed
  --no-summaries   titles and ranges only
  --max-chars N    bound on the whole answer (default ${DEFAULT_TREE_MAX_CHARS}); summaries and nodes
                   are trimmed to fit, "truncated" says so

Output (JSON): id, title, file, type, toc_source, page_count|line_count, node_count, summary,
verdict (with --query: how sure the first suggestion is, strong | weak | none),
suggestions [{node_id, title, page_range|line_range|row_range, score, relevance, verdict, summary,
path}], warnings,
root {node_id, title, summary, page_range…, children […], hidden_descendants}, truncated, next,
freshness {built_at, stale, warning}.

${COMMON_OPTIONS_HELP}

${EXIT_CODES_HELP}`;

await runScript(async (argv) => {
  const { values, positionals } = parse(
    argv,
    {
      query: { type: 'string', short: 'q' },
      k: { type: 'string' },
      depth: { type: 'string' },
      node: { type: 'string' },
      limit: { type: 'string' },
      'no-summaries': { type: 'boolean' },
      vectors: { type: 'boolean' },
      'no-vectors': { type: 'boolean' },
    },
    USAGE,
  );
  if (values['help']) return writeOut(HELP);
  const [source, ...extra] = positionals;
  if (!source) throw new UserError('Missing <source>.', `Expected: ${USAGE}`, EXIT.USAGE);
  if (extra.length > 0) throw new UserError(`Unexpected argument "${extra[0]}".`, `Expected: ${USAGE} (quote a multi-word --query).`, EXIT.USAGE);
  const root = locateStore(strOption(values, 'store'));
  const answer = await deepRetrieve(root, source, {
    query: strOption(values, 'query'),
    k: intOption(values, 'k', DEFAULT_SUGGESTIONS, 1),
    depth: values['depth'] === undefined ? undefined : intOption(values, 'depth', DEFAULT_TREE_DEPTH, 0),
    maxNodes: intOption(values, 'limit', DEFAULT_TREE_MAX_NODES, 1),
    summaries: !values['no-summaries'],
    fromNode: strOption(values, 'node'),
    maxChars: intOption(values, 'max-chars', DEFAULT_TREE_MAX_CHARS, 200),
    vectors: !values['no-vectors'],
  });
  if (values['text']) writeOut(renderDeepText(answer));
  else emitJson(answer);
});
