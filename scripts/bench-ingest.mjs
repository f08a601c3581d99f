#!/usr/bin/env node
/**
 * `npm run bench:ingest -- [FOLDER] [--embedding MODEL] [--workers N] [--store DIR] [--keep] [--json]`
 *
 * End-to-end ingest throughput against `pdftotext -layout` on the same PDFs and the same cores,
 * measured side by side in one run: pdftotext (one process per file, `cores` at once), then a full
 * offline `mhub ingest` into a fresh store (conversion, trees, keyword index, vectors, catalog),
 * then pdftotext again; the pdftotext figure is the mean of the two passes, so drift of a shared
 * machine hits both sides. Prints pages, seconds, pages/s, their ratio, peak RSS, seconds per
 * phase, an unchanged re-ingest, and the load average before and after.
 * FOLDER defaults to ../shared/financebench/pdfs; MODEL to the store's default (config.json
 * embedding.model "auto"). Needs `npm run build` (`npm run bench:ingest` does it).
 *
 * `npm run bench:ingest -- --text-mb 200` is the memory benchmark instead: one generated text file
 * of that many MB (scripts/make-big-text.mjs, deterministic) ingested into a fresh store; prints its
 * nodes, seconds, peak RSS and seconds per phase.
 *
 * Peak RSS is given twice: the mhub process's own peak (worker threads included, from the report),
 * and the peak of the whole process tree (mhub and every child it starts, such as pdftohtml),
 * summed from /proc every SAMPLE_MS and attributed to the phase it was seen in (Linux only;
 * elsewhere the process's own figure alone).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'dist', 'cli', 'main.js');
const DEFAULT_FOLDER = resolve(REPO, '..', 'shared', 'financebench', 'pdfs');

function parseArgs(argv) {
  const o = { folder: DEFAULT_FOLDER, embedding: null, workers: null, store: null, keep: false, json: false, textMb: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--embedding') o.embedding = argv[++i];
    else if (a === '--workers') o.workers = Number(argv[++i]);
    else if (a === '--store') o.store = resolve(argv[++i]);
    else if (a === '--keep') o.keep = true;
    else if (a === '--text-mb') o.textMb = Number(argv[++i]);
    else if (a === '--json') o.json = true;
    else if (a === '-h' || a === '--help') {
      console.log('usage: npm run bench:ingest -- [FOLDER] [--embedding MODEL] [--workers N] [--store DIR] [--keep] [--json] [--text-mb MB]');
      process.exit(0);
    } else o.folder = resolve(a);
  }
  return o;
}

function fail(msg) {
  console.error(`bench:ingest: ${msg}`);
  process.exit(2);
}

/** pdftotext -layout over every file, `parallel` processes at once; wall seconds. */
function pdftotextSeconds(files, parallel) {
  const queue = [...files];
  const t0 = process.hrtime.bigint();
  const lane = () => new Promise((done) => {
    const next = () => {
      const f = queue.shift();
      if (!f) return done();
      const p = spawn('pdftotext', ['-layout', f, '/dev/null'], { stdio: 'ignore' });
      p.on('exit', next);
      p.on('error', next);
    };
    next();
  });
  return Promise.all(Array.from({ length: parallel }, lane)).then(() => Number(process.hrtime.bigint() - t0) / 1e9);
}

function mhub(args, cwd) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, MHUB_STORE: '' } });
  if (r.error) fail(`mhub ${args.join(' ')} could not start: ${r.error.message}`);
  if (r.status !== 0 && r.status !== 1) fail(`mhub ${args.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(0, 2000)}`);
  return r;
}

/** How often the process tree's memory is sampled. */
const SAMPLE_MS = 100;

/** RSS (kB) of `pid` and its descendants, from /proc; null when /proc cannot be read. */
function treeRssKb(pid) {
  let total = 0;
  const stack = [pid];
  let any = false;
  while (stack.length) {
    const p = stack.pop();
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const m = /VmRSS:\s+(\d+)/.exec(status);
      if (m) total += Number(m[1]);
      any = true;
      for (const t of readdirSync(`/proc/${p}/task`)) {
        const kids = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').trim();
        if (kids) stack.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      /* exited meanwhile */
    }
  }
  return any ? total : null;
}

