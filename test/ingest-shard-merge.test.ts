import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES, storePaths } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';
import { inShard, parseShard, shardOf } from '../src/ingest/shard.js';

/** Every file under a store except local state (.mhub/), path → bytes. */
function files(root: string): Map<string, Buffer> {
  return new Map([...storePaths(root)].map(([rel, abs]) => [rel, readFileSync(abs)]));
}

function ids(store: string): string[] {
  return (JSON.parse(readFileSync(join(store, 'catalog.json'), 'utf8')) as { sources: Array<{ id: string }> }).sources.map((s) => s.id);
}

const INBOX: Array<[string, string]> = [
  ['guide.md', 'foundation/guide.md'],
  ['notes.txt', 'foundation/notes.txt'],
  ['with-outline.pdf', 'foundation/with-outline.pdf'],
  ['no-outline.pdf', 'foundation/no-outline.pdf'],
  ['corrupt.pdf', 'foundation/corrupt.pdf'],
  ['data/sales.csv', 'formats/sales.csv'],
  ['data/teams.tsv', 'formats/teams.tsv'],
  ['docs/manual.pdf', 'pdf/manual.pdf'],
  ['docs/annual-report.pdf', 'pdf/annual-report.pdf'],
  ['docs/field-study.pdf', 'pdf/field-study.pdf'],
  ['bundle.zip', 'formats/bundle.zip'],
];
const SHARDS = 3;
const ENV = { SOURCE_DATE_EPOCH: '1767225600' };

