/**
 * The node vector index, built as a stream: node texts are made one source at a time, embedded in
 * chunks of EMBED_CHUNK distinct new texts (the same chunks, in the same order, as when every text
 * was gathered first, so the vectors are the same), and each vector goes straight to its row of
 * the index file (vector/flat-file.ts). Memory holds one chunk of texts and the rows' ids and
 * shas, not every text and vector of the store: a 200 MB text file's 100k nodes used to take
 * ~400 MB of texts and vectors at once.
 */
import { join } from 'node:path';
import type { IndexBuildContext } from '../model/stages.js';
import type { Embedder, ModelIdentity } from '../embed/types.js';
import { sameModel } from '../embed/types.js';
import { compareStrings } from '../store/json.js';
import { LOCAL_DIR } from '../store/layout.js';
import type { CatalogEntry } from '../store/schemas.js';
import { FlatRowsReader, FlatRowsWriter } from '../vector/flat-file.js';
import { NODE_INDEX_FILE, readNodeMetadata, type NodeMetadata } from '../vector/metadata.js';
import { appendEmbedCheckpoint, type EmbedCheckpoint } from './embed-checkpoint.js';
import { nodeTexts, nodeVectorText } from './source-text.js';
import { createHash } from 'node:crypto';

const TEXT_SHA_HEX = 16;

export function textSha(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, TEXT_SHA_HEX);
}

/** Texts embedded per embedder call: progress and the checkpoint advance this often. */
export const EMBED_CHUNK = 512;

/** Vectors of earlier builds (this store's, donors') by text sha, read from their files when asked for. */
export interface VectorLookup {
  readonly size: number;
  /** this store's own node vectors are readable and made by the model asked for (unchanged sources may keep their rows) */
  readonly own: boolean;
  get(sha: string): Float32Array | undefined;
  close(): void;
}

/**
 * Node vectors of this store's last build (when made by `want`) plus those of the donor stores
 * (`mhub merge`), by text sha; the files are opened, not loaded.
 */
export function previousNodeVectors(root: string, donors: readonly string[], want: ModelIdentity): VectorLookup {
  const where = new Map<string, { file: FlatRowsReader; row: number }>();
  const files: FlatRowsReader[] = [];
  let own = false;
  for (const store of [root, ...donors]) {
    const meta = readNodeMetadata(store);
    if (!meta || !sameModel(meta.model, want)) continue;
    const file = FlatRowsReader.open(join(store, NODE_INDEX_FILE));
    if (!file) continue;
    files.push(file);
    if (file.count !== meta.rows.length || file.dims !== want.dims) continue;
    meta.rows.forEach(([, , sha], row) => {
      if (!where.has(sha)) where.set(sha, { file, row });
    });
    if (store === root && meta.rows.length > 0) own = true;
  }
  return {
    size: where.size,
    own,
    get: (sha) => {
      const w = where.get(sha);
      return w ? w.file.read(w.row) : undefined;
    },
    close: () => files.forEach((f) => f.close()),
  };
}

/** Previous node rows per source: [node id, text sha][] */
export type ReusableRows = Map<string, [string, string][]>;

export function rowsBySource(meta: NodeMetadata | null): ReusableRows | null {
  if (!meta) return null;
  const out: ReusableRows = new Map();
  for (const [sid, nid, sha] of meta.rows) {
    let a = out.get(sid);
    if (!a) out.set(sid, (a = []));
    a.push([nid, sha]);
  }
  return out;
}

export function indexedEntries(ctx: IndexBuildContext): CatalogEntry[] {
  return ctx.entries.filter((e) => e.status === 'indexed').sort((a, b) => compareStrings(a.id, b.id));
}

/** One row of the node index: source id, node id, the sha of its text, and the text ('' for a reused row). */
export interface NodeRowText {
  sid: string;
  nid: string;
  sha: string;
  text: string;
}

/**
 * Every node row in index order, made lazily. Sources unchanged in this run keep their previous
 * rows (`reuse`, only given when their vectors are readable and made by the current model), so an
 * ingest that changed nothing reads no converted text at all.
 */
