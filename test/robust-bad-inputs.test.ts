/**
 * Hostile folders (issue 13): the bad-input corpus of scripts/make-bad-inputs.mjs, built fresh in a
 * temp folder, ingested and queried through the real CLI and skill scripts. Every case is checked
 * for its outcome and message; nothing crashes (no exit 70, no stack trace); `doctor` is healthy
 * after; nothing from outside the ingested folder reaches the store; a second ingest changes no
 * byte and exits 0. As root, mhub runs as `nobody` (setpriv) so permission cases are real.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync, symlinkSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from './helpers/cli.js';
// @ts-expect-error plain ESM script without types
import { makeBadInputs, makeZip, SECRET_MARKER } from '../scripts/make-bad-inputs.mjs';
import { detectFile, VanishedError } from '../src/ingest/detect.js';
import { decodeBytes, sniffUtf16 } from '../src/ingest/encoding.js';
import { runEnrichers } from '../src/ingest/stages/tree.js';
import { fallbackWarnings } from '../src/ingest/fallbacks.js';

interface Expect { where: 'source' | 'notice'; status?: string | string[]; type?: string; kind?: string; message?: RegExp; text?: string }
interface Case { name: string; path: string; expect: Expect }
interface Command { name: string; args: string[]; code: number; message: RegExp; json?: boolean; maxSeconds?: number; stream?: string; script?: string }
interface Corpus { base: string; store: string; inbox: string; outside: string; cases: Case[]; commands: Command[]; skill: Command[]; runAs: string[]; permissionCases: boolean; note: string }
interface Report { sources: { id: string; file: string; type: string; status: string; action: string; error?: string }[]; not_ingested: { path: string; kind: string; reason: string }[] }

const SKILL_DIR = join(import.meta.dirname, '..', 'skills', 'metadatahub');
let c: Corpus;
const outcomes: string[] = [];

function run(cmd: string[], cwd: string) {
  const [exe, ...rest] = c.runAs.length ? [...c.runAs, 'env', `HOME=${c.base}`, 'MHUB_STORE=', ...cmd] : cmd;
  const t0 = Date.now();
  const r = spawnSync(exe!, rest, { cwd, encoding: 'utf8', timeout: 300_000, env: { ...process.env, MHUB_STORE: '', HOME: c.base }, maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, seconds: (Date.now() - t0) / 1000 };
}
const mhub = (args: string[]) => run([process.execPath, CLI, '--store', c.store, ...args], c.store);
const skill = (script: string, args: string[]) => run([process.execPath, join(SKILL_DIR, script), '--store', c.store, ...args], c.store);

/** Every store file outside the inbox, with its hash (the inbox is the user's, not the store's output). */
function storeHashes(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      if (rel === '' && (name === 'inbox' || name === '.mhub')) continue;
      const abs = join(dir, name);
      const st = statSync(abs);
      if (st.isDirectory()) walk(abs, `${rel}${name}/`);
      else out.set(`${rel}${name}`, createHash('sha256').update(readFileSync(abs)).digest('hex'));
    }
  };
  walk(root, '');
  return out;
}

function noCrash(r: { code: number | null; stdout: string; stderr: string }): void {
  expect(r.code).not.toBe(70);
  expect(r.code).not.toBeNull();
  expect(r.stderr).not.toMatch(/unexpected error|\n\s+at .+:\d+:\d+/);
}

let first: ReturnType<typeof mhub>;
let report: Report;

beforeAll(() => {
  c = makeBadInputs() as Corpus;
  first = mhub(['ingest', '--json']);
  report = JSON.parse(first.stdout) as Report;
}, 300_000);

afterAll(() => {
  console.log(`bad-input corpus: ${outcomes.length} cases checked${c.note ? ` (${c.note})` : ''}\n${outcomes.join('\n')}`);
  spawnSync('chmod', ['-R', 'u+rwX', c.base]);
  rmSync(c.base, { recursive: true, force: true });
});

