/**
 * The `claude-cli` provider: runs the user's own Claude Code (`claude -p --output-format json`),
 * the supported way to use a Claude subscription from another tool. The prompt goes on stdin; the
 * reply's `result` field holds the JSON we asked for. This module never reads, copies or refreshes
 * Claude Code's credential files: the `claude` process handles its own login.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { LlmProvider, LlmReply, LlmRequest } from '../provider.js';
import { LlmCallError } from '../provider.js';

/** Bytes of stderr kept for error messages. */
const STDERR_KEEP = 2000;
/** Words in an error that mean "try again later". */
const TRANSIENT = /\b(429|500|502|503|504|529|rate.?limit|overloaded|timeout|timed out|ECONNRESET|temporar)/i;

export interface ClaudeCliOptions {
  command: string;
  model: string;
  timeoutMs: number;
}

interface CliResult {
  type?: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  total_cost_usd?: number;
  usage?: { input_tokens?: number; output_tokens?: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
}

export function cliPrompt(req: LlmRequest): string {
  return [
    req.shared,
    '',
    req.instructions,
    '',
    'Reply with one JSON object and nothing else (no prose, no code fence). It must follow this JSON schema:',
    JSON.stringify(req.schema),
    '',
    ...(req.context ? [req.context, ''] : []),
    '--- INPUT ---',
    req.input,
  ].join('\n');
}

function run(command: string, args: string[], stdin: string, signal: AbortSignal): Promise<{ code: number | null; stdout: string; stderr: string; aborted: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: tmpdir(), stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    const out: Buffer[] = [];
    let err = '';
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGTERM');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < STDERR_KEEP) err += d.toString('utf8');
    });
    child.on('error', (e) => {
      signal.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: err.slice(0, STDERR_KEEP), aborted });
    });
    child.stdin.on('error', () => {
      /* the process may exit before reading everything; its exit code tells the story */
    });
    child.stdin.end(stdin);
  });
}

export function createClaudeCliProvider(opts: ClaudeCliOptions): LlmProvider {
  return {
    name: 'claude-cli',
    model: opts.model,
    async complete(req: LlmRequest, signal: AbortSignal): Promise<LlmReply> {
      const args = ['-p', '--output-format', 'json', '--model', opts.model];
      let r;
      try {
        r = await run(opts.command, args, cliPrompt(req), signal);
      } catch (e) {
        throw new LlmCallError(`could not run ${opts.command}: ${(e as Error).message}`, false);
      }
      if (r.aborted) throw new LlmCallError(`timed out after ${opts.timeoutMs} ms`, true);
      let parsed: CliResult | null = null;
      try {
        parsed = JSON.parse(r.stdout) as CliResult;
      } catch {
        parsed = null;
      }
      if (r.code !== 0 || !parsed || parsed.is_error) {
        const detail = (parsed?.result ?? r.stderr ?? r.stdout).toString().trim().slice(0, 300) || `exit code ${r.code}`;
        throw new LlmCallError(`claude -p failed: ${detail}`, TRANSIENT.test(detail));
      }
      const u = parsed.usage ?? {};
      return {
        text: typeof parsed.result === 'string' ? parsed.result : '',
        truncated: parsed.subtype === 'error_max_tokens',
        usage: {
          input_tokens: u.input_tokens ?? 0,
          output_tokens: u.output_tokens ?? 0,
          cache_read_tokens: u.cache_read_input_tokens ?? 0,
          cache_write_tokens: u.cache_creation_input_tokens ?? 0,
          cost_usd: typeof parsed.total_cost_usd === 'number' ? parsed.total_cost_usd : undefined,
        },
      };
    },
  };
}
