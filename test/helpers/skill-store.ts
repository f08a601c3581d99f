/** A fresh store holding the skill fixtures (a PDF, an xlsx workbook and a Markdown runbook), ingested. */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { beforeAll, afterAll } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { initStore } from '../../src/store/init.js';
import { ingest } from '../../src/ingest/pipeline.js';
import { readCatalog } from '../../src/store/catalog.js';
import type { CatalogEntry } from '../../src/store/schemas.js';
import { FIXTURES } from './temp-store.js';

export const SKILL_FIXTURES = join(FIXTURES, 'skill');
export const FIXTURE_FILES = ['harbor-report.pdf', 'spare-parts-inventory.xlsx', 'release-runbook.md'];
export const REPO = join(import.meta.dirname, '..', '..');
export const SKILL_DIR = join(REPO, 'skills', 'metadatahub');

/** model: "none" for keyword-only stores (fast, deterministic), "auto" to embed when a model exists. */
export async function skillStore(model = 'none'): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'mhub-skill-'));
  initStore(root, { embedding: { model, models_dir: null, allow_remote: false, batch_size: 32 } });
  for (const f of FIXTURE_FILES) cpSync(join(SKILL_FIXTURES, f), join(root, 'inbox', f));
  const report = await ingest(root, { paths: [join(root, 'inbox')], llm: 'none' });
  if (report.counts.indexed !== FIXTURE_FILES.length) {
    throw new Error(`fixture ingest: ${JSON.stringify(report.sources.map((s) => [s.file, s.status, s.error]))}`);
  }
  return root;
}

export function entryOf(root: string, filename: string): CatalogEntry {
  const e = readCatalog(root).sources.find((s) => s.filename === filename);
  if (!e) throw new Error(`no catalog entry for ${filename}`);
  return e;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed script output, shape checked by each test
  json: any;
}

/** Run a compiled skill script as a fresh process. */
export function runScript(script: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; dir?: string } = {}): Run {
  const r = spawnSync(process.execPath, [join(opts.dir ?? SKILL_DIR, script), ...args], {
    cwd: opts.cwd ?? tmpdir(),
    env: { ...process.env, MHUB_STORE: '', ...opts.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  let json: unknown = null;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = null;
  }
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json };
}

interface TreeNodeLite {
  node_id: string;
  title: string;
  kind?: string;
  content_ref: string | null;
  children: TreeNodeLite[];
}

/** The first node (pre-order) of a source's tree matching `pred`, so tests do not hard-code node ids. */
export function findNode(root: string, filename: string, pred: (n: TreeNodeLite) => boolean): TreeNodeLite {
  const e = entryOf(root, filename);
  const tree = JSON.parse(readFileSync(join(root, e.tree_path!), 'utf8')) as { root: TreeNodeLite };
  const walk = (n: TreeNodeLite): TreeNodeLite | null => (pred(n) ? n : n.children.reduce<TreeNodeLite | null>((hit, c) => hit ?? walk(c), null));
  const hit = walk(tree.root);
  if (!hit) throw new Error(`no matching node in ${filename}`);
  return hit;
}

export const byTitle = (title: string) => (n: TreeNodeLite) => n.title === title;

/**
 * A skill store built once for a test file (`base()`), and `copy()`: a throw-away copy whose stamps
 * still match its files (mtimes preserved); `track(dir)` adds another folder; all removed after the file's tests.
 */
export function skillStoreCopies(prefix: string): { base: () => string; copy: () => string; track: (dir: string) => string } {
  let base = '';
  const copies: string[] = [];
  beforeAll(async () => {
    base = await skillStore('none');
  });
  afterAll(() => {
    for (const d of [base, ...copies]) rmSync(d, { recursive: true, force: true });
  });
  return {
    base: () => base,
    copy: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      cpSync(base, dir, { recursive: true, preserveTimestamps: true });
      copies.push(dir);
      return dir;
    },
    track: (dir) => {
      copies.push(dir);
      return dir;
    },
  };
}
