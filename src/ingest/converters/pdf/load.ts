/** Lazy pdfjs-dist (legacy build, for Node) and opening a document with readable errors. */
import { ConvertError } from '../types.js';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjs: Promise<PdfJs> | null = null;

/** Imports pdfjs once per thread, on first use. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    const mod = await import('pdfjs-dist/legacy/build/pdf.mjs');
    restoreNativePush();
    return mod;
  })();
  return pdfjs;
}

/**
 * The legacy build (and its in-process "fake worker", loaded on the first getDocument) ships a
 * core-js polyfill that replaces Array.prototype.push process-wide because V8 fails one spec edge
 * case about non-writable array lengths. The polyfill is several times slower on every push,
 * pdfjs's and ours; native push is correct for all ordinary arrays, so it is put back.
 */
const NATIVE_PUSH = Array.prototype.push;
function restoreNativePush(): void {
  if (Array.prototype.push !== NATIVE_PUSH) {
    Object.defineProperty(Array.prototype, 'push', { value: NATIVE_PUSH, writable: true, configurable: true, enumerable: false });
  }
}

export const ENCRYPTED_HINT = 'Remove the password (e.g. `qpdf --decrypt in.pdf out.pdf`) and ingest again.';
export const CORRUPT_HINT = 'The file may be truncated or corrupt; re-export or re-download it.';

/** Opens a PDF from bytes; encrypted and corrupt files become ConvertErrors with a fix. */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  try {
    const doc = await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: VerbosityLevel.ERRORS,
    }).promise;
    restoreNativePush();
    return doc;
  } catch (err) {
    restoreNativePush();
    const e = err as Error;
    if (e.name === 'PasswordException') throw new ConvertError('The PDF is encrypted with a password.', ENCRYPTED_HINT);
    throw new ConvertError(`The PDF could not be parsed: ${e.message}`, CORRUPT_HINT);
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * Opens a document, runs `fn` on it and destroys it — one document at a time per thread. pdfjs 5.4
 * keeps a single page mapper per thread (`PagesMapper.instance`) whose page count is set by the
 * most recently loaded document, so two documents open at once in one thread reject each other's
 * page requests ("Invalid page request."). Parallelism comes from worker threads (./pool.ts).
 */
export function withPdfDocument<T>(bytes: Uint8Array, fn: (doc: PdfDocument) => Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const doc = await openPdf(bytes);
    try {
      return await fn(doc);
    } finally {
      await doc.destroy();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
