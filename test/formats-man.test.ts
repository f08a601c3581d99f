/** Manual pages (issue 14): roff sections, subsections and option terms as the outline; gzip read; detection by content. */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { manConverter, roffText, mdocText } from '../src/ingest/converters/man.js';
import { detectType } from '../src/ingest/detect.js';
import { ConvertError, type ConvertedNode } from '../src/ingest/converters/types.js';
import type { FileCard } from '../src/store/schemas.js';
import { FIXTURES } from './helpers/temp-store.js';

const page = readFileSync(join(FIXTURES, 'formats', 'man', 'tidy.1'));
const card = (filename: string): FileCard => ({ id: 'src_0000abcd', filename, original_path: `inbox/${filename}`, type: 'man', size_kb: 1, sha256: '0'.repeat(64) });
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title} ${JSON.stringify(n.line_range)}`, ...n.children.flatMap((c) => outline(c, d + 1))];

describe('manual pages', () => {
  it('is detected by content, plain or gzipped, and a rotated log named .1 is not', () => {
    expect(detectType('tidy.1', page).type).toBe('man');
    expect(detectType('tidy.1.gz', gzipSync(page)).type).toBe('man');
    expect(detectType('app.log.1', Buffer.from('2026-01-01 12:00 started\n')).type).toBe('text');
  });

  it('sections, subsections and one node per option; title from NAME', async () => {
    for (const [name, bytes] of [['tidy.1', page], ['tidy.1.gz', gzipSync(page)]] as const) {
      const r = await manConverter.convert({ absPath: name, card: card(name), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
      expect(r.title).toBe('tidy(1) — sort and de-duplicate the lines of text files');
      expect(outline(r.root).slice(1)).toEqual([
        '  NAME [3,4]',
        '  SYNOPSIS [5,7]',
        '  DESCRIPTION [8,14]',
        '  OPTIONS [15,33]',
        '    -r, --reverse [16,18]',
        '    -n, --numeric [19,21]',
        '    -o FILE [22,26]',
        '    --keep-blank [27,29]',
        '    Exit status [30,33]',
        '  SEE ALSO [34,36]',
      ]);
      const desc = r.root.children[2]!;
      expect(desc.content).toBe('tidy reads each FILE and writes its lines sorted, each line once.\n\nWith no FILE, it reads standard input.');
      expect(r.root.children[4]!.content).toBe('sort(1), uniq(1)');
    }
  });

  it('renders escapes and mdoc macros as text; a file without sections is a clear error', async () => {
    expect(roffText('\\fBgrep\\fR \\(em search \\-e')).toBe('grep — search -e');
    // italic corrections and unbreakable spaces (GNU man pages: `--block-size=\fI\,SIZE\/\fR`)
    expect(roffText('\\fB\\-\\-block\\-size\\fR=\\fI\\,SIZE\\/\\fR and\\~more')).toBe('--block-size=SIZE and more');
    expect(mdocText('Fl o Ar file Xr ls 1 .')).toBe('-o file ls(1).');
    const err = await manConverter.convert({ absPath: 'x.man', card: card('x.man'), bytes: Buffer.from('.TH X 1\nno sections\n'), plan: {} as never, options: { maxLeafPages: 5 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvertError);
  });
});