describe('mhub ingest --shard i/N + mhub merge', () => {
  let dir: string;
  let inbox: string;
  const store = (name: string) => join(dir, name);
  const run = (args: string[]) => mhub(args, { cwd: dir, env: ENV });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mhub-shard-'));
    inbox = join(dir, 'library');
    for (const [to, from] of INBOX) {
      mkdirSync(join(inbox, to, '..'), { recursive: true });
      cpSync(join(FIXTURES, from), join(inbox, to));
    }
    expect(run(['--store', store('full'), 'ingest', '--llm', 'none', '--quiet', inbox]).code).toBe(1); // corrupt.pdf fails
    for (let i = 1; i <= SHARDS; i++) {
      const r = run(['--store', store(`part-${i}`), 'ingest', '--shard', `${i}/${SHARDS}`, '--llm', 'none', '--quiet', inbox]);
      expect([0, 1]).toContain(r.code);
    }
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('slices the inbox into disjoint shards that cover it', () => {
    const all = ids(store('full')).sort();
    const parts = Array.from({ length: SHARDS }, (_, i) => ids(store(`part-${i + 1}`)));
    expect(parts.flat().sort()).toEqual(all);
    expect(new Set(parts.flat()).size).toBe(all.length);
    expect(parts.filter((p) => p.length > 0).length).toBeGreaterThan(1);
    expect(JSON.parse(readFileSync(join(store('part-2'), 'shard.json'), 'utf8'))).toMatchObject({ shard: '2/3', index: 2, count: 3 });
    // a partial store watches its slice only: the other shards' files are not pending in it
    const status = JSON.parse(run(['--store', store('part-2'), 'status', '--json']).stdout);
    expect(status.shard).toBe('2/3');
    expect(status.pending.new).toEqual([]);
  });

  it('merges into a store byte-identical to a single ingest, embedding nothing again', () => {
    const r = run(['--store', store('merged'), 'merge', '--json', ...Array.from({ length: SHARDS }, (_, i) => store(`part-${i + 1}`))]);
    expect(r.code).toBe(1); // the failed corrupt.pdf is carried over, as ingest reports it
    const report = JSON.parse(r.stdout);
    expect(report.complete).toBe(true);
    expect(report.counts.added).toBe(ids(store('full')).length);
    const vectors = report.indexes.find((x: { name: string }) => x.name === 'vectors');
    expect(vectors.stats.cards_embedded).toBe(0);
    expect(vectors.stats.nodes_embedded).toBe(0);
    const want = files(store('full'));
    const got = files(store('merged'));
    expect([...got.keys()]).toEqual([...want.keys()]);
    for (const [rel, bytes] of want) expect(got.get(rel)!.equals(bytes), rel).toBe(true);
    expect(existsSync(join(store('merged'), 'shard.json'))).toBe(false);
  });

  it('leaves a merged store unchanged on re-ingest and on the same merge again', () => {
    const before = files(store('merged'));
    const re = JSON.parse(run(['--store', store('merged'), 'ingest', '--llm', 'none', '--json', inbox]).stdout);
    expect(re.counts.unchanged).toBe(before.size > 0 ? ids(store('full')).length : 0);
    const again = JSON.parse(run(['--store', store('merged'), 'merge', '--json', ...Array.from({ length: SHARDS }, (_, i) => store(`part-${i + 1}`))]).stdout);
    expect(again.counts.unchanged).toBe(ids(store('full')).length);
    const after = files(store('merged'));
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [rel, bytes] of before) expect(after.get(rel)!.equals(bytes), rel).toBe(true);
  });

  it('refuses overlapping shards, a shard given twice, and a full store mixed with a shard', () => {
    const twice = run(['--store', store('bad-1'), 'merge', store('part-1'), store('part-1')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/given twice/);
    const overlap = run(['--store', store('bad-2'), 'merge', store('part-1'), store('full')]);
    expect(overlap.code).toBe(2);
    expect(overlap.stderr).toMatch(/overlap/);
  });

  it('refuses partial stores with different configs', () => {
    const copy = store('part-2-other-config');
    cpSync(store('part-2'), copy, { recursive: true });
    const cfg = JSON.parse(readFileSync(join(copy, 'config.json'), 'utf8'));
    cfg.ingest = { max_leaf_pages: 9 };
    writeFileSync(join(copy, 'config.json'), JSON.stringify(cfg, null, 2) + '\n');
    const r = run(['--store', store('bad-3'), 'merge', store('part-1'), copy]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/different config\.json.*ingest/);
  });

  it('refuses a locked or unfinished partial store, and says what to do', () => {
    const locked = store('part-1-locked');
    cpSync(store('part-1'), locked, { recursive: true });
    mkdirSync(join(locked, '.mhub'), { recursive: true });
    writeFileSync(join(locked, '.mhub', 'ingest.lock'), JSON.stringify({ pid: process.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'ingest' }) + '\n');
    const r1 = run(['--store', store('bad-4'), 'merge', locked, store('part-2')]);
    expect(r1.code).toBe(3);
    expect(r1.stderr).toMatch(/locked by an ingest.*\n.*Wait/);
    const unfinished = store('part-1-unfinished');
    cpSync(store('part-1'), unfinished, { recursive: true });
    mkdirSync(join(unfinished, '.mhub'), { recursive: true });
    writeFileSync(join(unfinished, '.mhub', 'ingest-journal.jsonl'), '');
    const r2 = run(['--store', store('bad-5'), 'merge', unfinished, store('part-2')]);
    expect(r2.code).toBe(5);
    expect(r2.stderr).toMatch(/interrupted[\s\S]*--shard i\/N/);
    const torn = store('part-1-torn');
    cpSync(store('part-1'), torn, { recursive: true });
    const tree = readdirSync(join(torn, 'tree_index'))[0]!;
    rmSync(join(torn, 'tree_index', tree));
    const r3 = run(['--store', store('bad-6'), 'merge', torn, store('part-2')]);
    expect(r3.code).toBe(5);
    expect(r3.stderr).toMatch(/is missing/);
  });

  it('keeps a partial store to its slice', () => {
    const plain = run(['--store', store('part-1'), 'ingest', '--llm', 'none', inbox]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/partial \(shard 1\/3\)/);
    const other = run(['--store', store('part-1'), 'ingest', '--shard', '2/3', '--llm', 'none', inbox]);
    expect(other.code).toBe(2);
    const bad = run(['--store', store('part-x'), 'ingest', '--shard', '4/3', inbox]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/i\/N/);
  });
});

describe('shard assignment', () => {
  it('is a stable function of the store-relative path (archive members go with their archive)', () => {
    // pinned: a changed hash would split one library differently across versions
    expect([shardOf('inbox/report.pdf', 4), shardOf('external/docs/a.md', 7), shardOf('inbox/a.zip', 5)]).toEqual([2, 3, 5]);
    expect(shardOf('inbox/a.zip!/b.txt', 5)).toBe(shardOf('inbox/a.zip', 5));
    const paths = Array.from({ length: 200 }, (_, i) => `inbox/d${i}.md`);
    for (const n of [1, 2, 3, 8]) {
      const counts = Array.from({ length: n }, (_, k) => paths.filter((p) => inShard(p, { index: k + 1, count: n })).length);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(paths.length);
      for (const c of counts) expect(c).toBeGreaterThan(paths.length / n / 2);
    }
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', 'a/b', '2']) expect(() => parseShard(bad)).toThrow(/i\/N/);
  });
});
