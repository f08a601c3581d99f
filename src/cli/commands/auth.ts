/** `mhub auth status`: which LLM provider ingest would use and why. Never prints a secret. */
import type { Command } from 'commander';
import { findStore } from '../../store/locate.js';
import { loadConfig, defaultConfig } from '../../store/config.js';
import { resolveProvider, type Resolution } from '../../llm/resolve.js';
import { globalOpts, printJson } from '../output.js';
import { EXIT } from '../../util/exit-codes.js';

export function formatAuthStatus(r: Resolution): string {
  const lines = [
    `LLM provider: ${r.provider}${r.provider !== 'none' ? ` (model ${r.model})` : ''}${r.problem ? ' — NOT USABLE' : ''}`,
    `Why: ${r.problem ?? r.reason}`,
    `Requested: ${r.requested} (from ${r.requested_from})`,
    `Anthropic SDK: ${r.anthropic.detail}; base URL ${r.anthropic.base_url ?? 'https://api.anthropic.com (default)'}`,
    `Claude Code CLI: ${r.claude_cli.path ?? 'no `claude` on PATH'}`,
  ];
  return lines.join('\n');
}

export function registerAuth(program: Command): void {
  const auth = program.command('auth').description('LLM credentials: which provider ingest would use');
  auth
    .command('status')
    .description('show which LLM provider `mhub ingest` would use and why (secrets are masked)')
    .option('--json', 'print the resolution as JSON')
    .option('--llm <provider>', 'auto | anthropic | claude-cli | none (as for ingest)')
    .addHelpText('after', '\nExit codes: 0 the provider is usable (or none), 1 the requested provider is not usable, 2 bad arguments.')
    .action(async (flags: { json?: boolean; llm?: string }, cmd: Command) => {
      const root = findStore({ store: globalOpts(cmd).store });
      const config = root ? loadConfig(root) : defaultConfig();
      const r = await resolveProvider(config, flags.llm, root !== null, true);
      if (flags.json) printJson(r);
      else console.log(formatAuthStatus(r));
      if (r.problem) process.exitCode = EXIT.SOME_FAILED;
    });
}
