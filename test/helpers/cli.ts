/** Run the compiled CLI (`npm test` builds dist/ first). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

/** An empty folder outside any store: the default cwd, so no test picks up the repo's example store. */
const NEUTRAL_CWD = mkdtempSync(join(tmpdir(), 'mhub-cwd-'));

export function mhub(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd ?? NEUTRAL_CWD,
    env: { ...process.env, MHUB_STORE: '', ...opts.env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
