#!/usr/bin/env node
/**
 * PDF structure benchmark (issue #3): ingests a folder of PDFs (default ../shared/financebench/pdfs)
 * into a temporary store with the built CLI (dist/), then reports
 *   - ingest pages/s (PDF parsing in worker threads) and the ratio to `pdftotext` on the same files;
 *   - share of 10-K/10-Q filings whose tree has Item sections and separate financial-statement nodes;
 *   - the largest leaf in pages, and pages not covered by exactly one leaf (must be none);
 *   - tier-2 hit@1 / hit@3: for each question, is an expected page inside one of the top suggested
 *     nodes of the expected file. Ranking: `rankNodes` from dist/search/nodes.js (keyword scoring
 *     over node title + summary + text; node vectors too when the store has them and --vectors).
 *     Also, for comparison (or alone when dist/search/nodes.js is missing), a BM25 over leaf
 *     title + summary + text defined below, with terms found in the title/summary weighted up.
 * Usage: npm run bench:pdf -- [--pdfs DIR] [--questions FILE] [--questions-only] [--vectors] [--print N] [--misses] [--keep] [--store DIR]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(REPO, 'dist/cli/main.js');
const MAX_LEAF_PAGES = 5;
const TOP_K = 3;

function arg(name, dflt) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
}
const flag = (name) => process.argv.includes(name);

const pdfDir = resolve(arg('--pdfs', join(REPO, '../shared/financebench/pdfs')));
const questionsFile = resolve(arg('--questions', join(dirname(pdfDir), 'questions.jsonl')));
const printN = Number(arg('--print', '5'));
if (!existsSync(CLI)) {
  console.error('dist/cli/main.js is missing: run `npm run build` first.');
  process.exit(2);
}
if (!existsSync(pdfDir)) {
  console.error(`No PDF folder at ${pdfDir} (use --pdfs DIR).`);
  process.exit(2);
}

// ---------- ingest into a temporary store ----------
// --store DIR: reuse a store made by an earlier run with --keep (no ingest, no speed figures)
const reuse = arg('--store', null);
const store = reuse ? resolve(reuse) : mkdtempSync(join(tmpdir(), 'mhub-bench-pdf-'));
if (!reuse) execFileSync(process.execPath, [CLI, 'init', store], { stdio: 'ignore' });
if (!reuse && !flag('--vectors')) {
  // keyword-only store: measures conversion + tree + keyword index, not the embedding model
  const cfgPath = join(store, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.embedding = { ...cfg.embedding, model: 'none' };
  writeFileSync(cfgPath, JSON.stringify(cfg, null, 2) + '\n');
}
const inbox = join(store, 'inbox');
const questionFiles = existsSync(questionsFile) ? new Set(readFileSync(questionsFile, 'utf8').split('\n').filter(Boolean).flatMap((l) => JSON.parse(l).expected.map((e) => e.file))) : new Set();
// --questions-only: just the filings the questions are about (faster iteration; no distractors)
const files = readdirSync(pdfDir).filter((f) => f.toLowerCase().endsWith('.pdf') && (!flag('--questions-only') || questionFiles.has(f))).sort();
if (!reuse) for (const f of files) cpSync(join(pdfDir, f), join(inbox, f));

const t0 = process.hrtime.bigint();
const run = reuse ? { stdout: '{"pages":0,"pages_per_second":0,"sources":[]}', stderr: '' } : spawnSync(process.execPath, [CLI, 'ingest', inbox, '--json', '--llm', 'none'], { cwd: store, encoding: 'utf8', maxBuffer: 64 << 20 });
const wall = Number(process.hrtime.bigint() - t0) / 1e9;
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error('ingest did not print a JSON report:\n' + run.stdout.slice(0, 2000) + run.stderr.slice(0, 2000));
  process.exit(1);
}
const pages = report.pages;
const failed = report.sources.filter((s) => s.status !== 'indexed');

// ---------- pdftotext on the same files ----------
function pdftotextSeconds(parallel) {
  const start = process.hrtime.bigint();
  const queue = [...files];
  const out = join(store, '.pdftotext.txt');
  const workers = Array.from({ length: parallel }, (_, w) => new Promise((done) => {
    const next = () => {
      const f = queue.shift();
      if (!f) return done();
      const p = spawnSync('pdftotext', [join(inbox, f), `${out}.${w}`]);
      if (p.error) return done();
      next();
    };
    next();
  }));
  return Promise.all(workers).then(() => Number(process.hrtime.bigint() - start) / 1e9);
}
const hasPdftotext = spawnSync('pdftotext', ['-v']).error === undefined;
const cores = cpus().length;
const pdftotext1 = hasPdftotext && !reuse ? await pdftotextSeconds(1) : null;

// ---------- trees ----------
const catalog = JSON.parse(readFileSync(join(store, 'catalog.json'), 'utf8'));
const byFile = new Map(catalog.sources.map((e) => [e.filename, e]));
const trees = new Map();
for (const e of catalog.sources) if (e.tree_path) trees.set(e.filename, JSON.parse(readFileSync(join(store, e.tree_path), 'utf8')));

const STATEMENTS = {
  balance: /balance sheets?|financial (position|condition)/i,
  income: /statements? of (consolidated )?(income|operations|earnings)|income statements?/i,
  cashflow: /statements? of (consolidated )?cash flows?|cash flows? statements?/i,
};
function leavesOf(node, out = []) {
  if (node.children.length === 0) out.push(node);
  else node.children.forEach((c) => leavesOf(c, out));
  return out;
}
function allNodes(node, out = []) {
  out.push(node);
  node.children.forEach((c) => allNodes(c, out));
  return out;
}
let filings = 0;
let structured = 0;
const unstructured = [];
let largestLeaf = 0;
let largestLeafAt = '';
const coverageProblems = [];
const tocSources = {};
for (const [file, tree] of trees) {
  tocSources[tree.toc_source] = (tocSources[tree.toc_source] ?? 0) + 1;
  const leaves = leavesOf(tree.root);
  const cover = Array.from({ length: tree.page_count + 1 }, () => 0);
  for (const l of leaves) {
    const [a, b] = l.page_range;
    if (b - a + 1 > largestLeaf) {
      largestLeaf = b - a + 1;
      largestLeafAt = `${file} "${l.title}"`;
    }
    for (let p = a; p <= b; p++) cover[p] = (cover[p] ?? 0) + 1;
  }
  const bad = [];
  for (let p = 1; p <= tree.page_count; p++) if (cover[p] !== 1) bad.push(p);
  if (bad.length) coverageProblems.push(`${file}: ${bad.length} page(s), e.g. ${bad.slice(0, 5).join(', ')}`);
  if (!/_10[KQ]\.pdf$/i.test(file)) continue;
  filings++;
  const nodes = allNodes(tree.root);
  const items = nodes.filter((n) => /^item\s+\d/i.test(n.title)).length;
  const small = nodes.filter((n) => n.page_range && n.page_range[1] - n.page_range[0] + 1 <= MAX_LEAF_PAGES);
  const separate = Object.values(STATEMENTS).every((re) => small.some((n) => re.test(n.title) && !/;/.test(n.title)));
  if (items >= 3 && separate) structured++;
  else unstructured.push(`${file} (items ${items}, statements ${separate ? 'yes' : 'no'})`);
}

// ---------- tier-2 ----------
/** Local ranker: a title/summary term adds this many times its idf on top of BM25 over the whole leaf. */
const HEAD_WEIGHT = 3;
const nodesJs = join(REPO, 'dist/search/nodes.js');
const rankers = [];
if (existsSync(nodesJs)) {
  const mod = await import(pathToFileURL(nodesJs).href);
  rankers.push({
    name: `rankNodes (dist/search/nodes.js${flag('--vectors') ? ', vectors when present' : ', keyword only'})`,
    rank: async (entry, query) => mod.rankNodes(store, entry.id, query, { k: TOP_K, maxPages: MAX_LEAF_PAGES, vectors: flag('--vectors') }),
  });
}
rankers.push({
  name: `bench-local BM25 over leaf title + summary + text, title/summary terms weighted ${HEAD_WEIGHT}×idf${existsSync(nodesJs) ? ' (comparison)' : ' (dist/search/nodes.js not found)'}`,
  rank: async (entry, query) => bm25Rank(entry, query),
});
const tokenize = (s) => (s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 1);
const leafDocs = new Map();
function docsOf(file) {
  if (leafDocs.has(file)) return leafDocs.get(file);
  const tree = trees.get(file);
  const docs = leavesOf(tree.root).filter((l) => l.page_range[1] - l.page_range[0] + 1 <= MAX_LEAF_PAGES).map((l) => {
    const text = l.content_ref ? readFileSync(join(store, l.content_ref), 'utf8') : '';
    const tf = new Map();
    const toks = tokenize(`${l.title} ${l.summary} ${text}`);
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { l, tf, len: toks.length, head: new Set(tokenize(`${l.title} ${l.summary}`)) };
  });
  leafDocs.set(file, docs);
  return docs;
}
function bm25Rank(entry, query) {
  const docs = docsOf(entry.filename);
  const avg = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, docs.length);
  const df = new Map();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const q = [...new Set(tokenize(query))];
  const scored = docs.map((d) => {
    let s = 0;
    for (const t of q) {
      const f = d.tf.get(t) ?? 0;
      if (!f) continue;
      const idf = Math.log(1 + (docs.length - df.get(t) + 0.5) / (df.get(t) + 0.5));
      s += (idf * f * 2.2) / (f + 1.2 * (0.25 + 0.75 * (d.len / avg)));
      if (d.head.has(t)) s += HEAD_WEIGHT * idf;
    }
    return { node_id: d.l.node_id, title: d.l.title, page_range: d.l.page_range, score: s };
  });
  return scored.sort((a, b) => b.score - a.score || (a.node_id < b.node_id ? -1 : 1)).slice(0, TOP_K);
}
const questions = existsSync(questionsFile) ? readFileSync(questionsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
const tier2 = [];
for (const r of rankers) {
  let hit1 = 0;
  let hit3 = 0;
  const misses = [];
  for (const q of questions) {
    const exp = q.expected[0];
    const entry = byFile.get(exp.file);
    if (!entry || !trees.has(exp.file)) {
      misses.push(`${q.id}: ${exp.file} not indexed`);
      continue;
    }
    const hits = await r.rank(entry, q.query);
    const inside = (h) => h.page_range && exp.pages.some((p) => p >= h.page_range[0] && p <= h.page_range[1]);
    if (hits[0] && inside(hits[0])) hit1++;
    if (hits.slice(0, TOP_K).some(inside)) hit3++;
    else misses.push(`${q.id} ${exp.file} p.${exp.pages.join(',')}: got ${hits.map((h) => `[${h.page_range}] ${h.title.slice(0, 50)}`).join(' | ')}`);
  }
  tier2.push({ name: r.name, hit1, hit3, misses });
}

// ---------- report ----------
const r2 = (x) => Math.round(x * 100) / 100;
const ourRate = pages / wall;
console.log(`PDF structure benchmark over ${files.length} PDFs in ${pdfDir}`);
console.log(`store: ${store}`);
console.log(`ingest: ${pages} pages in ${r2(wall)} s wall (CLI process incl. start-up) = ${r2(ourRate)} pages/s on ${cores} cores; pipeline reported ${report.pages_per_second} pages/s; failed ${failed.length}`);
if (pdftotext1 !== null) console.log(`pdftotext (1 process, same files): ${r2(pdftotext1)} s = ${r2(pages / pdftotext1)} pages/s; ratio ingest/pdftotext = ${r2(ourRate / (pages / pdftotext1))}`);
else console.log('pdftotext not installed: no speed reference (apt-get install poppler-utils)');
console.log(`toc_source: ${JSON.stringify(tocSources)}`);
console.log(`10-K/10-Q filings with Item sections and separate balance sheet / income / cash-flow nodes: ${structured}/${filings} = ${r2(structured / Math.max(1, filings))}`);
for (const u of unstructured) console.log(`  not structured: ${u}`);
console.log(`largest leaf: ${largestLeaf} pages (${largestLeafAt})`);
console.log(`pages not covered by exactly one leaf: ${coverageProblems.length === 0 ? 'none' : coverageProblems.join('; ')}`);
for (const t of tier2) {
  console.log(`tier-2 (${t.name}) over ${questions.length} questions: hit@1 = ${r2(t.hit1 / Math.max(1, questions.length))}, hit@${TOP_K} = ${r2(t.hit3 / Math.max(1, questions.length))}`);
  if (flag('--misses')) for (const m of t.misses) console.log(`  miss: ${m}`);
}
for (const s of failed) console.log(`  ${s.status}: ${s.file}: ${s.error}`);

if (printN > 0) {
  const pick = ['3M_2018_10K.pdf', 'AMCOR_2023_10K.pdf', 'BESTBUY_2024Q2_10Q.pdf', 'MGMRESORTS_2022Q4_EARNINGS.pdf', 'PEPSICO_2022_10K.pdf', ...trees.keys()];
  const shown = [...new Set(pick.filter((f) => trees.has(f)))].slice(0, printN);
  for (const f of shown) {
    const t = trees.get(f);
    console.log(`\n=== ${f}: ${t.title} [${t.toc_source}, ${t.page_count} pages, ${t.node_count} nodes]`);
    const show = (n, d) => {
      if (d > 0) console.log(`${'  '.repeat(d - 1)}${n.node_id} [${n.page_range?.join('-')}] ${n.title.slice(0, 110)}${n.children.length ? '' : `  — ${n.summary.slice(0, 90)}`}`);
      if (d < 3) n.children.forEach((c) => show(c, d + 1));
    };
    show(t.root, 0);
  }
}
if (!flag('--keep') && !reuse) rmSync(store, { recursive: true, force: true });
