/**
 * `mhub skill install`: copy the skill folder (SKILL.md + the three compiled scripts) into a
 * project's `.claude/skills/metadatahub/` (or `~/.claude/skills/metadatahub/`), with a config.json
 * pointing at the store (relative to the skill folder when installed into a project) and at this
 * installation (for the optional embedding model). No credentials are ever written.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from '../store/atomic.js';
import { canonicalJson } from '../store/json.js';
import { isStoreDir } from '../store/locate.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

export const SKILL_NAME = 'metadatahub';
/** Files copied from the installation's skill folder. */
export const SKILL_FILES = ['SKILL.md', 'search.js', 'deep_retrieve.js', 'read_source.js'] as const;

export interface InstallOptions {
  /** the store the skill will read */
  store: string;
  /** project folder: the skill goes to <target>/.claude/skills/metadatahub */
  target?: string | undefined;
  /** install under ~/.claude/skills instead of a project */
  global?: boolean | undefined;
  /** home folder (tests) */
  home?: string | undefined;
}

export interface InstallReport {
  skill_dir: string;
  store: string;
  /** what config.json says (store path relative to the skill folder, or absolute for global installs) */
  config: { store: string; mhub_home: string };
  files: string[];
}

/** The MetadataHub installation (package root) this code runs from. */
export function mhubHome(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'skills', SKILL_NAME))) return dir;
    dir = dirname(dir);
  }
  throw new UserError('Cannot find the skill files of this MetadataHub installation (skills/metadatahub/).', 'Reinstall MetadataHub or run `npm run build` in its folder.', EXIT.UNHEALTHY);
}

export function installSkill(opts: InstallOptions): InstallReport {
  const home = mhubHome();
  const from = join(home, 'skills', SKILL_NAME);
  for (const f of SKILL_FILES) {
    if (!existsSync(join(from, f))) throw new UserError(`The skill file ${join(from, f)} is missing.`, 'Run `npm run build` in the MetadataHub folder first.', EXIT.UNHEALTHY);
  }
  const store = resolve(opts.store);
  if (!isStoreDir(store)) throw new UserError(`${store} is not a MetadataHub store.`, 'Expected a folder made by `mhub init`; pass --store DIR.', EXIT.NOT_FOUND);
  const base = opts.global ? join(opts.home ?? homedir(), '.claude', 'skills') : join(resolve(opts.target ?? process.cwd()), '.claude', 'skills');
  const dest = join(base, SKILL_NAME);
  if (resolve(dest) === resolve(from)) throw new UserError('Refusing to install the skill over its own source folder.', 'Expected a different --target.', EXIT.USAGE);
  if (existsSync(dest) && !statSync(dest).isDirectory()) throw new UserError(`${dest} exists and is not a folder.`, 'Remove it or choose another --target.', EXIT.USAGE);
  mkdirSync(dest, { recursive: true });
  for (const f of SKILL_FILES) {
    copyFileSync(join(from, f), join(dest, f));
    if (f.endsWith('.js')) chmodSync(join(dest, f), 0o755);
  }
  const rel = relative(dest, store).split(sep).join('/') || '.';
  const config = { store: opts.global ? store : rel, mhub_home: home };
  writeIfChanged(join(dest, 'config.json'), canonicalJson(config));
  return { skill_dir: dest, store, config, files: [...SKILL_FILES, 'config.json'] };
}

/** The skill's SKILL.md frontmatter name (used by tests and the install report). */
export function skillName(dir: string): string | null {
  const m = /^---\n[\s\S]*?^name:\s*(.+)$/m.exec(readFileSync(join(dir, 'SKILL.md'), 'utf8'));
  return m ? m[1]!.trim() : null;
}
