#!/usr/bin/env node
/**
 * How cost grows with the library (issue #15): for each size (default 1,000, 3,000 and 10,000
 * sources) a synthetic library from scripts/make-library.mjs (real pages of the dev PDFs, one planted
 * fact per document, the same 200 questions at every size) is ingested (or its store reused),
 * re-ingested unchanged, and measured: the skill scripts as fresh processes (scripts/bench-skill.mjs:
 * wall and CPU p50, peak RSS), planted-fact accuracy (`mhub eval`: hit@1 of the right document,
 * hit@3 of the node holding the fact's line). Optionally (--shards K) the smallest size is also
 * ingested as K shards and merged, timed, and compared byte for byte with the single ingest.
 *
 *   npm run bench:scale -- [--sizes 1000,3000,10000] [--dir /tmp/mhub-scale] [--runs 10] [--shards 4] [--rebuild] [--json]
 *   node scripts/bench-scale.mjs --report /tmp/mhub-scale/results.json   (the table again; saved after each size)
 *
 * Every ingest runs with SOURCE_DATE_EPOCH set (stores comparable byte for byte) and `--llm none`.
 * Heavy: at 10,000 sources the first ingest takes many minutes on 2 cores; stores are kept under
 * --dir and reused by the next run (--rebuild makes them again).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,3000,10000' },
    dir: { type: 'string', default: '/tmp/mhub-scale' },
    runs: { type: 'string', default: '10' },
    seed: { type: 'string', default: '15' },
    shards: { type: 'string', default: '0' },
    rebuild: { type: 'boolean' },
    json: { type: 'boolean' },
    report: { type: 'string' },
  },
});
const DIR = resolve(values.dir);
const SIZES = values.sizes.split(',').map(Number).filter((n) => n > 0).sort((a, b) => a - b);
const SHARDS = Number(values.shards);
const ENV = { ...process.env, SOURCE_DATE_EPOCH: '1767225600', MHUB_STORE: '' };
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const log = (m) => console.error(`[bench:scale] ${m}`);

/** Run a command; wall seconds and (with GNU time) peak RSS of the process tree's largest member. */
function timed(argv, opts = {}) {
  const cmd = TIME ?? argv[0];
  const args = TIME ? ['-f', 'MHUB_RSS %M', ...argv] : argv.slice(1);
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: ENV, maxBuffer: 512 * 1024 * 1024, ...opts });
  const seconds = (performance.now() - t0) / 1000;
  const m = /MHUB_RSS (\d+)/.exec(r.stderr ?? '');
  return { r, seconds: Math.round(seconds * 100) / 100, rssMb: m ? Math.round(Number(m[1]) / 1024) : null };
}

function mhub(args, what) {
  const t = timed([process.execPath, CLI, ...args]);
  if (t.r.status !== 0 && t.r.status !== 1) throw new Error(`${what}: mhub ${args.join(' ')} exited ${t.r.status}: ${t.r.stderr.slice(-800)}`);
  return t;
}

function library(n) {
  const lib = join(DIR, `lib-${n}`);
  const docs = join(lib, 'docs');
  const count = existsSync(docs) ? readdirSync(docs).reduce((s, d) => s + readdirSync(join(docs, d)).length, 0) : 0;
  if (count !== n || !existsSync(join(lib, 'questions.jsonl'))) {
    log(`generating ${n} sources in ${lib}`);
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'make-library.mjs'), '--sources', String(n), '--out', lib, '--seed', values.seed], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error('make-library failed');
  }
  return { docs, questions: join(lib, 'questions.jsonl') };
}

function ingest(store, docs, extra = []) {
  const t = mhub(['--store', store, 'ingest', '--llm', 'none', '--json', ...extra, docs], `ingest ${store}`);
  const rep = JSON.parse(t.r.stdout);
  return { seconds: t.seconds, rss_mb: t.rssMb ?? rep.peak_rss_mb, phases: rep.phases, counts: rep.counts, indexes: rep.indexes.map((i) => i.summary) };
}

