/**
 * A fake `claude` executable for the claude-cli provider tests: reads the prompt on stdin, logs its
 * arguments, and prints what `claude -p --output-format json` prints (a result object whose `result`
 * holds the reply text). FAKE_CLAUDE_MODE=fail makes it exit 1 like a logged-out CLI.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = String.raw`#!/usr/bin/env node
const fs = require('node:fs');
let prompt = '';
process.stdin.on('data', (d) => (prompt += d));
process.stdin.on('end', () => {
  fs.appendFileSync(process.env.FAKE_CLAUDE_LOG, JSON.stringify({ args: process.argv.slice(2), bytes: prompt.length }) + '\n');
  if (process.env.FAKE_CLAUDE_MODE === 'fail') {
    process.stderr.write('Invalid API key · Please run /login\n');
    process.exit(1);
  }
  const role = (/ROLE: (\w+)\./.exec(prompt) || [])[1];
  const input = prompt.split('--- INPUT ---\n')[1] || '';
  const file = (/^File: (.+)$/m.exec(input) || [])[1] || 'unknown';
  let reply = {};
  if (role === 'sampling') reply = { doc_nature: 'cli sampled ' + file, has_structure: true, recommended_approach: 'tree_index', convert_to_plaintext: false, key_sections: [], estimated_nodes: 3, special_handling: [], summary: 'cli sample' };
  if (role === 'card') reply = { title: 'CLI title for ' + file, summary: 'CLI summary of ' + file + '.', doc_type: 'note', period: '', date: '2025-01', key_topics: ['cli'], sections_overview: [] };
  if (role === 'curation') {
    const batch = input.split('\n\nCATALOG:')[0].replace(/^BATCH:\n/, '').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    reply = { sources: batch.map((b) => ({ id: b.id, tags: ['cli-tag'], shelf: 'notes', related: [] })) };
  }
  // wrapped in a code fence, as models sometimes do: the runner must repair it
  const text = role === 'card' ? '\u0060\u0060\u0060json\n' + JSON.stringify(reply) + '\n\u0060\u0060\u0060' : JSON.stringify(reply);
  process.stdout.write(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: text, total_cost_usd: 0.0125, usage: { input_tokens: 500, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } }));
});
`;

/** Writes `claude` into `dir` (put it first on PATH); returns the log file path. */
export function installFakeClaude(dir: string): string {
  const bin = join(dir, 'claude');
  writeFileSync(bin, SCRIPT);
  chmodSync(bin, 0o755);
  return join(dir, 'claude-calls.jsonl');
}
