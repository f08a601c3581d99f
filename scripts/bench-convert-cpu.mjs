#!/usr/bin/env node
/**
 * `node scripts/bench-convert-cpu.mjs [FOLDER] [--runs 3] [--dist DIR]`
 *
 * CPU seconds of the PDF converter's own JavaScript (layout, outline, sections, summaries, card) over
 * every PDF of FOLDER (default ../shared/financebench/pdfs), in this thread, one file after the other:
 * poppler's output is read first for all files (not timed), then `convertPdfBytes` runs over them
 * `--runs` times and each pass's process CPU (user + system, this thread only: no child process runs
 * then) is printed, the first pass including the JIT's warm-up. Unlike `npm run bench:ingest` it is
 * steady on a busy machine, so two builds can be compared where a quiet one is not to be had:
 * `--dist` points at another checkout's dist/ (e.g. a worktree of an older commit, built there).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '3' }, dist: { type: 'string', default: join(REPO, 'dist') } },
});
const folder = resolve(positionals[0] ?? join(REPO, '..', 'shared', 'financebench', 'pdfs'));
const dist = resolve(values.dist);
const runs = Math.max(1, Number(values.runs) || 3);

const { convertPdfBytes } = await import(pathToFileURL(join(dist, 'ingest/converters/pdf/convert.js')).href);
const { readNative } = await import(pathToFileURL(join(dist, 'ingest/converters/pdf/poppler.js')).href);

const files = readdirSync(folder).filter((f) => f.toLowerCase().endsWith('.pdf')).sort();
if (files.length === 0) {
  console.error(`bench-convert-cpu: no PDF in ${folder}`);
  process.exit(2);
}
const inputs = [];
let native = 0;
for (const f of files) {
  const bytes = new Uint8Array(readFileSync(join(folder, f)));
  const read = await readNative(bytes);
  if (read.status === 'ok') native++;
  inputs.push({ bytes, read });
}
console.log(`${files.length} PDFs in ${folder}; poppler read ${native} (the rest go to pdfjs); dist ${dist}`);
for (let r = 1; r <= runs; r++) {
  const c0 = process.cpuUsage();
  let pages = 0;
  for (const { bytes, read } of inputs) pages += (await convertPdfBytes(bytes, { maxLeafPages: 5, fallbackTitle: 'x' }, read)).pages ?? 0;
  const c = process.cpuUsage(c0);
  const s = (c.user + c.system) / 1e6;
  console.log(`pass ${r}: ${s.toFixed(2)} s CPU, ${pages} pages, ${(pages / s).toFixed(0)} pages per CPU second`);
}