function buildStore(n, docs) {
  const store = join(DIR, `store-${n}`);
  if (values.rebuild) rmSync(store, { recursive: true, force: true });
  if (existsSync(join(store, 'catalog.json')) && existsSync(join(store, '.mhub', 'index-stamp.json'))) {
    log(`reusing ${store}`);
    return { store, first: null };
  }
  rmSync(store, { recursive: true, force: true });
  log(`ingesting ${n} sources into ${store}`);
  return { store, first: ingest(store, docs) };
}

/** Unchanged re-ingest, best of two (the first may warm the page cache). */
function reingest(store, docs) {
  const runs = [ingest(store, docs), ingest(store, docs)];
  for (const r of runs) if (r.counts.unchanged !== r.counts.indexed + r.counts.skipped + r.counts.failed) throw new Error(`re-ingest of ${store} changed sources: ${JSON.stringify(r.counts)}`);
  return runs.sort((a, b) => a.seconds - b.seconds)[0];
}

function skill(store, questions) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bench-skill.mjs'), '--store', store, '--questions', questions, '--runs', values.runs, '--json'], { encoding: 'utf8', env: ENV, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`bench-skill: ${r.stderr.slice(-800)}`);
  return JSON.parse(r.stdout).rows;
}

function accuracy(store, questions) {
  const t = mhub(['--store', store, 'eval', questions, '--json'], 'eval');
  const f = JSON.parse(t.r.stdout)[0].figures;
  return { questions: f.questions, hit1: f.tier1.hit1, hit5: f.tier1.hitk, mrr: f.tier1.mrr, node_hit1: f.tier2.hit1, node_hit3: f.tier2.hit3, eval_seconds: t.seconds, eval_rss_mb: t.rssMb };
}

/** path → bytes of every store file but local state. */
function storeFiles(root) {
  const out = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const abs = join(d, name);
      const rel = relative(root, abs);
      if (rel === '.mhub') continue;
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(rel, readFileSync(abs));
    }
  };
  walk(root);
  return out;
}

function sameStore(a, b) {
  const fa = storeFiles(a);
  const fb = storeFiles(b);
  const diff = [...new Set([...fa.keys(), ...fb.keys()])].filter((k) => !fa.get(k) || !fb.get(k) || !fa.get(k).equals(fb.get(k)));
  return { identical: diff.length === 0, files: fa.size, differing: diff.slice(0, 10) };
}

function shardRun(n, docs, single) {
  const parts = [];
  const times = [];
  for (let i = 1; i <= SHARDS; i++) {
    const part = join(DIR, `part-${n}-${i}of${SHARDS}`);
    rmSync(part, { recursive: true, force: true });
    log(`ingesting shard ${i}/${SHARDS} of ${n} into ${part}`);
    times.push(ingest(part, docs, ['--shard', `${i}/${SHARDS}`]).seconds);
    parts.push(part);
  }
  const merged = join(DIR, `merged-${n}`);
  rmSync(merged, { recursive: true, force: true });
  log(`merging ${SHARDS} shards into ${merged}`);
  const t = mhub(['--store', merged, 'merge', '--json', ...parts], 'merge');
  const rep = JSON.parse(t.r.stdout);
  return { shards: SHARDS, shard_seconds: times, slowest_shard_seconds: Math.max(...times), merge_seconds: t.seconds, merge_rss_mb: t.rssMb, merge_indexes: rep.indexes.map((i) => i.summary), ...sameStore(single, merged) };
}

const pick = (rows, name) => rows.find((r) => r.name === name) ?? {};

function measure(n) {
  const { docs, questions } = library(n);
  const { store, first } = buildStore(n, docs);
  log(`re-ingesting ${n} unchanged`);
  const re = reingest(store, docs);
  log(`skill scripts over ${n}`);
  const rows = skill(store, questions);
  log(`planted-fact accuracy over ${n}`);
  const acc = accuracy(store, questions);
  const out = { sources: n, store, ingest: first, reingest: re, skill: rows, accuracy: acc };
  if (SHARDS > 1 && n === SIZES[0]) out.shard = shardRun(n, docs, store);
  return out;
}

