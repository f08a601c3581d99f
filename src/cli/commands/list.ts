import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { readCatalog } from '../../store/catalog.js';
import { UserError } from '../../store/errors.js';
import { EXIT } from '../../util/exit-codes.js';
import { applyFilters, hasFilters } from '../../search/filters.js';
import { checkTypeFilter } from '../../search/arguments.js';
import type { CatalogEntry } from '../../store/schemas.js';
import { addFilterOptions } from './search.js';
import { parseFilterFlags, type FilterFlags } from '../../search/filter-flags.js';
import { globalOpts, printJson } from '../output.js';

const STATUSES = ['indexed', 'skipped', 'failed', 'all'];
const TITLE_WIDTH = 60;

interface ListFlags extends FilterFlags {
  json?: boolean;
  status?: string;
}

function line(e: CatalogEntry): string {
  const when = e.date || e.period || '';
  const size = e.pages ? `${e.pages}p` : `${e.node_count}n`;
  const title = e.title.length > TITLE_WIDTH ? e.title.slice(0, TITLE_WIDTH - 1) + '…' : e.title;
  const extra = e.status === 'indexed' ? (e.tags.length ? `  [${e.tags.slice(0, 4).join(', ')}]` : '') : `  ${e.status.toUpperCase()}: ${e.error ?? ''}`;
  return `${e.id}  ${e.type.padEnd(8)} ${size.padStart(5)}  ${when.padEnd(10)} ${title}  (${e.original_path})${extra}`;
}

export function registerList(program: Command): void {
  const cmd = program
    .command('list')
    .description('list catalogued sources, with the same filters as `mhub search` (no embeddings needed)')
    .option('--status <status>', 'indexed | skipped | failed | all', 'indexed')
    .option('--json', 'machine-readable output (full catalog entries)');
  addFilterOptions(cmd).action((flags: ListFlags, c: Command) => {
    const root = requireStore({ store: globalOpts(c).store });
    const status = flags.status ?? 'indexed';
    if (!STATUSES.includes(status)) throw new UserError(`--status must be one of ${STATUSES.join(', ')} (got ${status})`, '', EXIT.USAGE);
    const filters = parseFilterFlags(flags);
    const all = readCatalog(root).sources;
    let entries: CatalogEntry[];
    checkTypeFilter(filters.types, all);
    if (status === 'indexed') entries = applyFilters(all, filters);
    else {
      if (hasFilters(filters)) throw new UserError('Filters apply to indexed sources only.', 'Drop the filters, or use --status indexed.', EXIT.USAGE);
      entries = status === 'all' ? all : all.filter((e) => e.status === status);
    }
    if (flags.json) return printJson({ count: entries.length, total: all.length, filters, sources: entries });
    for (const e of entries) console.log(line(e));
    console.log(`${entries.length} of ${all.length} sources${hasFilters(filters) ? ' match the filters' : ''}.`);
  });
}
