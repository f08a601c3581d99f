#!/usr/bin/env node
/**
 * How often each verdict word is right: runs the skill's search (the same answer search.js prints:
 * 5 sources, 3 nodes each) for every question of a set and tallies, per verdict,
 *   - source level: listed sources with that verdict that are an expected file;
 *   - node level: first nodes (of the expected source, and of the first-ranked source) with that
 *     verdict whose page or line range holds an expected page or line;
 * plus the "search → read_source" figure an agent following SKILL.md gets: the first node of the
 * first source holds the answer.
 *
 *   node scripts/calibrate-verdicts.mjs --store /tmp/final-cd eval/crossdomain.jsonl [--json out.jsonl]
 *
 * Several `--store S set` pairs may be given (`--set` between them): the table is printed per set
 * and for all together. Requires `npm run build`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { runSearch } from '../dist/retrieve/search-answer.js';

function usage() {
  console.error('usage: node scripts/calibrate-verdicts.mjs --store STORE SET.jsonl [--store STORE2 SET2.jsonl …] [--json OUT]');
  process.exit(2);
}

const pairs = [];
let jsonOut = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--store') pairs.push({ store: argv[++i], set: argv[++i] });
  else if (argv[i] === '--json') jsonOut = argv[++i];
  else usage();
}
if (pairs.length === 0 || pairs.some((p) => !p.store || !p.set)) usage();

const same = (a, b) => basename(a).toLowerCase() === basename(b).toLowerCase();
const within = (r, xs) => !!r && xs.some((x) => x >= r[0] && x <= r[1]);

function nodeRight(node, exp) {
  return exp.some((x) => within(node.page_range, x.pages ?? []) || within(node.line_range, x.lines ?? []));
}

async function measure(store, setPath) {
  const questions = readFileSync(setPath, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const rows = [];
  for (const q of questions) {
    const a = await runSearch(store, q.query, { limit: 5, offset: 0, nodesPerSource: 3, filters: {}, mode: 'auto', explain: true, maxChars: 1e9 });
    a.results.forEach((r) => {
      const exp = q.expected.filter((x) => same(r.file, x.file));
      const first = r.nodes[0];
      rows.push({
        set: basename(setPath), id: q.id, rank: r.rank, relevance: r.relevance, verdict: r.verdict, score: r.score,
        right: exp.length > 0,
        period: r.explain?.period_score ?? null, identity: r.explain?.identity_score ?? null,
        node: first ? { verdict: first.verdict, relevance: first.relevance, right: exp.length > 0 && nodeRight(first, exp), lead: null } : null,
        nodes: r.nodes.map((n) => ({
          verdict: n.verdict, relevance: n.relevance, score: n.score, right: exp.length > 0 && nodeRight(n, exp),
          passage_right: exp.length > 0 && n.passage?.page !== undefined && exp.some((x) => (x.pages ?? []).includes(n.passage.page)),
        })),
      });
    });
    if (a.results.length === 0) rows.push({ set: basename(setPath), id: q.id, rank: null });
  }
  return rows;
}

function tally(rows, pick) {
  const t = new Map();
  for (const r of rows) {
    const x = pick(r);
    if (!x) continue;
    const e = t.get(x.verdict) ?? { n: 0, right: 0 };
    e.n++;
    if (x.right) e.right++;
    t.set(x.verdict, e);
  }
  return ['strong', 'weak', 'none'].map((v) => {
    const e = t.get(v) ?? { n: 0, right: 0 };
    return `${v} ${e.right}/${e.n}${e.n ? ` (${(e.right / e.n * 100).toFixed(0)}%)` : ''}`;
  }).join('  ');
}

function report(name, rows) {
  const questions = new Set(rows.map((r) => r.id)).size;
  const listed = rows.filter((r) => r.rank !== null);
  const top = listed.filter((r) => r.rank === 1);
  const firstRight = top.filter((r) => r.right && r.node?.right).length;
  console.log(`\n${name}: ${questions} questions`);
  console.log(`  source, all listed:        ${tally(listed, (r) => r)}`);
  console.log(`  source, rank 1:            ${tally(top, (r) => r)}`);
  console.log(`  source, rank >1:           ${tally(listed.filter((r) => r.rank > 1), (r) => r)}`);
  console.log(`  first node, right source:  ${tally(listed.filter((r) => r.right), (r) => r.node)}`);
  console.log(`  first node, rank-1 source: ${tally(top, (r) => r.node && { verdict: r.node.verdict, right: r.right && r.node.right })}`);
  const bothStrong = top.filter((r) => r.verdict === 'strong' && r.node?.verdict === 'strong');
  console.log(`  rank-1 source strong and its first node strong: ${bothStrong.filter((r) => r.right && r.node.right).length}/${bothStrong.length} right`);
  console.log(`  search → read first node of first source holds the answer: ${firstRight}/${questions}`);
  const anyNode = top.filter((r) => r.right && r.nodes.some((n) => n.right)).length;
  const anyPassage = top.filter((r) => r.right && r.nodes.some((n) => n.passage_right)).length;
  console.log(`  a listed node of the first source holds the answer: ${anyNode}/${questions}; a listed passage is on an evidence page: ${anyPassage}/${questions}`);
  const nonMono = new Set();
  const byQ = new Map();
  for (const r of listed) byQ.set(r.id, [...(byQ.get(r.id) ?? []), r]);
  for (const [id, rs] of byQ) rs.forEach((r, i) => { if (i > 0 && r.relevance > rs[i - 1].relevance) nonMono.add(id); });
  console.log(`  questions whose source relevance rises with rank: ${nonMono.size}`);
}

const all = [];
for (const p of pairs) {
  const rows = await measure(p.store, p.set);
  report(`${basename(p.set)} @ ${p.store}`, rows);
  all.push(...rows);
}
if (pairs.length > 1) report('all sets', all);
if (jsonOut) writeFileSync(jsonOut, all.map((r) => JSON.stringify(r)).join('\n') + '\n');
