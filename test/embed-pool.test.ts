import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLiteModelDir } from '../src/embed/use-lite.js';
import { POOL_MIN_TEXTS } from '../src/embed/use-lite-pool.js';

const DIST = join(import.meta.dirname, '..', 'dist', 'embed', 'use-lite.js');

// Runs the compiled embedder (worker threads need the compiled worker file) in a child process and
// prints a hash of all vectors, so in-thread and pooled output can be compared byte for byte.
const SCRIPT = `
const { loadUseLite } = await import(process.argv[2]);
const { createHash } = await import('node:crypto');
const e = await loadUseLite(1);
const texts = Array.from({ length: Number(process.argv[3]) }, (_, i) => 'Statement of cash flows, note ' + i + ': purchases of property ' + (i * 7));
const v = await e.embed(texts);
const h = createHash('sha256');
for (const x of v) h.update(Buffer.from(x.buffer));
console.log(v.length + ' ' + h.digest('hex'));
`;

function run(threads: string, count: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'mhub-embed-')), 'embed.mjs');
  writeFileSync(file, SCRIPT);
  const r = spawnSync(process.execPath, [file, DIST, String(count)], {
    encoding: 'utf8',
    env: { ...process.env, MHUB_EMBED_WORKERS: threads },
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

describe.runIf(existsSync(DIST) && useLiteModelDir() !== null)('USE-lite over worker threads', () => {
  it('gives exactly the in-thread vectors, in order', () => {
    const n = POOL_MIN_TEXTS + 9;
    const inThread = run('1', n);
    expect(inThread.startsWith(`${n} `)).toBe(true);
    expect(run('3', n)).toBe(inThread);
  });
});
