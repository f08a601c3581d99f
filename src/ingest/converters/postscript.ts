/**
 * PostScript (.ps, .eps): recognised, not converted. Its text is drawing operators, not prose; read as
 * plain text a 12.7 MB manual (valgrind_manual.ps.gz) became one node of operators and took 820 MB.
 * The skip reason says how to turn it into a PDF, which is read with its pages and outline.
 */
import { PRIORITY_SPECIFIC, type ConverterRegistration } from './types.js';

export const POSTSCRIPT_REASON =
  'PostScript is not read directly (its text is page-drawing code). Convert it to PDF and ingest the PDF: `ps2pdf file.ps` (Debian package ghostscript).';

export const postscriptRegistration: ConverterRegistration = {
  converter: null,
  skipReason: POSTSCRIPT_REASON,
  formats: [{
    type: 'postscript', mime: 'application/postscript', extensions: ['.ps', '.eps'],
    // "%!PS", and the binary header of a DOS EPS file
    magic: [[0x25, 0x21, 0x50, 0x53], [0xc5, 0xd0, 0xd3, 0xc6]], priority: PRIORITY_SPECIFIC,
  }],
};
