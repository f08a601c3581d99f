#!/usr/bin/env node
/**
 * `npm run bench [-- FOLDER [QUESTIONS.jsonl]] [--store DIR] [--keep] [--json] [--cold N]`
 *
 * Builds a temp store from FOLDER (default ../shared/financebench: its pdfs/ and questions.jsonl),
 * then prints: ingest pages/s, store size, `mhub search` latency cold (fresh process) and warm (in
 * process) as p50/p95 for keyword and hybrid, and the `mhub eval` figures for keyword and hybrid
 * next to the usual RAG baseline (BM25 over ~512-token chunks). Needs `npm run build` first
 * (`npm run bench` does it).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'dist', 'cli', 'main.js');
const DEFAULT_DATA = resolve(REPO, '..', 'shared', 'financebench');
/** Fresh-process searches per mode (each one a `node mhub search` run). */
const DEFAULT_COLD_RUNS = 10;
const K = 5;

function parseArgs(argv) {
  const out = { positional: [], store: null, keep: false, json: false, cold: DEFAULT_COLD_RUNS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--store') out.store = argv[++i];
    else if (a === '--keep') out.keep = true;
    else if (a === '--json') out.json = true;
    else if (a === '--cold') out.cold = Number(argv[++i]);
    else if (a === '--help' || a === '-h') {
      console.log('usage: npm run bench -- [FOLDER] [QUESTIONS.jsonl] [--store DIR] [--keep] [--json] [--cold N]');
      process.exit(0);
    } else out.positional.push(a);
  }
  return out;
}

function fail(msg) {
  console.error(`bench: ${msg}`);
  process.exit(2);
}

function mhub(args, opts = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, MHUB_STORE: '' }, ...opts });
  return r;
}

