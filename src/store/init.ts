/** `mhub init`: create an empty store (folders, config.json with defaults, .gitignore for local files). */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CONFIG_FILE, CONVERTED_DIR, TREE_DIR, VECTOR_DIR, STORE_GITIGNORE, CATALOG_FILE } from './layout.js';
import { writeFileAtomic } from './atomic.js';
import { canonicalJson } from './json.js';
import { defaultConfig } from './config.js';
import { serializeCatalog, emptyCatalog } from './catalog.js';
import { Config } from './schemas.js';

export interface InitResult {
  root: string;
  created: string[];
  existed: boolean;
}

export function initStore(dir: string, configOverrides: Partial<Config> = {}): InitResult {
  const root = resolve(dir);
  const existed = existsSync(join(root, CONFIG_FILE)) || existsSync(join(root, CATALOG_FILE));
  const created: string[] = [];
  for (const d of ['inbox', CONVERTED_DIR, TREE_DIR, VECTOR_DIR]) {
    if (!existsSync(join(root, d))) {
      mkdirSync(join(root, d), { recursive: true });
      created.push(d + '/');
    }
  }
  const files: Array<[string, string]> = [
    [CONFIG_FILE, canonicalJson(Config.parse({ ...defaultConfig(), ...configOverrides }))],
    [CATALOG_FILE, serializeCatalog(emptyCatalog())],
    ['.gitignore', STORE_GITIGNORE],
  ];
  for (const [name, body] of files) {
    if (!existsSync(join(root, name))) {
      writeFileAtomic(join(root, name), body);
      created.push(name);
    }
  }
  return { root, created, existed };
}
