/**
 * Builds the FAISS card index (one vector per indexed source's metadata card) and the node index
 * (title path + summary + opening text of each tree node). Rows are in source-id / node-id order;
 * vectors whose text and model are unchanged are reused from the existing files (no re-embedding);
 * a different model re-embeds everything, never mixing models in one file.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexBuilder, IndexBuildContext } from '../model/stages.js';
import { canonicalJson } from '../store/json.js';
import { writeIfChanged } from '../store/atomic.js';
import { resolveEmbedder } from '../embed/resolve.js';
import { sameModel, type Embedder, type ModelIdentity } from '../embed/types.js';
import { readFlatIndex, writeVectorIndex, faissLoadError, loadFaiss } from '../vector/faiss.js';
import { chooseIndex } from '../vector/index-choice.js';
import {
  CARD_INDEX_FILE, CARD_METADATA_FILE, NODE_INDEX_FILE, NODE_METADATA_FILE, NODE_ROWS_FILE, VECTOR_FORMAT_VERSION, nodeRowIndex, rowsSha,
  readCardMetadata, readNodeMetadata, type CardMetadata, type NodeMetadata,
} from '../vector/metadata.js';
import { cardText, nodeTexts, nodeVectorText } from './source-text.js';
import {
  EMBED_CHUNK, expectedNodeRows, indexedEntries, nodeRowTexts, previousNodeVectors, rowsBySource, streamNodeVectors, textSha,
} from './node-vectors.js';

export { EMBED_CHUNK, textSha } from './node-vectors.js';
import { appendEmbedCheckpoint, clearEmbedCheckpoints, openEmbedCheckpoint, type EmbedCheckpoint } from './embed-checkpoint.js';

interface Item { key: string; text: string; sha: string }

/** Vectors of the previous build keyed by text sha (only when made by the same model). */
function previousVectors(root: string, indexFile: string, model: ModelIdentity | undefined, shas: string[] | undefined, want: ModelIdentity): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!model || !shas || !sameModel(model, want) || !existsSync(join(root, indexFile))) return out;
  try {
    const v = readFlatIndex(join(root, indexFile));
    if (v.count !== shas.length || v.dims !== want.dims) return out;
    shas.forEach((sha, i) => out.set(sha, v.data.slice(i * v.dims, (i + 1) * v.dims)));
  } catch {
    /* unreadable: re-embed */
  }
  return out;
}

/**
 * `previous` plus the card vectors of the donor stores (`mhub merge`: the partial stores), by text
 * sha, when the same model made them: merged sources are not embedded again.
 */
function withDonorCards(previous: Map<string, Float32Array>, ctx: IndexBuildContext, want: ModelIdentity): Map<string, Float32Array> {
  for (const donor of ctx.donors ?? []) {
    const card = readCardMetadata(donor);
    for (const [sha, v] of previousVectors(donor, CARD_INDEX_FILE, card?.model, card?.rows.map((r) => r.text_sha), want)) if (!previous.has(sha)) previous.set(sha, v);
  }
  return previous;
}

/** The model the store's vectors were made with; null when it has none. */
export function storedVectorModel(root: string): ModelIdentity | null {
  return readCardMetadata(root)?.model ?? readNodeMetadata(root)?.model ?? null;
}

interface EmbedRun {
  embedder: Embedder;
  root: string;
  /** vectors embedded by an interrupted run (checkpoint) */
  pending: EmbedCheckpoint;
  progress: (done: number, total: number) => void;
}

/** Rows (item indexes) of each distinct text still to embed, in first-appearance order. */
function rowsByText(items: Item[], todo: number[]): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const i of todo) {
    const sha = items[i]!.sha;
    const r = rows.get(sha);
    if (r) r.push(i);
    else rows.set(sha, [i]);
  }
  return rows;
}

/**
 * Embed each distinct text once, in chunks of EMBED_CHUNK; every chunk is checkpointed before the
 * next starts, and its vectors go straight into `data` (no second copy of every vector), its texts
 * are let go. Vectors an interrupted run checkpointed are taken as they are.
 */
