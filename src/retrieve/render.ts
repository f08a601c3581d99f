/** Human-readable renderings of retrieval answers (`--text` in the skill, the default in the CLI). */
import type { ReadAnswer } from './read.js';
import type { DeepAnswer } from './deep.js';
import type { Freshness } from '../search/freshness.js';
import { renderTreeText, rangeBeside, rangeText } from './tree-view.js';
import type { NodePassage } from './snippets.js';

/** "p. 3: " or "pp. 2-3: " before a passage's text in the text views ('' for a source without pages). */
export function passagePlace(p: NodePassage): string {
  if (p.pages) return `pp. ${p.pages[0]}-${p.pages[1]}: `;
  return p.page !== undefined ? `p. ${p.page}: ` : '';
}

/** Ancestors shown under a suggestion (nearest last, the document's root left out): tells same-titled nodes apart. */
export const SUGGESTION_PATH_DEPTH = 2;

export function renderFreshness(f: Freshness): string {
  const built = `index built ${f.built_at ?? '(never)'}`;
  return f.stale && f.warning ? `${built}\nwarning: ${f.warning}${f.examples?.length ? ` (${f.examples.join(', ')})` : ''}` : built;
}

function table(columns: string[], rows: unknown[][]): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [`| ${columns.map(cell).join(' | ')} |`, `|${columns.map(() => ' --- ').join('|')}|`];
  for (const r of rows) out.push(`| ${r.map(cell).join(' | ')} |`);
  return out.join('\n');
}

export function renderReadText(a: ReadAnswer): string {
  const lines: string[] = [];
  lines.push(`# ${a.title} — ${a.file} (${a.id})`);
  if (a.node) lines.push(`node ${a.node.node_id}: ${a.node.path.join(' > ')}${rangeText(a.node) ? ` (${rangeText(a.node)})` : ''}`);
  if (a.mode === 'stats') {
    lines.push(`sheet ${a.sheet}${a.total_rows != null ? `, ${a.total_rows} rows` : ''}`, '');
    for (const c of a.column_stats ?? []) {
      const { name, ...rest } = c;
      lines.push(`- ${String(name)}: ${Object.entries(rest).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join('; ')}`);
    }
  } else if (a.mode === 'rows') {
    lines.push(`sheet ${a.sheet}${a.total_rows != null ? `, ${a.total_rows} rows` : ''}`, '');
    for (const n of a.notes_above ?? []) lines.push(`> ${n}`);
    if (a.notes_above?.length) lines.push('');
    lines.push(table(a.columns ?? [], a.rows ?? []));
    if (a.notes_below?.length) lines.push('', ...a.notes_below.map((n) => `> ${n}`));
  } else {
    lines.push('', a.text ?? '');
  }
  if (a.note) lines.push('', `note: ${a.note}`);
  if (a.node?.meta && a.mode === 'node') lines.push('', `meta: ${JSON.stringify(a.node.meta)}`);
  lines.push('', `cite: ${a.citation.text}`);
  if (a.next) lines.push(`more: ${a.next}`);
  if (a.following) lines.push(`next section: ${a.id} ${a.following.node_id} "${a.following.title}"${rangeText(a.following) ? ` (${rangeText(a.following)})` : ''}`);
  for (const w of a.warnings ?? []) lines.push(`warning: ${w}`);
  lines.push(renderFreshness(a.freshness));
  return lines.join('\n');
}

export function renderDeepText(a: DeepAnswer): string {
  const lines: string[] = [];
  const size = a.page_count !== undefined ? `${a.page_count} pages, ` : a.line_count !== undefined ? `${a.line_count} lines, ` : '';
  lines.push(`# ${a.title} — ${a.file} (${a.id})`, `${a.type}, ${size}${a.node_count} nodes, outline from ${a.toc_source}`);
  if (a.summary) lines.push(a.summary);
  if (a.query) {
    lines.push('', `Suggested nodes for "${a.query}":`);
    if (a.suggestions.length === 0) lines.push('  (none matched)');
    for (const s of a.suggestions) {
      const r = rangeBeside(s);
      const verdict = s.verdict ? ` · ${s.verdict} (relevance ${s.relevance})` : '';
      lines.push(`  ${s.node_id}  ${s.title}${r ? `  (${r})` : ''}  score ${s.score.toFixed(2)}${verdict}`);
      const within = s.path.slice(1).slice(-SUGGESTION_PATH_DEPTH);
      if (within.length > 0) lines.push(`        in: ${within.join(' › ')}`);
      if (s.passage) lines.push(`        ${passagePlace(s.passage)}${s.passage.text}${s.passage.more ? ` [${s.passage.more} more characters in the node]` : ''}`);
      if (s.passage?.cite) lines.push(`        cite: ${s.passage.cite}`);
      else if (s.summary) lines.push(`        ${s.summary}`);
    }
  }
  for (const w of a.warnings) lines.push(`warning: ${w}`);
  lines.push('', renderTreeText(a.root));
  if (a.next) lines.push('', a.next);
  lines.push(renderFreshness(a.freshness));
  return lines.join('\n');
}
