import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Config } from './schemas.js';
import { CONFIG_FILE } from './layout.js';
import { UserError } from './errors.js';
import { EXIT } from '../util/exit-codes.js';

export function defaultConfig(): Config {
  return Config.parse({});
}

/** Read config.json (defaults for anything missing). Throws a UserError naming the bad field. */
export function loadConfig(root: string): Config {
  const p = join(root, CONFIG_FILE);
  if (!existsSync(p)) return defaultConfig();
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(p, 'utf8'));
  } catch (err) {
    throw new UserError(`${CONFIG_FILE} is not valid JSON: ${(err as Error).message}`, `Fix or delete ${p}; \`mhub init\` writes the defaults.`, EXIT.UNHEALTHY);
  }
  const parsed = Config.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UserError(`${CONFIG_FILE} is invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, `Fix ${p}.`, EXIT.UNHEALTHY);
  }
  return parsed.data;
}
