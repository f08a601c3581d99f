import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { UserError } from '../../store/errors.js';
import { EXIT } from '../../util/exit-codes.js';
import { globalOpts, printJson, eprint } from '../output.js';
import { searchStore } from '../../search/search.js';
import { parseFilterFlags, type FilterFlags } from '../../search/filter-flags.js';
import type { SearchResult, NodeHit } from '../../search/types.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Adds the shared filter options (also used by `mhub list`); values are parsed by search/filter-flags.ts. */
export function addFilterOptions(cmd: Command): Command {
  return cmd
    .option('--type <type>', 'source type or doc type (repeatable, comma-separated: any of)', collect)
    .option('--tag <tag>', 'tag (repeatable, comma-separated: any of)', collect)
    .option('--all-tags <tag>', 'tag that must be present (repeatable: all of)', collect)
    .option('--since <date>', 'document date/period on or after YYYY[-MM[-DD]]')
    .option('--until <date>', 'document date/period on or before YYYY[-MM[-DD]]')
    .option('--indexed-since <date>', 'indexed on or after YYYY[-MM[-DD]]')
    .option('--indexed-until <date>', 'indexed on or before YYYY[-MM[-DD]]')
    .option('--path <glob>', 'glob over the original path, e.g. "reports/**/*.pdf"')
    .option('--meta <key=value>', 'exact metadata match (repeatable)', collect);
}

function where(n: NodeHit): string {
  if (n.page_range) return n.page_range[0] === n.page_range[1] ? `p.${n.page_range[0]}` : `pp.${n.page_range[0]}-${n.page_range[1]}`;
  if (n.line_range) return n.line_range[0] === n.line_range[1] ? `line ${n.line_range[0]}` : `lines ${n.line_range[0]}-${n.line_range[1]}`;
  if (n.row_range) {
    const rows = n.row_range[0] === n.row_range[1] ? `row ${n.row_range[0]}` : `rows ${n.row_range[0]}-${n.row_range[1]}`;
    // a row hit is titled after its row ("debian-releases row 17"): said once
    return n.title.endsWith(rows) ? '' : rows;
  }
  return '';
}

export function formatSearch(r: SearchResult): string {
  const lines: string[] = [];
  if (r.results.length === 0) lines.push(`No source matches "${r.query}" (verdict: none).`);
  r.results.forEach((h, i) => {
    lines.push(`${i + 1}. ${h.title}  [${h.id}] ${h.type} · ${h.file}`);
    lines.push(`   relevance ${h.relevance.toFixed(2)} (${h.verdict}) · score ${h.score}`);
    if (h.summary) lines.push(`   ${h.summary.replace(/\s+/g, ' ').slice(0, 200)}`);
    for (const n of h.nodes) lines.push(`   → ${n.node_id} ${n.title} ${where(n)}`.trimEnd());
    if (h.explain) lines.push(`   explain: ${Object.entries(h.explain).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  });
  lines.push(`(${r.mode} search, verdict ${r.verdict})`);
  return lines.join('\n');
}

interface SearchFlags extends FilterFlags {
  k?: string;
  json?: boolean;
  explain?: boolean;
  mode?: string;
}

export function registerSearch(program: Command): void {
  const cmd = program
    .command('search <query...>')
    .description('find the sources (and the places inside them) that answer a query: keyword + vector hybrid')
    .option('-k <n>', 'number of sources to return')
    .option('--mode <mode>', 'auto | keyword | hybrid | vector', 'auto')
    .option('--json', 'machine-readable output')
    .option('--explain', "show each signal's contribution");
  addFilterOptions(cmd).action(async (words: string[], flags: SearchFlags, c: Command) => {
    const root = requireStore({ store: globalOpts(c).store });
    const k = flags.k !== undefined ? Number(flags.k) : undefined;
    if (k !== undefined && (!Number.isInteger(k) || k <= 0)) throw new UserError(`-k must be a positive integer (got ${flags.k})`, 'Example: -k 5', EXIT.USAGE);
    const mode = flags.mode ?? 'auto';
    if (!['auto', 'keyword', 'hybrid', 'vector'].includes(mode)) throw new UserError(`--mode must be auto, keyword, hybrid or vector (got ${mode})`, '', EXIT.USAGE);
    const query = words.join(' ').trim();
    if (!query) throw new UserError('empty query', 'Example: mhub search "FY2018 capital expenditure 3M"', EXIT.USAGE);
    const r = await searchStore(root, query, {
      k, filters: parseFilterFlags(flags), explain: !!flags.explain, mode: mode as 'auto',
    });
    if (flags.json) printJson(r);
    else {
      console.log(formatSearch(r));
      for (const w of r.warnings) eprint(`warning: ${w}`);
      if (r.freshness.warning) eprint(`warning: ${r.freshness.warning}`);
    }
  });
}