async function embedDistinct(items: Item[], rows: Map<string, number[]>, data: Float32Array, er: EmbedRun): Promise<void> {
  const dims = er.embedder.identity.dims;
  const put = (sha: string, v: Float32Array) => {
    for (const i of rows.get(sha)!) data.set(v, i * dims);
  };
  const todo: string[] = [];
  for (const sha of rows.keys()) {
    const v = er.pending.get(sha);
    if (v) put(sha, v);
    else todo.push(sha);
  }
  er.progress(0, todo.length);
  for (let i = 0; i < todo.length; i += EMBED_CHUNK) {
    const chunk = todo.slice(i, i + EMBED_CHUNK);
    const vecs = await er.embedder.embed(chunk.map((sha) => items[rows.get(sha)![0]!]!.text));
    const fresh = chunk.map((sha, k): [string, Float32Array] => [sha, vecs[k]!]);
    appendEmbedCheckpoint(er.root, er.embedder.identity, fresh);
    for (const [sha, v] of fresh) {
      put(sha, v);
      for (const r of rows.get(sha)!) items[r]!.text = '';
    }
    er.progress(Math.min(todo.length, i + EMBED_CHUNK), todo.length);
  }
}

async function embedAll(items: Item[], prev: Map<string, Float32Array>, er: EmbedRun): Promise<{ data: Float32Array; embedded: number; seconds: number }> {
  const dims = er.embedder.identity.dims;
  const data = new Float32Array(items.length * dims);
  const todo: number[] = [];
  items.forEach((it, i) => {
    const v = prev.get(it.sha);
    if (v) data.set(v, i * dims);
    else todo.push(i);
  });
  const rows = rowsByText(items, todo);
  const t0 = performance.now();
  await embedDistinct(items, rows, data, er);
  const seconds = (performance.now() - t0) / 1000;
  return { data, embedded: rows.size, seconds };
}

function removeVectorFiles(root: string): void {
  for (const f of [CARD_INDEX_FILE, CARD_METADATA_FILE, NODE_INDEX_FILE, NODE_METADATA_FILE, NODE_ROWS_FILE]) rmSync(join(root, f), { force: true });
}

/** nodes.rows.json beside nodes.metadata.json (queries read it instead); removed when the rows cannot be indexed so. */
function writeNodeRowIndex(root: string, meta: NodeMetadata): void {
  const index = nodeRowIndex(meta);
  if (index) writeIfChanged(join(root, NODE_ROWS_FILE), JSON.stringify(index) + '\n');
  else rmSync(join(root, NODE_ROWS_FILE), { force: true });
}

/** Card texts, one per indexed source in id order. */
function cardItems(ctx: IndexBuildContext): Item[] {
  return indexedEntries(ctx).map((e) => {
    const ct = cardText(e);
    return { key: e.id, text: ct, sha: textSha(ct) };
  });
}

/** Without an embedder: the vector files stay only if they still match every card and node text (else they are removed). */
function keepOrRemoveVectors(ctx: IndexBuildContext, prevCards: CardMetadata | null, prevNodes: NodeMetadata | null): void {
  const cards = cardItems(ctx);
  let unchanged = !!prevCards && !!prevNodes && prevCards.rows.map((r) => r.text_sha).join() === cards.map((c) => c.sha).join();
  if (unchanged) {
    let i = 0;
    for (const r of nodeRowTexts(ctx, rowsBySource(prevNodes))) {
      if (prevNodes!.rows[i++]?.[2] !== r.sha) {
        unchanged = false;
        break;
      }
    }
    unchanged &&= i === prevNodes!.rows.length;
  }
  if (!unchanged) removeVectorFiles(ctx.root);
}

/**
 * Embeds a new source's node texts as soon as its tree is written (IndexBuilder.prepareSource),
 * into the checkpoint build() takes pending vectors from: embedding then overlaps the conversions
 * of the sources still in flight instead of waiting for all of them. Texts already embedded this
 * run are skipped; the embedder is resolved once per run.
 */
function sourcePreparer(): NonNullable<IndexBuilder['prepareSource']> {
  let resolved: Promise<Embedder | null> | null = null;
  const seen = new Set<string>();
  return async (root, config, tree) => {
    resolved ??= resolveEmbedder(root, config).then((r) => r.embedder, () => null);
    const embedder = await resolved;
    if (!embedder) return;
    // in chunks of EMBED_CHUNK as the node texts are read: a large source's texts are never all held
    let chunk = new Map<string, string>();
    const flush = async () => {
      const shas = [...chunk.keys()];
      const vecs = await embedder.embed([...chunk.values()]);
      appendEmbedCheckpoint(root, embedder.identity, shas.map((sha, k): [string, Float32Array] => [sha, vecs[k]!]));
      for (const sha of shas) seen.add(sha);
      chunk = new Map();
    };
    for (const n of nodeTexts(root, tree)) {
      const t = nodeVectorText(n);
      const sha = textSha(t);
      if (!seen.has(sha)) chunk.set(sha, t);
      if (chunk.size >= EMBED_CHUNK) await flush();
    }
    if (chunk.size > 0) await flush();
  };
}

