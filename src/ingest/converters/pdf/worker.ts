/**
 * Worker-thread entry: converts one PDF per message with the pure converter (./convert.ts) and
 * posts the plain result back. Imports only the PDF converter modules. Started by ./pool.ts.
 */
import { parentPort } from 'node:worker_threads';
import { convertPdfBytes, type PdfConvertOptions } from './convert.js';
import { ConvertError } from '../types.js';
import type { NativeRead } from './poppler.js';

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  opts: PdfConvertOptions;
  /** the native reader's output, read in the main thread (shared with the planner's preview) */
  native?: NativeRead;
}

export type WorkerResponse =
  | { id: number; ok: true; result: Awaited<ReturnType<typeof convertPdfBytes>> }
  | { id: number; ok: false; error: { name: string; message: string; hint: string } };

parentPort?.on('message', (req: WorkerRequest) => {
  convertPdfBytes(req.bytes, req.opts, req.native).then(
    (result) => parentPort!.postMessage({ id: req.id, ok: true, result } satisfies WorkerResponse),
    (err: unknown) => {
      const e = err instanceof Error ? err : new Error(String(err));
      const hint = err instanceof ConvertError ? err.hint : '';
      parentPort!.postMessage({ id: req.id, ok: false, error: { name: e.name, message: e.message, hint } } satisfies WorkerResponse);
    },
  );
});