function fmt(results) {
  const lines = [];
  const cols = ['sources', 'ingest s', 'ingest MB', 're-ingest s', 'kw p50/cpu', 'hyb p50/cpu', 'deep p50/cpu', 'read p50/cpu', 'skill MB', 'hit@1', 'hit@5', 'node@3'];
  lines.push(cols.map((c) => c.padStart(13)).join(''));
  for (const r of results) {
    const row = (name) => pick(r.skill, name);
    const pc = (name) => `${row(name).p50 ?? '-'}/${row(name).cpu_p50 ?? '-'}`;
    const rss = Math.max(...r.skill.filter((x) => x.rss_max_mb).map((x) => x.rss_max_mb));
    lines.push([
      r.sources, r.ingest ? r.ingest.seconds : 'reused', r.ingest ? r.ingest.rss_mb : '-', r.reingest.seconds,
      pc('search keyword'), pc('search hybrid'), pc('deep_retrieve --query'), pc('read_source <node>'), rss,
      r.accuracy.hit1.toFixed(3), r.accuracy.hit5.toFixed(3), r.accuracy.node_hit3.toFixed(3),
    ].map((c) => String(c).padStart(13)).join(''));
  }
  const a = results[0];
  const b = results[results.length - 1];
  if (a && b && a !== b) {
    const ratio = (x, y) => (x && y ? (y / x).toFixed(2) : '-');
    const g = (name) => ratio(pick(a.skill, name).cpu_p50, pick(b.skill, name).cpu_p50);
    lines.push(`growth ${a.sources} → ${b.sources} sources (×${(b.sources / a.sources).toFixed(1)}): re-ingest ×${ratio(a.reingest.seconds, b.reingest.seconds)}, ` +
      `CPU p50 keyword ×${g('search keyword')}, hybrid ×${g('search hybrid')}, deep_retrieve ×${g('deep_retrieve --query')}, read_source ×${g('read_source <node>')}` +
      (a.ingest && b.ingest ? `, first ingest ×${ratio(a.ingest.seconds, b.ingest.seconds)}` : ''));
  }
  for (const r of results) {
    lines.push(`re-ingest ${r.sources}: ${r.reingest.seconds} s (phases ${JSON.stringify(r.reingest.phases)})${r.ingest ? `; first ingest phases ${JSON.stringify(r.ingest.phases)}; ${r.ingest.indexes.join('; ')}` : ''}`);
    if (r.shard) {
      const s = r.shard;
      lines.push(`shards ${r.sources}: ${s.shards} shards ingested one after another in ${s.shard_seconds.join(' + ')} s (slowest ${s.slowest_shard_seconds} s), merge ${s.merge_seconds} s (peak ${s.merge_rss_mb} MB; ${s.merge_indexes.join('; ')}); ` +
        `merged store ${s.identical ? `byte-identical to the single ingest (${s.files} files)` : `DIFFERS from the single ingest: ${s.differing.join(', ')}`}`);
    }
  }
  return lines.join('\n');
}

if (values.report) {
  const saved = JSON.parse(readFileSync(values.report, 'utf8'));
  console.log(`bench:scale (saved; load average ${saved.load_average.toFixed(2)} at the end; wall p50/CPU p50 in ms)`);
  console.log(fmt(saved.results));
  process.exit(0);
}
if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: run npm run build first (npm run bench:scale does)`);
  process.exit(2);
}
const results = [];
for (const n of SIZES) {
  results.push(measure(n));
  // kept after each size, so a long run that is stopped still leaves its figures (--report prints them)
  writeFileSync(join(DIR, 'results.json'), JSON.stringify({ load_average: loadavg()[0], results }, null, 2) + '\n');
}
if (values.json) console.log(JSON.stringify({ load_average: loadavg()[0], results }, null, 2));
else {
  console.log(`bench:scale (${values.runs} runs per skill script, fresh processes; wall p50/CPU p50 in ms; load average ${loadavg()[0].toFixed(2)} at the end)`);
  console.log(fmt(results));
}
