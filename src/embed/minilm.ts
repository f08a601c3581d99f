/**
 * MiniLM (or any transformers.js feature-extraction model) from local files: MHUB_MODELS_DIR,
 * config.embedding.models_dir, then the library's own cache. Remote download only when
 * config.embedding.allow_remote is true (and the network allows it).
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { Embedder } from './types.js';
import { fingerprintFiles } from './fingerprint.js';
import { inBatches, normalizeVector } from './normalize.js';

export const MINILM_DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';
export const MINILM_NAME_PREFIX = 'minilm:';

const require = createRequire(import.meta.url);

export interface MiniLmOptions {
  /** model id inside a models folder, e.g. Xenova/all-MiniLM-L6-v2 */
  modelId: string;
  root: string;
  modelsDir: string | null;
  allowRemote: boolean;
  batchSize: number;
  env?: NodeJS.ProcessEnv;
}

export interface LocatedModel {
  dir: string;
  modelsDir: string;
  onnx: string;
  quantized: boolean;
}

/** Folders searched for model files, in order. */
export function modelSearchDirs(opts: Pick<MiniLmOptions, 'root' | 'modelsDir' | 'env'>): string[] {
  const env = opts.env ?? process.env;
  const dirs: string[] = [];
  if (env['MHUB_MODELS_DIR']) dirs.push(resolve(env['MHUB_MODELS_DIR']));
  if (opts.modelsDir) dirs.push(isAbsolute(opts.modelsDir) ? opts.modelsDir : resolve(opts.root, opts.modelsDir));
  try {
    const pkg = dirname(require.resolve('@xenova/transformers/package.json'));
    dirs.push(join(pkg, '.cache'));
  } catch {
    /* library not installed */
  }
  return dirs;
}

/** The first folder holding the model's config, tokenizer and ONNX weights; null when absent. */
export function locateModel(modelId: string, dirs: string[]): LocatedModel | null {
  for (const base of dirs) {
    const dir = join(base, modelId);
    if (!existsSync(join(dir, 'config.json')) || !existsSync(join(dir, 'tokenizer.json'))) continue;
    for (const [file, quantized] of [['model_quantized.onnx', true], ['model.onnx', false]] as const) {
      const onnx = join(dir, 'onnx', file);
      if (existsSync(onnx)) return { dir, modelsDir: base, onnx, quantized };
    }
  }
  return null;
}

export async function loadMiniLm(opts: MiniLmOptions): Promise<Embedder> {
  const located = locateModel(opts.modelId, modelSearchDirs(opts));
  if (!located && !opts.allowRemote) {
    throw new Error(`model files for ${opts.modelId} not found (searched ${modelSearchDirs(opts).join(', ') || 'nothing'})`);
  }
  const tf = (await import('@xenova/transformers')) as unknown as {
    env: Record<string, unknown>;
    pipeline(task: string, model: string, o: Record<string, unknown>): Promise<(t: string[], o: Record<string, unknown>) => Promise<{ dims: number[]; data: Float32Array }>>;
  };
  tf.env['allowLocalModels'] = true;
  tf.env['allowRemoteModels'] = !located && opts.allowRemote;
  if (located) tf.env['localModelPath'] = located.modelsDir + '/';
  const extractor = await tf.pipeline('feature-extraction', opts.modelId, { quantized: located ? located.quantized : true });
  const found = located ?? locateModel(opts.modelId, modelSearchDirs(opts));
  const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
  const dims = probe.dims[probe.dims.length - 1] as number;
  const fingerprint = found
    ? fingerprintFiles(opts.modelId, [join(found.dir, 'config.json'), join(found.dir, 'tokenizer.json'), found.onnx])
    : 'remote';
  return {
    identity: { name: MINILM_NAME_PREFIX + opts.modelId, dims, fingerprint },
    embed: (texts) =>
      inBatches(texts, opts.batchSize, async (batch) => {
        const out = await extractor(batch.map((t) => t || ' '), { pooling: 'mean', normalize: true });
        const vecs: Float32Array[] = [];
        for (let i = 0; i < batch.length; i++) vecs.push(normalizeVector(out.data.subarray(i * dims, (i + 1) * dims)));
        return vecs;
      }),
  };
}
