#!/usr/bin/env node
// Format benchmarks (run after `npm run build`):
//  1. a generated workbook with 120,000 rows on one sheet plus 30 small sheets (exceljs streaming writer),
//     ingested in a child process: wall time and peak RSS;
//  2. the format fixtures (test/fixtures/formats): per format, file count, conversion time, skipped and why.
// Usage: node scripts/bench-formats.mjs [workdir] [rows]      (workdir defaults to a temp folder, not the repo)
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(repo, 'dist');
if (!existsSync(join(dist, 'ingest', 'pipeline.js'))) {
  console.error('dist/ is missing: run `npm run build` first.');
  process.exit(2);
}
const work = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'mhub-bench-formats-'));
const ROWS = Number(process.argv[3] ?? 120_000);
const EXTRA_SHEETS = 30;
const EXTRA_ROWS = 200;
const REGIONS = ['North', 'South', 'East', 'West', 'Central'];
const PRODUCTS = ['Widget Pro', 'Gadget Mini', 'Sensor Kit', 'Cable Pack', 'Dock Station', 'Battery XL'];

async function makeWorkbook(file) {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('Orders');
  ws.addRow(['Order export (generated for the benchmark)']).commit();
  ws.addRow([]).commit();
  ws.addRow(['Order ID', 'Order Date', 'Region', 'Product', 'Units', 'Unit Price', 'Revenue', 'Note']).commit();
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < ROWS; i++) {
    const units = 1 + Math.floor(rnd() * 90);
    const price = Math.round((5 + rnd() * 200) * 100) / 100;
    const r = ws.addRow([
      `ORD-${String(i + 1).padStart(7, '0')}`,
      new Date(start + Math.floor(rnd() * 1500) * 86400000),
      REGIONS[Math.floor(rnd() * REGIONS.length)],
      PRODUCTS[Math.floor(rnd() * PRODUCTS.length)],
      units,
      price,
      { formula: `E${i + 4}*F${i + 4}`, result: Math.round(units * price * 100) / 100 },
      rnd() < 0.1 ? 'expedite' : null,
    ]);
    r.getCell(2).numFmt = 'yyyy-mm-dd';
    r.getCell(6).numFmt = '"$"#,##0.00';
    r.getCell(7).numFmt = '"$"#,##0.00';
    r.commit();
  }
  await ws.commit();
  for (let s = 1; s <= EXTRA_SHEETS; s++) {
    const x = wb.addWorksheet(`Store ${s}`);
    x.addRow(['SKU', 'On hand', 'Reorder level']).commit();
    for (let i = 0; i < EXTRA_ROWS; i++) x.addRow([`SKU-${s}-${i}`, Math.floor(rnd() * 500), 50]).commit();
    await x.commit();
  }
  await wb.commit();
}

function runIngest(root) {
  const code = `
    const { ingest } = await import(${JSON.stringify(join(dist, 'ingest', 'pipeline.js'))});
    const t0 = Date.now();
    const r = await ingest(${JSON.stringify(root)}, { paths: [${JSON.stringify(join(root, 'inbox'))}] });
    const ms = Date.now() - t0;
    console.log(JSON.stringify({ ms, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), sources: r.sources, counts: r.counts }));
  `;
  return runScript(root, code);
}

