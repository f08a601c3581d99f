#!/usr/bin/env node
/**
 * Wall time of an over-long query (a pasted document: 100 KB by default) through `mhub search`
 * (hybrid), `mhub tree <source> --query` and the skill's search.js, as fresh processes. The query is
 * the store's own converted text, so it is deterministic and full of words the index knows.
 *
 *   node scripts/bench-long-query.mjs --store DIR [--kb 100] [--cli dist/cli/main.js] [--skill skills/metadatahub]
 *
 * Compare builds by pointing --cli/--skill at another checkout's dist/ and skills/ folders.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { store: { type: 'string' }, kb: { type: 'string', default: '100' }, cli: { type: 'string' }, skill: { type: 'string' } } });
if (!values.store) {
  console.error('usage: node scripts/bench-long-query.mjs --store DIR [--kb 100] [--cli dist/cli/main.js] [--skill skills/metadatahub]');
  process.exit(2);
}
const here = resolve(import.meta.dirname, '..');
const store = resolve(values.store);
const cli = resolve(values.cli ?? join(here, 'dist', 'cli', 'main.js'));
const skill = resolve(values.skill ?? join(here, 'skills', 'metadatahub'));
const bytes = Number(values.kb) * 1024;

/** The store's converted text, in path order, whitespace collapsed, cut to `bytes` characters. */
function longQuery() {
  const parts = [];
  let size = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      if (size >= bytes) return;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) {
        const t = readFileSync(p, 'utf8').replace(/<!--[^>]*-->/g, ' ').replace(/\s+/g, ' ');
        parts.push(t);
        size += t.length + 1;
      }
    }
  };
  walk(join(store, 'converted'));
  return parts.join(' ').slice(0, bytes);
}

const catalog = JSON.parse(readFileSync(join(store, 'catalog.json'), 'utf8'));
const source = catalog.sources.find((e) => e.status === 'indexed')?.id;
const query = longQuery();

function time(label, args) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, MHUB_STORE: '' } });
  const seconds = (Date.now() - t0) / 1000;
  let warning = '';
  try {
    warning = (JSON.parse(r.stdout).warnings ?? []).find((w) => /query/.test(w)) ?? '';
  } catch {
    /* not JSON */
  }
  return { what: label, exit: r.status, seconds, warning };
}

const rows = [
  time('mhub search --mode hybrid', [cli, '--store', store, 'search', query, '--mode', 'hybrid', '--json']),
  ...(source ? [time(`mhub tree ${source} --query`, [cli, '--store', store, 'tree', source, '--query', query, '--json'])] : []),
  time('skill search.js', [join(skill, 'search.js'), '--store', store, query]),
];
console.log(JSON.stringify({ store, query_chars: query.length, cli, rows }, null, 2));
