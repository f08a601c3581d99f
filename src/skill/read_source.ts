/** read_source: the text of one node, or a page / row / line range, of a source, with a citation. */
import './boot.js';
import { parse, runScript, emitJson, writeOut, intOption, strOption, locateStore, EXIT_CODES_HELP, COMMON_OPTIONS_HELP } from './runtime.js';
import { readSource, readSourceParts, splitReadRequest, MAX_READ_PARTS, AROUND_CHARS } from '../retrieve/read.js';
import { renderReadText } from '../retrieve/render.js';
import { DEFAULT_READ_CHARS } from '../retrieve/bounded.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

const USAGE = 'read_source.js <source> [node-id …] [--pages A-B[,C-D] | --rows A-B | --stats | --lines A-B[,C-D]] [--around WORDS] [--offset N] [--max-chars N]';

const HELP = `Usage: ${USAGE}

Returns the text of one part of a source, plus a citation (file, pages/rows/lines, node id, sha256).
  <source>         source id (src_…) or file name, as shown by search.js / deep_retrieve.js
  [node-id]        a node_id from search.js or deep_retrieve.js; its own text then its sub-sections'
                   text (default: the whole document, paged with --offset); several node ids
                   (up to ${MAX_READ_PARTS}) read each of them in one call
  --pages A-B      pages A to B of a PDF or other paged source (page markers <!-- page N --> kept; with a
                   node id, pages inside that node);
                   several ranges comma-separated, e.g. --pages 59,63 (up to ${MAX_READ_PARTS})
  --rows A-B       data rows A to B of a spreadsheet (1 = first data row); with a node id or
  --sheet NAME     --sheet, from that sheet; returns columns + rows
  --stats          a spreadsheet's column statistics (type, min/max/mean, dates, distinct, top values)
  --lines A-B      lines A to B of a text, Markdown or code source (comma-separated ranges too)
  --no-children    a node's own text only, without its sub-sections
  --around WORDS   only about ${AROUND_CHARS} characters (at most --max-chars) of the node or range,
                   where WORDS are densest, with the page marker in force there: a long node's
                   answer without the rest of it
  --offset N       continue a long answer: pass the "next" offset of the previous call
  --max-chars N    characters of text per call (default ${DEFAULT_READ_CHARS})

Output (JSON): id, file, title, type, mode, node {node_id, title, path, page_range…, meta},
text (or columns + rows, or column_stats), truncated, next (arguments for the following call, or null),
citation {source_id, file, node_id, pages|rows|lines, sha256, text}, freshness {built_at, stale…}.
Several parts: {"parts": [one such answer per part, in the order asked]}; each part is bounded by
--max-chars on its own.

${COMMON_OPTIONS_HELP}

${EXIT_CODES_HELP}`;

await runScript(async (argv) => {
  const { values, positionals } = parse(
    argv,
    {
      pages: { type: 'string' },
      rows: { type: 'string' },
      lines: { type: 'string' },
      sheet: { type: 'string' },
      stats: { type: 'boolean' },
      offset: { type: 'string' },
      'no-children': { type: 'boolean' },
      around: { type: 'string' },
    },
    USAGE,
  );
  if (values['help']) return writeOut(HELP);
  const [source, ...nodeIds] = positionals;
  if (!source) throw new UserError('Missing <source>.', `Expected: ${USAGE}`, EXIT.USAGE);
  const root = locateStore(strOption(values, 'store'));
  const parts = splitReadRequest(nodeIds, {
    pages: strOption(values, 'pages'),
    rows: strOption(values, 'rows'),
    lines: strOption(values, 'lines'),
    sheet: strOption(values, 'sheet'),
    stats: !!values['stats'],
    offset: intOption(values, 'offset', 0),
    // unset: the read's default size, or AROUND_CHARS for --around (which --max-chars widens or narrows)
    maxChars: values['max-chars'] === undefined ? undefined : intOption(values, 'max-chars', DEFAULT_READ_CHARS, 1),
    children: !values['no-children'],
    around: strOption(values, 'around'),
  });
  if (parts.length > 1) {
    const answer = readSourceParts(root, source, parts);
    if (values['text']) writeOut(answer.parts.map(renderReadText).join('\n\n---\n\n'));
    else emitJson(answer);
    return;
  }
  const answer = readSource(root, source, parts[0]!);
  if (values['text']) writeOut(renderReadText(answer));
  else emitJson(answer);
});
