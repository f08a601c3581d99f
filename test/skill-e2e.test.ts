/**
 * End to end through the compiled skill scripts (fresh processes): a PDF, a spreadsheet and a
 * Markdown file in a fresh store; for a question about each, search ranks the file first,
 * deep_retrieve suggests the right node and read_source returns text containing the answer.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { skillStore, entryOf, runScript, SKILL_FIXTURES } from './helpers/skill-store.js';
import { renderSearchText } from '../src/retrieve/search-answer.js';

let root = '';
beforeAll(async () => {
  root = await skillStore('auto');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Case {
  file: string;
  question: string;
  /** title of the node that holds the answer */
  node: string;
  /** how to read it: the suggested node, or a range */
  read: (id: string, nodeId: string) => string[];
  answer: RegExp;
}

const CASES: Case[] = [
  {
    file: 'harbor-report.pdf',
    question: 'How many cubic meters of sediment did the maintenance dredging campaign remove?',
    node: 'Dredging and Infrastructure',
    read: (id, node) => [id, node],
    answer: /412,000 cubic meters of sediment/,
  },
  {
    file: 'release-runbook.md',
    question: 'Which port does the metrics exporter of the billing service listen on?',
    node: 'Monitoring and rollback',
    read: (id, node) => [id, node],
    answer: /listens on port 9464/,
  },
  {
    file: 'spare-parts-inventory.xlsx',
    question: 'spare parts quantity on hand per warehouse',
    node: 'quantity_on_hand',
    read: (id) => [id, '--rows', '1-20'],
    answer: /"Titanium hinge bracket","Stavanger",1375/,
  },
];

