/**
 * First module of every skill script. Finds the skill folder and its config.json, and tells the
 * bundled code where the MetadataHub installation is, so optional heavy modules (embedding model,
 * faiss-node) resolve from there even when the skill folder was copied into another project.
 *
 * In a bundle, the build (scripts/build-skill.mjs) sets `globalThis.__mhubSelfUrl` to the script's
 * own URL and rewrites every `import.meta.url` to `globalThis.__mhubBaseUrl`, which this module sets.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SKILL_CONFIG_FILE = 'config.json';

export interface SkillConfig {
  /** the store, relative to the skill folder (or absolute) */
  store?: string;
  /** the MetadataHub installation (package root) the skill was installed from */
  mhub_home?: string;
}

declare global {
  var __mhubSelfUrl: string | undefined;
  var __mhubBaseUrl: string | undefined;
}

const selfUrl = globalThis.__mhubSelfUrl ?? import.meta.url;
/** The folder holding the running script (the skill folder when bundled). */
export const skillDir = dirname(fileURLToPath(selfUrl));

function readSkillConfig(): SkillConfig {
  try {
    const raw = JSON.parse(readFileSync(join(skillDir, SKILL_CONFIG_FILE), 'utf8')) as SkillConfig;
    return raw && typeof raw === 'object' ? raw : {};
  } catch {
    return {};
  }
}

export const skillConfig: SkillConfig = readSkillConfig();

const home = process.env['MHUB_HOME'] || skillConfig.mhub_home;
/** Module resolution for optional packages starts here: the installation's dist/, else the script itself. */
globalThis.__mhubBaseUrl = home ? pathToFileURL(join(resolve(skillDir, home), 'dist', 'skill-base.js')).href : selfUrl;