/**
 * mhub with the process tree's RSS sampled: { status, stdout, stderr, samples: [[seconds, MB]] }.
 * stdout is collected whole (the JSON report).
 */
function mhubSampled(args, cwd) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, MHUB_STORE: '' } });
    const out = [];
    const err = [];
    const samples = [];
    const t0 = performance.now();
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    const timer = setInterval(() => {
      const kb = treeRssKb(child.pid);
      if (kb !== null) samples.push([(performance.now() - t0) / 1000, Math.round(kb / 1024)]);
    }, SAMPLE_MS);
    child.on('error', (e) => fail(`mhub ${args.join(' ')} could not start: ${e.message}`));
    child.on('close', (status) => {
      clearInterval(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (status !== 0 && status !== 1) fail(`mhub ${args.join(' ')} exited ${status}: ${stderr.slice(0, 2000)}`);
      done({ status, stdout, stderr, samples });
    });
  });
}

/**
 * Peak of the sampled tree RSS overall and within each phase, the phases laid end to end from
 * the report's seconds (the process's start-up before the first phase counts with the first).
 */
function treePeaks(samples, phases, wall) {
  const names = Object.keys(phases);
  const total = names.reduce((a, k) => a + phases[k], 0);
  const startup = Math.max(0, wall - total);
  const byPhase = Object.fromEntries(names.map((k) => [k, 0]));
  let peak = 0;
  for (const [t, mb] of samples) {
    peak = Math.max(peak, mb);
    let end = startup;
    const name = names.find((k) => (end += phases[k]) >= t) ?? names[names.length - 1];
    if (name) byPhase[name] = Math.max(byPhase[name], mb);
  }
  return samples.length ? { peak_mb: peak, by_phase_mb: byPhase } : null;
}

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

