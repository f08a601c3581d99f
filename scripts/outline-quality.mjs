#!/usr/bin/env node
/**
 * Title and node quality figures of a store's outlines (issue 14): how many node titles are told
 * apart from their siblings, how many look like noise (digits only, two characters or fewer, table
 * cells, letter-spacing artefacts, split numbers such as "Table 3 1 D", footnote numbers run into
 * words, cut mid-word), front-matter nodes that run over several pages, contents pages kept as
 * nodes, and leaves longer than `ingest.max_leaf_pages`. Read-only.
 *
 *   node scripts/outline-quality.mjs <store> [--list] [--json]
 *
 * `--list` prints every flagged title with its file; `--json` prints the figures as JSON.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const store = args.find((a) => !a.startsWith('--'));
if (!store) {
  console.error('usage: node scripts/outline-quality.mjs <store> [--list] [--json]');
  process.exit(2);
}
const list = args.includes('--list');
const asJson = args.includes('--json');

let maxLeafPages = 5;
try {
  maxLeafPages = JSON.parse(readFileSync(join(store, 'config.json'), 'utf8')).ingest?.max_leaf_pages ?? 5;
} catch {
  console.error(`note: no readable ${join(store, 'config.json')}; max_leaf_pages taken as 5`);
}

/** Why a title looks like noise (first matching reason), or ''. */
export function noiseReason(title) {
  const t = title.trim();
  if (/^[\d\s.,:;()%$-]*$/.test(t)) return 'digits-only';
  if (t.replace(/\s+/g, '').length <= 2) return 'short';
  if (/\b(?:table|figure|fig\.|exhibit)\s+\d+\s+\d+\b/i.test(t)) return 'split-number';
  // "AGENCY P2 RIORITY GOAL", "T ABLE OF CONTENTS": a capital cut off its word (not an appendix letter "A GNU…")
  if (/\s\p{Lu}\d?\s\p{Lu}{3,}\b/u.test(t) && !/^(?:appendix|annex|part|chapter)\s/i.test(t)) return 'letter-spacing';
  if (/^\p{Lu}\s\p{Lu}{3,}\s+(?:OF|AND|THE)\b/u.test(t)) return 'letter-spacing';
  // "Revenue1 and costs": a footnote number run into a capitalised or long word before more words
  if (/\b\p{L}\p{Ll}{4,}[1-9](?:,|\s+\p{Ll}{3,}\s)/u.test(t) && !/[_()]/.test(t)) return 'footnote-in-word';
  // the numbering ("3", "A.", "2.1") is not part of what the title says
  const words = t.replace(/^(?:(?:note|item|article|part|section|chapter|appendix)\s+)?(?:\d+[A-Z]?(?:\.\d+)*\.?|[A-Z]\.|[IVX]+\.?)\s*[—–:-]?\s+/i, '').split(/\s+/);
  const nums = words.filter((w) => /^[($-]*\d[\d,.]*%?\)?$/.test(w)).length;
  if (nums >= 2 && nums / words.length >= 0.4) return 'table-cells';
  const tiny = words.filter((w) => w.length <= 2 && !/^(?:[IVX]+|of|in|on|to|by|an|a|at|or|vs|no)$/i.test(w)).length;
  if (words.length >= 2 && tiny >= 2 && tiny / words.length >= 0.5) return 'table-cells';
  // a line of running text taken as a title: ends on a function word or a comma, or runs long and lower-case
  if (/(?:\s(?:the|of|and|or|for|to|in|as|by|with|a|an|that|which|is|are)|,)$/i.test(t)) return 'cut';
  if (t.length >= 90 && /^\P{Lu}/u.test(t.replace(/^[“"'\s\d.()]+/u, ''))) return 'cut';
  return '';
}

const CONTENTS = /^(?:table of )?contents$|^index$/i;
const FRONT = /^cover and front matter$|^front matter$/i;

const figures = {
  sources: 0, nodes: 0, leaves: 0, sibling_groups: 0, titles_with_same_sibling: 0,
  noise: 0, noise_by_reason: {}, noise_not_bookmarked: 0, leaves_over_max: 0, front_matter_multi_page: 0, contents_nodes: 0, max_leaf_pages: maxLeafPages,
};
const flagged = [];
/** where the current source's outline came from (bookmarks: the author's own titles) */
let outlineFrom = '';

function walk(node, file, depth) {
  const kids = node.children ?? [];
  if (depth > 0) {
    figures.nodes++;
    const reason = noiseReason(node.title ?? '');
    if (reason) {
      figures.noise++;
      figures.noise_by_reason[reason] = (figures.noise_by_reason[reason] ?? 0) + 1;
      if (outlineFrom !== 'bookmarks') figures.noise_not_bookmarked++;
      flagged.push(`${reason}\t${outlineFrom}\t${file}\t${node.title}`);
    }
    const [a, b] = node.page_range ?? [0, 0];
    if (kids.length === 0) {
      figures.leaves++;
      if (b - a + 1 > maxLeafPages) {
        figures.leaves_over_max++;
        flagged.push(`over-max(${b - a + 1}p)\t${file}\t${node.title}`);
      }
    }
    if (FRONT.test(node.title ?? '') && b > a) {
      figures.front_matter_multi_page++;
      flagged.push(`front-matter(${a}-${b})\t${file}\t${node.title}`);
    }
    if (CONTENTS.test((node.title ?? '').trim())) {
      figures.contents_nodes++;
      flagged.push(`contents\t${file}\t${node.title}`);
    }
  }
  if (kids.length > 1) {
    figures.sibling_groups++;
    const count = new Map();
    for (const k of kids) {
      const key = (k.title ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
      count.set(key, (count.get(key) ?? 0) + 1);
    }
    for (const k of kids) {
      const key = (k.title ?? '').toLowerCase().replace(/\s+/g, ' ').trim();
      if (count.get(key) > 1) {
        figures.titles_with_same_sibling++;
        flagged.push(`same-sibling\t${file}\t${k.title}`);
      }
    }
  }
  for (const k of kids) walk(k, file, depth + 1);
}

const dir = join(store, 'tree_index');
for (const f of readdirSync(dir).filter((x) => x.endsWith('.tree.json')).sort()) {
  const tree = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  figures.sources++;
  outlineFrom = tree.toc_source ?? '';
  walk(tree.root, tree.file ?? f, 0);
}
const pct = (n) => (figures.nodes ? ((100 * n) / figures.nodes).toFixed(1) : '0.0');
if (asJson) console.log(JSON.stringify(figures, null, 2));
else {
  console.log(`store ${store}: ${figures.sources} sources, ${figures.nodes} nodes (${figures.leaves} leaves)`);
  console.log(`titles equal to a sibling's: ${figures.titles_with_same_sibling} (${pct(figures.titles_with_same_sibling)}% of nodes)`);
  console.log(`noise-like titles: ${figures.noise} (${pct(figures.noise)}%) ${JSON.stringify(figures.noise_by_reason)}; in outlines not from bookmarks: ${figures.noise_not_bookmarked}`);
  console.log(`leaves over max_leaf_pages (${maxLeafPages}): ${figures.leaves_over_max}`);
  console.log(`front-matter nodes over more than one page: ${figures.front_matter_multi_page}; contents/index nodes: ${figures.contents_nodes}`);
}
if (list) for (const l of flagged.sort()) console.log(l);
