#!/usr/bin/env node
/**
 * The store-wide index builders alone, over an existing store: each builder's `build` as the index
 * stage runs it when no source changed (node keyword files and vectors read back, shards and FAISS
 * files rewritten — byte-identical when the code's output did not change), in a fresh process per
 * builder, with its wall time and peak RSS. What the index stage costs at a large library, without
 * converting anything again.
 *
 *   node scripts/bench-index-build.mjs <store> [--builder keyword|vectors|all] [--runs N]
 *
 * Writes into <store> (the same bytes when nothing changed): use a store you can rebuild.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { builder: { type: 'string', default: 'all' }, runs: { type: 'string', default: '1' }, child: { type: 'string' } },
});

async function child(store, builder) {
  const dist = join(ROOT, 'dist', 'indexing');
  const make = builder === 'keyword'
    ? (await import(join(dist, 'keyword-builder.js'))).keywordIndexBuilder
    : (await import(join(dist, 'vector-builder.js'))).vectorIndexBuilder;
  const cat = JSON.parse(readFileSync(join(store, 'catalog.json'), 'utf8'));
  const config = JSON.parse(readFileSync(join(store, 'config.json'), 'utf8'));
  const entries = cat.sources.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map(entries.map((e) => [e.id, e]));
  const ctx = {
    root: store, config, entries, changed: new Set(), removed: new Set(), log: () => {},
    loadTree: (id) => { const e = byId.get(id); return e?.tree_path ? JSON.parse(readFileSync(join(store, e.tree_path), 'utf8')) : null; },
  };
  const t = performance.now();
  const res = await make().build(ctx);
  process.stdout.write(JSON.stringify({ builder, summary: res.summary, seconds: (performance.now() - t) / 1000 }) + '\n');
}

if (values.child) await child(resolve(positionals[0]), values.child);
else {
  const store = positionals[0];
  if (!store) {
    console.error('usage: node scripts/bench-index-build.mjs <store> [--builder keyword|vectors|all] [--runs N]');
    process.exit(2);
  }
  const builders = values.builder === 'all' ? ['keyword', 'vectors'] : [values.builder];
  for (let r = 0; r < Number(values.runs); r++) {
    for (const b of builders) {
      // GNU time's %M: the child's peak RSS in KB
      const p = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, fileURLToPath(import.meta.url), resolve(store), '--child', b], { encoding: 'utf8' });
      if (p.status !== 0) {
        console.error(p.stderr);
        process.exit(1);
      }
      const out = JSON.parse(p.stdout.trim().split('\n').pop());
      const peakMb = Number(p.stderr.trim().split('\n').pop()) / 1024;
      console.log(`${b.padEnd(8)} ${out.seconds.toFixed(1)} s  peak RSS ${peakMb.toFixed(0)} MB  (${out.summary})`);
    }
  }
}
