import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { doctor } from '../src/admin/doctor.js';
import { doctorFix } from '../src/admin/doctor-fix.js';
import { inspectFaissFile, FaissFileError } from '../src/admin/faiss-file.js';
import { readCatalog } from '../src/store/catalog.js';
import { adminStore, hasEmbedder } from './helpers/admin-store.js';
import { cleanup } from './helpers/temp-store.js';
import { mhub } from './helpers/cli.js';

const byName = (root: string, name: string) => readCatalog(root).sources.find((e) => e.filename === name)!;
const codes = (r: Awaited<ReturnType<typeof doctor>>) => r.problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${p.subject}`).sort();

/** Every store file that --fix must restore byte for byte (content, trees, indexes, catalog). */
function storeBytes(root: string, rels: string[]): Map<string, string> {
  return new Map(rels.map((r) => [r, existsSync(join(root, r)) ? readFileSync(join(root, r)).toString('base64') : 'MISSING']));
}

describe('mhub doctor', () => {
  let pristine: string;
  beforeAll(async () => {
    pristine = await adminStore();
  });
  afterAll(() => cleanup(pristine));

  const copy = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-doctor-'));
    cpSync(pristine, dir, { recursive: true, preserveTimestamps: true });
    return dir;
  };

  it('finds a freshly ingested store healthy', async () => {
    const r = await doctor(pristine);
    expect(codes(r)).toEqual([]);
    expect(r.healthy).toBe(true);
    const indexed = readCatalog(pristine).sources.filter((e) => e.status === 'indexed');
    expect(r.checked.sources).toBe(7);
    expect(r.checked.trees).toBe(indexed.length);
    expect(r.checked.content_refs).toBeGreaterThan(10);
    if (hasEmbedder()) {
      expect(r.checked.card_vectors).toBe(indexed.length);
      expect(r.checked.node_vectors).toBe(indexed.reduce((s, e) => s + e.node_count, 0));
    }
  });

  it('names each deliberate break with its fix, and --fix restores a clean audit', async () => {
    const root = copy();
    try {
      const guide = byName(root, 'guide.md');
      const harbor = byName(root, 'harbor-2019.pdf');
      const notes = byName(root, 'notes.txt');
      const watched = [guide.tree_path!, harbor.tree_path!, 'catalog.json', 'vector_store/keyword/sources.json', 'vector_store/index.faiss', 'vector_store/metadata.json'];
      const before = storeBytes(root, watched);

      rmSync(join(root, guide.tree_path!)); // 1. delete a tree
      if (hasEmbedder()) truncateSync(join(root, 'vector_store/index.faiss'), 200); // 2. truncate the FAISS file
      appendFileSync(join(root, notes.original_path), '\nA late edit nobody ingested.\n'); // 3. edit a source
      writeFileSync(join(root, '.mhub/ingest.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'ingest inbox' })); // 4. stale lock
      mkdirSync(join(root, 'converted/src_0badc0de'), { recursive: true }); // 5. orphans
      writeFileSync(join(root, 'converted/src_0badc0de/0000.md'), 'left behind\n');
      writeFileSync(join(root, 'tree_index/src_0badc0de.tree.json'), '{}\n');
      const firstRef = JSON.parse(readFileSync(join(root, harbor.tree_path!), 'utf8')).root.children[0].content_ref as string;
      rmSync(join(root, firstRef)); // 6. a missing content file

      const r = await doctor(root);
      expect(r.healthy).toBe(false);
      const found = codes(r);
      expect(found).toContain(`tree_missing ${guide.id}`);
      expect(found).toContain(`source_changed ${notes.id}`);
      expect(found).toContain('lock_stale .mhub/ingest.lock');
      expect(found).toContain('orphan converted/src_0badc0de');
      expect(found).toContain('orphan tree_index/src_0badc0de.tree.json');
      expect(found).toContain(`content_missing ${harbor.id}`);
      if (hasEmbedder()) expect(found).toContain('faiss_unreadable vector_store/index.faiss');
      for (const p of r.problems) expect(p.fix.length).toBeGreaterThan(5);
      expect(r.problems.find((p) => p.code === 'content_missing')!.message).toContain(firstRef);

      // The CLI says the same and exits 5.
      const cli = mhub(['--store', root, 'doctor', '--json']);
      expect(cli.code).toBe(5);
      expect(JSON.parse(cli.stdout).errors).toBe(r.errors);

      const fixed = await doctorFix(root);
      expect(fixed.actions.filter((a) => !a.ok)).toEqual([]);
      expect(codes(fixed.after)).toEqual([]);
      expect(fixed.after.healthy).toBe(true);
      // Only the broken sources were redone: the guide's tree and the harbor tree come back byte-identical.
      const after = storeBytes(root, watched);
      for (const rel of [guide.tree_path!, harbor.tree_path!, 'vector_store/index.faiss']) expect(after.get(rel)).toBe(before.get(rel));
      expect(existsSync(join(root, '.mhub/ingest.lock'))).toBe(false);
      expect(existsSync(join(root, 'converted/src_0badc0de'))).toBe(false);
      const reingested = fixed.actions.filter((a) => a.action === 'reingest').map((a) => a.subject.split(' ')[0]).sort();
      expect(reingested).toEqual([guide.id, harbor.id, notes.id].sort());
      expect(mhub(['--store', root, 'doctor']).code).toBe(0);
    } finally {
      cleanup(root);
    }
  });

  it.skipIf(!hasEmbedder())('rebuilds indexes without re-converting when only vectors are broken', async () => {
    const root = copy();
    try {
      const meta = JSON.parse(readFileSync(join(root, 'vector_store/nodes.metadata.json'), 'utf8'));
      meta.model.fingerprint = '0000000000000000';
      writeFileSync(join(root, 'vector_store/nodes.metadata.json'), JSON.stringify(meta, null, 2) + '\n');
      const nodesBefore = readFileSync(join(root, 'vector_store/nodes.faiss'));
      truncateSync(join(root, 'vector_store/nodes.faiss'), nodesBefore.length - 4);
      const treeMtime = statSync(join(root, byName(root, 'guide.md').tree_path!)).mtimeMs;
      const r = await doctor(root);
      expect(codes(r)).toEqual(['faiss_unreadable vector_store/nodes.faiss', 'model_mismatch vector_store']);
      const fixed = await doctorFix(root);
      expect(fixed.actions.map((a) => a.action)).toEqual(['reindex']);
      expect(fixed.after.healthy).toBe(true);
      expect(readFileSync(join(root, 'vector_store/nodes.faiss')).equals(nodesBefore)).toBe(true);
      expect(statSync(join(root, byName(root, 'guide.md').tree_path!)).mtimeMs).toBe(treeMtime);
    } finally {
      cleanup(root);
    }
  });

  it.skipIf(!hasEmbedder())('warns when nodes.rows.json is missing or stale (queries fall back to the node metadata) and rebuilds it', async () => {
    const root = copy();
    try {
      const rowsFile = join(root, 'vector_store/nodes.rows.json');
      const saved = readFileSync(rowsFile);
      const warnings = (r: Awaited<ReturnType<typeof doctor>>) => r.problems.filter((p) => p.severity === 'warning').map((p) => `${p.code} ${p.subject}`);
      expect(warnings(await doctor(root))).not.toContain('node_rows_stale vector_store/nodes.rows.json');
      writeFileSync(rowsFile, saved.toString('utf8').replace(/"rows_sha":"[0-9a-f]+"/, '"rows_sha":"0000000000000000"'));
      const stale = await doctor(root);
      expect(stale.healthy).toBe(true);
      expect(warnings(stale)).toContain('node_rows_stale vector_store/nodes.rows.json');
      expect(stale.problems.find((p) => p.code === 'node_rows_stale')!.message).toMatch(/does not match nodes.metadata.json/);
      rmSync(rowsFile);
      expect((await doctor(root)).problems.find((p) => p.code === 'node_rows_stale')!.message).toMatch(/is missing/);
      const fixed = await doctorFix(root);
      expect(fixed.actions.map((a) => a.action)).toEqual(['reindex']);
      expect(readFileSync(rowsFile).equals(saved)).toBe(true);
      expect(warnings(fixed.after)).not.toContain('node_rows_stale vector_store/nodes.rows.json');
    } finally {
      cleanup(root);
    }
  });

  it('names node files written before the nodes\' parents were kept, and --fix rewrites them as they would be written now', async () => {
    const root = copy();
    try {
      const guide = byName(root, 'guide.md');
      const rel = `vector_store/keyword/nodes/${guide.id}.tsv`;
      const current = readFileSync(join(root, rel), 'utf8');
      const nl = current.indexOf('\n');
      const header = JSON.parse(current.slice(0, nl)) as Record<string, unknown>;
      expect(Array.isArray(header['parent'])).toBe(true);
      delete header['parent'];
      writeFileSync(join(root, rel), JSON.stringify(header) + current.slice(nl));
      const r = await doctor(root);
      expect(r.healthy).toBe(true);
      expect(r.problems.filter((p) => p.code === 'keyword_nodes_dated').map((p) => p.message)).toEqual([expect.stringContaining(rel)]);
      const fixed = await doctorFix(root);
      expect(fixed.after.problems.map((p) => p.code)).not.toContain('keyword_nodes_dated');
      expect(readFileSync(join(root, rel), 'utf8')).toBe(current);
    } finally {
      cleanup(root);
    }
  });

  it('drops entries whose source file was deleted', async () => {
    const root = copy();
    try {
      const memo = byName(root, 'no-outline.pdf');
      rmSync(join(root, memo.original_path));
      const r = await doctor(root);
      expect(codes(r)).toContain(`source_missing ${memo.id}`);
      const fixed = await doctorFix(root);
      expect(fixed.after.healthy).toBe(true);
      expect(readCatalog(root).sources.some((e) => e.id === memo.id)).toBe(false);
      expect(existsSync(join(root, memo.tree_path!))).toBe(false);
    } finally {
      cleanup(root);
    }
  });

  it('leaves a running ingest alone, and cleans temp files once it is gone', async () => {
    const root = copy();
    try {
      writeFileSync(join(root, 'tree_index/src_12345678.tree.json.tmp-99-0'), '{"half": ');
      writeFileSync(join(root, '.mhub/ingest.lock'), JSON.stringify({ pid: process.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', command: 'ingest inbox' }));
      const live = await doctor(root);
      expect(live.problems.find((p) => p.code === 'lock_held')?.severity).toBe('warning');
      await expect(doctorFix(root)).rejects.toThrow(/ingest runs/);
      rmSync(join(root, '.mhub/ingest.lock'));
      const r = await doctor(root);
      expect(codes(r)).toEqual(['temp_file tree_index/src_12345678.tree.json.tmp-99-0']);
      const fixed = await doctorFix(root);
      expect(fixed.after.healthy).toBe(true);
      expect(existsSync(join(root, 'tree_index/src_12345678.tree.json.tmp-99-0'))).toBe(false);
    } finally {
      cleanup(root);
    }
  });

  it('reports an invalid config.json as needing a person', async () => {
    const root = copy();
    try {
      writeFileSync(join(root, 'config.json'), '{"search": {"strong_threshold": "high"}}\n');
      const r = await doctor(root);
      const p = r.problems.find((x) => x.code === 'json_invalid' && x.subject === 'config.json')!;
      expect(p.message).toContain('search.strong_threshold');
      expect(p.repair).toBeNull();
      expect(r.healthy).toBe(false);
    } finally {
      cleanup(root);
    }
  });
});

describe('FAISS file check', () => {
  it('verifies flat index length and catches truncation and padding', async () => {
    const root = await adminStore({ 'guide.md': join(import.meta.dirname, 'fixtures/foundation/guide.md') });
    try {
      const p = join(root, 'vector_store/index.faiss');
      if (!existsSync(p)) return; // no embedder installed: nothing to inspect
      const info = inspectFaissFile(p);
      expect(info).toMatchObject({ fourcc: 'IxFI', ntotal: 1, verified: true });
      const bytes = readFileSync(p);
      writeFileSync(p, Buffer.concat([bytes, Buffer.from([0, 0, 0, 0])]));
      expect(() => inspectFaissFile(p)).toThrow(/trailing bytes/);
      writeFileSync(p, bytes.subarray(0, bytes.length - 1));
      expect(() => inspectFaissFile(p)).toThrow(FaissFileError);
      writeFileSync(p, 'not a faiss file at all, but long enough to hold a header');
      expect(() => inspectFaissFile(p)).toThrow(FaissFileError);
    } finally {
      cleanup(root);
    }
  });
});
