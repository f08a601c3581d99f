/** A small store for search tests: three markdown documents ingested with a chosen embedding model. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest, type IngestReport } from '../../src/ingest/pipeline.js';
import { tempStore } from './temp-store.js';

export const TINY_MODELS_DIR = join(import.meta.dirname, '..', 'fixtures', 'models');
export const TINY_MODEL = 'minilm:tiny/embed';

export const DOCS: Record<string, string> = {
  'finance/acme-annual-fy2018.md': [
    '# Acme Corp annual report FY2018',
    '',
    'Acme Corp (ticker ACME) reports fiscal year 2018 results. Part number ACME-7 shipped widely.',
    '',
    '## Capital expenditure',
    '',
    'Capital expenditures were 1,577 million USD in FY2018, mostly new plants and equipment.',
    'The cash flow statement shows purchases of property, plant and equipment.',
    '',
    '## Revenue',
    '',
    'Net sales grew 4 percent to 32,765 million USD; operating income rose.',
    '',
  ].join('\n'),
  'garden/orchard-2021.md': [
    '# Orchard notes 2021',
    '',
    'Apple trees, pear trees and the watering schedule for the orchard in spring.',
    '',
    '## Pruning',
    '',
    'Prune in late winter. Remove crossing branches and keep the centre open for light.',
    '',
    '## Soil and water',
    '',
    'Mulch keeps the soil moist; water young trees weekly in dry weeks.',
    '',
  ].join('\n'),
  'code/rust-build-guide.md': [
    '# Rust build guide',
    '',
    'How the compiler, cargo and crates fit together in our build.',
    '',
    '## Cargo workspaces',
    '',
    'A workspace shares one Cargo.lock and one target folder between member crates.',
    '',
    '## Release profiles',
    '',
    'Use opt-level 3 and lto for release builds of the indexer.',
    '',
  ].join('\n'),
};

export interface BuiltStore {
  root: string;
  report: IngestReport;
}

/** Writes the docs into a fresh store's inbox, pins the embedding model, ingests. */
export async function searchStoreFixture(model: string, opts: { modelsDir?: string; docs?: Record<string, string> } = {}): Promise<BuiltStore> {
  const root = tempStore();
  const cfgPath = join(root, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.embedding.model = model;
  cfg.embedding.models_dir = opts.modelsDir ?? TINY_MODELS_DIR;
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
  for (const [rel, text] of Object.entries(opts.docs ?? DOCS)) {
    const p = join(root, 'inbox', rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  }
  const report = await ingest(root, { paths: [join(root, 'inbox')], llm: 'none', now: () => new Date('2026-01-02T03:04:05Z') });
  return { root, report };
}
