/**
 * lookup/ (the catalog split by source) and answer-scoped freshness: retrieval reads one source's
 * entries file and the sources' rows, never catalog.json whole; a store without a current lookup/
 * still answers, reading the catalog, and says how to fix it; staleness of what an answer returns,
 * and files added or removed anywhere, are still reported.
 */
import { describe, it, expect } from 'vitest';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skillStoreCopies, runScript } from './helpers/skill-store.js';
import { searchStore } from '../src/search/search.js';
import { deepRetrieve } from '../src/retrieve/deep.js';
import { readSource } from '../src/retrieve/read.js';
import { readCatalog } from '../src/store/catalog.js';
import { checkFreshness } from '../src/search/freshness.js';
import { ingest } from '../src/ingest/pipeline.js';
import { doctor } from '../src/admin/doctor.js';
import { doctorFix } from '../src/admin/doctor-fix.js';
import { LOOKUP_ENTRIES_DIR, LOOKUP_MANIFEST_FILE, LOOKUP_ROWS_FILE, SOURCE_ROW_COLUMNS } from '../src/store/lookup.js';

const stores = skillStoreCopies('mhub-lookup-');
const copy = stores.copy;

const idOf = (root: string, name: string) => readCatalog(root).sources.find((e) => e.filename === name)!.id;
const QUERY = 'billing release';

/** What the three retrieval paths answer (without freshness, which has the build time). */
async function answers(root: string) {
  const s = await searchStore(root, QUERY, { mode: 'keyword' });
  const id = s.results[0]!.id;
  const d = await deepRetrieve(root, id, { query: QUERY, vectors: false });
  const r = readSource(root, id, { lines: '1-5' });
  return { search: s.results, searchWarnings: s.warnings, deep: [d.suggestions, d.root, d.warnings], read: [r.text, r.citation, r.warnings] };
}

