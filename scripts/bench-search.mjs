#!/usr/bin/env node
/**
 * Search benchmark over a question set (default ../shared/financebench): builds a temp store with
 * the use-lite embedder (or uses --store DIR), then prints
 *  - tier-1 hit@1, hit@5, MRR and tier-2 hit@1, hit@3 (page inside a suggested node of the expected
 *    source) for keyword-only, vector-only and hybrid search, measured by `mhub eval`'s code;
 *  - embedding throughput during ingest (cards/s, nodes/s) and index sizes;
 *  - `mhub search` wall time as a fresh process, p50 of 10, keyword-only and hybrid.
 * Usage: node scripts/bench-search.mjs [--data DIR] [--questions FILE] [--store DIR] [--model use-lite] [--json] [--misses]
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
const { evaluate } = await import(join(ROOT, 'dist/admin/eval.js'));
const { mhubRetriever } = await import(join(ROOT, 'dist/admin/retrievers.js'));
const { readQuestions } = await import(join(ROOT, 'dist/admin/questions.js'));
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

const questions = readQuestions(resolve(opt('--questions', join(DATA, 'questions.jsonl'))));
const catalog = readCatalog(store);

/** Tier 1 and tier 2 by `mhub eval`'s code (same searchStore / rankNodes as the CLI and the skill). */
async function measure(mode) {
  const rep = await evaluate(store, questions, mhubRetriever(store, mode), K);
  const f = rep.figures;
  const misses = rep.outcomes.filter((o) => o.rank !== 1).map((o) => ({ q: o.query.slice(0, 90), want: o.expected[0].file, got: o.got.slice(0, 3).map((g) => basename(g.file)) }));
  return { mode, hit1: f.tier1.hit1, hit5: f.tier1.hitk, mrr: f.tier1.mrr, tier2_hit1: f.tier2.hit1, tier2_hit3: f.tier2.hit3, misses };
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
  tier1: [await measure('keyword'), await measure('vector'), await measure('hybrid')],
  ingest: ingest
    ? { seconds: ingest.seconds, indexes: ingest.report.indexes.map((i) => ({ name: i.name, summary: i.summary, stats: i.stats })) }
    : 'existing store (pass no --store to measure ingest)',
  index_sizes: sizes(),
  wall_ms_p50: { cli_keyword: safe(() => wall('keyword')), cli_hybrid: safe(() => wall('hybrid')), skill_keyword: wallSkill('keyword'), skill_hybrid: wallSkill('hybrid') },
};
if (args.includes('--json')) console.log(JSON.stringify(results, null, 2));
else {
  console.log(`store ${results.store} · ${results.sources} sources · ${results.questions} questions`);
  for (const t of results.tier1) console.log(`${t.mode.padEnd(8)} tier-1 hit@1 ${t.hit1}  hit@5 ${t.hit5}  MRR ${t.mrr} | tier-2 hit@1 ${t.tier2_hit1}  hit@3 ${t.tier2_hit3}`);
  console.log('ingest:', JSON.stringify(results.ingest));
  console.log('index sizes:', JSON.stringify(results.index_sizes));
  console.log('wall ms p50 (fresh process):', JSON.stringify(results.wall_ms_p50));
  if (args.includes('--misses')) for (const t of results.tier1) for (const m of t.misses) console.log(`miss ${t.mode}: ${m.want} ← ${m.q} → ${m.got.join(', ')}`);
}
