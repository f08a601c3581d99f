#!/usr/bin/env node
/**
 * Search benchmark over a question set (default ../shared/financebench): builds a temp store with
 * the use-lite embedder (or uses --store DIR), then prints
 *  - tier-1 hit@1, hit@5, MRR for keyword-only, vector-only and hybrid search;
 *  - tier-2 hit@3 (page inside a suggested node of the expected source) with and without node vectors;
 *  - embedding throughput during ingest (cards/s, nodes/s) and index sizes;
 *  - `mhub search` wall time as a fresh process, p50 of 10, keyword-only and hybrid.
 * Usage: node scripts/bench-search.mjs [--data DIR] [--store DIR] [--model use-lite] [--json] [--misses]
 * Needs `npm run build` first (imports dist/).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const DATA = resolve(opt('--data', join(ROOT, '..', 'shared', 'financebench')));
const MODEL = opt('--model', 'use-lite');
const WALL_RUNS = 10;
const K = 5;

if (!existsSync(CLI)) {
  console.error('dist/ missing: run `npm run build` first');
  process.exit(2);
}
const { searchStore } = await import(join(ROOT, 'dist/search/search.js'));
const { rankNodes } = await import(join(ROOT, 'dist/search/nodes.js'));
const { readCatalog } = await import(join(ROOT, 'dist/store/catalog.js'));

function buildStore() {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-bench-search-'));
  execFileSync('node', [CLI, 'init', dir], { stdio: 'ignore' });
  const cfgPath = join(dir, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.embedding.model = MODEL;
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
  cpSync(join(DATA, 'pdfs'), join(dir, 'inbox'), { recursive: true });
  const t0 = Date.now();
  const out = execFileSync('node', [CLI, '--store', dir, 'ingest', '--json'], { cwd: dir, maxBuffer: 1 << 28, encoding: 'utf8' });
  const report = JSON.parse(out);
  return { dir, report, seconds: (Date.now() - t0) / 1000 };
}

let store = opt('--store');
let ingest = null;
if (!store) {
  process.stderr.write(`building a store from ${DATA}/pdfs with ${MODEL}…\n`);
  const b = buildStore();
  store = b.dir;
  ingest = b;
}
store = resolve(store);

const questions = readFileSync(join(DATA, 'questions.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const catalog = readCatalog(store);
const idByFile = new Map(catalog.sources.map((s) => [basename(s.original_path), s.id]));

async function tier1(mode) {
  let h1 = 0, h5 = 0, rr = 0, none = 0;
  const misses = [];
  for (const q of questions) {
    const want = new Set(q.expected.map((e) => idByFile.get(e.file)));
    const r = await searchStore(store, q.query, { k: K, mode, includeNone: true, nodesPerSource: 0 });
    if (r.verdict === 'none') none++;
    const rank = r.results.findIndex((h) => want.has(h.id)) + 1;
    if (rank === 1) h1++;
    if (rank >= 1 && rank <= K) h5++;
    if (rank >= 1) rr += 1 / rank;
    if (rank !== 1) misses.push({ q: q.query.slice(0, 90), want: q.expected[0].file, got: r.results.slice(0, 3).map((h) => basename(h.file)) });
  }
  const n = questions.length;
  return { mode, hit1: +(h1 / n).toFixed(3), hit5: +(h5 / n).toFixed(3), mrr: +(rr / n).toFixed(3), verdict_none: none, misses };
}

async function tier2(vectors) {
  let h3 = 0;
  for (const q of questions) {
    const e = q.expected[0];
    const id = idByFile.get(e.file);
    const nodes = await rankNodes(store, id, q.query, { k: 3, vectors });
    if (nodes.some((n) => n.page_range && e.pages.some((p) => p >= n.page_range[0] && p <= n.page_range[1]))) h3++;
  }
  return +(h3 / questions.length).toFixed(3);
}

function safe(f) {
  try {
    return f();
  } catch (err) {
    return `failed: ${String(err.message).slice(0, 300)}`;
  }
}

function wall(mode) {
  const times = [];
  const q = questions[0].query;
  for (let i = 0; i < WALL_RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('node', [CLI, '--store', store, 'search', q, '--mode', mode, '--json'], { encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0) throw new Error(`search failed: ${r.stderr}`);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]);
}

function wallSkill(mode) {
  const skill = join(ROOT, 'skills', 'metadatahub', 'search.js');
  if (!existsSync(skill)) return null;
  const times = [];
  for (let i = 0; i < WALL_RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync('node', [skill, questions[0].query, '--mode', mode, '--json'], { encoding: 'utf8', env: { ...process.env, MHUB_STORE: store } });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0) return `failed: ${(r.stderr || r.stdout).slice(0, 200)}`;
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]);
}

function sizes() {
  const out = {};
  const walk = (d, rel) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${rel}${f}/`);
      else {
        const key = rel.startsWith('keyword/nodes/') ? 'keyword/nodes/*' : `${rel}${f}`;
        out[key] = (out[key] ?? 0) + st.size;
      }
    }
  };
  walk(join(store, 'vector_store'), '');
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, `${(v / 1024).toFixed(1)} KiB`]));
}

const results = {
  store,
  data: DATA,
  questions: questions.length,
  sources: catalog.sources.length,
  tier1: [await tier1('keyword'), await tier1('vector'), await tier1('hybrid')],
  tier2_hit3: { keyword_only: await tier2(false), with_node_vectors: await tier2(true) },
  ingest: ingest
    ? { seconds: ingest.seconds, indexes: ingest.report.indexes.map((i) => ({ name: i.name, summary: i.summary, stats: i.stats })) }
    : 'existing store (pass no --store to measure ingest)',
  index_sizes: sizes(),
  wall_ms_p50: { cli_keyword: safe(() => wall('keyword')), cli_hybrid: safe(() => wall('hybrid')), skill_keyword: wallSkill('keyword'), skill_hybrid: wallSkill('hybrid') },
};
if (args.includes('--json')) console.log(JSON.stringify(results, null, 2));
else {
  console.log(`store ${results.store} · ${results.sources} sources · ${results.questions} questions`);
  for (const t of results.tier1) console.log(`tier-1 ${t.mode.padEnd(8)} hit@1 ${t.hit1}  hit@5 ${t.hit5}  MRR ${t.mrr}  (verdict none: ${t.verdict_none})`);
  console.log(`tier-2 hit@3: keyword-only ${results.tier2_hit3.keyword_only}, with node vectors ${results.tier2_hit3.with_node_vectors}`);
  console.log('ingest:', JSON.stringify(results.ingest));
  console.log('index sizes:', JSON.stringify(results.index_sizes));
  console.log('wall ms p50 (fresh process):', JSON.stringify(results.wall_ms_p50));
  if (args.includes('--misses')) for (const t of results.tier1) for (const m of t.misses) console.log(`miss ${t.mode}: ${m.want} ← ${m.q} → ${m.got.join(', ')}`);
}
