#!/usr/bin/env node
/**
 * Wall time of the skill scripts as fresh processes (what an agent pays per call), p50/p95 over N
 * runs, each run a different financebench question. Needs an ingested store, e.g.
 *   node dist/cli/main.js ingest ../shared/financebench/pdfs --store /tmp/fb
 *   node scripts/bench-skill.mjs --store /tmp/fb [--runs 10] [--questions ../shared/financebench/questions.jsonl]
 * Questions may point at pages (PDFs) or lines (text and Markdown: `"lines": [N]`, as the libraries of
 * scripts/make-library.mjs do); with GNU time, each call's peak RSS is reported too.
 * Targets: read_source and deep_retrieve < 150 ms, keyword search < 200 ms, hybrid search < 600 ms.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SKILL = join(ROOT, 'skills', 'metadatahub');
const { values } = parseArgs({
  options: {
    store: { type: 'string', default: '/tmp/fb' },
    runs: { type: 'string', default: '10' },
    questions: { type: 'string', default: join(ROOT, '..', 'shared', 'financebench', 'questions.jsonl') },
    json: { type: 'boolean' },
  },
});
const store = resolve(values.store);
const runs = Number(values.runs);
if (!existsSync(join(store, 'catalog.json'))) {
  console.error(`No store at ${store}: build one with  node dist/cli/main.js ingest ../shared/financebench/pdfs --store ${store}`);
  process.exit(2);
}
const catalog = JSON.parse(readFileSync(join(store, 'catalog.json'), 'utf8'));
const idByFile = new Map(catalog.sources.map((s) => [basename(s.original_path), s.id]));
const questions = readFileSync(values.questions, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
  .filter((q) => idByFile.has(q.expected[0].file)).slice(0, runs);
if (questions.length < runs) console.error(`only ${questions.length} usable questions`);

/** GNU time, when present, also gives each call's CPU time (user + sys): steadier than wall time on a busy machine. */
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const CPU_MARK = 'MHUB_CPU ';

function spawnTimed(argv) {
  const cmd = TIME ? TIME : argv[0];
  const args = TIME ? ['-f', `${CPU_MARK}%U %S %M`, ...argv] : argv.slice(1);
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, MHUB_STORE: '' }, maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  const m = TIME ? new RegExp(`${CPU_MARK}([\\d.]+) ([\\d.]+) (\\d+)`).exec(r.stderr) : null;
  return { r, ms, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : null, rssMb: m ? Math.round(Number(m[3]) / 1024) : null };
}

function run(script, args) {
  const { r, ms, cpu, rssMb } = spawnTimed([process.execPath, join(SKILL, script), ...args, '--store', store]);
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} exited ${r.status}: ${r.stdout.slice(0, 300)} ${r.stderr.slice(0, 300)}`);
  return { ms, cpu, rssMb, out: JSON.parse(r.stdout) };
}

/** A range to read where the answer is: pages of a PDF, lines of a text source. */
function rangeArgs(q) {
  const x = q.expected[0];
  if (x.lines?.length) return ['--lines', `${x.lines[0]}-${x.lines[0] + 5}`];
  return ['--pages', `${x.pages[0]}-${x.pages[0] + 1}`];
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

const hasVectors = existsSync(join(store, 'vector_store', 'index.faiss'));
const cases = [
  ['search keyword', (q) => ['search.js', [q.query, '--mode', 'keyword']], 200],
  ...(hasVectors ? [['search hybrid', (q) => ['search.js', [q.query, '--mode', 'hybrid']], 600]] : []),
  ['deep_retrieve (outline)', (q) => ['deep_retrieve.js', [idByFile.get(q.expected[0].file)]], 150],
  ['deep_retrieve --query', (q) => ['deep_retrieve.js', [idByFile.get(q.expected[0].file), '--query', q.query]], 150],
  ['deep_retrieve --query --vectors', (q) => ['deep_retrieve.js', [idByFile.get(q.expected[0].file), '--query', q.query, '--vectors']], null],
  ['read_source <node>', (q) => ['read_source.js', [idByFile.get(q.expected[0].file), q.node]], 150],
  ['read_source --pages/--lines', (q) => ['read_source.js', [idByFile.get(q.expected[0].file), ...rangeArgs(q)]], 150],
];

// Untimed: the node each question would read (first keyword suggestion), and one warm-up call.
for (const q of questions) {
  const d = run('deep_retrieve.js', [idByFile.get(q.expected[0].file), '--query', q.query]).out;
  q.node = d.suggestions[0]?.node_id ?? d.root.node_id;
}
run('search.js', ['warm up', '--mode', 'keyword']);

const rows = [];
const summarize = (name, times, cpus, target, mode, rss = []) => ({
  name, p50: Math.round(pct(times, 50)), p95: Math.round(pct(times, 95)),
  cpu_p50: cpus.every((c) => c !== null) ? Math.round(pct(cpus, 50)) : null, target, ...(mode ? { mode } : {}),
  ...(rss.length && rss.every((x) => x !== null) ? { rss_max_mb: Math.max(...rss) } : {}),
});
{
  const times = [];
  const cpus = [];
  for (let i = 0; i < questions.length; i++) {
    const { ms, cpu } = spawnTimed([process.execPath, '-e', '0']);
    times.push(ms);
    cpus.push(cpu);
  }
  rows.push(summarize('node -e 0 (baseline, no script)', times, cpus, null));
}
for (const [name, make, target] of cases) {
  const times = [];
  const cpus = [];
  const rss = [];
  let mode = '';
  for (const q of questions) {
    const [script, args] = make(q);
    const { ms, cpu, rssMb, out } = run(script, args);
    times.push(ms);
    cpus.push(cpu);
    rss.push(rssMb);
    if (out.mode) mode = out.mode;
  }
  rows.push(summarize(name, times, cpus, target, mode, rss));
}

if (values.json) console.log(JSON.stringify({ store, runs: questions.length, sources: catalog.sources.length, rows }, null, 2));
else {
  console.log(`skill scripts, fresh process each call, ${questions.length} runs, store ${store} (${catalog.sources.length} sources), load average ${(await import('node:os')).loadavg()[0].toFixed(2)}`);
  for (const r of rows) {
    const ok = r.target ? (r.p50 < r.target ? 'ok' : 'OVER') : '';
    const cpu = (r.cpu_p50 !== null ? `   cpu p50 ${String(r.cpu_p50).padStart(5)} ms` : '') + (r.rss_max_mb ? `   peak RSS ${String(r.rss_max_mb).padStart(4)} MB` : '');
    console.log(`${r.name.padEnd(34)} wall p50 ${String(r.p50).padStart(5)} ms   p95 ${String(r.p95).padStart(5)} ms${cpu}   ${r.target ? `target < ${r.target} ms ${ok}` : ''}${r.mode ? `   mode ${r.mode}` : ''}`);
  }
}
