#!/usr/bin/env node
/** The `mhub` command line: parses arguments and prints; the work lives in functions that return data. */
import { Command } from 'commander';
import { registerInit } from './commands/init.js';
import { registerIngest } from './commands/ingest.js';
import { registerAll } from './commands/index.js';
import { runMain } from './output.js';

const program = new Command();
program
  .name('mhub')
  .description('MetadataHub: a local knowledge index for AI agents')
  .version('0.1.0')
  .option('--store <dir>', 'store folder (default: nearest folder with catalog.json/config.json, or $MHUB_STORE)')
  .showHelpAfterError();

registerInit(program);
registerIngest(program);
registerAll(program);

await runMain(program);
