/** Run the compiled CLI (`npm test` builds dist/ first). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

export function mhub(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, MHUB_STORE: '', ...opts.env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
