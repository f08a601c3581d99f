/**
 * A small worker-thread pool for PDF parsing, so an ingest that converts several PDFs at once
 * (the pipeline runs conversions concurrently) uses every core. Workers start lazily, are unref'd
 * while idle (the CLI exits normally) and are replaced when one dies.
 *
 * The worker runs the compiled `worker.js` next to this file. Under vitest (src/*.ts, no compiled
 * worker beside it) or with MHUB_PDF_WORKERS=0 there is no worker file to run, so `pdfWorkerPool()`
 * returns null and the converter parses in-thread: same code, same output, one core.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Worker as WorkerType } from 'node:worker_threads';
import type { ConvertResult } from '../types.js';
import { ConvertError } from '../types.js';
import type { PdfConvertOptions } from './convert.js';
import type { WorkerRequest, WorkerResponse } from './worker.js';
import type { NativeRead } from './poppler.js';

/** Environment variable overriding the number of PDF worker threads (0 = parse in-thread). */
export const WORKERS_ENV = 'MHUB_PDF_WORKERS';

interface Task {
  req: WorkerRequest;
  resolve: (r: ConvertResult) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: WorkerType;
  task: Task | null;
}

export class PdfWorkerPool {
  private slots: Slot[] = [];
  private queue: Task[] = [];
  private nextId = 1;

  constructor(
    private readonly file: string,
    private size: number,
    private readonly WorkerCtor: typeof WorkerType,
  ) {}

  convert(bytes: Uint8Array, opts: PdfConvertOptions, native?: NativeRead): Promise<ConvertResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ req: { id: this.nextId++, bytes, opts, ...(native ? { native } : {}) }, resolve, reject });
      this.pump();
    });
  }

  /** At most `size` workers from now on (idle ones beyond it stop; busy ones finish their file first). */
  resize(size: number): void {
    this.size = Math.max(1, size);
    for (const s of this.slots.filter((x) => x.task === null).slice(0, Math.max(0, this.slots.length - this.size))) {
      this.slots = this.slots.filter((x) => x !== s);
      void s.worker.terminate();
    }
  }

  private spawn(): Slot {
    const worker = new this.WorkerCtor(this.file);
    const slot: Slot = { worker, task: null };
    worker.on('message', (res: WorkerResponse) => {
      const task = slot.task;
      slot.task = null;
      worker.unref();
      if (task && task.req.id === res.id) {
        if (res.ok) task.resolve(res.result);
        else task.reject(res.error.name === 'ConvertError' ? new ConvertError(res.error.message, res.error.hint) : Object.assign(new Error(res.error.message), { name: res.error.name }));
      }
      this.pump();
    });
    const fail = (err: Error) => {
      this.slots = this.slots.filter((s) => s !== slot);
      const task = slot.task;
      slot.task = null;
      if (task) task.reject(new Error(`PDF worker stopped: ${err.message}`));
      this.pump();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (this.slots.includes(slot)) fail(new Error(`exit code ${code}`));
    });
    worker.unref();
    this.slots.push(slot);
    return slot;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.task === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref();
      const copy = new Uint8Array(task.req.bytes);
      const { native } = task.req;
      // the XML is moved, not cloned (it is the converter's alone: ./poppler.ts takeNativeRead)
      const xml = native?.status === 'ok' ? native.xml : null;
      const transfer = xml && xml.buffer instanceof ArrayBuffer && xml.byteOffset === 0 && xml.byteLength === xml.buffer.byteLength ? [xml.buffer] : [];
      slot.worker.postMessage({ ...task.req, bytes: copy } satisfies WorkerRequest, [copy.buffer, ...transfer]);
      task.req.native = undefined;
    }
  }

  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let pool: Promise<PdfWorkerPool | null> | null = null;

/** Worker threads: MHUB_PDF_WORKERS when set (0 = parse in-thread), else `wanted` (ingest.workers), else one per core. */
function workerCount(wanted = 0): number {
  const env = process.env[WORKERS_ENV];
  if (env !== undefined && env !== '' && Number.isFinite(Number(env))) return Math.max(0, Math.floor(Number(env)));
  return wanted > 0 ? Math.floor(wanted) : availableParallelism();
}

/**
 * The shared pool, or null when PDFs are parsed in-thread (no compiled worker file, or disabled).
 * `workers` (ingest.workers; 0 = one per core) caps the threads, so the sources in flight beyond
 * them queue instead of starting more threads.
 */
export async function pdfWorkerPool(workers = 0): Promise<PdfWorkerPool | null> {
  pool ??= (async () => {
    const file = fileURLToPath(new URL('./worker.js', import.meta.url));
    const size = workerCount(workers);
    if (size === 0 || !existsSync(file)) return null;
    const { Worker } = await import('node:worker_threads');
    return new PdfWorkerPool(file, size, Worker);
  })();
  const p = await pool;
  if (p && workerCount(workers) > 0) p.resize(workerCount(workers));
  return p;
}
