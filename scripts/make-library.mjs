#!/usr/bin/env node
/**
 * Generates a synthetic N-source library for scale benchmarks (issue #15): text and Markdown
 * documents assembled from real pages of the dev PDFs (FinanceBench filings and the cross-domain
 * documents, turned into text once by `pdftotext -layout` and cached), each with one planted fact
 * that nothing else in the library states, and a questions.jsonl in the `mhub eval` format:
 *   {"id", "query", "expected": [{"file", "pages": [], "lines": [line of the fact]}], "answer"}
 *
 *   node scripts/make-library.mjs --sources 1000 --out /tmp/lib-1k [--seed 15] [--questions 200] [--min-pages 1] [--max-pages 3]
 *
 * Each document is 1–3 consecutive pages of one PDF by default; --min-pages/--max-pages make longer
 * ones (e.g. 40–150: filing-sized documents, the whole PDF when it is shorter).
 *
 * Deterministic: the same seed gives the same bytes. Document i depends only on the seed and the
 * documents before it, so the 1,000-source library is the first 1,000 documents of the 10,000-source
 * one, and the questions (asked about documents of that common prefix) are the same at every size:
 * accuracy across sizes differs only by the distractors added. Facts share their words with other
 * documents' facts (the same project names with other attributes, the same attributes of other
 * projects), so a question is answered by the combination, not by one rare word.
 * The library stays out of git: write it under /tmp.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    sources: { type: 'string', default: '1000' },
    out: { type: 'string' },
    seed: { type: 'string', default: '15' },
    questions: { type: 'string', default: '200' },
    cache: { type: 'string', default: '/tmp/mhub-pdftext-cache' },
    pdfs: { type: 'string', multiple: true },
    'min-pages': { type: 'string', default: '1' },
    'max-pages': { type: 'string', default: '3' },
  },
});
const N = Number(values.sources);
const Q = Number(values.questions);
const SEED = Number(values.seed);
/** Pages per document: a random count in [MIN_PAGES, MAX_PAGES] (the whole PDF when it is shorter). */
const MIN_PAGES = Number(values['min-pages']);
const MAX_PAGES = Number(values['max-pages']);
if (!values.out || !(N > 0) || !(Q >= 0) || !(MIN_PAGES >= 1) || !(MAX_PAGES >= MIN_PAGES)) {
  console.error('usage: node scripts/make-library.mjs --sources N --out DIR [--seed S] [--questions Q] [--min-pages A] [--max-pages B] [--cache DIR] [--pdfs DIR ...]');
  process.exit(2);
}
const OUT = resolve(values.out);
const PDF_DIRS = values.pdfs ?? [join(ROOT, '..', 'shared', 'financebench', 'pdfs'), join(ROOT, '..', 'devdata', 'crossdomain', 'docs')];
/** Questions are asked about documents among the first PREFIX, the part every size shares. */
const PREFIX = Math.min(N, 1000);
/** Documents per folder. */
const PER_FOLDER = 100;
/** A page shorter than this (cover, blank) is not used. */
const MIN_PAGE_CHARS = 400;

// ---------- deterministic randomness ----------
function rngFor(...parts) {
  let s = createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0);
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = (rnd, xs) => xs[Math.floor(rnd() * xs.length)];
const int = (rnd, lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));

// ---------- pages of the dev PDFs ----------
function pdfTexts() {
  mkdirSync(values.cache, { recursive: true });
  const docs = [];
  for (const dir of PDF_DIRS) {
    if (!existsSync(dir)) {
      console.error(`no PDF folder ${dir} (give --pdfs DIR)`);
      process.exit(2);
    }
    for (const f of readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.pdf')).sort()) {
      const txt = join(values.cache, `${basename(f, '.pdf')}.txt`);
      if (!existsSync(txt)) {
        try {
          execFileSync('pdftotext', ['-layout', join(dir, f), txt], { stdio: 'ignore' });
        } catch {
          console.error(`pdftotext failed on ${f}: left out`);
          continue;
        }
      }
      const pages = readFileSync(txt, 'utf8').split('\f')
        .map((p) => p.split('\n').map((l) => l.trimEnd()).join('\n').replace(/\n{3,}/g, '\n\n').trim())
        .map((text, i) => ({ n: i + 1, text }))
        .filter((p) => p.text.length >= MIN_PAGE_CHARS);
      if (pages.length > 0) docs.push({ name: basename(f, '.pdf'), pages });
    }
  }
  if (docs.length === 0) {
    console.error('no usable PDF pages');
    process.exit(2);
  }
  return docs;
}

