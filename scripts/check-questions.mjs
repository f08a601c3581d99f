#!/usr/bin/env node
// Checks an eval question file (FinanceBench format, one JSON object a line) against its documents:
// every expected file exists, every expected page is within the file, and no question shares
// N (default 7) consecutive words with any of its evidence pages (lower-cased, punctuation
// stripped), so the questions test retrieval of reworded queries rather than phrase matching.
// Text sources give `lines` (checked against the lines around them) and HTML pages `sections`
// (checked against the whole page) instead of pages.
// Usage: node scripts/check-questions.mjs <questions.jsonl> <docs-folder> [--ngram N]
// Needs pdftotext and pdfinfo (poppler-utils). Exits 1 on any violation, 2 on bad usage.
import { readFileSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";

const args = process.argv.slice(2);
const ngramAt = args.indexOf("--ngram");
const N = ngramAt >= 0 ? Number(args.splice(ngramAt, 2)[1]) : 7;
const [questionsPath, docsDir] = args;
if (!questionsPath || !docsDir || !Number.isInteger(N) || N < 2) {
  console.error("usage: node scripts/check-questions.mjs <questions.jsonl> <docs-folder> [--ngram N]");
  process.exit(2);
}

const words = (text) =>
  text.toLowerCase().normalize("NFKC").replace(/[^\p{L}\p{N}]+/gu, " ").trim().split(/\s+/).filter(Boolean);

function ngrams(tokens, n) {
  const out = new Set();
  for (let i = 0; i + n <= tokens.length; i++) out.add(tokens.slice(i, i + n).join(" "));
  return out;
}

const pageCache = new Map();
function pageText(file, page) {
  const key = `${file}#${page}`;
  if (!pageCache.has(key)) {
    const text = execFileSync("pdftotext", ["-q", "-f", String(page), "-l", String(page), file, "-"], {
      encoding: "utf8", maxBuffer: 64 << 20,
    });
    pageCache.set(key, text);
  }
  return pageCache.get(key);
}

const pageCounts = new Map();
function pageCount(file) {
  if (!pageCounts.has(file)) {
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    pageCounts.set(file, Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0));
  }
  return pageCounts.get(file);
}

/** Lines either side of an expected line that count as its evidence. */
const LINE_CONTEXT = 5;

/** The file's text: an HTML page without its tags, scripts and styles; anything else as it is. */
function fileText(path) {
  const raw = readFileSync(path, "utf8");
  if (!/\.x?html?$/i.test(path)) return raw;
  return raw.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]+>/g, " ")
    .replace(/&[a-z]+;|&#\d+;/gi, " ");
}

/**
 * Text sources: expected lines must be inside the file, and the question shares no N words with
 * the lines around them; `sections` (HTML pages): with anything in the page.
 */
function checkText(path, ev, qGrams) {
  const out = [];
  const text = fileText(path);
  const all = text.split("\n");
  let evidence = ev.sections ? text : "";
  for (const line of ev.lines ?? []) {
    if (!Number.isInteger(line) || line < 1 || line > all.length) { out.push(`line ${line} outside ${ev.file} (1..${all.length})`); continue; }
    evidence += "\n" + all.slice(Math.max(0, line - 1 - LINE_CONTEXT), line + LINE_CONTEXT).join("\n");
  }
  if (!ev.lines?.length && !ev.sections?.length) out.push(`${ev.file} has no lines or sections`);
  const shared = [...qGrams].filter((g) => ngrams(words(evidence), N).has(g));
  if (shared.length) out.push(`shares ${N} words with ${ev.file}: "${shared[0]}"`);
  return out;
}

const problems = [];
const ids = new Set();
const files = new Set();
const fields = new Set();
const lines = readFileSync(questionsPath, "utf8").split("\n").filter((l) => l.trim());
for (const [i, line] of lines.entries()) {
  let q;
  try { q = JSON.parse(line); } catch (e) { problems.push(`line ${i + 1}: not JSON (${e.message})`); continue; }
  const where = `${q.id ?? `line ${i + 1}`}`;
  if (!q.id || !q.query || !Array.isArray(q.expected) || q.expected.length === 0) {
    problems.push(`${where}: needs id, query and a non-empty expected list`); continue;
  }
  if (ids.has(q.id)) problems.push(`${where}: duplicate id`);
  ids.add(q.id);
  if (q.field) fields.add(q.field);
  const qGrams = ngrams(words(q.query), N);
  for (const ev of q.expected) {
    const path = join(docsDir, ev.file);
    if (!existsSync(path)) { problems.push(`${where}: file ${ev.file} not in ${docsDir}`); continue; }
    files.add(ev.file);
    if (ev.lines || ev.sections) {
      for (const problem of checkText(path, ev, qGrams)) problems.push(`${where}: ${problem}`);
      continue;
    }
    const count = pageCount(path);
    if (!Array.isArray(ev.pages) || ev.pages.length === 0) problems.push(`${where}: ${ev.file} has no pages`);
    for (const page of ev.pages ?? []) {
      if (!Number.isInteger(page) || page < 1 || page > count) {
        problems.push(`${where}: page ${page} outside ${ev.file} (1..${count})`); continue;
      }
      const pGrams = ngrams(words(pageText(path, page)), N);
      const shared = [...qGrams].filter((g) => pGrams.has(g));
      if (shared.length) problems.push(`${where}: shares ${N} words with ${ev.file} p.${page}: "${shared[0]}"`);
    }
  }
}

console.log(`${lines.length} questions, ${files.size} documents${fields.size ? `, ${fields.size} fields (${[...fields].sort().join(", ")})` : ""}`);
for (const p of problems) console.error(`VIOLATION ${p}`);
if (problems.length) { console.error(`${problems.length} problem(s)`); process.exit(1); }
console.log(`ok: no question shares ${N} consecutive words with its evidence`);
