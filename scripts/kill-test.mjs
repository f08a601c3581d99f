#!/usr/bin/env node
/**
 * `npm run bench:kill -- [FOLDER] [--rounds 20] [--files 3] [--embedding MODEL] [--keep]`
 *
 * Interrupts `mhub ingest` at random moments and checks what the next run makes of the store. A
 * reference store is ingested once, uninterrupted, to time the phases. Each round then starts an
 * ingest of the same files into a fresh store, sends SIGKILL, SIGTERM or SIGINT (at random) after a
 * random delay within the reference run's length, reruns ingest to the end and checks that:
 *   - the rerun exits 0 and redoes exactly the sources the interrupted run had not finished
 *     (neither in the catalog nor in the run's journal),
 *   - `mhub doctor` calls the store healthy (exit 0),
 *   - the store is byte-identical to the reference (catalog, converted texts, trees, indexes),
 *   - SIGTERM/SIGINT left no lock behind (the rerun could start).
 * FOLDER defaults to ../shared/financebench/pdfs (its `--files` smallest PDFs). Exit 1 on any failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'dist', 'cli', 'main.js');
const EPOCH = '1767225600';
const SIGNALS = ['SIGKILL', 'SIGTERM', 'SIGINT'];
const COMPARED = ['catalog.json', 'converted', 'tree_index', 'vector_store'];

function parseArgs(argv) {
  const o = { folder: resolve(REPO, '..', 'shared', 'financebench', 'pdfs'), rounds: 20, files: 3, embedding: null, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--rounds') o.rounds = Number(argv[++i]);
    else if (a === '--files') o.files = Number(argv[++i]);
    else if (a === '--embedding') o.embedding = argv[++i];
    else if (a === '--keep') o.keep = true;
    else o.folder = resolve(a);
  }
  return o;
}

const env = { ...process.env, MHUB_STORE: '', SOURCE_DATE_EPOCH: EPOCH };

function mhubSync(args, cwd) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', maxBuffer: 256 << 20 });
}

function makeStore(dir, files, embedding) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'inbox'), { recursive: true });
  mhubSync(['init', dir], dir);
  const cfgPath = join(dir, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  if (embedding) cfg.embedding.model = embedding;
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
  for (const f of files) cpSync(f, join(dir, 'inbox', f.split('/').pop()), { preserveTimestamps: true });
}

/** sha256 of every compared file, by store-relative path. */
function digest(dir) {
  const out = new Map();
  const walk = (rel) => {
    const abs = join(dir, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) for (const n of readdirSync(abs).sort()) walk(`${rel}/${n}`);
    else out.set(rel, createHash('sha256').update(readFileSync(abs)).digest('hex'));
  };
  for (const c of COMPARED) walk(c);
  return out;
}

function diffDigests(a, b) {
  const diffs = [];
  for (const [k, v] of a) if (b.get(k) !== v) diffs.push(k);
  for (const k of b.keys()) if (!a.has(k)) diffs.push(k);
  return diffs;
}

/** Sources the interrupted run left finished: in the catalog or in its journal. */
function finishedIds(dir) {
  const ids = new Set();
  try {
    for (const e of JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')).sources) ids.add(e.id);
  } catch { /* no catalog yet */ }
  const j = join(dir, '.mhub', 'ingest-journal.jsonl');
  if (existsSync(j)) {
    for (const line of readFileSync(j, 'utf8').split('\n')) {
      try { ids.add(JSON.parse(line).entry.id); } catch { /* torn line */ }
    }
  }
  return ids;
}

function phaseAt(ms, phases) {
  let t = 0;
  for (const [name, s] of Object.entries(phases)) {
    t += s * 1000;
    if (ms <= t) return name;
  }
  return 'after';
}

function interruptedRun(dir, delayMs, signal) {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, 'ingest', 'inbox', '--quiet', '--llm', 'none'], { cwd: dir, env, stdio: 'ignore' });
    let sent = false;
    const timer = setTimeout(() => { sent = true; p.kill(signal); }, delayMs);
    p.on('exit', (code, sig) => { clearTimeout(timer); done({ code, sig, sent }); });
  });
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) { console.error('run npm run build first'); process.exit(2); }
  // the smallest PDFs (by bytes, then name): short runs, so many rounds fit
  const files = readdirSync(o.folder).filter((f) => /\.pdf$/i.test(f)).map((f) => join(o.folder, f))
    .sort((a, b) => statSync(a).size - statSync(b).size || (a < b ? -1 : 1)).slice(0, o.files);
  const base = mkdtempSync(join(tmpdir(), 'mhub-kill-'));
  const ref = join(base, 'reference');
  makeStore(ref, files, o.embedding);
  const t0 = Date.now();
  const refRun = JSON.parse(mhubSync(['ingest', 'inbox', '--json', '--llm', 'none'], ref).stdout);
  const refMs = Date.now() - t0;
  const refDigest = digest(ref);
  console.log(`reference: ${files.length} files, ${refRun.pages} pages in ${(refMs / 1000).toFixed(1)} s; phases ${JSON.stringify(refRun.phases)}`);
  const work = join(base, 'store');
  let failures = 0;
  const byPhase = {};
  for (let round = 1; round <= o.rounds; round++) {
    makeStore(work, files, o.embedding);
    const delay = Math.round(Math.random() * refMs * 1.05);
    const signal = SIGNALS[Math.floor(Math.random() * SIGNALS.length)];
    const r = await interruptedRun(work, delay, signal);
    const phase = r.sent ? phaseAt(delay, refRun.phases) : 'finished first';
    byPhase[phase] = (byPhase[phase] ?? 0) + 1;
    const finished = finishedIds(work);
    const rerun = mhubSync(['ingest', 'inbox', '--json', '--llm', 'none'], work);
    const problems = [];
    let redone = -1;
    if (rerun.status !== 0) problems.push(`rerun exited ${rerun.status}: ${rerun.stderr.slice(0, 300)}`);
    else {
      const rep = JSON.parse(rerun.stdout);
      redone = rep.counts.added + rep.counts.updated;
      const expected = files.length - Math.min(files.length, finished.size);
      if (redone !== expected) problems.push(`rerun redid ${redone} sources, expected ${expected}`);
    }
    const doc = mhubSync(['doctor'], work);
    if (doc.status !== 0) problems.push(`doctor exited ${doc.status}: ${doc.stdout.slice(-400)}`);
    const diffs = diffDigests(refDigest, digest(work));
    if (diffs.length) problems.push(`${diffs.length} files differ from the reference, e.g. ${diffs.slice(0, 3).join(', ')}`);
    if (problems.length) failures++;
    console.log(`round ${String(round).padStart(2)}: ${signal.padEnd(7)} at ${(delay / 1000).toFixed(1).padStart(5)} s (${phase.padEnd(14)}) exit ${r.code ?? r.sig}; ${finished.size} sources kept, rerun redid ${redone}; doctor ${doc.status === 0 ? 'healthy' : 'UNHEALTHY'}${problems.length ? `; FAIL: ${problems.join('; ')}` : '; store identical'}`);
  }
  console.log(`${o.rounds} rounds by phase interrupted: ${JSON.stringify(byPhase)}; ${failures} failed`);
  if (!o.keep) rmSync(base, { recursive: true, force: true });
  process.exit(failures ? 1 : 0);
}

main();