describe('bad-input corpus: ingest', () => {
  it('has at least 40 cases and runs permission cases for real when it can', () => {
    expect(c.cases.length + c.commands.length + c.skill.length).toBeGreaterThanOrEqual(40);
    if (process.getuid?.() === 0) expect(c.permissionCases).toBe(c.runAs.length > 0);
  });

  it('ingests the whole folder without crashing; this run exits 1 (some files failed)', () => {
    noCrash(first);
    expect(first.code).toBe(1);
  });

  it('gives each case its outcome and a clear message', () => {
    const failures: string[] = [];
    for (const k of c.cases) {
      const e = k.expect;
      const src = report.sources.find((s) => s.file === k.path);
      const note = report.not_ingested.find((n) => n.path === k.path);
      let got: string;
      let ok = true;
      if (e.where === 'source') {
        got = src ? `${src.status}${src.error ? `: ${src.error}` : ''}` : note ? `notice: ${note.reason}` : 'absent';
        const statuses = Array.isArray(e.status) ? e.status : [e.status];
        ok = !!src && statuses.includes(src.status) && (!e.type || src.type === e.type) && (!e.message || e.message.test(src.error ?? ''));
        if (ok && e.text) {
          const dir = join(c.store, 'converted', src!.id);
          const text = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
          ok = text.includes(e.text);
          if (!ok) got += ` (converted text lacks "${e.text}")`;
        }
      } else {
        got = note ? `notice ${note.kind}: ${note.reason}` : src ? `source ${src.status}` : 'absent';
        ok = !!note && !src && (!e.kind || note.kind === e.kind) && (!e.message || e.message.test(note.reason));
      }
      outcomes.push(`${ok ? 'ok  ' : 'FAIL'} ${k.name} [${k.path}] → ${got.slice(0, 160)}`);
      if (!ok) failures.push(`${k.name} (${k.path}): got ${got}`);
    }
    expect(failures).toEqual([]);
  });

  it('puts nothing from outside the ingested folder into the store, and no ../ path in the catalog', () => {
    const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;
    for (const [rel] of storeHashes(c.store)) {
      const text = readFileSync(join(c.store, rel), 'latin1');
      expect(text.includes(SECRET_MARKER), rel).toBe(false);
      expect(passwd.length > 5 && text.includes(passwd), rel).toBe(false);
    }
    const catalog = JSON.parse(readFileSync(join(c.store, 'catalog.json'), 'utf8')) as { sources: { original_path: string }[] };
    for (const s of catalog.sources) expect(s.original_path).not.toMatch(/(^|\/)\.\.(\/|$)|^\//);
  });

  it('a second ingest changes no byte and exits 0: earlier failures of unchanged files do not fail it', () => {
    const before = storeHashes(c.store);
    const again = mhub(['ingest', '--json']);
    noCrash(again);
    expect(again.code).toBe(0);
    const r = JSON.parse(again.stdout) as Report;
    expect(r.sources.filter((s) => s.action !== 'unchanged').map((s) => `${s.file} ${s.action}`)).toEqual([]);
    expect(storeHashes(c.store)).toEqual(before);
    outcomes.push('ok   second ingest: 0 changed, exit 0, no byte changed');
  }, 120_000);
});

describe('bad-input corpus: commands', () => {
  it('each command case exits with its code and says why; nothing crashes', () => {
    const failures: string[] = [];
    for (const k of [...c.commands, ...c.skill]) {
      const r = k.script ? skill(k.script, k.args) : mhub(k.args);
      noCrash(r);
      const out = `${r.stdout}\n${r.stderr}`;
      let ok = r.code === k.code && k.message.test(out) && (!k.maxSeconds || r.seconds <= k.maxSeconds);
      if (ok && (k.json || k.script) && r.code !== 0) {
        // the one error shape of CLI and skill
        const body = JSON.parse(r.stdout) as { error: Record<string, unknown> };
        ok = typeof body.error.message === 'string' && typeof body.error.hint === 'string' && body.error.exit_code === k.code;
      }
      if (ok && k.script && r.code === 0) ok = (JSON.parse(r.stdout) as { store?: string }).store === c.store;
      const shown = out.replace(/\s+/g, ' ').slice(0, 140);
      outcomes.push(`${ok ? 'ok  ' : 'FAIL'} ${k.name} → exit ${r.code} in ${r.seconds.toFixed(1)}s: ${shown}`);
      if (!ok) failures.push(`${k.name}: exit ${r.code} (want ${k.code}) ${r.seconds}s: ${out.slice(0, 400)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('doctor is healthy after everything, status lists the failed sources', () => {
    const d = mhub(['doctor', '--json']);
    noCrash(d);
    expect(JSON.parse(d.stdout)).toMatchObject({ healthy: true });
    const s = mhub(['status', '--json']);
    noCrash(s);
    const st = JSON.parse(s.stdout) as { failed: { file: string }[] };
    expect(st.failed.map((f) => f.file)).toContain('inbox/empty.txt');
    outcomes.push('ok   doctor healthy after the corpus; status lists failed sources');
  }, 120_000);
});

describe('fallbacks are said, once', () => {
  it('a corrupt keyword index is reported as unreadable (not missing), and doctor --fix rebuilds it', () => {
    writeFileSync(join(c.store, 'vector_store', 'keyword', 'sources.json'), '{"format": 1, "ids": [');
    const r = mhub(['search', 'quarterly revenue', '--json']);
    noCrash(r);
    const warnings = (JSON.parse(r.stdout) as { warnings: string[] }).warnings;
    expect(warnings.filter((w) => /keyword index/.test(w))).toEqual([expect.stringMatching(/keyword index unreadable .*doctor --fix/)]);
    const fix = mhub(['doctor', '--fix', '--json']);
    noCrash(fix);
    expect(JSON.parse(fix.stdout)).toMatchObject({ after: { healthy: true } });
    outcomes.push('ok   corrupt keyword index: search says unreadable, doctor --fix rebuilds it');
  }, 120_000);

  it('an enricher that throws leaves the offline result and is reported once for all sources', async () => {
    const run = { fallbacks: new Map<string, { count: number; first: string }>() };
    const boom = { name: 'boom', enrich: async () => { throw new Error('model unavailable'); } };
    for (const rel of ['inbox/a.txt', 'inbox/b.txt']) {
      const result = { title: 'x', root: { title: 'x', children: [] } };
      const job = { file: { rel }, det: { card: {}, bytes: new Uint8Array() }, entry: { strategy: {} }, result } as never;
      await runEnrichers(job, [boom] as never, run);
      expect((job as { result: unknown }).result).toBe(result);
    }
    expect(fallbackWarnings(run)).toEqual(['enricher boom failed for 2 source(s) (first: inbox/a.txt: model unavailable); the offline result was used instead']);
  });
});

describe('the skill store', () => {
  it('is found in the documented order (--store, $MHUB_STORE, current folder, skill config.json) and named in every answer', () => {
    const base = join(c.base, 'order');
    const [a, b, project, neutral] = ['a', 'b', 'project', 'neutral'].map((n) => join(base, n));
    for (const d of [a, b, project, neutral]) mkdirSync(d!, { recursive: true });
    for (const st of [a, b]) expect(spawnSync(process.execPath, [CLI, 'init', st!], { encoding: 'utf8' }).status).toBe(0);
    expect(spawnSync(process.execPath, [CLI, '--store', b!, 'skill', 'install', '--target', project!], { encoding: 'utf8' }).status).toBe(0);
    const script = join(project!, '.claude', 'skills', 'metadatahub', 'search.js');
    const ask = (cwd: string, env: Record<string, string>, extra: string[] = []) => {
      const r = spawnSync(process.execPath, [script, 'anything', ...extra], { cwd, encoding: 'utf8', env: { ...process.env, MHUB_STORE: '', ...env } });
      return { code: r.status, json: JSON.parse(r.stdout) as { store?: string; store_found_by?: string; error?: { message: string; hint: string; exit_code: number } } };
    };
    expect(ask(a!, {}, ['--store', b!]).json).toMatchObject({ store: b, store_found_by: '--store' });
    expect(ask(a!, { MHUB_STORE: b! }).json).toMatchObject({ store: b, store_found_by: '$MHUB_STORE' });
    expect(ask(a!, {}).json).toMatchObject({ store: a, store_found_by: 'current folder' });
    expect(ask(neutral!, {}).json).toMatchObject({ store: b, store_found_by: 'skill config.json' });
    const bad = ask(a!, { MHUB_STORE: join(base, 'missing') });
    expect(bad.code).toBe(4);
    expect(bad.json.error).toMatchObject({ exit_code: 4, message: expect.stringMatching(/MHUB_STORE/), hint: expect.any(String) });
    outcomes.push('ok   skill store order: --store, $MHUB_STORE, current folder, skill config.json; each answer names it');
  });
});

describe('links, external folders and encodings', () => {
  it('--follow-links follows a link out of the folder, naming it by the link', () => {
    const base = join(c.base, 'follow');
    mkdirSync(join(base, 'store', 'inbox'), { recursive: true });
    writeFileSync(join(base, 'store', 'config.json'), JSON.stringify({ embedding: { model: 'none' } }));
    writeFileSync(join(base, 'elsewhere.txt'), 'A note kept elsewhere.\n');
    symlinkSync(join(base, 'elsewhere.txt'), join(base, 'store', 'inbox', 'linked.txt'));
    const r = spawnSync(process.execPath, [CLI, '--store', join(base, 'store'), 'ingest', '--json', '--follow-links'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rep = JSON.parse(r.stdout) as Report;
    expect(rep.sources.map((s) => `${s.file} ${s.status}`)).toEqual(['inbox/linked.txt indexed']);
  });

  it('a folder outside the store is recorded as external/<name>/…, never ../; status and doctor follow it', () => {
    const base = join(c.base, 'ext');
    mkdirSync(join(base, 'store'), { recursive: true });
    mkdirSync(join(base, 'papers', 'sub'), { recursive: true });
    writeFileSync(join(base, 'store', 'config.json'), JSON.stringify({ embedding: { model: 'none' } }));
    writeFileSync(join(base, 'papers', 'a.md'), '# A\n\nFirst paper.\n');
    writeFileSync(join(base, 'papers', 'sub', 'b.txt'), 'Second paper.\n');
    const ing = () => spawnSync(process.execPath, [CLI, '--store', join(base, 'store'), 'ingest', '--json', '../papers'], { encoding: 'utf8', cwd: join(base, 'store') });
    const r = ing();
    expect(r.status).toBe(0);
    const paths = (JSON.parse(r.stdout) as Report).sources.map((s) => s.file);
    expect(paths).toEqual(['external/papers/a.md', 'external/papers/sub/b.txt']);
    const cfg = JSON.parse(readFileSync(join(base, 'store', 'config.json'), 'utf8')) as { external_roots: Record<string, string> };
    expect(cfg.external_roots).toEqual({ papers: join(base, 'papers') });
    const again = JSON.parse(ing().stdout) as Report;
    expect(again.sources.every((s) => s.action === 'unchanged')).toBe(true);
    const doc = spawnSync(process.execPath, [CLI, '--store', join(base, 'store'), 'doctor', '--json'], { encoding: 'utf8' });
    expect(JSON.parse(doc.stdout)).toMatchObject({ healthy: true });
    // an entry recorded as ../papers/… by an older version: doctor flags it, --fix drops it
    const catPath = join(base, 'store', 'catalog.json');
    const cat = JSON.parse(readFileSync(catPath, 'utf8')) as { sources: { original_path: string }[] };
    const legacy = JSON.parse(JSON.stringify(cat.sources[1])) as { id: string; original_path: string; status: string; tree_path: null; converted_path: null };
    Object.assign(legacy, { id: 'src_00d00d00', original_path: '../papers/sub/b.txt', status: 'skipped', tree_path: null, converted_path: null });
    cat.sources.push(legacy);
    writeFileSync(catPath, JSON.stringify(cat, null, 2) + '\n');
    const flagged = JSON.parse(spawnSync(process.execPath, [CLI, '--store', join(base, 'store'), 'doctor', '--json'], { encoding: 'utf8' }).stdout) as { problems: { code: string }[] };
    expect(flagged.problems.map((p) => p.code)).toContain('source_path_outside');
    const fixed = JSON.parse(spawnSync(process.execPath, [CLI, '--store', join(base, 'store'), 'doctor', '--fix', '--json'], { encoding: 'utf8' }).stdout) as { after: { healthy: boolean } };
    expect(fixed.after.healthy).toBe(true);
    expect((JSON.parse(readFileSync(catPath, 'utf8')) as { sources: { original_path: string }[] }).sources.map((x) => x.original_path)).toEqual(['external/papers/a.md', 'external/papers/sub/b.txt']);
    writeFileSync(join(base, 'papers', 'a.md'), '# A\n\nFirst paper, revised.\n');
    const st = JSON.parse(spawnSync(process.execPath, [CLI, '--store', join(base, 'store'), 'status', '--json'], { encoding: 'utf8' }).stdout) as { pending: { changed: string[] } };
    expect(st.pending.changed).toEqual(['external/papers/a.md']);
  });

  it('archive members are first-class: not stale, doctor healthy, zero-diff re-ingest (nested too)', () => {
    const base = join(c.base, 'zips');
    mkdirSync(join(base, 'inbox'), { recursive: true });
    writeFileSync(join(base, 'config.json'), JSON.stringify({ embedding: { model: 'none' } }));
    const inner = makeZip([{ name: 'deep.md', data: '# Deep\n\nInside the inner archive.\n' }]);
    writeFileSync(join(base, 'inbox', 'outer.zip'), makeZip([{ name: 'inner.zip', data: inner, method: 0 }, { name: 'top.txt', data: 'Top level member.\n' }]));
    const cli = (args: string[]) => spawnSync(process.execPath, [CLI, '--store', base, ...args], { encoding: 'utf8' });
    expect(cli(['ingest']).status).toBe(0);
    const before = storeHashes(base);
    const again = JSON.parse(cli(['ingest', '--json']).stdout) as Report;
    expect(again.sources.map((x) => `${x.file} ${x.action}`)).toEqual([
      'inbox/outer.zip unchanged', 'inbox/outer.zip!/inner.zip unchanged', 'inbox/outer.zip!/inner.zip!/deep.md unchanged', 'inbox/outer.zip!/top.txt unchanged',
    ]);
    expect(storeHashes(base)).toEqual(before);
    expect(JSON.parse(cli(['doctor', '--json']).stdout)).toMatchObject({ healthy: true, errors: 0 });
    expect(JSON.parse(cli(['status', '--json']).stdout)).toMatchObject({ up_to_date: true });
    const sk = spawnSync(process.execPath, [join(SKILL_DIR, 'search.js'), '--store', base, 'inner archive'], { encoding: 'utf8' });
    expect(JSON.parse(sk.stdout)).toMatchObject({ freshness: { stale: false }, store: base, store_found_by: '--store' });
    rmSync(join(base, '.mhub'), { recursive: true }); // a fresh clone has no stat cache
    expect(JSON.parse(spawnSync(process.execPath, [join(SKILL_DIR, 'search.js'), '--store', base, 'inner archive'], { encoding: 'utf8' }).stdout)).toMatchObject({ freshness: { stale: false } });
    expect(JSON.parse(cli(['doctor', '--json']).stdout)).toMatchObject({ healthy: true, errors: 0 });
  });

  it('decodes UTF-16 without BOM and Windows-1252 by content', () => {
    expect(sniffUtf16(Buffer.from('plain ascii', 'utf16le'))).toBe('utf-16le');
    expect(decodeBytes(Buffer.from('Zoë', 'latin1'))).toMatchObject({ text: 'Zoë', encoding: 'windows-1252' });
    expect(decodeBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toMatchObject({ text: 'hi', encoding: 'utf-8', bom: true });
  });

  it('a file that vanishes before it is read is reported as gone, not crashed on', () => {
    const p = join(c.base, 'vanishing.txt');
    writeFileSync(p, 'x');
    rmSync(p);
    expect(() => detectFile(p, 'inbox/vanishing.txt', 'src_00000000')).toThrow(VanishedError);
  });

  it('a file whose permissions are fixed is picked up by the next ingest', () => {
    if (!c.permissionCases) return;
    chmodSync(join(c.inbox, 'unreadable.txt'), 0o644);
    const r = mhub(['ingest', '--json']);
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout) as Report;
    expect(rep.sources.find((s) => s.file === 'inbox/unreadable.txt')).toMatchObject({ status: 'indexed', action: 'updated' });
  }, 120_000);
});