/** A fresh store under `dir` (or a temp dir) with the bench's embedding and worker settings. */
function freshStore(o, dir) {
  const store = dir ?? mkdtempSync(join(tmpdir(), 'mhub-bench-ingest-'));
  mkdirSync(store, { recursive: true });
  mhub(['init', store], store);
  const cfgPath = join(store, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  if (o.embedding) cfg.embedding.model = o.embedding;
  if (o.workers !== null) cfg.ingest.workers = o.workers;
  if (o.textMb !== null) cfg.ingest.max_file_mb = Math.max(cfg.ingest.max_file_mb, Math.ceil(o.textMb) + 1);
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
  return store;
}

/** The memory benchmark: one generated text file of `o.textMb` MB, ingested into a fresh store. */
async function benchText(o) {
  if (!(o.textMb > 0)) fail('--text-mb needs a size in MB');
  const work = mkdtempSync(join(tmpdir(), 'mhub-bench-text-'));
  const inbox = join(work, 'inbox');
  mkdirSync(inbox);
  const file = join(inbox, `generated-${o.textMb}mb.txt`);
  const gen = spawnSync(process.execPath, [join(REPO, 'scripts', 'make-big-text.mjs'), file, String(o.textMb)], { encoding: 'utf8' });
  if (gen.status !== 0) fail(`make-big-text failed: ${gen.stderr}`);
  const store = freshStore(o, o.store ?? join(work, 'store'));
  const loadBefore = loadavg();
  const t0 = process.hrtime.bigint();
  const run = await mhubSampled(['ingest', inbox, '--json', '--llm', 'none', '--store', store], store);
  const report = JSON.parse(run.stdout);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const src = report.sources?.[0] ?? {};
  const tree = treePeaks(run.samples, report.phases, wall);
  const out = {
    file_mb: o.textMb, status: src.status, nodes: src.nodes ?? null, seconds: +f2(wall), peak_rss_mb: report.peak_rss_mb,
    tree_peak_rss_mb: tree?.peak_mb ?? null, tree_peak_rss_mb_by_phase: tree?.by_phase_mb ?? null,
    phases: report.phases, load_average: { before: loadBefore.map(f2), after: loadavg().map(f2) }, store,
  };
  if (o.json) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(`text file ${o.textMb} MB: ${out.status}, ${out.nodes} nodes; store ${store}`);
    console.log(`mhub ingest ${f1(wall)} s  peak RSS ${out.peak_rss_mb} MB (process)${tree ? `, ${tree.peak_mb} MB (process tree, sampled)` : ''}`);
    if (tree) console.log(`peak RSS by phase (MB, process tree): ${Object.entries(tree.by_phase_mb).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`phases (s): ${Object.entries(report.phases).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`load average before ${out.load_average.before.join(' ')}, after ${out.load_average.after.join(' ')}`);
  }
  if (!o.keep && !o.store) rmSync(work, { recursive: true, force: true });
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) fail(`${CLI} is missing: run \`npm run build\` first.`);
  if (o.textMb !== null) return benchText(o);
  if (!existsSync(o.folder)) fail(`folder not found: ${o.folder}`);
  if (spawnSync('pdftotext', ['-v']).error) fail('pdftotext is not installed (apt-get install poppler-utils)');
  const files = readdirSync(o.folder).filter((f) => /\.pdf$/i.test(f)).sort().map((f) => join(o.folder, f));
  if (files.length === 0) fail(`no PDF files in ${o.folder}`);
  const cores = availableParallelism();
  const store = freshStore(o, o.store);
  const loadBefore = loadavg();

  const pt1 = await pdftotextSeconds(files, cores);
  const t0 = process.hrtime.bigint();
  const run = await mhubSampled(['ingest', o.folder, '--json', '--llm', 'none', '--store', store], store);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const pt2 = await pdftotextSeconds(files, cores);
  const report = JSON.parse(run.stdout);
  const tree = treePeaks(run.samples, report.phases, wall);
  const t1 = process.hrtime.bigint();
  const again = JSON.parse(mhub(['ingest', o.folder, '--json', '--llm', 'none', '--store', store], store).stdout);
  const rewall = Number(process.hrtime.bigint() - t1) / 1e9;
  const loadAfter = loadavg();

  const pages = report.pages;
  const pt = (pt1 + pt2) / 2;
  const vec = report.indexes.find((x) => x.name === 'vectors');
  const out = {
    files: files.length, pages, cores, embedding: vec?.stats?.model ?? 'none',
    mhub: {
      seconds: +f2(wall), pages_per_second: +f1(pages / wall), peak_rss_mb: report.peak_rss_mb, failed: report.counts.failed,
      tree_peak_rss_mb: tree?.peak_mb ?? null, tree_peak_rss_mb_by_phase: tree?.by_phase_mb ?? null,
    },
    pdftotext: { seconds: +f2(pt), pages_per_second: +f1(pages / pt), passes: [+f2(pt1), +f2(pt2)] },
    ratio: +(pt / wall).toFixed(3),
    phases: report.phases,
    embed: vec?.stats ?? null,
    unchanged_reingest_seconds: +f2(rewall),
    unchanged_reingest_counts: again.counts,
    load_average: { before: loadBefore.map(f2), after: loadAfter.map(f2) },
    store,
  };
  if (o.json) console.log(JSON.stringify(out, null, 2));
  else {
    console.log(`${out.files} PDFs, ${pages} pages, ${cores} cores, embedding ${out.embedding}; store ${store}`);
    console.log(`mhub ingest     ${f1(wall)} s  ${f1(pages / wall)} pages/s  peak RSS ${report.peak_rss_mb} MB (process)${tree ? `, ${tree.peak_mb} MB (process tree, sampled)` : ''}  ${report.counts.failed} failed`);
    if (tree) console.log(`peak RSS by phase (MB, process tree): ${Object.entries(tree.by_phase_mb).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    console.log(`pdftotext -layout ${f1(pt)} s  ${f1(pages / pt)} pages/s  (passes ${f1(pt1)} s, ${f1(pt2)} s; ${cores} at once)`);
    console.log(`ratio mhub/pdftotext throughput: ${out.ratio.toFixed(3)}`);
    console.log(`phases (s): ${Object.entries(report.phases).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    if (vec?.stats) console.log(`embedding: ${vec.summary}; ${vec.stats.nodes_per_second} node vectors/s`);
    console.log(`unchanged re-ingest: ${f2(rewall)} s (${again.counts.unchanged} unchanged, ${again.counts.added + again.counts.updated} redone)`);
    console.log(`load average before ${out.load_average.before.join(' ')}, after ${out.load_average.after.join(' ')}`);
  }
  if (!o.keep && !o.store) rmSync(store, { recursive: true, force: true });
}

main().catch((err) => fail(err.stack ?? String(err)));
