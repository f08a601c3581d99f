#!/usr/bin/env node
/**
 * Flat vs IVF, native (faiss-node) vs built-in codec: what one query costs in a fresh process
 * (open the file + search, as a skill script pays it) and IVF's recall@10 against the exact scan,
 * for growing row counts of 512-dim unit vectors (clustered, seeded). Sets VECTOR_IVF_MIN_ROWS.
 *   node scripts/bench-vectors.mjs [--sizes 10000,30000,100000] [--dims 512] [--queries 20]
 * Needs `npm run build` (reads dist/).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => pathToFileURL(join(ROOT, 'dist', p)).href;
const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000,30000,100000' }, dims: { type: 'string', default: '512' }, queries: { type: 'string', default: '20' }, child: { type: 'string' } } });
const dims = Number(values.dims);
const nq = Number(values.queries);

function clustered(count, seed = 7) {
  let s = seed;
  const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296) - 0.5;
  const clusters = Math.max(8, Math.round(Math.sqrt(count) / 2));
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dims }, rand));
  const data = new Float32Array(count * dims);
  for (let r = 0; r < count; r++) {
    const c = centres[Math.floor((rand() + 0.5) * clusters) % clusters];
    let norm = 0;
    for (let j = 0; j < dims; j++) norm += (data[r * dims + j] = c[j] + 0.6 * rand()) ** 2;
    for (let j = 0; j < dims; j++) data[r * dims + j] /= Math.sqrt(norm);
  }
  return { dims, count, data };
}

if (values.child) {
  // one fresh process: open + first query timed, then the other queries; prints JSON
  const [path, mode] = values.child.split('|');
  const f = await import(dist('vector/faiss.js'));
  if (mode === 'js') f.disableNativeFaiss();
  const v = clustered(Number(process.env.BENCH_COUNT));
  const t0 = performance.now();
  const ix = await f.openIndex(path);
  const first = ix.search(v.data.subarray(0, dims), 10);
  const t1 = performance.now();
  const rows = [first.map((h) => h.row)];
  const t2 = performance.now();
  for (let i = 1; i < nq; i++) { const r = (i * 97) % v.count; rows.push(ix.search(v.data.subarray(r * dims, (r + 1) * dims), 10).map((h) => h.row)); }
  const t3 = performance.now();
  process.stdout.write(JSON.stringify({ native: ix.native, openFirstMs: t1 - t0, queryMs: (t3 - t2) / Math.max(1, nq - 1), rssMb: process.memoryUsage().rss / 1e6, rows }));
  process.exit(0);
}

const { chooseIndex } = await import(dist('vector/index-choice.js'));
const { writeVectorIndex } = await import(dist('vector/faiss.js'));
const dir = mkdtempSync(join(tmpdir(), 'mhub-bench-vectors-'));
const run = (path, mode, count) => {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', `${path}|${mode}`, '--dims', String(dims), '--queries', String(nq)], { encoding: 'utf8', env: { ...process.env, BENCH_COUNT: String(count) }, maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
};
console.log('rows\tindex\tengine\tfile MB\topen+1st query ms\tquery ms\tRSS MB\trecall@10\ttrain s');
try {
  for (const count of values.sizes.split(',').map(Number)) {
    const v = clustered(count);
    const flatPath = join(dir, `flat-${count}.faiss`);
    const ivfPath = join(dir, `ivf-${count}.faiss`);
    await writeVectorIndex(flatPath, v, { index_type: 'flat' });
    const t0 = performance.now();
    const choice = chooseIndex(count, 1);
    await writeVectorIndex(ivfPath, v, choice);
    const train = (performance.now() - t0) / 1000;
    const exact = run(flatPath, 'js', count).rows;
    for (const [name, path] of [['flat', flatPath], [`ivf ${choice.nlist}/${choice.nprobe}`, ivfPath]]) {
      for (const mode of ['native', 'js']) {
        const r = run(path, mode, count);
        if (mode === 'native' && !r.native) continue;
        let hit = 0;
        r.rows.forEach((rows, i) => { hit += rows.filter((x) => exact[i].includes(x)).length; });
        const mb = statSync(path).size / 1e6;
        console.log([count, name, r.native ? 'faiss-node' : 'js', mb.toFixed(1), r.openFirstMs.toFixed(1), r.queryMs.toFixed(2), r.rssMb.toFixed(0), (hit / (10 * r.rows.length)).toFixed(3), name === 'flat' ? '' : train.toFixed(1)].join('\t'));
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
