#!/usr/bin/env node
/**
 * Do the passages search shows hold the answer? Runs the skill's search (the answer search.js
 * prints) for every question of a set that has an `answer`, and counts the answer's own words (those
 * not in the question) found in the passages under the expected source's nodes: in the first node's
 * passage, and in all of them. A proxy for "the agent can answer without reading on" that needs no
 * agent; it rises with passage length, so the characters shown per question are printed beside it.
 *
 *   node scripts/passage-recall.mjs --store /tmp/cd eval/crossdomain.jsonl [--store S set …]
 *
 * Requires `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { runSearch } from '../dist/retrieve/search-answer.js';
import { tokenize } from '../dist/model/tokenize.js';

const REQUEST = { limit: 5, offset: 0, nodesPerSource: 3, filters: {}, mode: 'auto', explain: false, maxChars: 20000 };

function pairs(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--store' && argv[i + 1] && argv[i + 2]) {
      out.push({ store: argv[i + 1], set: argv[i + 2] });
      i += 2;
    } else {
      console.error(`usage: node scripts/passage-recall.mjs --store STORE QUESTIONS.jsonl [--store STORE QUESTIONS.jsonl …] (unexpected "${argv[i]}")`);
      process.exit(2);
    }
  }
  if (out.length === 0) {
    console.error('usage: node scripts/passage-recall.mjs --store STORE QUESTIONS.jsonl [--store STORE QUESTIONS.jsonl …]');
    process.exit(2);
  }
  return out;
}

const share = (words, text) => {
  const have = new Set(tokenize(text.toLowerCase()));
  return words.filter((t) => have.has(t)).length / words.length;
};

async function measure(store, set) {
  const questions = readFileSync(set, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((q) => q.answer);
  let n = 0, first = 0, all = 0, whole = 0, chars = 0;
  for (const q of questions) {
    const asked = new Set(tokenize(q.query.toLowerCase()));
    const words = [...new Set(tokenize(String(q.answer).toLowerCase()))].filter((t) => t.length > 1 && !asked.has(t));
    if (words.length === 0) continue;
    const r = await runSearch(store, q.query, REQUEST);
    const hit = r.results.find((h) => q.expected.some((e) => h.file === e.file || h.file.endsWith(`/${e.file}`)));
    const passages = (hit?.nodes ?? []).map((x) => x.passage?.text ?? '');
    n++;
    first += share(words, passages[0] ?? '');
    const a = share(words, passages.join(' '));
    all += a;
    if (a >= 0.999) whole++;
    chars += passages.reduce((s, p) => s + p.length, 0);
  }
  const f = (x) => (n ? x / n : 0).toFixed(3);
  console.log(`${basename(set)} (${n} questions with answers): answer words in the first node's passage ${f(first)}, in any listed node's ${f(all)}, all of them ${whole}/${n}; passage characters a question ${(n ? chars / n : 0).toFixed(0)}`);
}

for (const { store, set } of pairs(process.argv.slice(2))) await measure(store, set);