/** Version of how the vector files are laid out (2: index type chosen by size and recorded; 3: nodes.rows.json); a new one rebuilds them. */
const VECTOR_LAYOUT = 3;

export function vectorIndexBuilder(): IndexBuilder {
  return {
    name: 'vectors',
    prepareSource: sourcePreparer(),
    async stampKey(root, config) {
      const { embedder, reason } = await resolveEmbedder(root, config);
      return embedder ? `${JSON.stringify(embedder.identity)}/layout${VECTOR_LAYOUT}` : reason;
    },
    async build(ctx) {
      const prevCards = readCardMetadata(ctx.root);
      const prevNodes = readNodeMetadata(ctx.root);
      const { embedder, reason } = await resolveEmbedder(ctx.root, ctx.config);
      if (!embedder) {
        keepOrRemoveVectors(ctx, prevCards, prevNodes);
        return { name: 'vectors', summary: `skipped: ${reason}`, warnings: [`no vectors built: ${reason}`] };
      }
      ctx.log(reason);
      const id = embedder.identity;
      const cards = cardItems(ctx);
      const pending = openEmbedCheckpoint(ctx.root, id);
      const prevNodeVectors = previousNodeVectors(ctx.root, ctx.donors ?? [], id);
      let c: Awaited<ReturnType<typeof embedAll>>;
      let n: Awaited<ReturnType<typeof streamNodeVectors>>;
      try {
        const er = (what: string): EmbedRun => ({ embedder, root: ctx.root, pending, progress: (d, t) => ctx.progress?.('embed', d, t, what) });
        const prevCardVectors = previousVectors(ctx.root, CARD_INDEX_FILE, prevCards?.model, prevCards?.rows.map((r) => r.text_sha), id);
        c = await embedAll(cards, withDonorCards(prevCardVectors, ctx, id), er('card vectors'));
        // this store's own vectors decide reuse of unchanged sources' rows (donors' only lend vectors by text)
        const reuse = prevNodeVectors.own ? rowsBySource(prevNodes) : null;
        const progress = er('node vectors').progress;
        n = await streamNodeVectors(ctx.root, nodeRowTexts(ctx, reuse), prevNodeVectors, pending, embedder, progress, expectedNodeRows(ctx, reuse));
      } finally {
        prevNodeVectors.close();
        pending.close();
      }
      const choice = chooseIndex(cards.length);
      const cw = await writeVectorIndex(join(ctx.root, CARD_INDEX_FILE), { dims: id.dims, count: cards.length, data: c.data }, choice);
      const cardMeta: CardMetadata = {
        schema_version: VECTOR_FORMAT_VERSION, kind: 'cards', index_file: 'index.faiss', metric: 'inner_product', ...choice,
        model: { name: id.name, dims: id.dims, fingerprint: id.fingerprint }, dims: id.dims, count: cards.length,
        rows: cards.map((it) => ({ id: it.key, text_sha: it.sha })),
      };
      const nodeMeta: NodeMetadata = {
        schema_version: VECTOR_FORMAT_VERSION, kind: 'nodes', index_file: 'nodes.faiss', metric: 'inner_product', index_type: 'flat',
        model: cardMeta.model, dims: id.dims, count: n.rows.length, rows_sha: rowsSha(n.rows), rows: n.rows,
      };
      writeIfChanged(join(ctx.root, CARD_METADATA_FILE), canonicalJson(cardMeta));
      writeIfChanged(join(ctx.root, NODE_METADATA_FILE), JSON.stringify(nodeMeta) + '\n');
      writeNodeRowIndex(ctx.root, nodeMeta);
      clearEmbedCheckpoints(ctx.root);
      const faiss = await loadFaiss();
      const rate = (k: number, s: number) => (k > 0 && s > 0 ? Math.round((k / s) * 10) / 10 : 0);
      const warnings = faiss || cw.native ? [] : [`faiss-node not loaded (${faissLoadError() || 'not installed'}); FAISS files written by the built-in flat codec`];
      return {
        name: 'vectors',
        summary: `${id.name}: ${cards.length} card vectors (${c.embedded} embedded, ${choice.index_type === 'flat' ? 'flat index' : `IVF, ${choice.nlist} lists`}), ${n.rows.length} node vectors (${n.embedded} embedded)`,
        warnings,
        stats: {
          model: id.name, dims: id.dims, cards: cards.length, nodes: n.rows.length, card_index: choice.index_type,
          cards_embedded: c.embedded, nodes_embedded: n.embedded,
          cards_per_second: rate(c.embedded, c.seconds), nodes_per_second: rate(n.embedded, n.seconds),
        },
      };
    },
  };
}
