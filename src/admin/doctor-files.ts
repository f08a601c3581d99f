/**
 * Store-wide file audit: orphans (converted folders and trees no indexed entry owns), temp files
 * left by an interrupted write, every JSON file of the store valid (against its schema where one
 * exists), and the ingest lock.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE, CONVERTED_DIR, LLM_CACHE_DIR, LOCK_FILE, STAT_CACHE_FILE, TREE_DIR, VECTOR_DIR } from '../store/layout.js';
import { Config, StatCache, type CatalogEntry } from '../store/schemas.js';
import { readLock } from '../store/lock.js';
import { compareStrings } from '../store/json.js';
import { problem, type Problem } from './problems.js';
import type { ZodTypeAny } from 'zod';

const TREE_SUFFIX = '.tree.json';
const TEMP_MARK = '.tmp-';

/** Store-relative paths of every file under DIR (recursive), sorted. */
export function listFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const rec = (rel: string) => {
    const abs = join(root, rel);
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const name of names.sort(compareStrings)) {
      const r = `${rel}/${name}`;
      let st;
      try {
        st = statSync(join(root, r));
      } catch {
        continue;
      }
      if (st.isDirectory()) rec(r);
      else out.push(r);
    }
  };
  rec(dir);
  return out;
}

export function auditOrphans(root: string, entries: CatalogEntry[], lockLive: boolean): Problem[] {
  const problems: Problem[] = [];
  // A running ingest writes converted folders and trees before the catalog names them.
  if (lockLive) return problems;
  const indexed = new Set(entries.filter((e) => e.status === 'indexed').map((e) => e.id));
  const known = new Set(entries.map((e) => e.id));
  const orphan = (rel: string, what: string) =>
    problems.push(problem('orphan', 'error', rel, `${rel} is ${what} no catalog entry owns.`, `delete ${rel} (\`mhub doctor --fix\`)`, { kind: 'remove', path: rel }));
  if (existsSync(join(root, CONVERTED_DIR))) {
    for (const name of readdirSync(join(root, CONVERTED_DIR)).sort(compareStrings)) {
      if (name.includes(TEMP_MARK)) continue;
      // Non-indexed known entries with files are reported by the source audit.
      if (!indexed.has(name) && !known.has(name)) orphan(`${CONVERTED_DIR}/${name}`, 'a converted folder');
    }
  }
  if (existsSync(join(root, TREE_DIR))) {
    for (const name of readdirSync(join(root, TREE_DIR)).sort(compareStrings)) {
      if (name.includes(TEMP_MARK)) continue;
      const id = name.endsWith(TREE_SUFFIX) ? name.slice(0, -TREE_SUFFIX.length) : null;
      if (!id || (!indexed.has(id) && !known.has(id))) orphan(`${TREE_DIR}/${name}`, 'a tree file');
    }
  }
  for (const dir of [CONVERTED_DIR, TREE_DIR, VECTOR_DIR, LLM_CACHE_DIR]) {
    for (const rel of listFiles(root, dir)) {
      if (rel.split('/').pop()!.includes(TEMP_MARK)) {
        problems.push(problem('temp_file', 'error', rel, `${rel} is a temp file left by an interrupted write.`, `delete ${rel} (\`mhub doctor --fix\`)`, { kind: 'remove', path: rel }));
      }
    }
  }
  for (const name of readdirSync(root).sort(compareStrings)) {
    if (name.includes(TEMP_MARK)) problems.push(problem('temp_file', 'error', name, `${name} is a temp file left by an interrupted write.`, `delete ${name} (\`mhub doctor --fix\`)`, { kind: 'remove', path: name }));
  }
  return problems;
}

/** Validate one JSON file; returns the problem or null. Missing files are not this check's business. */
function validateJson(root: string, rel: string, schema: ZodTypeAny | null, fix: string, repairable: boolean): Problem | null {
  const abs = join(root, rel);
  if (!existsSync(abs)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(abs, 'utf8'));
  } catch (err) {
    return problem('json_invalid', 'error', rel, `${rel} is not valid JSON: ${(err as Error).message}.`, fix, repairable ? { kind: 'remove', path: rel } : null);
  }
  if (!schema) return null;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return null;
  const i = parsed.error.issues[0];
  return problem('json_invalid', 'error', rel, `${rel} does not match its schema at ${i?.path.join('.') || '(root)'}: ${i?.message}.`, fix, repairable ? { kind: 'remove', path: rel } : null);
}

/**
 * config.json against Config; the stat cache against StatCache (a local cache: --fix deletes it and
 * the next ingest re-hashes); llm_cache files must parse. Trees and the catalog are checked by the
 * source audit; vector metadata by the vector audit.
 */
export function auditJsonFiles(root: string): { problems: Problem[]; checked: number } {
  const problems: Problem[] = [];
  let checked = 0;
  const check = (rel: string, schema: ZodTypeAny | null, fix: string, repairable: boolean) => {
    if (!existsSync(join(root, rel))) return;
    checked++;
    const p = validateJson(root, rel, schema, fix, repairable);
    if (p) problems.push(p);
  };
  check(CONFIG_FILE, Config, `edit ${CONFIG_FILE} (see the error), or delete it and run \`mhub init\` to restore the defaults`, false);
  check(STAT_CACHE_FILE, StatCache, 'run `mhub doctor --fix` (deletes the local stat cache; the next ingest re-hashes)', true);
  for (const rel of listFiles(root, LLM_CACHE_DIR)) {
    if (rel.endsWith('.json') && !rel.includes(TEMP_MARK)) check(rel, null, `run \`mhub doctor --fix\` (deletes the broken cache entry; the next LLM ingest redoes that call)`, true);
  }
  return { problems, checked };
}

/** The lock: a stale one (its process is gone) blocks nothing but misleads; an unreadable one too. */
export function auditLock(root: string): { problems: Problem[]; live: boolean } {
  const state = readLock(root);
  if (!existsSync(join(root, LOCK_FILE))) return { problems: [], live: false };
  if (state.stale) {
    const who = state.holder ? `pid ${state.holder.pid} on ${state.holder.host}, started ${state.holder.started_at}` : 'unreadable lock file';
    return {
      problems: [problem('lock_stale', 'error', LOCK_FILE, `Stale ingest lock (${who}): its process is gone.`, `run \`mhub doctor --fix\` (or delete ${LOCK_FILE})`, { kind: 'unlock' })],
      live: false,
    };
  }
  const h = state.holder!;
  return {
    problems: [problem('lock_held', 'warning', LOCK_FILE, `An ingest is running (pid ${h.pid} on ${h.host}, since ${h.started_at}); results may change when it finishes.`, 'wait for it to finish, then run `mhub doctor` again', null)],
    live: true,
  };
}

