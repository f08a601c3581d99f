/** Temp stores for the LLM tests, with LLM settings in config.json and real documents in the inbox. */
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { initStore } from '../../src/store/init.js';
import { CONFIG_FILE } from '../../src/store/layout.js';
import { canonicalJson } from '../../src/store/json.js';
import { Config } from '../../src/store/schemas.js';
import { readCatalog } from '../../src/store/catalog.js';

export function llmStore(llm: Partial<Config['llm']>, extra: Partial<Config> = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'mhub-llm-'));
  initStore(root);
  const cfg = Config.parse({ ...JSON.parse(readFileSync(join(root, CONFIG_FILE), 'utf8')), ...extra, llm });
  writeFileSync(join(root, CONFIG_FILE), canonicalJson(cfg));
  return root;
}

export function entry(root: string, filename: string) {
  const e = readCatalog(root).sources.find((s) => s.filename === filename);
  if (!e) throw new Error(`no catalog entry for ${filename}`);
  return e;
}

/** Store files (content only) under the given top-level folders/files. */
export function contents(root: string, tops: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string) => {
    if (statSync(abs).isDirectory()) for (const n of readdirSync(abs).sort()) walk(join(abs, n));
    else out.set(relative(root, abs), readFileSync(abs, 'utf8'));
  };
  for (const t of tops) {
    try {
      walk(join(root, t));
    } catch {
      /* absent */
    }
  }
  return out;
}
