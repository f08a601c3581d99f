/** Nothing outside the store can be read: not through arguments, nor through tampered trees, catalogs or symlinks. */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skillStore, entryOf, findNode, byTitle, runScript } from './helpers/skill-store.js';
import { readSource } from '../src/retrieve/read.js';
import { deepRetrieve } from '../src/retrieve/deep.js';
import { UserError } from '../src/store/errors.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-STORE';
let base = '';
let outside = '';
const copies: string[] = [];
beforeAll(async () => {
  base = await skillStore('none');
  outside = mkdtempSync(join(tmpdir(), 'mhub-outside-'));
  writeFileSync(join(outside, 'secret.md'), `${SECRET}\n`);
  writeFileSync(join(outside, 'secret.tree.json'), JSON.stringify({ id: 'x', root: { node_id: '0000', title: SECRET, summary: SECRET, content_ref: null, children: [] } }));
  writeFileSync(join(outside, 'rows.jsonl'), `{"columns":["x"]}\n["${SECRET}"]\n`);
});
afterAll(() => {
  for (const d of [base, outside, ...copies]) rmSync(d, { recursive: true, force: true });
});

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mhub-sec-'));
  cpSync(base, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tree file edited by hand
function editTree(root: string, file: string, edit: (t: any) => void): string {
  const e = entryOf(root, file);
  const p = join(root, e.tree_path!);
  const t = JSON.parse(readFileSync(p, 'utf8'));
  edit(t);
  writeFileSync(p, JSON.stringify(t));
  return e.id;
}

function refusal(fn: () => unknown): UserError {
  try {
    const out = fn();
    throw new Error(`expected a refusal, got ${JSON.stringify(out).slice(0, 200)}`);
  } catch (err) {
    if (!(err instanceof UserError)) throw err;
    expect(err.message).not.toContain(SECRET);
    return err;
  }
}

describe('reading stays inside the store', () => {
  it('treats source arguments as names, never as paths', () => {
    const root = copy();
    for (const ref of ['../../etc/passwd', '/etc/passwd', join(outside, 'secret.md'), `../${outside}/secret.md`]) {
      expect(refusal(() => readSource(root, ref, {})).exitCode).toBe(4);
    }
  });

  it('refuses content_refs with ../ or absolute paths planted in a tree', () => {
    const root = copy();
    const id = editTree(root, 'release-runbook.md', (t) => {
      t.root.children[0].content_ref = `converted/${t.id}/../../../../../../..${outside}/secret.md`;
      t.root.children[1].content_ref = join(outside, 'secret.md');
    });
    const up = refusal(() => readSource(root, id, { nodeId: '0001' }));
    expect(up.exitCode).toBe(2);
    expect(up.message).toMatch(/leaves converted\//);
    const abs = refusal(() => readSource(root, id, { nodeId: '0002' }));
    expect(abs.exitCode).toBe(2);
  });

  it('refuses a content file that is a symlink to a file outside the store', () => {
    const root = copy();
    const e = entryOf(root, 'harbor-report.pdf');
    const node = findNode(root, 'harbor-report.pdf', byTitle('Dredging and Infrastructure'));
    const target = join(root, node.content_ref!);
    unlinkSync(target);
    symlinkSync(join(outside, 'secret.md'), target);
    const err = refusal(() => readSource(root, e.id, { nodeId: node.node_id }));
    expect(err.message).toMatch(/link to a file outside the store/);
    refusal(() => readSource(root, e.id, { pages: '3-3' }));
  });

  it('allows a symlink that stays inside the store', () => {
    const root = copy();
    const e = entryOf(root, 'harbor-report.pdf');
    const node = findNode(root, 'harbor-report.pdf', byTitle('Dredging and Infrastructure'));
    const target = join(root, node.content_ref!);
    const keep = readFileSync(target, 'utf8');
    writeFileSync(join(root, 'converted', e.id, 'moved.md'), keep);
    unlinkSync(target);
    symlinkSync(join(root, 'converted', e.id, 'moved.md'), target);
    expect(readSource(root, e.id, { nodeId: node.node_id }).text).toContain('412,000');
  });

  it('refuses a rows file outside the store', () => {
    const root = copy();
    const id = editTree(root, 'spare-parts-inventory.xlsx', (t) => {
      t.root.children[0].meta.rows_ref = join(outside, 'rows.jsonl');
    });
    refusal(() => readSource(root, id, { rows: '1-1' }));
    editTree(root, 'spare-parts-inventory.xlsx', (t) => {
      t.root.children[0].meta.rows_ref = '../../../../../../../..' + join(outside, 'rows.jsonl');
    });
    refusal(() => readSource(root, id, { rows: '1-1' }));
  });

  it('refuses a catalog tree_path outside the store', async () => {
    const root = copy();
    const cat = JSON.parse(readFileSync(join(root, 'catalog.json'), 'utf8'));
    const e = cat.sources.find((s: { filename: string }) => s.filename === 'release-runbook.md');
    e.tree_path = `tree_index/../../../../../../../..${outside}/secret.tree.json`;
    writeFileSync(join(root, 'catalog.json'), JSON.stringify(cat));
    await expect(deepRetrieve(root, e.id)).rejects.toThrow(/leaves the store/);
    const r = runScript('deep_retrieve.js', [e.id, '--store', root]);
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.json.error.message).toMatch(/leaves the store/);
    expect(r.json.error.hint).toMatch(/inside the store/);
  });
});
