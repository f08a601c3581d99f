/** `mhub tree <source> [--query Q]`: a source's outline with summaries, and the nodes that best match a question. */
import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { deepRetrieve, DEFAULT_SUGGESTIONS } from '../../retrieve/deep.js';
import { renderDeepText } from '../../retrieve/render.js';
import { globalOpts, printJson } from '../output.js';
import { UserError } from '../../store/errors.js';
import { EXIT } from '../../util/exit-codes.js';

/** People get the whole tree unless they ask for less. */
const CLI_TREE_DEPTH = 1000;
const CLI_TREE_MAX_NODES = 1_000_000;

interface TreeFlags {
  query?: string;
  depth?: string;
  node?: string;
  limit?: string;
  suggestions?: string;
  summaries?: boolean;
  keyword?: boolean;
  json?: boolean;
}

function whole(name: string, v: string | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UserError(`--${name} must be a whole number >= ${min} (got "${v}").`, `Expected e.g. --${name} ${Math.max(min, 2)}.`, EXIT.USAGE);
  return Number(v);
}

export function registerTree(program: Command): void {
  program
    .command('tree <source>')
    .description('show a source\'s tree (node ids, titles, pages, summaries); with --query, the best nodes for it')
    .option('-q, --query <text>', 'rank this source\'s nodes for a question (suggestions)')
    .option('--depth <n>', 'levels shown below the start node (default: all)')
    .option('--node <id>', 'start at this node')
    .option('--limit <n>', 'at most N nodes (breadth first)')
    .option('-k, --suggestions <n>', `number of suggestions (default ${DEFAULT_SUGGESTIONS})`)
    .option('--no-summaries', 'titles and ranges only')
    .option('--keyword', 'keyword scoring only for suggestions (no embedding model)')
    .option('--json', 'JSON: {id, title, toc_source, root, suggestions, …}')
    .addHelpText('after', '\n<source> is a source id (src_…) or a file name. Exit codes: 0 ok, 2 bad arguments, 4 no such store/source/node, 5 damaged store.')
    .action(async (source: string, flags: TreeFlags, cmd: Command) => {
      const root = requireStore({ store: globalOpts(cmd).store });
      const answer = await deepRetrieve(root, source, {
        query: flags.query,
        depth: whole('depth', flags.depth, CLI_TREE_DEPTH, 0),
        maxNodes: whole('limit', flags.limit, CLI_TREE_MAX_NODES, 1),
        k: whole('suggestions', flags.suggestions, DEFAULT_SUGGESTIONS, 1),
        summaries: flags.summaries !== false,
        fromNode: flags.node,
        maxChars: Number.POSITIVE_INFINITY,
        vectors: !flags.keyword,
      });
      if (flags.json) printJson(answer);
      else console.log(renderDeepText(answer));
    });
}