const pct = (values, p) => {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (x) => `${Math.round(x)} ms`;

function dirSize(abs) {
  if (!existsSync(abs)) return 0;
  const st = statSync(abs);
  if (!st.isDirectory()) return st.size;
  return readdirSync(abs).reduce((s, n) => s + dirSize(join(abs, n)), 0);
}

const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) fail(`${CLI} is missing: run \`npm run build\` first.`);
  const data = resolve(args.positional[0] ?? DEFAULT_DATA);
  if (!existsSync(data)) fail(`data folder not found: ${data}`);
  const docs = existsSync(join(data, 'pdfs')) ? join(data, 'pdfs') : data;
  const qfile = args.positional[1] ? resolve(args.positional[1]) : join(data, 'questions.jsonl');
  const hasQuestions = existsSync(qfile);

  const root = args.store ? resolve(args.store) : mkdtempSync(join(tmpdir(), 'mhub-bench-'));
  const log = (m) => { if (!args.json) console.log(m); };
  log(`Store: ${root}\nData: ${docs}${hasQuestions ? ` (questions: ${qfile})` : ' (no questions.jsonl: eval skipped)'}`);

  // 1. ingest
  mhub(['init', root]);
  cpSync(docs, join(root, 'inbox'), { recursive: true, filter: (src) => !src.endsWith('questions.jsonl') });
  const t0 = performance.now();
  const ing = mhub(['--store', root, 'ingest', '--json', '--llm', 'none', join(root, 'inbox')]);
  const wall = (performance.now() - t0) / 1000;
  if (ing.status !== 0 && ing.status !== 1) fail(`ingest failed (exit ${ing.status}): ${ing.stderr}`);
  const report = JSON.parse(ing.stdout);
  const sizes = {
    catalog: dirSize(join(root, 'catalog.json')),
    converted: dirSize(join(root, 'converted')),
    trees: dirSize(join(root, 'tree_index')),
    vectors_and_keyword: dirSize(join(root, 'vector_store')),
    llm_cache: dirSize(join(root, 'llm_cache')),
  };
  const storeBytes = Object.values(sizes).reduce((a, b) => a + b, 0);
  const ingest = {
    sources: report.counts, pages: report.pages, seconds: report.seconds, wall_seconds: Math.round(wall * 100) / 100,
    pages_per_second: report.pages_per_second, pages_per_second_wall: Math.round((report.pages / wall) * 10) / 10,
    indexes: report.indexes.map((i) => `${i.name}: ${i.summary}`), warnings: report.warnings,
  };
  log(`\nIngest: ${report.pages} pages from ${report.counts.indexed} sources (${report.counts.failed} failed) in ${report.seconds}s → ${report.pages_per_second} pages/s (${ingest.pages_per_second_wall} pages/s wall incl. start-up and indexing)`);
  for (const l of ingest.indexes) log(`  ${l}`);
  for (const w of report.warnings) log(`  warning: ${w}`);
  log(`Store size: ${mb(storeBytes)} (catalog ${mb(sizes.catalog)}, converted ${mb(sizes.converted)}, trees ${mb(sizes.trees)}, vector_store ${mb(sizes.vectors_and_keyword)}) for ${mb(dirSize(join(root, 'inbox')))} of input`);

  // the fresh store must pass its own audit
  const d0 = performance.now();
  const doc = mhub(['--store', root, 'doctor', '--json']);
  const doctorMs = performance.now() - d0;
  let doctor = { healthy: false, errors: -1, warnings: -1, ms: Math.round(doctorMs) };
  try {
    const d = JSON.parse(doc.stdout);
    doctor = { healthy: d.healthy, errors: d.errors, warnings: d.warnings, ms: Math.round(doctorMs), problems: d.problems.slice(0, 5).map((p) => `${p.severity} ${p.code}: ${p.message}`) };
  } catch {
    doctor.problems = [doc.stderr.trim()];
  }
  log(`Doctor: ${doctor.healthy ? 'healthy' : 'UNHEALTHY'} (${doctor.errors} errors, ${doctor.warnings} warnings) in ${ms(doctorMs)}`);
  for (const p of doctor.problems ?? []) if (!doctor.healthy) log(`  ${p}`);

  // 2. search latency
  const { readQuestions } = await import(pathToFileURL(join(REPO, 'dist/admin/questions.js')).href);
  const questions = hasQuestions ? readQuestions(qfile) : [{ id: 'q', query: 'revenue growth', expected: [{ file: 'x', pages: [] }] }];
  const queries = questions.map((q) => q.query);
  const latency = {};
  for (const mode of ['keyword', 'hybrid']) {
    const cold = [];
    let resolved = mode;
    for (let i = 0; i < Math.min(args.cold, queries.length); i++) {
      const s = performance.now();
      const r = mhub(['--store', root, 'search', queries[i], '--json', '--mode', mode, '-k', String(K)]);
      cold.push(performance.now() - s);
      if (r.status !== 0) fail(`search failed: ${r.stderr}`);
      resolved = JSON.parse(r.stdout).mode;
    }
    const { searchStore } = await import(pathToFileURL(join(REPO, 'dist/search/search.js')).href);
    await searchStore(root, queries[0], { k: K, mode }); // load indexes and model once
    const warm = [];
    for (const q of queries) {
      const s = performance.now();
      await searchStore(root, q, { k: K, mode });
      warm.push(performance.now() - s);
    }
    latency[mode] = { resolved_mode: resolved, cold_p50: pct(cold, 50), cold_p95: pct(cold, 95), cold_runs: cold.length, warm_p50: pct(warm, 50), warm_p95: pct(warm, 95), warm_runs: warm.length };
  }
  log('\nsearch latency          cold p50   cold p95   warm p50   warm p95');
  for (const [mode, l] of Object.entries(latency)) {
    log(`  ${(mode + (l.resolved_mode !== mode ? ` (ran ${l.resolved_mode})` : '')).padEnd(20)} ${ms(l.cold_p50).padStart(8)}   ${ms(l.cold_p95).padStart(8)}   ${ms(l.warm_p50).padStart(8)}   ${ms(l.warm_p95).padStart(8)}`);
  }
  log(`  (cold: ${latency.keyword.cold_runs} fresh \`mhub search\` processes per mode; warm: ${latency.keyword.warm_runs} queries in one process)`);

  // 3. eval
  const evals = [];
  if (hasQuestions) {
    const { evaluate, formatFigures } = await import(pathToFileURL(join(REPO, 'dist/admin/eval.js')).href);
    const { mhubRetriever } = await import(pathToFileURL(join(REPO, 'dist/admin/retrievers.js')).href);
    const { chunkBaseline } = await import(pathToFileURL(join(REPO, 'dist/admin/baseline.js')).href);
    for (const mode of ['keyword', 'hybrid']) evals.push(await evaluate(root, questions, mhubRetriever(root, mode), K));
    const t = performance.now();
    const baseline = chunkBaseline(root);
    const buildMs = performance.now() - t;
    evals.push(await evaluate(root, questions, baseline, K));
    log(`\neval over ${questions.length} questions (k=${K}; baseline: ${baseline.chunks} chunks, built in ${ms(buildMs)})`);
    for (const e of evals) log(`  ${formatFigures(e)}`);
  }

  if (args.json) {
    console.log(JSON.stringify({ store: root, data: docs, ingest, store_bytes: storeBytes, sizes, doctor, latency, eval: evals.map((e) => ({ method: e.method, ...e.figures })) }, null, 2));
  }
  if (!args.keep && !args.store) rmSync(root, { recursive: true, force: true });
  else log(`\nStore kept at ${root}`);
}

await main();
