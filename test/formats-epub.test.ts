import { describe, it, expect, afterEach } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeZip } from '../scripts/make-bad-inputs.mjs';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import { detectType } from '../src/ingest/detect.js';
import type { FileCard } from '../src/store/schemas.js';
import { epubConverter } from '../src/ingest/converters/epub.js';
import type { ConvertResult, ConvertedNode } from '../src/ingest/converters/types.js';
import { tempStore, cleanup } from './helpers/temp-store.js';

const xhtml = (body: string) => `<?xml version="1.0" encoding="utf-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>x</title></head><body>${body}</body></html>`;
const lorem = 'The keeper rows out at dawn to trim the wick and log the weather. ';

/** An EPUB as e-book tools write one: mimetype first and stored, a container, an OPF package, a TOC. */
function book(opts: { toc: 'nav' | 'ncx' | 'none'; title?: string; encrypted?: boolean; folder?: string } = { toc: 'nav' }): Buffer {
  const chapters: Array<[string, string]> = [
    ['text/ch%201.xhtml', xhtml(`<h1 id="c1">The Lighthouse</h1><p>${lorem.repeat(3)}</p><h2 id="c1-s1">Storms</h2><p>Winter storms closed the harbour for weeks.</p><h2 id="c1-s2">Supplies</h2><p>Oil came by boat each spring.</p>`)],
    ['text/ch2.xhtml', xhtml(`<p>${lorem}</p><p>The last keeper left in 1962.</p>`)],
    ['text/notes.xhtml', xhtml('<nav><a href="#">Back</a></nav>')],
  ];
  const opfItems = [
    '<item id="ch1" href="text/ch%201.xhtml" media-type="application/xhtml+xml"/>',
    '<item id="ch2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>',
    '<item id="notes" href="text/notes.xhtml" media-type="application/xhtml+xml"/>',
    '<item id="css" href="style.css" media-type="text/css"/>',
    ...(opts.toc === 'nav' ? ['<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'] : []),
    ...(opts.toc === 'ncx' ? ['<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>'] : []),
  ];
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">${opts.title === undefined ? '<dc:title>Keepers of the Light</dc:title>' : opts.title}<dc:creator>Ann Example</dc:creator><dc:creator>Unknown Author</dc:creator><dc:creator>Bo Sample</dc:creator></metadata>
    <manifest>${opfItems.join('')}</manifest><spine${opts.toc === 'ncx' ? ' toc="ncx"' : ''}><itemref idref="ch1"/><itemref idref="ch2"/><itemref idref="notes"/></spine></package>`;
  const nav = xhtml('<nav epub:type="toc"><ol><li><a href="text/ch%201.xhtml#c1">1. The Lighthouse</a></li><li><a href="text/ch2.xhtml">2. Leaving the Island</a></li></ol></nav>');
  const ncx = '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap><navPoint id="n1"><navLabel><text>One: The Lighthouse</text></navLabel><content src="text/ch%201.xhtml"/></navPoint><navPoint id="n2"><navLabel><text>Two: Leaving</text></navLabel><content src="text/ch2.xhtml"/></navPoint></navMap></ncx>';
  const parts = [
    { name: 'mimetype', data: 'application/epub+zip', method: 0 },
    { name: 'META-INF/container.xml', data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>' },
    ...(opts.encrypted ? [{ name: 'META-INF/encryption.xml', data: '<encryption/>' }] : []),
    { name: 'OEBPS/content.opf', data: opf },
    ...chapters.map(([name, data]) => ({ name: `OEBPS/${name.replace('%20', ' ')}`, data })),
    ...(opts.toc === 'nav' ? [{ name: 'OEBPS/nav.xhtml', data: nav }] : []),
    ...(opts.toc === 'ncx' ? [{ name: 'OEBPS/toc.ncx', data: ncx }] : []),
    { name: 'OEBPS/style.css', data: 'p { margin: 0 }' },
  ];
  return makeZip(parts.map((p) => ({ ...p, name: `${opts.folder ?? ''}${p.name}` })));
}

const card = (file: string): FileCard => ({ id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type: 'epub', size_kb: 1, sha256: '0'.repeat(64) });
const convert = (bytes: Uint8Array): Promise<ConvertResult> => epubConverter.convert({ absPath: 'book.epub', card: card('book.epub'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title}`, ...n.children.flatMap((c) => outline(c, d + 1))];

const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});

describe('e-books (.epub)', () => {
  it('chapters in reading order, titled by the book\'s table of contents, with their headings below', async () => {
    const r = await convert(book());
    expect(r.title).toBe('Keepers of the Light');
    expect(r.toc_source).toBe('bookmarks');
    expect(outline(r.root)).toEqual(['Keepers of the Light', '  1. The Lighthouse', '    Storms', '    Supplies', '  2. Leaving the Island']);
    const [ch1, ch2] = r.root.children;
    expect(ch1!.content).toContain('The keeper rows out at dawn');
    expect(ch1!.children[0]!.meta).toEqual({ level: 2, anchor: 'c1-s1' });
    expect(ch2!.content).toContain('The last keeper left in 1962.');
    expect(r.meta).toMatchObject({ chapters: '2', author: 'Ann Example; Bo Sample' });
    expect(r.root.summary).toBe('Keepers of the Light by Ann Example, Bo Sample. 2 chapters: 1. The Lighthouse; 2. Leaving the Island');
  });

  it('reads a book zipped from outside its folder (every part under "epub/") from that folder, and says so', async () => {
    const r = await convert(book({ toc: 'ncx', folder: 'epub/' }));
    expect(r.root.children.map((c) => c.title)).toEqual(['One: The Lighthouse', 'Two: Leaving']);
    expect(r.title).toBe('Keepers of the Light');
    expect(r.warnings?.filter((w) => w.includes('"epub/"'))).toHaveLength(1);
    // two such folders: no telling which is the book
    const two = makeZip([{ name: 'a/META-INF/container.xml', data: '<container/>' }, { name: 'b/META-INF/container.xml', data: '<container/>' }]);
    await expect(convert(two)).rejects.toThrow(/no package document/);
  });

  it('reads an EPUB 2 table of contents (NCX), and falls back to headings and the file name', async () => {
    expect((await convert(book({ toc: 'ncx' }))).root.children.map((c) => c.title)).toEqual(['One: The Lighthouse', 'Two: Leaving']);
    const bare = await convert(book({ toc: 'none', title: '' }));
    expect(bare.title).toBe('book');
    expect(bare.toc_source).toBe('headings');
    expect(bare.root.children.map((c) => c.title)).toEqual(['The Lighthouse', 'Chapter 2']);
  });

  it('is read as a book, not as a ZIP of its parts; DRM and broken packages fail with what to do', async () => {
    expect(detectType('book.epub', book()).type).toBe('epub');
    const root = tempStore();
    roots.push(root);
    const inbox = join(root, 'inbox');
    mkdirSync(inbox, { recursive: true });
    writeFileSync(join(inbox, 'keepers.epub'), book());
    await ingest(root, { paths: [inbox] });
    expect(readCatalog(root).sources.map((e) => `${e.filename} ${e.type} ${e.status} ${e.title}`)).toEqual(['keepers.epub epub indexed Keepers of the Light']);
    await expect(convert(book({ toc: 'nav', encrypted: true }))).rejects.toThrow(/encrypted \(DRM\)/);
    await expect(convert(makeZip([{ name: 'mimetype', data: 'application/epub+zip', method: 0 }]))).rejects.toThrow(/no package document/);
  });
});
