#!/usr/bin/env node
/**
 * `node scripts/make-big-text.mjs OUT.txt [MB]` (default 200 MB)
 *
 * Writes a large, deterministic plain-text file for the memory benchmark (`npm run bench:ingest --
 * --text-mb N`, issue #12: peak RSS ≤ 1 GB while ingesting a 200 MB text file). The text reads like
 * a long report: numbered section headings, paragraphs of 2–9 sentences over a Zipf-distributed
 * vocabulary of about 40,000 made-up words plus figures and years, and an occasional non-ASCII
 * word (so the text is UTF-8, not ASCII). Written in 1 MB pieces: the generator itself stays small.
 */
import { createWriteStream } from 'node:fs';

const MB = 1024 * 1024;
const VOCABULARY = 40000;
const SYLLABLES = ['ka', 'ren', 'to', 'mi', 'sul', 'ver', 'an', 'dor', 'li', 'pe', 'ques', 'tra', 'no', 'bel', 'is', 'gar', 'fen', 'mo', 'ut', 'sa', 'ri', 'lo', 'ten', 'ca'];
const ACCENTED = ['café', 'naïve', 'Zürich', 'résumé', 'São', 'Ångström', 'façade', 'über'];

/** Mulberry32: a small seeded PRNG, so the same size gives the same bytes. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function vocabulary(rand) {
  const words = new Set();
  while (words.size < VOCABULARY) {
    const n = 1 + Math.floor(rand() * 4);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Zipf-like pick: index ~ VOCABULARY^u - 1, so low ranks are frequent. */
function zipf(rand, n) {
  return Math.min(n - 1, Math.floor(Math.pow(n, rand()) - 1));
}

function sentence(rand, words) {
  const n = 6 + Math.floor(rand() * 20);
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.04) out.push(String(Math.floor(rand() * 100000) / 10));
    else if (r < 0.05) out.push(String(1990 + Math.floor(rand() * 40)));
    else if (r < 0.0505) out.push(ACCENTED[Math.floor(rand() * ACCENTED.length)]);
    else out.push(words[zipf(rand, words.length)]);
  }
  const s = out.join(' ');
  return s[0].toUpperCase() + s.slice(1) + (rand() < 0.9 ? '.' : '?');
}

function main() {
  const [out, mbArg] = process.argv.slice(2);
  if (!out) {
    console.error('usage: node scripts/make-big-text.mjs OUT.txt [MB]');
    process.exit(2);
  }
  const target = Math.round(Number(mbArg ?? 200) * MB);
  if (!(target > 0)) {
    console.error(`make-big-text: not a size in MB: ${mbArg}`);
    process.exit(2);
  }
  const rand = rng(12);
  const words = vocabulary(rand);
  const stream = createWriteStream(out);
  let written = 0;
  let section = 0;
  const piece = () => {
    let s = '';
    while (s.length < MB) {
      if (rand() < 0.02) s += `${++section}. ${sentence(rand, words).slice(0, 60).replace(/[.?]$/, '')}\n\n`;
      const n = 2 + Math.floor(rand() * 8);
      const para = [];
      for (let i = 0; i < n; i++) para.push(sentence(rand, words));
      s += para.join(' ') + '\n\n';
    }
    return s;
  };
  const write = () => {
    while (written < target) {
      let s = piece();
      const bytes = Buffer.byteLength(s);
      if (written + bytes > target) s = Buffer.from(s).subarray(0, target - written).toString('utf8').replace(/\uFFFD$/, '') + '\n';
      written += Buffer.byteLength(s);
      if (!stream.write(s)) return stream.once('drain', write);
    }
    stream.end(() => console.log(`${out}: ${(written / MB).toFixed(1)} MB`));
  };
  write();
}

main();