// ---------- planted facts ----------
const FIRST = ['Amber', 'Basalt', 'Cobalt', 'Delta', 'Ember', 'Falcon', 'Garnet', 'Harbor', 'Iris', 'Juniper', 'Kestrel', 'Lumen', 'Maple', 'Nimbus', 'Onyx', 'Pioneer', 'Quarry', 'Raven', 'Sable', 'Tundra', 'Umber', 'Vesper', 'Willow', 'Xenon', 'Yarrow', 'Zephyr', 'Aspen', 'Birch', 'Cedar', 'Dune', 'Elm', 'Fjord', 'Glacier', 'Heron', 'Indigo', 'Jasper', 'Kelp', 'Lagoon', 'Mesa', 'Nectar', 'Orchid', 'Pebble', 'Quartz', 'Reef', 'Saffron', 'Thistle', 'Upland', 'Violet', 'Walnut', 'Yucca'];
const SECOND = ['Arc', 'Beacon', 'Crest', 'Drift', 'Echo', 'Forge', 'Gate', 'Hollow', 'Isle', 'Junction', 'Keel', 'Ledger', 'Meridian', 'Nexus', 'Orbit', 'Pillar', 'Quill', 'Ridge', 'Summit', 'Terrace', 'Union', 'Vault', 'Wharf', 'Yard', 'Zenith', 'Anchor', 'Bridge', 'Canyon', 'Dock', 'Estuary', 'Field', 'Grove', 'Haven', 'Inlet', 'Jetty', 'Knoll', 'Lantern', 'Mill', 'Notch', 'Outpost'];
const KINDS = ['programme', 'facility', 'initiative', 'archive', 'survey', 'pilot'];
const CITIES = ['Tromsø', 'Valparaíso', 'Windhoek', 'Ushuaia', 'Nuuk', 'Hobart', 'Ulaanbaatar', 'Reykjavík', 'Iquitos', 'Dunedin', 'Kiruna', 'Longyearbyen', 'Punta Arenas', 'Yellowknife', 'Timbuktu', 'Leh', 'Alice Springs', 'Svalbard', 'Kashgar', 'Galway'];
const GIVEN = ['Ada', 'Bruno', 'Chiara', 'Dmitri', 'Elif', 'Farid', 'Greta', 'Hugo', 'Ingrid', 'Jonas', 'Keiko', 'Lars', 'Mireille', 'Nikolai', 'Oona', 'Pavel', 'Rosalind', 'Soren', 'Tamsin', 'Viggo'];
const FAMILY = ['Abernathy', 'Brightwater', 'Castellanos', 'Drummond', 'Eriksen', 'Fairweather', 'Gallagher', 'Holloway', 'Ishikawa', 'Jablonski', 'Kowalczyk', 'Lindqvist', 'Marchetti', 'Nakamura', 'Okonkwo', 'Pemberton', 'Quintero', 'Rasmussen', 'Szymanski', 'Thorvaldsen'];
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Each attribute: how the fact is stated, how it is asked, and a value. */
const ATTRIBUTES = [
  { name: 'calibration code', state: (s, v) => `The calibration code assigned to ${s} is ${v}.`, ask: (s) => `What calibration code was assigned to ${s}?`, value: (r) => `${pick(r, LETTERS.split(''))}${pick(r, LETTERS.split(''))}-${int(r, 1000, 9999)}-${pick(r, LETTERS.split(''))}` },
  { name: 'site lead', state: (s, v) => `Operational responsibility for ${s} rests with site lead ${v}.`, ask: (s) => `Who is the site lead responsible for ${s}?`, value: (r) => `${pick(r, GIVEN)} ${pick(r, FAMILY)}` },
  { name: 'commissioning year', state: (s, v) => `${cap(s)} was first commissioned in ${v}.`, ask: (s) => `In which year was ${s} first commissioned?`, value: (r) => String(int(r, 1931, 2029)) },
  { name: 'depot', state: (s, v) => `Spare parts for ${s} are held at the depot in ${v}.`, ask: (s) => `Where is the depot holding spare parts for ${s}?`, value: (r) => pick(r, CITIES) },
  { name: 'budget ceiling', state: (s, v) => `The approved budget ceiling for ${s} is ${v}.`, ask: (s) => `What is the approved budget ceiling for ${s}?`, value: (r) => `$${int(r, 1, 99)}.${int(r, 1, 9)} million` },
  { name: 'registry number', state: (s, v) => `${cap(s)} is entered in the internal registry under number ${v}.`, ask: (s) => `Under which internal registry number is ${s} entered?`, value: (r) => String(int(r, 100000, 999999)) },
];
const cap = (s) => s[0].toUpperCase() + s.slice(1);

