/** `mhub read <source> [node-id] [--pages A-B | --rows A-B | --lines A-B] [--around WORDS]`: text of a part of a source, with a citation. */
import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { AROUND_CHARS, readSource } from '../../retrieve/read.js';
import { renderReadText } from '../../retrieve/render.js';
import { globalOpts, printJson } from '../output.js';
import { UserError } from '../../store/errors.js';
import { EXIT } from '../../util/exit-codes.js';

/** People read whole sections; the window is still bounded. */
const CLI_READ_CHARS = 50_000;

interface ReadFlags {
  pages?: string;
  rows?: string;
  lines?: string;
  sheet?: string;
  stats?: boolean;
  around?: string;
  offset?: string;
  maxChars?: string;
  children?: boolean;
  json?: boolean;
}

function whole(name: string, v: string | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UserError(`--${name} must be a whole number >= ${min} (got "${v}").`, `Expected e.g. --${name} ${Math.max(min, 1000)}.`, EXIT.USAGE);
  return Number(v);
}

export function registerRead(program: Command): void {
  program
    .command('read <source> [node-id]')
    .description('print the text of a node (or --pages / --rows / --lines) of a source, with a citation')
    .option('--pages <A-B>', 'pages A to B of a paged source')
    .option('--rows <A-B>', 'data rows A to B of a spreadsheet (with a node id or --sheet)')
    .option('--sheet <name>', 'the sheet for --rows / --stats')
    .option('--stats', 'a spreadsheet\'s column statistics')
    .option('--lines <A-B>', 'lines A to B of a text or code source')
    .option('--around <words>', `only about ${AROUND_CHARS} characters (at most --max-chars) where the words occur as written, else where they are densest`)
    .option('--offset <n>', 'continue a long text from this character')
    .option('--max-chars <n>', `characters of text (default ${CLI_READ_CHARS})`)
    .option('--no-children', 'a node\'s own text only, without its sub-sections')
    .option('--json', 'JSON with text, citation and freshness')
    .addHelpText('after', '\nExit codes: 0 ok, 2 bad arguments, 4 no such store/source/node/page/row, 5 damaged store.')
    .action((source: string, nodeId: string | undefined, flags: ReadFlags, cmd: Command) => {
      const root = requireStore({ store: globalOpts(cmd).store });
      const answer = readSource(root, source, {
        nodeId,
        pages: flags.pages,
        rows: flags.rows,
        lines: flags.lines,
        sheet: flags.sheet,
        stats: !!flags.stats,
        around: flags.around,
        offset: whole('offset', flags.offset, 0, 0),
        maxChars: flags.around !== undefined && flags.maxChars === undefined ? undefined : whole('max-chars', flags.maxChars, CLI_READ_CHARS, 1),
        children: flags.children !== false,
      });
      if (flags.json) printJson(answer);
      else console.log(renderReadText(answer));
    });
}