export function* nodeRowTexts(ctx: IndexBuildContext, reuse: ReusableRows | null): Generator<NodeRowText> {
  for (const e of indexedEntries(ctx)) {
    const prev = ctx.changed.has(e.id) ? undefined : reuse?.get(e.id);
    if (prev) {
      for (const [nid, sha] of prev) yield { sid: e.id, nid, sha, text: '' };
      continue;
    }
    const tree = ctx.loadTree(e.id);
    if (!tree) continue;
    for (const n of nodeTexts(ctx.root, tree)) {
      const text = nodeVectorText(n);
      yield { sid: e.id, nid: n.node_id, sha: textSha(text), text };
    }
  }
}

/** Rows the node index will have, for progress: reused rows, else the catalog's node counts. */
export function expectedNodeRows(ctx: IndexBuildContext, reuse: ReusableRows | null): number {
  let n = 0;
  for (const e of indexedEntries(ctx)) n += (ctx.changed.has(e.id) ? undefined : reuse?.get(e.id))?.length ?? e.node_count ?? 0;
  return n;
}

export interface NodeVectorsResult {
  /** [source id, node id, text sha] per row */
  rows: [string, string, string][];
  /** distinct texts not taken from a previous build (embedded now or by an interrupted run) */
  embedded: number;
  /** seconds spent embedding */
  seconds: number;
}

/** Puts each row's vector into the index file as soon as it is known; new texts wait for their chunk. */
class NodeVectorStream {
  readonly rows: [string, string, string][] = [];
  embedded = 0;
  seconds = 0;
  private readonly firstRow = new Map<string, number>();
  private readonly waiting = new Map<string, number[]>();
  private chunk: { sha: string; text: string }[] = [];

  constructor(
    private readonly out: FlatRowsWriter,
    private readonly prev: VectorLookup,
    private readonly pending: EmbedCheckpoint,
    private readonly embedder: Embedder,
    private readonly root: string,
  ) {}

  /** Add the next row; resolves once its chunk is embedded when it filled one. */
  async add(r: NodeRowText): Promise<void> {
    const row = this.rows.length;
    this.rows.push([r.sid, r.nid, r.sha]);
    const wait = this.waiting.get(r.sha);
    if (wait) return void wait.push(row);
    const first = this.firstRow.get(r.sha);
    if (first !== undefined) return this.out.write(row, this.out.read(first));
    this.firstRow.set(r.sha, row);
    const old = this.prev.get(r.sha);
    if (old) return this.out.write(row, old);
    this.embedded++;
    const checkpointed = this.pending.get(r.sha);
    if (checkpointed) return this.out.write(row, checkpointed);
    this.chunk.push({ sha: r.sha, text: r.text });
    this.waiting.set(r.sha, [row]);
    if (this.chunk.length >= EMBED_CHUNK) await this.flush();
  }

  /** Embed the texts waiting, checkpoint their vectors, write them to their rows. */
  async flush(): Promise<void> {
    if (this.chunk.length === 0) return;
    const chunk = this.chunk;
    this.chunk = [];
    const t0 = performance.now();
    const vecs = await this.embedder.embed(chunk.map((c) => c.text));
    this.seconds += (performance.now() - t0) / 1000;
    const fresh = chunk.map((c, k): [string, Float32Array] => [c.sha, vecs[k]!]);
    appendEmbedCheckpoint(this.root, this.embedder.identity, fresh);
    for (const [sha, v] of fresh) {
      for (const row of this.waiting.get(sha)!) this.out.write(row, v);
      this.waiting.delete(sha);
    }
  }
}

/**
 * Build the node index file from `rows` (nodeRowTexts): returns its rows for the metadata and
 * whether the file changed. `progress(done, total)` is told rows done as chunks complete.
 */
export async function streamNodeVectors(
  root: string, rows: Iterable<NodeRowText>, prev: VectorLookup, pending: EmbedCheckpoint, embedder: Embedder,
  progress: (done: number, total: number) => void, total: number,
): Promise<NodeVectorsResult & { changed: boolean }> {
  const out = new FlatRowsWriter(join(root, NODE_INDEX_FILE), join(root, LOCAL_DIR), embedder.identity.dims);
  try {
    const s = new NodeVectorStream(out, prev, pending, embedder, root);
    progress(0, total);
    for (const r of rows) {
      await s.add(r);
      if (s.rows.length % EMBED_CHUNK === 0) progress(s.rows.length, Math.max(total, s.rows.length));
    }
    await s.flush();
    progress(s.rows.length, s.rows.length);
    const changed = out.finish(s.rows.length);
    return { rows: s.rows, embedded: s.embedded, seconds: s.seconds, changed };
  } catch (err) {
    out.abort();
    throw err;
  }
}
