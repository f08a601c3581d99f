/**
 * Which LLM provider an ingest uses, and why. `--llm` overrides `config.llm.provider`; `auto` picks
 * the first configured: the Anthropic SDK's credentials (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, or
 * an SDK profile login), then a `claude` executable on PATH; otherwise offline. Nothing here ever
 * returns or prints a secret: only masked hints.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Config } from '../store/schemas.js';
import { UserError } from '../store/errors.js';
import { EXIT } from '../util/exit-codes.js';

export const PROVIDER_CHOICES = ['auto', 'anthropic', 'claude-cli', 'none'] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];
/** The executable the claude-cli provider runs (override with MHUB_CLAUDE_BIN). */
export const CLAUDE_BIN = 'claude';

export interface AnthropicCredentialInfo {
  /** api_key | auth_token | profile | none */
  kind: 'api_key' | 'auth_token' | 'profile' | 'none';
  /** human-readable, masked */
  detail: string;
  base_url: string | null;
}

export interface Resolution {
  requested: ProviderChoice;
  /** where `requested` came from */
  requested_from: '--llm' | 'config.json' | 'default';
  provider: 'anthropic' | 'claude-cli' | 'none';
  model: string;
  reason: string;
  anthropic: AnthropicCredentialInfo;
  claude_cli: { path: string | null };
  /** set when the chosen provider cannot be used (explicit choice, nothing configured) */
  problem: string | null;
}

/** Shows that a secret is set without showing it: a well-known prefix at most, and its length. */
export function maskSecret(value: string): string {
  const prefix = /^sk-ant-[a-z]+\d*-/i.exec(value)?.[0] ?? /^sk-ant-/.exec(value)?.[0] ?? '';
  return `${prefix}…[${value.length} chars, hidden]`;
}

function isLoopback(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === '127.0.0.1' || h === 'localhost' || h === '[::1]' || h === '::1';
  } catch {
    return false;
  }
}

export function findOnPath(cmd: string, pathVar = process.env.PATH ?? ''): string | null {
  if (cmd.includes('/')) return isExecutable(cmd) ? cmd : null;
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, cmd);
    if (isExecutable(p)) return p;
  }
  return null;
}

function isExecutable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** How the Anthropic SDK would authenticate, in its own order. Reads the SDK profile config (never the credentials file). */
/** A base URL with any user:password part hidden. */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = '***';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(not a valid URL)';
  }
}

export async function anthropicCredentials(): Promise<AnthropicCredentialInfo> {
  const base_url = safeUrl(process.env.ANTHROPIC_BASE_URL);
  const key = process.env.ANTHROPIC_API_KEY;
  if (key) return { kind: 'api_key', detail: `ANTHROPIC_API_KEY is set (${maskSecret(key)})`, base_url };
  const token = process.env.ANTHROPIC_AUTH_TOKEN;
  if (token) {
    return { kind: 'auth_token', detail: `ANTHROPIC_AUTH_TOKEN is set (${maskSecret(token)}); sent as a bearer token with anthropic-beta: oauth-2025-04-20`, base_url };
  }
  try {
    const { loadConfigWithSource } = await import('@anthropic-ai/sdk/core/credentials');
    const loaded = await loadConfigWithSource();
    if (loaded) {
      const profile = process.env.ANTHROPIC_PROFILE || 'the active profile';
      const where = loaded.fromFile ? `SDK profile ${profile}` : 'SDK federation environment variables';
      return { kind: 'profile', detail: `${where} (${loaded.config.authentication.type}; the SDK refreshes its own token)`, base_url: base_url ?? safeUrl(loaded.config.base_url) };
    }
  } catch (err) {
    return { kind: 'none', detail: `SDK profile unusable: ${(err as Error).message}`, base_url };
  }
  return { kind: 'none', detail: 'no ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN or SDK profile login', base_url };
}

export function parseChoice(value: string | undefined, from: string): ProviderChoice | undefined {
  if (value === undefined) return undefined;
  if ((PROVIDER_CHOICES as readonly string[]).includes(value)) return value as ProviderChoice;
  throw new UserError(`Unknown LLM provider "${value}" (${from}).`, `Use one of: ${PROVIDER_CHOICES.join(', ')}.`, EXIT.USAGE);
}

/**
 * `configFromStore` false: no store was found, so config values are the defaults. `inspectAll`:
 * look at every credential source even when `none` is requested (auth status does; ingest skips it).
 */
export async function resolveProvider(config: Config, flag: string | undefined, configFromStore = true, inspectAll = false): Promise<Resolution> {
  const fromFlag = parseChoice(flag, '--llm');
  const fromConfig = parseChoice(config.llm.provider, 'config.json llm.provider');
  const requested: ProviderChoice = fromFlag ?? fromConfig ?? 'auto';
  const requested_from = fromFlag ? '--llm' : configFromStore ? 'config.json' : 'default';
  const skip = requested === 'none' && !inspectAll;
  const anthropic: AnthropicCredentialInfo = skip ? { kind: 'none', detail: 'not checked', base_url: null } : await anthropicCredentials();
  const cliPath = skip ? null : findOnPath(process.env.MHUB_CLAUDE_BIN || CLAUDE_BIN);
  const model = config.llm.model;
  const base = { requested, requested_from, model, anthropic, claude_cli: { path: cliPath } } as const;
  const under = requested_from === '--llm' ? `--llm ${requested}` : `${requested_from} llm.provider "${requested}"`;

  // Safety net: a test run never talks to a real endpoint.
  const testGuard = process.env.VITEST && !(anthropic.base_url && isLoopback(anthropic.base_url));

  if (requested === 'none') return { ...base, provider: 'none', reason: `${under}: offline planner`, problem: null };
  if (requested === 'anthropic') {
    if (anthropic.kind === 'none') return { ...base, provider: 'anthropic', reason: under, problem: `${under} but ${anthropic.detail}` };
    if (testGuard) return { ...base, provider: 'anthropic', reason: under, problem: 'under test without a loopback ANTHROPIC_BASE_URL' };
    return { ...base, provider: 'anthropic', reason: `${under}: ${anthropic.detail}`, problem: null };
  }
  if (requested === 'claude-cli') {
    if (!cliPath) return { ...base, provider: 'claude-cli', reason: under, problem: `${under} but no \`${CLAUDE_BIN}\` executable on PATH` };
    return { ...base, provider: 'claude-cli', reason: `${under}: ${cliPath} (your Claude Code login)`, problem: null };
  }
  if (anthropic.kind !== 'none' && !testGuard) return { ...base, provider: 'anthropic', reason: `auto: ${anthropic.detail}`, problem: null };
  if (cliPath && !process.env.VITEST) return { ...base, provider: 'claude-cli', reason: `auto: found ${cliPath} (your Claude Code login)`, problem: null };
  const why = testGuard && anthropic.kind !== 'none' ? 'credentials ignored under test without a loopback ANTHROPIC_BASE_URL' : `${anthropic.detail}, and no \`${CLAUDE_BIN}\` on PATH`;
  return { ...base, provider: 'none', reason: `auto: ${why}; offline planner`, problem: null };
}
