/** Lazy pdfjs-dist (legacy build, for Node) and opening a document with readable errors. */
import { ConvertError } from '../types.js';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjs: Promise<PdfJs> | null = null;

/** Imports pdfjs once per thread, on first use. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

export const ENCRYPTED_HINT = 'Remove the password (e.g. `qpdf --decrypt in.pdf out.pdf`) and ingest again.';
export const CORRUPT_HINT = 'The file may be truncated or corrupt; re-export or re-download it.';

/** Opens a PDF from bytes; encrypted and corrupt files become ConvertErrors with a fix. */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  try {
    return await getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: VerbosityLevel.ERRORS,
    }).promise;
  } catch (err) {
    const e = err as Error;
    if (e.name === 'PasswordException') throw new ConvertError('The PDF is encrypted with a password.', ENCRYPTED_HINT);
    throw new ConvertError(`The PDF could not be parsed: ${e.message}`, CORRUPT_HINT);
  }
}
