/** `mhub skill install [--target DIR | --global]`: give an agent (Claude Code) the MetadataHub skill. */
import type { Command } from 'commander';
import { requireStore } from '../../store/locate.js';
import { installSkill } from '../../skill/install.js';
import { globalOpts, printJson } from '../output.js';

interface InstallFlags {
  target?: string;
  global?: boolean;
  json?: boolean;
}

export function registerSkill(program: Command): void {
  const skill = program.command('skill').description('the agent skill (SKILL.md + search / deep_retrieve / read_source scripts)');
  skill
    .command('install')
    .description('copy the skill into <target>/.claude/skills/metadatahub/ (default: this folder) with config.json pointing at the store')
    .option('--target <dir>', 'project folder to install into (default: current folder)')
    .option('--global', 'install into ~/.claude/skills/metadatahub/ instead (store path stored absolute)')
    .option('--json', 'print what was installed as JSON')
    .addHelpText('after', '\nThe store is --store DIR (before the subcommand), $MHUB_STORE, or the nearest store above the current folder.\nExit codes: 0 ok, 2 bad arguments, 4 no store found, 5 skill files missing from the installation.')
    .action((flags: InstallFlags, cmd: Command) => {
      const store = requireStore({ store: globalOpts(cmd).store });
      const report = installSkill({ store, target: flags.target, global: !!flags.global });
      if (flags.json) printJson(report);
      else {
        console.log(`Installed the MetadataHub skill in ${report.skill_dir}`);
        console.log(`  store: ${report.store} (config.json: "${report.config.store}")`);
        console.log(`  try:   node ${report.skill_dir}/search.js "your question" --text`);
      }
    });
}