describe('skill scripts end to end', () => {
  for (const c of CASES) {
    it(`answers a question about ${c.file}`, () => {
      const entry = entryOf(root, c.file);
      const s = runScript('search.js', [c.question, '--store', root]);
      expect(s.code, s.stdout + s.stderr).toBe(0);
      expect(s.json.results[0].id).toBe(entry.id);
      expect(s.json.results[0].file).toBe(`inbox/${c.file}`);
      expect(s.json.freshness.stale).toBe(false);

      const d = runScript('deep_retrieve.js', [entry.id, '--query', c.question, '--store', root]);
      expect(d.code, d.stdout + d.stderr).toBe(0);
      expect(d.json.id).toBe(entry.id);
      const titles = d.json.suggestions.slice(0, 3).map((x: { title: string }) => x.title);
      expect(titles).toContain(c.node);
      const suggested = d.json.suggestions.find((x: { title: string }) => x.title === c.node);

      const r = runScript('read_source.js', [...c.read(entry.id, suggested.node_id), '--store', root]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      const body = r.json.text ?? JSON.stringify(r.json.rows);
      expect(body).toMatch(c.answer);
      expect(r.json.citation.source_id).toBe(entry.id);
      expect(r.json.citation.file).toBe(`inbox/${c.file}`);
      expect(r.json.citation.sha256).toBe(entry.sha256);
      expect(r.json.freshness.built_at).toBeTruthy();
    });
  }

  it('cites the page of a PDF node and the rows of a sheet', () => {
    const pdf = entryOf(root, 'harbor-report.pdf');
    const d = runScript('deep_retrieve.js', [pdf.id, '--query', 'dredging sediment', '--store', root]);
    const node = d.json.suggestions.find((x: { title: string }) => x.title === 'Dredging and Infrastructure');
    expect(node.page_range).toEqual([3, 3]);
    expect(node.passage).toMatchObject({ page: 3, text: expect.stringMatching(/dredging/i) });
    const r = runScript('read_source.js', [pdf.id, node.node_id, '--store', root]);
    expect(r.json.citation.pages).toEqual([3, 3]);
    expect(r.json.citation.text).toBe(`inbox/harbor-report.pdf, p. 3 (${pdf.id}, node ${node.node_id})`);
    const p = runScript('read_source.js', ['harbor-report.pdf', '--pages', '3-3', '--store', root]);
    expect(p.json.text).toMatch(/^<!-- page 3 -->\n/);
    expect(p.json.text).toMatch(/412,000 cubic meters/);
    expect(p.json.text).not.toMatch(/Total operating revenue/);

    const xl = entryOf(root, 'spare-parts-inventory.xlsx');
    const rows = runScript('read_source.js', [xl.id, '--rows', '17-17', '--store', root]);
    expect(rows.json.columns).toEqual(['part_number', 'description', 'warehouse', 'quantity_on_hand', 'unit_price_eur']);
    expect(rows.json.rows).toEqual([['PN-1017', 'Titanium hinge bracket', 'Stavanger', 1375, 27.9]]);
    expect(rows.json.citation.rows).toEqual([17, 17]);
    expect(rows.json.total_rows).toBe(20);
  });

  it('search shows a passage and its page under its first results\' nodes, so read_source can come next', () => {
    const pdf = entryOf(root, 'harbor-report.pdf');
    const s = runScript('search.js', ['maintenance dredging sediment cubic meters', '--store', root]);
    expect(s.code, s.stdout + s.stderr).toBe(0);
    const first = s.json.results[0];
    expect(first.id).toBe(pdf.id);
    const node = first.nodes.find((n: { title: string }) => n.title === 'Dredging and Infrastructure');
    expect(node.passage.page).toBe(3);
    expect(node.passage.text).toMatch(/412,000 cubic meters of sediment/);
    expect(node.passage.text.length).toBeLessThan(400);
    // the passage is ready to cite: its page, the source and the node
    expect(node.passage.cite).toBe(`inbox/harbor-report.pdf, p. 3 (${pdf.id}, node ${node.node_id})`);
    // relevance shown never rises down the ranking, and only the first result can be strong
    const rel = s.json.results.map((r: { relevance: number }) => r.relevance);
    expect(rel).toEqual([...rel].sort((a: number, b: number) => b - a));
    expect(s.json.results.slice(1).every((r: { verdict: string }) => r.verdict !== 'strong')).toBe(true);
    const t = runScript('search.js', ['maintenance dredging sediment cubic meters', '--text', '--store', root]);
    expect(t.stdout).toMatch(/- \d{4} Dredging and Infrastructure \(p\. 3\) · (strong|weak|none)\n\s+p\. 3: .*412,000 cubic meters/);
    expect(t.stdout).toContain(`cite: inbox/harbor-report.pdf, p. 3 (${pdf.id}, node ${node.node_id})`);
    // the text view says when the node goes on after the passage, as the JSON's `more` does
    const answer = { ...s.json, results: [{ ...first, nodes: [{ ...node, passage: { ...node.passage, more: 1234 } }] }] };
    expect(renderSearchText(answer)).toContain('412,000 cubic meters of sediment');
    expect(renderSearchText(answer)).toMatch(/ \[1234 more characters in the node\]\n\s+cite: /);
  });

  it('a passage of a text or Markdown source cites its own lines, not its whole section\'s', () => {
    const md = entryOf(root, 'release-runbook.md');
    const s = runScript('search.js', ['metrics exporter port scraped', '--store', root]);
    expect(s.code, s.stdout + s.stderr).toBe(0);
    const first = s.json.results.find((r: { id: string }) => r.id === md.id);
    const node = first.nodes[0];
    const [a, b] = node.passage.lines as [number, number];
    const file = readFileSync(join(SKILL_FIXTURES, 'release-runbook.md'), 'utf8').split('\n');
    expect(file.slice(a - 1, b).join(' ')).toContain('port 9464');
    expect(a).toBeGreaterThanOrEqual(node.line_range[0]);
    expect(b).toBeLessThanOrEqual(node.line_range[1]);
    expect(node.passage.cite).toContain(`lines ${a}-${b}`);
  });

  it('read_source reads several nodes or page ranges in one call', () => {
    const pdf = entryOf(root, 'harbor-report.pdf');
    const p = runScript('read_source.js', [pdf.id, '--pages', '1,3', '--store', root]);
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(p.json.parts).toHaveLength(2);
    expect(p.json.parts[0].text).toMatch(/^<!-- page 1 -->/);
    expect(p.json.parts[1].text).toMatch(/412,000 cubic meters/);
    expect(p.json.parts[1].citation.pages).toEqual([3, 3]);
    const d = runScript('deep_retrieve.js', [pdf.id, '--store', root]);
    const ids = d.json.root.children.slice(0, 2).map((c: { node_id: string }) => c.node_id);
    const n = runScript('read_source.js', [pdf.id, ...ids, '--store', root]);
    expect(n.json.parts.map((x: { node: { node_id: string } }) => x.node.node_id)).toEqual(ids);
    const t = runScript('read_source.js', [pdf.id, ...ids, '--text', '--store', root]);
    expect(t.stdout.split('\n---\n')).toHaveLength(2);
    const tooMany = runScript('read_source.js', [pdf.id, '--pages', '1,2,3,4,5', '--store', root]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.json.error.message).toMatch(/At most 4 parts/);
    const mixed = runScript('read_source.js', [pdf.id, ...ids, '--pages', '1,3', '--store', root]);
    expect(mixed.code).toBe(2);
  });

  it('read_source --around returns only the window where the words are densest, with its page', () => {
    const pdf = entryOf(root, 'harbor-report.pdf');
    const full = runScript('read_source.js', [pdf.id, '--pages', '1-4', '--store', root]);
    const w = runScript('read_source.js', [pdf.id, '--pages', '1-4', '--around', 'sediment dredging cubic meters', '--max-chars', '300', '--store', root]);
    expect(w.code, w.stdout + w.stderr).toBe(0);
    // starts with the page marker in force at its first character; the answer sits under page 3's
    expect(w.json.text).toMatch(/^<!-- page \d -->\n/);
    const at = w.json.text.indexOf('412,000 cubic meters');
    expect(at).toBeGreaterThan(0);
    expect([...w.json.text.slice(0, at).matchAll(/<!-- page (\d+) -->/g)].pop()![1]).toBe('3');
    expect(w.json.text.length).toBeLessThan(360);
    expect(w.json.text.length).toBeLessThan(full.json.text.length);
    expect(w.json.citation.pages[1]).toBe(3);
    expect(w.json.note).toMatch(/--around: characters/);
    expect(w.json.next).toBeNull();
    const none = runScript('read_source.js', [pdf.id, '--pages', '1-4', '--around', 'zzzqqq', '--max-chars', '200', '--store', root]);
    expect(none.json.note).toMatch(/none of "zzzqqq" occurs/);
    expect(none.json.text.length).toBeLessThanOrEqual(220);
    const rows = runScript('read_source.js', [entryOf(root, 'spare-parts-inventory.xlsx').id, '--rows', '1-2', '--around', 'x', '--store', root]);
    expect(rows.code).toBe(2);
    // --max-chars sets the window's size, larger than the default too
    const wide = runScript('read_source.js', [pdf.id, '--pages', '1-4', '--around', 'sediment dredging cubic meters', '--max-chars', '2500', '--store', root]);
    const plain = runScript('read_source.js', [pdf.id, '--pages', '1-4', '--around', 'sediment dredging cubic meters', '--store', root]);
    expect(Math.min(full.json.text.length, 2400)).toBeLessThanOrEqual(wide.json.text.length);
    expect(plain.json.text.length).toBeLessThanOrEqual(1600);
  });
});
