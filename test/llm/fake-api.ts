/**
 * A fake Anthropic Messages API on 127.0.0.1 for the LLM tests. It answers each role (found from the
 * "ROLE: x." line of the system prompt) with a plausible structured reply derived from the input, and
 * lets a test script failures (429, 500, hangs, malformed JSON) per request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, afterAll, beforeEach } from 'vitest';

/** Points the Anthropic SDK of this process at the fake server with a dummy key, no other login, fast retries. */
export function useFakeApiEnv(url: string): void {
  process.env.ANTHROPIC_BASE_URL = url;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-not-a-real-key';
  delete process.env.ANTHROPIC_AUTH_TOKEN;
  delete process.env.ANTHROPIC_PROFILE;
  process.env.ANTHROPIC_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mhub-anthropic-cfg-'));
  process.env.MHUB_LLM_RETRY_BASE_MS = '20';
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  role: string;
  input: string;
  body: Record<string, unknown>;
  at: number;
}

/** What to do with one request: reply normally, or fail in a scripted way. */
export type Behaviour =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'hang'; ms: number }
  | { kind: 'text'; text: string }
  /** HTTP 400 invalid_request_error with this message */
  | { kind: 'text400'; text: string };

export type Script = (req: SeenRequest, nth: number) => Behaviour;

export function roleOf(system: unknown): string {
  const text = Array.isArray(system) ? system.map((b: { text?: string }) => b.text ?? '').join('\n') : String(system ?? '');
  return /ROLE: (\w+)\./.exec(text)?.[1] ?? 'unknown';
}

function fileOf(input: string): string {
  return /^File: (.+)$/m.exec(input)?.[1] ?? 'unknown';
}

/** The reply a well-behaved model would give, derived from the input so tests can check it. */
export function fakeReply(role: string, input: string): unknown {
  const file = fileOf(input);
  switch (role) {
    case 'sampling':
      return {
        doc_nature: `sampled ${file}`,
        has_structure: true,
        recommended_approach: 'tree_index',
        convert_to_plaintext: false,
        key_sections: ['Part Alpha Operations'],
        estimated_nodes: 6,
        special_handling: ['fake sampler note'],
        summary: `Sampled summary of ${file}.`,
      };
    case 'card':
      return {
        title: `LLM title for ${file}`,
        summary: `LLM summary: ${file} describes Fakeco operations, finances and outlook.`,
        doc_type: 'fake annual report',
        period: 'FY2024',
        date: '2024-03-01',
        key_topics: ['fakeco', 'revenue', 'outlook'],
        sections_overview: ['Part Alpha Operations', 'Part Beta Finances'],
      };
    case 'tree': {
      const sections: unknown[] = [];
      for (const m of input.matchAll(/<!-- page (\d+) -->\n([^\n]*)/g)) {
        const page = Number(m[1]);
        const first = (m[2] ?? '').trim();
        if (!first.startsWith('Part ')) continue;
        // one start page off by one (the builder must fix it), the others exact
        const claimed = first.startsWith('Part Beta') ? page + 1 : page;
        sections.push({ title: first, start_page: claimed, level: 1, summary: `LLM summary of ${first}.` });
      }
      // a hallucinated section (the builder must drop it)
      sections.push({ title: 'Part Delta Imaginary Chapter', start_page: 1, level: 1, summary: 'Not in the document.' });
      return { sections };
    }
    case 'curation': {
      const batch = input.split('\n\nCATALOG:')[0]!.replace(/^BATCH:\n/, '').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: string; title: string });
      const all = batch.map((b) => b.id);
      return {
        sources: batch.map((b) => ({
          id: b.id,
          tags: ['Fakeco', 'Annual Report', `t-${b.id.slice(-2)}`],
          shelf: 'Finance / Annual Reports',
          related: all.filter((x) => x !== b.id).map((x) => ({ id: x, reason: 'same company' })).concat([{ id: 'src_deadbeef', reason: 'not in the catalog' }]),
        })),
      };
    }
    default:
      return {};
  }
}

export interface FakeApi {
  url: string;
  requests: SeenRequest[];
  script: Script;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeApi(api: FakeApi = emptyFakeApi()): Promise<FakeApi> {
  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    const messages = (body.messages as Array<{ content: string }> | undefined) ?? [];
    const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, role: roleOf(body.system), input: String(messages[0]?.content ?? ''), body, at: Date.now() };
    api.requests.push(seen);
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return send(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'fake: unknown route' } });
    const b = api.script(seen, api.requests.length);
    if (b.kind === 'status') return send(res, b.status, { type: 'error', error: { type: b.status === 429 ? 'rate_limit_error' : 'api_error', message: `fake ${b.status}` } }, b.headers);
    if (b.kind === 'text400') return send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: b.text } });
    if (b.kind === 'hang') {
      const t = setTimeout(() => send(res, 500, { type: 'error', error: { type: 'api_error', message: 'fake: too late' } }), b.ms);
      res.on('close', () => clearTimeout(t));
      return;
    }
    const text = b.kind === 'text' ? b.text : JSON.stringify(fakeReply(seen.role, seen.input));
    send(res, 200, {
      id: `msg_fake_${api.requests.length}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 200 },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  api.url = `http://127.0.0.1:${port}`;
  api.close = () => new Promise((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  return api;
}

const emptyFakeApi = (): FakeApi => ({ url: '', requests: [], script: () => ({ kind: 'ok' }), close: async () => {} });

/**
 * The fake API for a whole test file: started (and the SDK pointed at it) before the file's tests,
 * closed and the environment restored after them; before each test its requests are cleared, its
 * script reset to plain answers, and the SDK checked to still point at loopback.
 */
export function useFakeApiSuite(): FakeApi {
  const api = emptyFakeApi();
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    await startFakeApi(api);
    useFakeApiEnv(api.url);
  });
  afterAll(async () => {
    await api.close();
    process.env = savedEnv;
  });
  beforeEach(() => {
    if (!process.env.ANTHROPIC_BASE_URL?.startsWith('http://127.0.0.1:')) throw new Error('ANTHROPIC_BASE_URL must point at the fake server in tests');
    api.requests.length = 0;
    api.script = () => ({ kind: 'ok' });
  });
  return api;
}
