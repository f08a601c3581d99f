/** Reading parts of sources: nodes (paged by characters), pages, rows and lines, with citations. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skillStore, entryOf, findNode, byTitle, SKILL_FIXTURES, REPO } from './helpers/skill-store.js';
import { initStore } from '../src/store/init.js';
import { ingest } from '../src/ingest/pipeline.js';
import { AROUND_CHARS, outsideMark, readSource } from '../src/retrieve/read.js';
import { resolveSource } from '../src/retrieve/resolve.js';
import { catalogLookup } from '../src/store/lookup.js';
import { UserError } from '../src/store/errors.js';
import type { Catalog, CatalogEntry } from '../src/store/schemas.js';

let root = '';
beforeAll(async () => {
  root = await skillStore('none');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function codeOf(fn: () => unknown): number {
  try {
    fn();
  } catch (err) {
    if (err instanceof UserError) return err.exitCode;
    throw err;
  }
  throw new Error('expected a UserError');
}

describe('read by lines', () => {
  it('rebuilds the exact lines of a Markdown file from its nodes', () => {
    const original = readFileSync(join(SKILL_FIXTURES, 'release-runbook.md'), 'utf8').replace(/\n$/, '');
    const n = original.split('\n').length;
    const a = readSource(root, 'release-runbook.md', { lines: `1-${n}`, maxChars: 100_000 });
    expect(a.mode).toBe('lines');
    expect(a.text).toBe(original);
    const b = readSource(root, 'release-runbook.md', { lines: '18-18' });
    expect(b.text).toBe(original.split('\n')[17]);
    expect(b.citation.lines).toEqual([18, 18]);
    expect(b.node?.title).toBe('Monitoring and rollback');
  });

  it('rebuilds the exact lines of code from a symbol tree whose parents elide their members', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-code-'));
    try {
      initStore(dir, { embedding: { model: 'none', models_dir: null, allow_remote: false, batch_size: 32 } });
      cpSync(join(SKILL_FIXTURES, 'geometry.py'), join(dir, 'inbox', 'geometry.py'));
      cpSync(join(REPO, 'src', 'retrieve', 'read-rows.ts'), join(dir, 'inbox', 'read-rows.ts'));
      await ingest(dir, { paths: [join(dir, 'inbox')], llm: 'none' });
      for (const f of ['geometry.py', 'read-rows.ts']) {
        const original = readFileSync(join(dir, 'inbox', f), 'utf8').replace(/\n$/, '');
        const a = readSource(dir, f, { lines: `1-${original.split('\n').length}`, maxChars: 100_000 });
        expect(a.text, f).toBe(original);
      }
      const cls = readSource(dir, 'geometry.py', { lines: '12-14' });
      expect(cls.text).toBe('class Rectangle:\n    """An axis-aligned rectangle."""\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which range fits another source type', () => {
    expect(codeOf(() => readSource(root, 'release-runbook.md', { pages: '1-2' }))).toBe(2);
    expect(codeOf(() => readSource(root, 'harbor-report.pdf', { lines: '1-2' }))).toBe(2);
    expect(codeOf(() => readSource(root, 'release-runbook.md', { lines: '900-910' }))).toBe(4);
    expect(codeOf(() => readSource(root, 'release-runbook.md', { lines: '5-2' }))).toBe(2);
  });
});

describe('read by pages', () => {
  it('cuts pages at the page markers', () => {
    const a = readSource(root, 'harbor-report.pdf', { pages: '2-3' });
    expect(a.text).toMatch(/^<!-- page 2 -->\n/);
    expect(a.text).toContain('<!-- page 3 -->');
    expect(a.text).toContain('Vessel calls rose to 3,214');
    expect(a.text).toContain('412,000 cubic meters');
    expect(a.text).not.toContain('Total operating revenue');
    expect(a.text).not.toContain('Letter from the Harbor Master');
    expect(a.citation.pages).toEqual([2, 3]);
    expect(a.citation.text).toMatch(/^inbox\/harbor-report\.pdf, pp\. 2-3 \(src_[0-9a-f]{8}\)$/);
  });

  it('a node and pages inside it read the pages; pages outside it are refused with the call to make', () => {
    const node = findNode(root, 'harbor-report.pdf', byTitle('Dredging and Infrastructure'));
    const [a, b] = node.page_range!;
    const got = readSource(root, 'harbor-report.pdf', { nodeId: node.node_id, pages: String(b) });
    expect(got.citation.pages).toEqual([b, b]);
    expect(got.text).toMatch(new RegExp(`^<!-- page ${b} -->`));
    const outside = a > 1 ? a - 1 : b + 1;
    expect(codeOf(() => readSource(root, 'harbor-report.pdf', { nodeId: node.node_id, pages: String(outside) }))).toBe(2);
    expect(() => readSource(root, 'harbor-report.pdf', { nodeId: node.node_id, pages: String(outside) })).toThrow(/outside node/);
  });

  it('clamps to the last page and rejects pages that do not exist', () => {
    expect(readSource(root, 'harbor-report.pdf', { pages: '3-99' }).citation.pages).toEqual([3, 4]);
    expect(codeOf(() => readSource(root, 'harbor-report.pdf', { pages: '9-9' }))).toBe(4);
    expect(codeOf(() => readSource(root, 'harbor-report.pdf', { pages: 'two' }))).toBe(2);
  });
});

describe('read a node', () => {
  it('pages a long node by characters; the windows add up to the whole text', () => {
    const whole = readSource(root, 'harbor-report.pdf', { maxChars: 100_000 });
    expect(whole.truncated).toBe(false);
    expect(whole.next).toBeNull();
    // Sections come in document order, each once.
    const order = ['Letter from the Harbor Master', 'Operations and Traffic', 'Dredging and Infrastructure', 'Financial Results'].map((t) => whole.text!.indexOf(t));
    expect(order.every((x, i) => x >= 0 && (i === 0 || x > order[i - 1]!))).toBe(true);
    let offset = 0;
    let joined = '';
    let calls = 0;
    for (;;) {
      const w = readSource(root, 'harbor-report.pdf', { offset, maxChars: 300 });
      expect(w.text!.length).toBeLessThanOrEqual(300);
      joined += w.text;
      calls++;
      if (!w.truncated) break;
      expect(w.next).toBe(`${w.id} ${w.node!.node_id} --offset ${offset + w.text!.length}`);
      offset += w.text!.length;
    }
    expect(calls).toBeGreaterThan(3);
    expect(joined).toBe(whole.text);
  });

  it('cites the pages actually returned, from the page markers', () => {
    const whole = readSource(root, 'harbor-report.pdf', { maxChars: 100_000 });
    const at = whole.text!.indexOf('Financial Results');
    const w = readSource(root, 'harbor-report.pdf', { offset: at, maxChars: 200 });
    expect(w.citation.pages).toEqual([4, 4]);
  });

  it('reads a node alone with children: false', () => {
    const all = readSource(root, 'release-runbook.md', {});
    const own = readSource(root, 'release-runbook.md', { children: false });
    expect(own.text).toContain('This runbook is followed by the on-call engineer');
    expect(own.text).not.toContain('port 9464');
    expect(all.text).toContain('This runbook is followed by the on-call engineer');
    expect(all.text).toContain('port 9464');
  });

  it('a node read to its end names the section after it, the next part of its parent\'s when it is the last of its siblings', () => {
    const mig = findNode(root, 'release-runbook.md', byTitle('Database migrations'));
    const a = readSource(root, 'release-runbook.md', { nodeId: mig.node_id });
    expect(a.following?.title).toBe('Monitoring and rollback');
    const last = findNode(root, 'release-runbook.md', byTitle('After the release'));
    expect(readSource(root, 'release-runbook.md', { nodeId: last.node_id }).following).toBeNull();
    // a window that stops inside the node says where to continue instead
    const part = readSource(root, 'release-runbook.md', { nodeId: mig.node_id, maxChars: 40 });
    expect(part.next).toContain('--offset');
    expect(part.following).toBeUndefined();
  });

  it('accepts node ids without leading zeros and rejects unknown ones', () => {
    const pdf = entryOf(root, 'harbor-report.pdf');
    const dredging = findNode(root, 'harbor-report.pdf', byTitle('Dredging and Infrastructure')).node_id;
    expect(readSource(root, pdf.id, { nodeId: String(Number(dredging)) }).node!.node_id).toBe(dredging);
    expect(codeOf(() => readSource(root, pdf.id, { nodeId: '0999' }))).toBe(4);
  });
});

describe('read rows', () => {
  it('returns the columns and the rows asked for, with the sheet and row range in the citation', () => {
    const a = readSource(root, 'spare-parts-inventory.xlsx', { rows: '19-25' });
    expect(a.mode).toBe('rows');
    expect(a.rows).toEqual([
      ['PN-1019', 'Chain link 6mm per meter', 'Bergen', 650, 4.2],
      ['PN-1020', 'Eye bolt M12', 'Stavanger', 290, 5.6],
    ]);
    expect(a.citation.rows).toEqual([19, 20]);
    // the header is on the sheet's row 1: data rows 19-20 are where a reader opening the file finds them, rows 20-21
    expect(a.citation.sheet_rows).toEqual([20, 21]);
    expect(a.citation.text).toContain('rows 19-20 (sheet rows 20-21)');
    expect(a.citation.sheet).toBe('spare-parts-inventory');
    expect(a.node?.meta).toBeUndefined();
    expect(codeOf(() => readSource(root, 'spare-parts-inventory.xlsx', { rows: '21-30' }))).toBe(4);
    expect(codeOf(() => readSource(root, 'spare-parts-inventory.xlsx', { rows: '1-2', sheet: 'Nope' }))).toBe(4);
    expect(codeOf(() => readSource(root, 'harbor-report.pdf', { rows: '1-2' }))).toBe(2);
  });

  it('bounds rows by characters and says where to continue', () => {
    const a = readSource(root, 'spare-parts-inventory.xlsx', { rows: '1-20', maxChars: 400 });
    expect(a.truncated).toBe(true);
    const got = a.rows!.length;
    expect(got).toBeGreaterThan(0);
    expect(got).toBeLessThan(20);
    expect(a.next).toBe(`${a.id} --rows ${got + 1}-20`);
    const b = readSource(root, a.id, { rows: `${got + 1}-20` });
    expect(b.rows![0]![0]).toBe(`PN-${1000 + got + 1}`);
  });

  it('gives every column\'s stats with --stats', () => {
    const a = readSource(root, 'spare-parts-inventory.xlsx', { stats: true });
    expect(a.mode).toBe('stats');
    expect(a.total_rows).toBe(20);
    expect(a.columns).toEqual(['part_number', 'description', 'warehouse', 'quantity_on_hand', 'unit_price_eur']);
    const q = a.column_stats!.find((c) => c['name'] === 'quantity_on_hand')!;
    expect(q).toMatchObject({ type: 'number', min: 240, max: 12000 });
    const w = a.column_stats!.find((c) => c['name'] === 'warehouse')!;
    expect((w['top_values'] as Array<{ value: string }>).map((t) => t.value)).toContain('Stavanger');
    expect(a.citation.text).toMatch(/sheet "spare-parts-inventory"/);
    expect(codeOf(() => readSource(root, 'release-runbook.md', { stats: true }))).toBe(2);
    expect(codeOf(() => readSource(root, 'spare-parts-inventory.xlsx', { stats: true, rows: '1-2' }))).toBe(2);
  });

  it('gives column stats when a sheet node is read', () => {
    const xl = entryOf(root, 'spare-parts-inventory.xlsx');
    const a = readSource(root, xl.id, { nodeId: findNode(root, 'spare-parts-inventory.xlsx', (n) => n.kind === 'sheet').node_id });
    const cols = a.node!.meta!['columns'] as Array<{ name: string; max?: number }>;
    expect(cols.find((c) => c.name === 'quantity_on_hand')?.max).toBe(12000);
  });
});

describe('resolveSource', () => {
  const entry = (id: string, path: string): CatalogEntry => ({ id, original_path: path, filename: path.split('/').pop()!, title: path } as CatalogEntry);
  const lookupOf = (c: Catalog) => catalogLookup(c, null);
  const cat = lookupOf({ sources: [entry('src_aaaa1111', 'inbox/2019/report.pdf'), entry('src_aaab2222', 'inbox/2020/report.pdf'), entry('src_cccc3333', 'inbox/notes.md')] } as Catalog);

  it('finds by id, id prefix, path, file name and stem', () => {
    expect(resolveSource(cat, 'src_cccc3333').id).toBe('src_cccc3333');
    expect(resolveSource(cat, 'cccc3333').id).toBe('src_cccc3333');
    expect(resolveSource(cat, 'src_aaab').id).toBe('src_aaab2222');
    expect(resolveSource(cat, 'inbox/2019/report.pdf').id).toBe('src_aaaa1111');
    expect(resolveSource(cat, '2020/report.pdf').id).toBe('src_aaab2222');
    expect(resolveSource(cat, 'NOTES.md').id).toBe('src_cccc3333');
    expect(resolveSource(cat, 'notes').id).toBe('src_cccc3333');
  });

  it('lists candidates when ambiguous and near names when unknown', () => {
    expect(() => resolveSource(cat, 'report.pdf')).toThrow(/matches 2 sources: src_aaaa1111 \(inbox\/2019\/report\.pdf\), src_aaab2222/);
    expect(codeOf(() => resolveSource(cat, 'src_aaa'))).toBe(4);
    const two = lookupOf({ sources: [entry('src_abcd1111', 'a.md'), entry('src_abcd2222', 'b.md')] } as Catalog);
    expect(() => resolveSource(two, 'abcd')).toThrow(/matches 2 sources/);
    expect(resolveSource(cat, 'note').id).toBe('src_cccc3333');
    const err = (() => {
      try {
        resolveSource(cat, 'budget');
      } catch (e) {
        return e as UserError;
      }
      return null;
    })();
    expect(err?.exitCode).toBe(4);
    expect(codeOf(() => resolveSource(cat, '../../etc/passwd'))).toBe(4);
  });
});

describe('--around windows', () => {
  it('never open or close inside a page marker', () => {
    const text = 'end of page four\n<!-- page 5 -->\nstart of page five';
    const inside = text.indexOf('5 -->');
    expect(outsideMark(text, inside)).toBe(text.indexOf('<!--'));
    expect(outsideMark(text, text.indexOf('page 5'))).toBe(text.indexOf('<!--'));
    expect(outsideMark(text, text.indexOf('start'))).toBe(text.indexOf('start'));
    expect(outsideMark(text, 3)).toBe(3);
  });

  it('name the nodes where the words occur as written when the node read lacks them', () => {
    const before = findNode(root, 'release-runbook.md', byTitle('Before the release'));
    const a = readSource(root, 'release-runbook.md', { nodeId: before.node_id, around: 'make rollback' });
    const rollback = findNode(root, 'release-runbook.md', byTitle('Monitoring and rollback'));
    // a short node is shown whole, the note saying the words are not in it
    expect(a.note).toMatch(/shown whole; "make rollback" does not occur in it as written/);
    expect(a.text).toBe(readSource(root, 'release-runbook.md', { nodeId: before.node_id }).text);
    expect(a.note).toContain(`"make rollback" occurs as written in node ${rollback.node_id} "Monitoring and rollback" (lines`);
    // found in the node read: no pointer elsewhere; a short node whole, the note saying where the words are
    const found = readSource(root, 'release-runbook.md', { nodeId: rollback.node_id, around: 'make rollback' });
    expect(found.note).not.toMatch(/occurs as written in node/);
    expect(found.note).toMatch(/shown whole; "make rollback" first occurs at character \d+/);
    expect(found.text).toBe(readSource(root, 'release-runbook.md', { nodeId: rollback.node_id }).text);
    // with a size given, the window is cut to it
    expect(readSource(root, 'release-runbook.md', { nodeId: rollback.node_id, around: 'make rollback', maxChars: 60 }).note).toMatch(/^--around: characters \d+-\d+ of/);
    // written nowhere: no pointer
    expect(readSource(root, 'release-runbook.md', { nodeId: before.node_id, around: 'rollback window zzz' }).note).not.toMatch(/occurs as written in node/);
  });

  it('name the later places of words that occur more than once, and how to read one', () => {
    const a = readSource(root, 'release-runbook.md', { around: 'billing service', maxChars: 120 });
    const m = /"billing service" occurs (\d+) times here, (\d+) past this window; they start at characters (\d+)[^:]*: read one with --offset \(e\.g\. --offset (\d+) --max-chars 120\)/.exec(a.note ?? '');
    expect(m, a.note).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThan(1);
    const later = readSource(root, 'release-runbook.md', { offset: Number(m![4]), maxChars: 120 });
    expect(later.text.toLowerCase()).toContain('billing service');
    // once only: nothing added
    expect(readSource(root, 'release-runbook.md', { around: 'make rollback' }).note).not.toMatch(/occurs \d+ times/);
    // every place inside the window shown: no pointer to places it already shows
    const wide = readSource(root, 'release-runbook.md', { around: 'billing service', maxChars: 5000 });
    expect(wide.text.match(/billing service/gi)!.length).toBeGreaterThan(1);
    expect(wide.note).not.toMatch(/past this window/);
  });

  it('cite a Markdown window by its own file lines, not the whole node\'s', () => {
    const rollback = findNode(root, 'release-runbook.md', byTitle('Monitoring and rollback'));
    const a = readSource(root, 'release-runbook.md', { nodeId: rollback.node_id, around: 'make rollback', maxChars: 60 });
    const file = readFileSync(join(SKILL_FIXTURES, 'release-runbook.md'), 'utf8').split('\n');
    const at = file.findIndex((l) => l.includes('make rollback')) + 1;
    const [from, to] = a.citation.lines!;
    expect(from).toBeLessThanOrEqual(at);
    expect(to).toBeGreaterThanOrEqual(at);
    expect(to - from).toBeLessThan(rollback.line_range![1] - rollback.line_range![0]);
  });

  it('start and end with whole sentences when they are near, unless the caller set their size', () => {
    const a = readSource(root, 'harbor-report.pdf', { pages: '1-4', around: 'sediment dredging cubic meters' });
    // the default window would open inside page 1's first sentence ("and by record cruise traffic")
    expect(a.text).toMatch(/^<!-- page 1 -->\nThe year was marked by the opening/);
    expect(a.text).toMatch(/[.!?]$/);
    expect(a.text.length).toBeGreaterThan(AROUND_CHARS);
    // --max-chars is the size asked for: kept to
    const sized = readSource(root, 'harbor-report.pdf', { pages: '1-4', around: 'sediment dredging cubic meters', maxChars: 300 });
    expect(sized.text.length).toBeLessThan(360);
  });

  it('find the words as a word of their own before finding them inside a longer word ("roll", not the "roll" of "rollback")', () => {
    const a = readSource(root, 'release-runbook.md', { around: 'roll', maxChars: 40 });
    expect(a.text).toContain('Roll back');
    expect(a.text).not.toContain('Monitoring and rollback');
    // only inside a longer word: found there
    expect(readSource(root, 'release-runbook.md', { around: 'rollb', maxChars: 40 }).note).toMatch(/where "rollb" first occurs as written/);
  });

  it('say when the words were found only in another case than typed', () => {
    expect(readSource(root, 'release-runbook.md', { around: 'Roll back', maxChars: 40 }).note).toMatch(/first occurs as written;/);
    expect(readSource(root, 'release-runbook.md', { around: 'ROLL BACK', maxChars: 40 }).note).toMatch(/first occurs as written but in another case/);
  });
});
