/** Temp stores for tests: a fresh `mhub init` folder with fixture files copied into its inbox. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { initStore } from '../../src/store/init.js';

export const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

export function tempStore(files: Record<string, string> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'mhub-test-'));
  initStore(root);
  for (const [name, src] of Object.entries(files)) cpSync(src, join(root, 'inbox', name));
  return root;
}

/** Every file under the store except local state (.mhub/), in path order: store-relative path → absolute path. */
export function storePaths(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const rel = relative(root, abs);
      if (rel === '.mhub') continue;
      if (statSync(abs).isDirectory()) walk(abs);
      else out.set(rel, abs);
    }
  };
  walk(root);
  return out;
}

/** Every file under the store (except local-only state) → its bytes and mtime, for "nothing was rewritten" checks. */
export function snapshot(root: string): Map<string, string> {
  return new Map([...storePaths(root)].map(([rel, abs]) => [rel, readFileSync(abs).toString('base64') + '|' + statSync(abs).mtimeMs]));
}

export function cleanup(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