/** Run a module in a fresh node process (worker threads of converters need a real file, not -e). */
function runScript(dir, code) {
  const file = join(dir, `.bench-${Date.now()}.mjs`);
  writeFileSync(file, code);
  try {
    const res = spawnSync(process.execPath, [file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (res.status !== 0) throw new Error(`child failed: ${res.stderr}`);
    return JSON.parse(res.stdout.trim().split('\n').pop());
  } finally {
    rmSync(file, { force: true });
  }
}

/** The xlsx converter alone (no embedding model in the process): time and peak RSS of conversion itself. */
function runConvertOnly(dir, file, type = 'xlsx') {
  const code = `
    import { readFileSync } from 'node:fs';
    const { converterFor } = await import(${JSON.stringify(join(dist, 'ingest', 'converters', 'index.js'))});
    const bytes = readFileSync(${JSON.stringify(file)});
    const card = { id: 'src_00000000', filename: 'orders.${type}', original_path: 'inbox/orders.${type}', type: '${type}', size_kb: bytes.length / 1024, sha256: '0'.repeat(64) };
    const t0 = Date.now();
    const r = await converterFor('${type}').convert({ absPath: ${JSON.stringify(file)}, card, plan: {}, bytes, options: { maxLeafPages: 5 } });
    const ms = Date.now() - t0;
    const sheets = r.root.kind === 'sheet' ? [r.root] : r.root.children;
    const rows = sheets.reduce((n, c) => n + (c.meta?.row_count ?? 0), 0);
    const jsonlMb = r.extra_files.reduce((n, f) => n + f.content.length, 0) / 1048576;
    console.log(JSON.stringify({ ms, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024), sheets: sheets.length, rows, jsonlMb: Math.round(jsonlMb * 10) / 10 }));
  `;
  return runScript(dir, code);
}

const { initStore } = await import(join(dist, 'store', 'init.js'));

// 1. the large workbook
mkdirSync(work, { recursive: true });
const big = join(work, 'big');
rmSync(big, { recursive: true, force: true });
mkdirSync(big, { recursive: true });
initStore(big);
const xlsx = join(big, 'inbox', 'orders-120k.xlsx');
let t = Date.now();
await makeWorkbook(xlsx);
console.log(`generated ${xlsx}: ${ROWS} rows + ${EXTRA_SHEETS} sheets × ${EXTRA_ROWS} rows, ${(statSync(xlsx).size / 1048576).toFixed(1)} MiB in ${((Date.now() - t) / 1000).toFixed(1)}s`);
const c = runConvertOnly(big, xlsx);
console.log(`xlsx converter alone: ${c.sheets} sheets, ${c.rows} data rows in ${(c.ms / 1000).toFixed(1)}s (${Math.round(c.rows / (c.ms / 1000))} rows/s), rows files ${c.jsonlMb} MiB, peak RSS ${c.maxRssMb} MB`);
// the same orders as CSV (csv-parse path)
const csvFile = join(work, 'orders-120k.csv');
{
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const lines = ['Order ID,Order Date,Region,Product,Units,Unit Price,Revenue,Note'];
  for (let i = 0; i < ROWS; i++) {
    const units = 1 + Math.floor(rnd() * 90);
    const price = (5 + rnd() * 200).toFixed(2);
    const d = new Date(Date.UTC(2020, 0, 1) + Math.floor(rnd() * 1500) * 86400000).toISOString().slice(0, 10);
    lines.push(`ORD-${String(i + 1).padStart(7, '0')},${d},${REGIONS[i % REGIONS.length]},"${PRODUCTS[i % PRODUCTS.length]}",${units},$${price},"$${(units * Number(price)).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}",${rnd() < 0.1 ? 'expedite' : ''}`);
  }
  writeFileSync(csvFile, lines.join('\n') + '\n');
}
const cc = runConvertOnly(big, csvFile, 'csv');
console.log(`csv converter alone: ${cc.rows} data rows (${(statSync(csvFile).size / 1048576).toFixed(1)} MiB) in ${(cc.ms / 1000).toFixed(1)}s (${Math.round(cc.rows / (cc.ms / 1000))} rows/s), peak RSS ${cc.maxRssMb} MB`);
const b = runIngest(big);
const src = b.sources.find((s) => s.file.endsWith('.xlsx'));
console.log(`large workbook: status ${src.status}, convert+tree ${(src.ms / 1000).toFixed(1)}s, whole ingest ${(b.ms / 1000).toFixed(1)}s, peak RSS ${b.maxRssMb} MB, ${src.nodes} nodes`);

// 2. per-format timings on the fixtures
const fx = join(work, 'fixtures');
rmSync(fx, { recursive: true, force: true });
mkdirSync(fx, { recursive: true });
initStore(fx);
const fixtures = join(repo, 'test', 'fixtures', 'formats');
for (const name of readdirSync(fixtures)) cpSync(join(fixtures, name), join(fx, 'inbox', name), { recursive: true });
const f = runIngest(fx);
const by = new Map();
for (const s of f.sources) {
  const k = s.type;
  const e = by.get(k) ?? { files: 0, ms: 0, notes: [] };
  e.files++;
  e.ms += s.ms ?? 0;
  if (s.status !== 'indexed') e.notes.push(`${s.file.split('/').pop()}: ${s.status} — ${s.error}`);
  by.set(k, e);
}
console.log(`\nfixtures (${f.sources.length} sources, whole ingest ${(f.ms / 1000).toFixed(1)}s incl. index build, peak RSS ${f.maxRssMb} MB):`);
console.log('type    files  convert-ms  notes');
for (const [k, e] of [...by.entries()].sort()) console.log(`${k.padEnd(7)} ${String(e.files).padStart(5)}  ${String(e.ms).padStart(10)}  ${e.notes.join(' | ')}`);

// 3. each fixture converted alone, one after another (the ingest above converts two at a time, so its
//    per-source times overlap): converter time per format, first use (module load) included
const seq = runScript(fx, `
  import { readFileSync, readdirSync, statSync } from 'node:fs';
  import { join, relative } from 'node:path';
  const { detectBytes } = await import(${JSON.stringify(join(dist, 'ingest', 'detect.js'))});
  const { converterFor } = await import(${JSON.stringify(join(dist, 'ingest', 'converters', 'index.js'))});
  const root = ${JSON.stringify(join(fx, 'inbox'))};
  const files = [];
  const walk = (d) => { for (const n of readdirSync(d).sort()) { const a = join(d, n); statSync(a).isDirectory() ? walk(a) : files.push(a); } };
  walk(root);
  const out = [];
  for (const f of files) {
    const det = detectBytes(readFileSync(f), relative(root, f), 'src_00000000', 0);
    const conv = converterFor(det.card.type);
    if (!conv) { out.push({ type: det.card.type, ms: 0, status: 'skipped' }); continue; }
    const t0 = performance.now();
    let status = 'indexed';
    try { const r = await conv.convert({ absPath: f, card: det.card, plan: {}, bytes: det.bytes, options: { maxLeafPages: 5 } }); if (r.skip_reason) status = 'skipped'; } catch { status = 'failed'; }
    out.push({ type: det.card.type, ms: Math.round(performance.now() - t0), status });
  }
  console.log(JSON.stringify(out));
`);
const seqBy = new Map();
for (const s of seq) {
  const e = seqBy.get(s.type) ?? { files: 0, ms: 0 };
  e.files++;
  e.ms += s.ms;
  seqBy.set(s.type, e);
}
console.log('\neach fixture converted alone, sequentially (converter only, module load on first use included):');
console.log('type    files  convert-ms');
for (const [k, e] of [...seqBy.entries()].sort()) console.log(`${k.padEnd(7)} ${String(e.files).padStart(5)}  ${String(e.ms).padStart(10)}`);
if (!process.argv[2]) rmSync(work, { recursive: true, force: true });