function plantFact(i, used) {
  for (let attempt = 0; ; attempt++) {
    const r = rngFor(SEED, 'fact', i, attempt);
    const subject = `the ${pick(r, FIRST)} ${pick(r, SECOND)} ${pick(r, KINDS)}`;
    const attr = pick(r, ATTRIBUTES);
    const key = `${subject}|${attr.name}`;
    if (used.has(key)) continue;
    used.add(key);
    const value = attr.value(r);
    return { subject, attribute: attr.name, value, sentence: attr.state(subject, value), query: attr.ask(subject) };
  }
}

// ---------- documents ----------
function makeDoc(i, pdfs, fact) {
  const r = rngFor(SEED, 'doc', i);
  const pdf = pick(r, pdfs);
  const count = Math.min(pdf.pages.length, int(r, MIN_PAGES, MAX_PAGES));
  const start = int(r, 0, pdf.pages.length - count);
  const pages = pdf.pages.slice(start, start + count);
  const markdown = r() < 0.5;
  const folder = `set-${String(Math.floor(i / PER_FOLDER)).padStart(3, '0')}`;
  const file = `doc-${String(i).padStart(5, '0')}.${markdown ? 'md' : 'txt'}`;
  const title = `${pdf.name} excerpt ${i} (pages ${pages[0].n}-${pages[pages.length - 1].n})`;
  const lines = [];
  if (markdown) lines.push(`# ${title}`, '');
  else lines.push(title.toUpperCase(), '');
  for (const p of pages) {
    if (markdown) lines.push(`## Page ${p.n}`, '');
    // markdown: an indented layout line would be a code block; keep it text
    const body = p.text.split('\n').map((l) => (markdown ? l.replace(/^\s+/, '') : l));
    lines.push(...body, '');
  }
  // the fact goes on its own line before a random blank line (a paragraph boundary), never first
  const blanks = lines.map((l, k) => (l === '' && k > 2 ? k : -1)).filter((k) => k >= 0);
  const at = blanks.length > 0 ? blanks[Math.floor(r() * blanks.length)] : lines.length;
  lines.splice(at, 0, '', fact.sentence);
  const factLine = at + 2;
  return { rel: `${folder}/${file}`, file, text: lines.join('\n') + '\n', factLine };
}

function questionDocs() {
  if (Q === 0) return [];
  const step = PREFIX / Math.min(Q, PREFIX);
  const out = [];
  for (let k = 0; k < Math.min(Q, PREFIX); k++) out.push(Math.floor(k * step));
  return out;
}

function main() {
  const pdfs = pdfTexts();
  const docsDir = join(OUT, 'docs');
  rmSync(docsDir, { recursive: true, force: true });
  const asked = new Set(questionDocs());
  const used = new Set();
  const questions = [];
  let bytes = 0;
  for (let i = 0; i < N; i++) {
    const fact = plantFact(i, used);
    const d = makeDoc(i, pdfs, fact);
    mkdirSync(join(docsDir, dirname(d.rel)), { recursive: true });
    writeFileSync(join(docsDir, d.rel), d.text);
    bytes += Buffer.byteLength(d.text);
    if (asked.has(i)) {
      questions.push({ id: `lib-${String(i).padStart(5, '0')}`, query: fact.query, expected: [{ file: d.file, pages: [], lines: [d.factLine] }], answer: fact.value });
    }
  }
  writeFileSync(join(OUT, 'questions.jsonl'), questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  console.log(`${N} sources (${(bytes / 1e6).toFixed(1)} MB) from ${pdfs.length} PDFs in ${docsDir}; ${questions.length} questions in ${join(OUT, 'questions.jsonl')}`);
}

main();