describe('lookup/', () => {
  it('holds every catalog entry once, in files by id prefix, and one row per source', () => {
    const catalog = readCatalog(stores.base());
    const files = readdirSync(join(stores.base(), LOOKUP_ENTRIES_DIR)).sort();
    const entries = files.flatMap((f) => JSON.parse(readFileSync(join(stores.base(), LOOKUP_ENTRIES_DIR, f), 'utf8')) as Array<{ id: string }>);
    expect(entries).toEqual(catalog.sources);
    for (const f of files) for (const e of JSON.parse(readFileSync(join(stores.base(), LOOKUP_ENTRIES_DIR, f), 'utf8')) as Array<{ id: string }>) expect(e.id.slice(4)).toMatch(new RegExp(`^${f.replace('.json', '')}`));
    const lines = readFileSync(join(stores.base(), LOOKUP_ROWS_FILE), 'utf8').trimEnd().split('\n');
    expect(lines[0]).toBe(SOURCE_ROW_COLUMNS.join('\t'));
    expect(lines.slice(1).map((l) => l.split('\t')[0])).toEqual(catalog.sources.map((e) => e.id));
    const m = JSON.parse(readFileSync(join(stores.base(), LOOKUP_MANIFEST_FILE), 'utf8'));
    expect(m).toMatchObject({ format: 1, source_count: 3, indexed_count: 3, catalog_bytes: statSync(join(stores.base(), 'catalog.json')).size, last_updated: catalog.last_updated });
  });

  it('lets search, deep_retrieve and read_source answer without reading catalog.json', async () => {
    const root = copy();
    const before = await answers(root);
    // same size, not JSON: any reader of the whole catalog would fail
    writeFileSync(join(root, 'catalog.json'), ' '.repeat(statSync(join(root, 'catalog.json')).size));
    expect(await answers(root)).toEqual(before);
    for (const [script, args] of [['search.js', [QUERY]], ['deep_retrieve.js', ['release-runbook.md']], ['read_source.js', ['release-runbook', '--lines', '1-2']]] as const) {
      const r = runScript(script, [...args, '--store', root]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.json.freshness.stale).toBe(false);
    }
  });

  it('falls back to catalog.json, saying how to fix it, when lookup/ is missing or does not match the catalog', async () => {
    const root = copy();
    const before = await answers(root);
    rmSync(join(root, 'lookup'), { recursive: true });
    const old = await answers(root);
    expect(old.search).toEqual(before.search);
    expect(old.searchWarnings.join(' ')).toMatch(/no lookup\/.*run `mhub ingest`/);
    expect(String(old.deep[2])).toMatch(/no lookup\//);
    expect(String(old.read[2])).toMatch(/no lookup\//);
    const r = runScript('read_source.js', ['release-runbook.md', '--lines', '1-2', '--text', '--store', root]);
    expect(r.stdout).toMatch(/warning: this store has no lookup\//);

    // an unchanged re-ingest writes it again; answers are the same and say nothing more
    await ingest(root, { paths: [join(root, 'inbox')], llm: 'none' });
    expect(await answers(root)).toEqual(before);

    // catalog.json edited by hand (another size): read whole, and said
    const text = readFileSync(join(root, 'catalog.json'), 'utf8');
    writeFileSync(join(root, 'catalog.json'), text.replace('"tags": []', '"tags": [ ]'));
    const edited = await searchStore(root, QUERY, { mode: 'keyword' });
    expect(edited.results).toEqual(before.search);
    expect(edited.warnings.join(' ')).toMatch(/catalog\.json changed since lookup\/ was written/);
  });

  it('is written again only where bytes change (unchanged re-ingest leaves every file alone)', async () => {
    const root = copy();
    const stamp = (rel: string) => statSync(join(root, rel)).mtimeMs;
    const files = [LOOKUP_MANIFEST_FILE, LOOKUP_ROWS_FILE, ...readdirSync(join(root, LOOKUP_ENTRIES_DIR)).map((f) => `${LOOKUP_ENTRIES_DIR}/${f}`)];
    const before = files.map(stamp);
    await ingest(root, { paths: [join(root, 'inbox')], llm: 'none' });
    expect(files.map(stamp)).toEqual(before);
  });
});

describe('doctor and lookup/', () => {
  it('warns when lookup/ is missing and --fix writes it', async () => {
    const root = copy();
    rmSync(join(root, 'lookup'), { recursive: true });
    const r = await doctor(root);
    expect(r.problems.map((p) => [p.code, p.severity])).toContainEqual(['lookup_missing', 'warning']);
    const fix = await doctorFix(root);
    expect(fix.actions).toContainEqual({ action: 'lookup', subject: 'lookup', ok: true });
    expect(fix.after.problems.filter((p) => p.code.startsWith('lookup'))).toEqual([]);
    expect((await searchStore(root, QUERY, { mode: 'keyword' })).warnings.join(' ')).not.toMatch(/lookup/);
  });

  it('finds a catalog edited without changing its size, which queries cannot see, and --fix rebuilds lookup/', async () => {
    const root = copy();
    const id = idOf(root, 'release-runbook.md');
    const catalog = readCatalog(root);
    const title = catalog.sources.find((e) => e.id === id)!.title;
    const renamed = (title[0] === 'X' ? 'Y' : 'X') + title.slice(1);
    const text = readFileSync(join(root, 'catalog.json'), 'utf8');
    writeFileSync(join(root, 'catalog.json'), text.replace(`"title": ${JSON.stringify(title)}`, `"title": ${JSON.stringify(renamed)}`));
    expect((await searchStore(root, QUERY, { mode: 'keyword' })).results.find((h) => h.id === id)?.title).toBe(title);
    const r = await doctor(root);
    expect(r.problems.find((p) => p.code === 'lookup_stale')).toMatchObject({ severity: 'error', subject: 'lookup' });
    await doctorFix(root);
    expect((await searchStore(root, QUERY, { mode: 'keyword' })).results.find((h) => h.id === id)?.title).toBe(renamed);
    expect((await doctor(root)).healthy).toBe(true);
  });
});

describe('answer-scoped freshness', () => {
  it('reports a returned source edited in place, and leaves unreturned ones to the full check', async () => {
    const root = copy();
    const id = idOf(root, 'release-runbook.md');
    appendFileSync(join(root, 'inbox', 'release-runbook.md'), '\nOne more line.\n');
    const s = await searchStore(root, QUERY, { mode: 'keyword' });
    expect(s.results.map((h) => h.id)).toContain(id);
    expect(s.freshness).toMatchObject({ stale: true, changed: 1, examples: ['inbox/release-runbook.md'] });
    expect(readSource(root, id, { lines: '1-2' }).freshness).toMatchObject({ stale: true, changed: 1 });
    // an answer about another source does not stat this one; the full check (status, overview) does
    const other = readSource(root, idOf(root, 'harbor-report.pdf'), { pages: '1-1' });
    expect(other.freshness.stale).toBe(false);
    expect(checkFreshness(root, readCatalog(root))).toMatchObject({ stale: true, changed: 1 });
  });

  it('reports files added (in a new inbox folder too) or deleted anywhere, whatever the answer returns', async () => {
    const root = copy();
    const pdf = idOf(root, 'harbor-report.pdf');
    mkdirSync(join(root, 'inbox', 'later', 'deeper'), { recursive: true });
    writeFileSync(join(root, 'inbox', 'later', 'deeper', 'notes.txt'), 'new notes\n');
    let f = readSource(root, pdf, { pages: '1-1' }).freshness;
    expect(f).toMatchObject({ stale: true, new_files: 1, examples: ['inbox/later/deeper/notes.txt'] });
    rmSync(join(root, 'inbox', 'spare-parts-inventory.xlsx'));
    f = readSource(root, pdf, { pages: '1-1' }).freshness;
    expect(f).toMatchObject({ stale: true, missing: 1, new_files: 1 });
    expect(f.warning).toMatch(/1 deleted, 1 new in the inbox/);
  });

  it('counts the files of an inbox created after the last ingest (sources ingested from elsewhere)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mhub-lookup-ext-'));
    stores.track(root);
    cpSync(join(stores.base(), 'config.json'), join(root, 'config.json'));
    mkdirSync(join(root, 'docs'));
    cpSync(join(stores.base(), 'inbox', 'release-runbook.md'), join(root, 'docs', 'release-runbook.md'));
    await ingest(root, { paths: [join(root, 'docs')], llm: 'none' });
    const id = idOf(root, 'release-runbook.md');
    expect(readSource(root, id, { lines: '1-2' }).freshness.stale).toBe(false);
    mkdirSync(join(root, 'inbox'));
    writeFileSync(join(root, 'inbox', 'later.txt'), 'added later\n');
    expect(readSource(root, id, { lines: '1-2' }).freshness).toMatchObject({ stale: true, new_files: 1, examples: ['inbox/later.txt'] });
  });

  it('uses the full check when the local stamps are gone (a fresh clone)', () => {
    const root = copy();
    rmSync(join(root, '.mhub'), { recursive: true, force: true });
    writeFileSync(join(root, 'inbox', 'release-runbook.md'), readFileSync(join(root, 'inbox', 'release-runbook.md'), 'utf8').repeat(3));
    const other = readSource(root, idOf(root, 'harbor-report.pdf'), { pages: '1-1' });
    expect(other.freshness).toMatchObject({ stale: true, changed: 1 });
  });
});
