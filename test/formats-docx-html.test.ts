import { describe, it, expect, afterEach } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingest } from '../src/ingest/pipeline.js';
import { readCatalog } from '../src/store/catalog.js';
import type { CatalogEntry, FileCard } from '../src/store/schemas.js';
import { makeCitation } from '../src/retrieve/citation.js';
import { docxConverter, headingLevelOfStyle, silentlyNumberedStyles } from '../src/ingest/converters/docx.js';
import { makeZip } from '../scripts/make-bad-inputs.mjs';
import { htmlConverter } from '../src/ingest/converters/html.js';
import type { ConvertResult, ConvertedNode } from '../src/ingest/converters/types.js';
import { tempStore, cleanup, FIXTURES } from './helpers/temp-store.js';

const F = (n: string) => join(FIXTURES, 'formats', n);
const roots: string[] = [];
afterEach(() => {
  while (roots.length) cleanup(roots.pop()!);
});
const card = (file: string, type: FileCard['type']): FileCard => ({ id: 'src_0000abcd', filename: file, original_path: `inbox/${file}`, type, size_kb: 1, sha256: '0'.repeat(64) });
const outline = (n: ConvertedNode, d = 0): string[] => [`${'  '.repeat(d)}${n.title}`, ...n.children.flatMap((c) => outline(c, d + 1))];
const all = (n: ConvertedNode): ConvertedNode[] => [n, ...n.children.flatMap(all)];
const text = (r: ConvertResult) => all(r.root).map((n) => n.content ?? '').join('\n');

describe('docx (mammoth, LibreOffice-made file)', () => {
  it('builds the tree from numbered heading styles, keeps tables as rows and images by alt text', async () => {
    const r = await docxConverter.convert({ absPath: F('handbook.docx'), card: card('handbook.docx', 'docx'), bytes: readFileSync(F('handbook.docx')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.title).toBe('Remote Work Handbook');
    expect(r.toc_source).toBe('headings');
    expect(outline(r.root)).toEqual([
      'Remote Work Handbook',
      '  1 Eligibility',
      '    1.1 Roles that require presence',
      '    1.2 Contractors',
      '  2 Equipment',
      '    2.1 Returning equipment',
      '  3 Expenses',
      '    3.0.1 Submitting a claim',
    ]);
    expect(r.root.content).toContain('This handbook explains how Northwind Analytics staff work remotely');
    const equipment = r.root.children[1]!;
    expect(equipment.content).toContain('| Item | Allowance (USD) | Replacement cycle |');
    expect(equipment.content).toContain('| Laptop | 1,800 | 3 years |');
    expect(equipment.content).toContain('[image: Ergonomic home desk setup with monitor at eye level]');
    expect(equipment.content).not.toContain('Equipment is returned'); // that is the child's own text
    expect(r.meta).toMatchObject({ headings: '7', tables: '1', images: '1' });
  });

  it('gives headings no number where their style\'s list numbering prints none (LibreOffice\'s outline numbering, format "none")', async () => {
    const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
    const lvl = (i: number, style: string, fmt: string, text: string) => `<w:lvl w:ilvl="${i}"><w:start w:val="1"/><w:pStyle w:val="${style}"/><w:numFmt w:val="${fmt}"/><w:lvlText w:val="${text}"/></w:lvl>`;
    const numbering = (fmt: string, text: string) => `<?xml version="1.0" encoding="UTF-8"?><w:numbering ${W}><w:abstractNum w:abstractNumId="2">${lvl(0, 'Heading1', fmt, text.replace('%2', '%1'))}${lvl(1, 'Heading2', fmt, text)}</w:abstractNum><w:num w:numId="2"><w:abstractNumId w:val="2"/></w:num></w:numbering>`;
    const style = (id: string, name: string, level: number) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/><w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="2"/></w:numPr><w:outlineLvl w:val="${level}"/></w:pPr></w:style>`;
    const styles = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}>${style('Heading1', 'heading 1', 0)}${style('Heading2', 'heading 2', 1)}</w:styles>`;
    const para = (text: string, st?: string) => `<w:p>${st ? `<w:pPr><w:pStyle w:val="${st}"/></w:pPr>` : ''}<w:r><w:t>${text}</w:t></w:r></w:p>`;
    const doc = `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${para('9.10. Backup', 'Heading2')}${para('Making backups is a complex subject.')}${para('9.10.1. Backing Up with rsync', 'Heading2')}${para('Backups go to hard drives.')}</w:body></w:document>`;
    const core = (title: string) => ({ name: 'docProps/core.xml', data: `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></cp:coreProperties>` });
    const docx = (fmt: string, text: string, title?: string, body = doc) => makeZip([
      { name: '[Content_Types].xml', data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>' },
      { name: '_rels/.rels', data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>' },
      { name: 'word/_rels/document.xml.rels', data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>' },
      { name: 'word/document.xml', data: body }, { name: 'word/styles.xml', data: styles }, { name: 'word/numbering.xml', data: numbering(fmt, text) },
      ...(title === undefined ? [] : [core(title)]),
    ]);
    const titles = async (bytes: Uint8Array) => outline((await docxConverter.convert({ absPath: 'h.docx', card: card('h.docx', 'docx'), bytes, plan: {} as never, options: { maxLeafPages: 5 } })).root).slice(1).map((t) => t.trim());
    expect(await titles(docx('none', '%2'))).toEqual(['9.10. Backup', '9.10.1. Backing Up with rsync']);
    // numbering that prints is kept
    expect((await titles(docx('decimal', '%1.%2')))[0]).not.toBe('9.10. Backup');
    // with no Title paragraph, the document properties' title names the document, unless it is a tool's placeholder
    const titleOf = async (bytes: Uint8Array) => (await docxConverter.convert({ absPath: 'h.docx', card: card('h.docx', 'docx'), bytes, plan: {} as never, options: { maxLeafPages: 5 } })).title;
    expect(await titleOf(docx('none', '%2', 'The Debian Administrator&apos;s Handbook: Backup'))).toBe("The Debian Administrator's Handbook: Backup");
    expect(await titleOf(docx('none', '%2', 'Microsoft Word - backup.doc'))).toBe('h');
    expect(await titleOf(docx('none', '%2'))).toBe('h');
    // one section holding the whole text, under a byline: its heading titles the document (DDS's benchmarking note)
    const note = (lead: string) => `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${para(lead)}${para('DDS Performance and Benchmarking', 'Heading2')}${para('The key design criterion for DDS is solution speed.')}</w:body></w:document>`;
    expect(await titleOf(docx('none', '%2', undefined, note('Haglund / Hein, November 2014')))).toBe('DDS Performance and Benchmarking');
    // a long text before it is the document's own opening: the heading names a part only
    expect(await titleOf(docx('none', '%2', undefined, note('Solution speed matters. '.repeat(10))))).toBe('h');
    expect(silentlyNumberedStyles(numbering('none', '%2'))).toEqual(new Set(['Heading1', 'Heading2']));
    expect(silentlyNumberedStyles(numbering('decimal', ''))).toEqual(new Set(['Heading1', 'Heading2']));
    expect(silentlyNumberedStyles(numbering('decimal', '%1.%2')).size).toBe(0);
  });

  it('reads custom and numbered heading style names as levels', () => {
    expect(headingLevelOfStyle('Heading 2')).toBe(2);
    expect(headingLevelOfStyle('heading3')).toBe(3);
    expect(headingLevelOfStyle('Numbered Heading 1')).toBe(1);
    expect(headingLevelOfStyle('Überschrift 2')).toBe(2);
    expect(headingLevelOfStyle('Normal')).toBeNull();
  });

  it('skips legacy .doc with the command that converts it, and fails a corrupt .docx clearly', async () => {
    const root = tempStore({ 'handbook-legacy.doc': F('handbook-legacy.doc') });
    roots.push(root);
    const rep = await ingest(root, { paths: [join(root, 'inbox')] });
    expect(rep.counts.skipped).toBe(1);
    const e = readCatalog(root).sources[0]!;
    expect(e.type).toBe('doc');
    expect(e.status).toBe('skipped');
    expect(e.error).toContain('soffice --headless --convert-to docx file.doc');
    const bytes = readFileSync(F('handbook.docx')).subarray(0, 2000);
    await expect(docxConverter.convert({ absPath: 'x.docx', card: card('x.docx', 'docx'), bytes, plan: {} as never, options: { maxLeafPages: 5 } })).rejects.toThrow(/could not be read/);
  });
});

describe('html (cheerio)', () => {
  it('a list item\'s blocks keep their own lines under its first line: a term over its description (GNU Go\'s options)', async () => {
    const page = '<html><head><title>Options</title></head><body><h1>Options</h1><ul><li> &lsquo;<samp>--replay <var>color</var></samp>&rsquo;<blockquote><p>Replay all moves in a game.</p><p>Needs a game record.</p></blockquote></li><li>--quiet<br>No output.</li><li>plain item</li></ul></body></html>';
    const r = await htmlConverter.convert({ absPath: 'o.html', card: card('o.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(text(r)).toContain('- ‘--replay color’\n  Replay all moves in a game.\n  Needs a game record.\n- --quiet\n  No output.\n- plain item');
  });
  it('a formula set as a picture with its TeX as alt text (LaTeX2HTML) reads as its math, not as an image', async () => {
    const page = '<html><head><title>Units</title></head><body><h1>Units</h1><p>The density of steel in the SI system is 7800 kg<IMG ALT="$ /$" SRC="img1.png">m<IMG ALT="$ ^3$" SRC="img2.png">, or 7.8 <IMG ALT="$\\displaystyle \\times 10^{-9}$" SRC="img3.png"> in mm. <img alt="A steel beam" src="beam.png"></p></body></html>';
    const r = await htmlConverter.convert({ absPath: 'units.html', card: card('units.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const t = text(r);
    expect(t).toContain('7800 kg/m^3, or 7.8 \\times 10^{-9} in mm.');
    expect(t).toContain('[image: A steel beam]');
    expect(t).not.toContain('[image: $');
  });
  it('terms of one entry sharing a label say it once in the title, and the entry\'s text holds them all whole (PSPP\'s Laplace functions)', async () => {
    const group = (name: string) => ['PDF', 'CDF', 'IDF', 'RV'].map((f) => `<dt>Function: ${f}.${name} (x, location, scale)</dt>`).join('') + `<dd>${`${name} distribution with location a and scale b. `.repeat(12)}</dd>`;
    const page = `<html><head><title>Continuous Distributions</title></head><body><h1>Continuous Distributions</h1><dl>${['LAPLACE', 'LOGISTIC', 'LNORMAL', 'PARETO'].map(group).join('')}</dl></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'dist.html', card: card('dist.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const laplace = all(r.root).find((n) => n.title.startsWith('Function: PDF.LAPLACE'))!;
    expect(laplace.title).toBe('Function: PDF.LAPLACE (x, location, scale), CDF.LAPLACE (x, location, scale), IDF.LAPLACE (x, location, scale),…');
    expect(laplace.content).toContain('RV.LAPLACE (x, location, scale)');
  });

  it('each section spans the file\'s lines from its heading to the next one\'s, its parts inside it; a term from its <dt>', async () => {
    const page = ['<html><head><title>Guide</title></head>', '<body>', '<h1>Guide</h1>', '<p>Intro.</p>', '<h2>Setup</h2>', '<p>Install it.</p>', '<h3>Linux</h3>', '<p>Use apt.</p>', '<p>Then run it.</p>', '<h2>Options</h2>', '<dl>',
      ...Array.from({ length: 5 }, (_, i) => [`<dt>--opt${i}</dt>`, `<dd>${'Option text that explains what it does in some detail. '.repeat(7)}</dd>`]).flat(), '</dl>', '</body></html>'].join('\n');
    const r = await htmlConverter.convert({ absPath: 'g.html', card: card('g.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const lines = page.split('\n');
    const at = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
    const find = (title: string) => all(r.root).find((n) => n.title === title)!;
    expect(r.root.line_range).toEqual([1, lines.length]);
    expect(r.line_count).toBe(lines.length);
    expect(find('Setup').line_range).toEqual([at('<h2>Setup'), at('<h2>Options') - 1]);
    expect(find('Linux').line_range).toEqual([at('<h3>Linux'), at('<h2>Options') - 1]);
    expect(find('--opt2').line_range).toEqual([at('<dt>--opt2'), at('<dt>--opt3') - 1]);
    expect(find('--opt4').line_range).toEqual([at('<dt>--opt4'), lines.length]);
  });

  it('--lines of an HTML page reads the text of the sections over them, not its markup', async () => {
    const { readSource } = await import('../src/retrieve/read.js');
    const root = tempStore();
    roots.push(root);
    const page = ['<html><head><title>Guide</title></head><body>', '<h1>Guide</h1>', '<h2>Setup</h2>', '<p>Install it with apt.</p>', '<h2>Usage</h2>', '<p>Run guide --now.</p>', '</body></html>'].join('\n');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(root, 'inbox', 'guide.html'), page);
    await ingest(root, { paths: [join(root, 'inbox')] });
    const got = readSource(root, 'guide.html', { lines: '5-6' });
    expect(got.text).toContain('Run guide --now.');
    expect(got.text).not.toContain('<p>');
    expect(got.text).not.toContain('Install it with apt.');
    expect(got.note).toMatch(/not its file's lines/);
  });

  it('keeps the main content only: nav, header, cookie banner, aside, footer, scripts and styles are dropped', async () => {
    const r = await htmlConverter.convert({ absPath: F('release-notes.html'), card: card('release-notes.html', 'html'), bytes: readFileSync(F('release-notes.html')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.title).toBe('Orbit 4.2 Release Notes');
    expect(outline(r.root)).toEqual([
      'Orbit 4.2 Release Notes',
      '  Highlights',
      '  Performance',
      '    Memory use',
      '  Offline mode',
      '    Limits',
      '  Breaking changes',
    ]);
    const t = text(r);
    for (const gone of ['Pricing', 'Privacy', 'gtag', 'dataLayer', 'cookies', 'Related posts', 'font-family', '© 2024']) expect(t).not.toContain(gone);
    // links kept as their text; lists, tables as rows, code blocks, image alt text
    expect(r.root.content).toContain('Read the upgrade guide before updating production servers.');
    expect(t).toContain('- Sync is up to 3× faster on large projects.');
    expect(t).toContain('| Project size | 4.1 sync | 4.2 sync |');
    expect(t).toContain('| Large (250k files) | 7 min 40 s | 2 min 31 s |');
    expect(t).toContain('[image: Offline mode banner in the mobile app]');
    expect(t).toContain('GET /api/v2/projects/{id}/files');
    expect(r.card?.summary).toContain('faster sync');
    expect(r.meta).toMatchObject({ tables: '1', lang: 'en' });
  });

  it('drops the navigation bars documentation generators print on every page (DocBook, Texinfo, Javadoc)', async () => {
    const page = [
      '<html><head><title>16.2. Estimating Valuation</title></head><body>',
      '<div class="navheader"><table><tr><th colspan="3">16.2. Estimating Valuation</th></tr><tr><td><a href="a.html">&lt;&lt;&lt; Prev</a></td><th>Chapter 16. Depreciation</th><td><a href="b.html">Next &gt;&gt;&gt;</a></td></tr></table></div>',
      '<div class="nav-panel"><p>Next: <a href="c.html">Loans</a>, Up: <a href="d.html">Top</a></p></div>',
      '<div class="section"><h2>16.2. Estimating Valuation</h2><p>A central issue with depreciation is the future value of the asset.</p></div>',
      '<div class="navfooter"><table><tr><td><a href="a.html">Prev</a></td><td><a href="index.html">Home</a></td></tr></table></div>',
      '<div class="topNav"><a href="overview.html">Overview</a></div></body></html>',
    ].join('');
    const r = await htmlConverter.convert({ absPath: 'dep.html', card: card('dep.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const t = text(r);
    expect(t).toContain('A central issue with depreciation');
    for (const gone of ['Prev', 'Next', 'Chapter 16. Depreciation', 'Loans', 'Home', 'Overview']) expect(t).not.toContain(gone);
  });

  it('drops Texinfo 6\'s navigation bar (div.header "Next: … Previous: … Up: …"), not a site\'s header holding its title', async () => {
    const page = [
      '<html><head><title>NCO User Guide</title></head><body>',
      '<div class="section" id="Combine"><div class="header"><p>Next: <a href="#A">Annual Average over Regions</a>, Previous: <a href="#C">Combine Files</a>, Up: <a href="#U">CMIP5 Example</a> &nbsp; [<a href="#T">Contents</a>]</p></div>',
      '<h3 class="section">7.2 Global Distribution</h3><p>This section illustrates how to calculate the global distribution of long-term averages.</p></div>',
      '<div class="header"><p>Field notes from the Palmer station</p></div><h2>Penguins</h2><p>Adelie penguins nest on rocky slopes.</p>',
      '</body></html>',
    ].join('');
    const r = await htmlConverter.convert({ absPath: 'nco.html', card: card('nco.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const t = text(r);
    expect(t).toContain('global distribution of long-term averages');
    expect(t).not.toMatch(/Next:|Previous:|Annual Average over Regions/);
    expect(t).toContain('Field notes from the Palmer station');
  });

  it('a heading that is only a footnote\'s mark ("(1)", Texinfo\'s footnotes) is text of its section, not a section', async () => {
    const page = [
      '<html><head><title>NCO User Guide</title></head><body><h2>Usage</h2><p>Run ncks.</p>',
      '<h4 class="footnotes-heading">Footnotes</h4>',
      '<h5><a id="FOOT1" href="#DOCF1">(1)</a></h5><p>To produce these formats, nco.texi was run through texi2dvi.</p>',
      '<h5><a id="FOOT2" href="#DOCF2">(2)</a></h5><p>The Postscript file puts the contents last.</p>',
      '<h5>[3]</h5><p>A third note.</p></body></html>',
    ].join('');
    const r = await htmlConverter.convert({ absPath: 'nco.html', card: card('nco.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const all: string[] = [];
    const walk = (n: ConvertedNode) => { all.push(n.title); n.children.forEach(walk); };
    walk(r.root);
    expect(all.some((t) => /^[([]\d+[)\]]$/.test(t))).toBe(false);
    expect(text(r)).toMatch(/\(1\)\s+To produce these formats/);
  });

  it('a page of a manual split into pages is titled with the manual its home link names, and its one heading is still the page itself', async () => {
    const page = (head: string) => [
      `<html><head><title>8.11. Curves</title>${head}</head><body>`,
      '<div class="sect1"><h2>8.11. Curves</h2><p>The Curves tool is the most sophisticated tool for changing the color, brightness, contrast or transparency.</p>',
      '<h3>8.11.1. Activating the tool</h3><p>You can get to this tool from the Colors menu.</p></div></body></html>',
    ].join('');
    const r = await htmlConverter.convert({ absPath: 'c.html', card: card('c.html', 'html'), bytes: Buffer.from(page('<link rel="home" href="index.html" title="GNU Image Manipulation Program" />')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.title).toBe('8.11. Curves — GNU Image Manipulation Program');
    expect(r.root.children.map((c) => c.title)).toEqual(['8.11.1. Activating the tool']);
    // no home link, or a title naming the manual already: the page's own title
    const plain = await htmlConverter.convert({ absPath: 'c.html', card: card('c.html', 'html'), bytes: Buffer.from(page('')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(plain.title).toBe('8.11. Curves');
    const named = await htmlConverter.convert({ absPath: 'c.html', card: card('c.html', 'html'), bytes: Buffer.from(page('<link rel="home" href="index.html" title="Curves" />')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(named.title).toBe('8.11. Curves');
    const home = await htmlConverter.convert({ absPath: 'c.html', card: card('c.html', 'html'), bytes: Buffer.from(page('<link rel="home" href="index.html" title="Home" />')), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(home.title).toBe('8.11. Curves');
    // PostgreSQL's pages name it only in the navigation bar's Home link (the bar itself is dropped)
    const bar = '<div class="navheader"><table><tr><td><a accesskey="h" href="index.html" title="PostgreSQL 15.20 Documentation">Home</a></td></tr></table></div>';
    const pg = await htmlConverter.convert({ absPath: 'c.html', card: card('c.html', 'html'), bytes: Buffer.from(page('').replace('<body>', `<body>${bar}`)), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(pg.title).toBe('8.11. Curves — PostgreSQL 15.20 Documentation');
    expect(text(pg)).not.toContain('Home');
  });

  it('a block inside a definition (a nested list of terms, paragraphs) is read as lines of its own, not glued to the text around it', async () => {
    const page = ['<html><head><title>ctest(1)</title></head><body><h1>ctest(1)</h1><dl>',
      '<dt>--repeat &lt;mode&gt;:&lt;n&gt;</dt><dd><p>Run tests repeatedly. The modes are:</p><dl>',
      '<dt><code>until-fail</code></dt><dd><p>Require each test to run n times without failing.</p></dd>',
      '<dt><code>until-pass</code></dt><dd><p>Allow each test to run up to n times in order to pass.</p></dd></dl></dd>',
      '<dt>--stop-on-failure</dt><dd><p>Stop running the tests when the first failure happens.</p></dd>',
      '<dt>--schedule-random</dt><dd><p>Use a random order for scheduling tests.</p></dd>',
      '<dt>--quiet</dt><dd><p>Make ctest quiet.</p></dd></dl></body></html>'].join('');
    const r = await htmlConverter.convert({ absPath: 'ctest.html', card: card('ctest.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    const t = text(r);
    expect(t).not.toMatch(/until-passAllow|are:until/);
    expect(t).toMatch(/^until-pass$/m);
    expect(t).toMatch(/^Allow each test to run up to n times in order to pass\.$/m);
  });

  it('falls back to the body when there is no <main>, and refuses a page with no text', async () => {
    const page = '<html><body><form id="aspnetForm"><nav>Menu</nav><h1>Notes</h1><p>First para.</p><h2>Part</h2><p>Second.</p><input type="submit" value="Go"></form></body></html>';
    const r = await htmlConverter.convert({ absPath: 'x.html', card: card('x.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root)).toEqual(['Notes', '  Part']);
    expect(text(r)).not.toContain('Menu');
    // unknown/legacy inline tags stay inline; source newlines are spaces; <br> breaks the line
    const legacy = '<html><head><title>zlib</title></head><body><h2>zlib</h2><p>Call\n<tt>deflate()</tt> and <font color="red">inflate()</font>.<br>Next line.</p></body></html>';
    const r2 = await htmlConverter.convert({ absPath: 'z.html', card: card('z.html', 'html'), bytes: Buffer.from(legacy), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r2.root.children).toEqual([]);
    expect(r2.root.content).toBe('## zlib\n\nCall deflate() and inflate().\nNext line.');
    // a long section is split into paragraph groups; its subsections follow them
    const para = (i: number) => `<p>Paragraph ${i}. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8)}</p>`;
    const long = `<html><body><h1>Guide</h1><h2>Setup</h2>${Array.from({ length: 20 }, (_, i) => para(i + 1)).join('')}<h3>Proxy</h3><p>Set HTTPS_PROXY.</p></body></html>`;
    const r3 = await htmlConverter.convert({ absPath: 'l.html', card: card('l.html', 'html'), bytes: Buffer.from(long), plan: {} as never, options: { maxLeafPages: 5 } });
    const setup = r3.root.children[0]!;
    expect(setup.content).toBe('## Setup');
    expect(setup.children.map((c) => c.kind)).toEqual(['paragraphs', 'paragraphs', 'paragraphs', 'paragraphs', 'section']);
    expect(setup.children[0]!.title.startsWith('Paragraph 1.')).toBe(true);
    expect(setup.children.slice(0, 4).map((c) => c.content).join('\n\n')).toContain('Paragraph 20.');
    const empty = '<html><body><nav>Menu</nav><script>x()</script></body></html>';
    await expect(htmlConverter.convert({ absPath: 'y.html', card: card('y.html', 'html'), bytes: Buffer.from(empty), plan: {} as never, options: { maxLeafPages: 5 } })).rejects.toThrow(/no readable text/);
  });
});

describe('html nested deeper than the walk can follow', () => {
  it('reads a page of thousands of unclosed tags: the text below the depth bound kept in order, and one warning', async () => {
    const n = 20_000;
    const page = `<html><body><h1>Deep</h1><p>Intro.</p>${'<div>'.repeat(n)}<p>first inside</p><p>second inside</p>${'</div>'.repeat(n)}<h2>After</h2><p>Tail ${'<font>'.repeat(n)}fonted words</p></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'd.html', card: card('d.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root)).toEqual(['Deep', '  After']);
    expect(r.root.content).toMatch(/Intro\.\s+first inside second inside/);
    expect(r.root.children[0]!.content).toMatch(/Tail\s+fonted words/);
    expect(r.warnings).toEqual([expect.stringMatching(/nests elements more than 256 deep \(unclosed tags\?\) in 2 place\(s\)/)]);
  });

  it('leaves an ordinary page untouched and says nothing', async () => {
    const page = '<html><body><h1>T</h1><div><div><p>a <b><i>b</i></b></p></div></div></body></html>';
    const r = await htmlConverter.convert({ absPath: 'o.html', card: card('o.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.root.content).toBe('# T\n\na b');
    expect(r.warnings).toBeUndefined();
  });
});

describe('html outlines (issue 14)', () => {
  it('strips permalink marks from headings and makes a long definition list one node per term', async () => {
    const def = (t: string) => `<dt><code>--${t}</code></dt><dd><p>The ${t} option ${'changes how the tool behaves in this case. '.repeat(10)}</p></dd>`;
    const html = `<html><head><title>tool(1)</title></head><body><h1>tool<a class="headerlink" href="#tool">¶</a></h1><p>Intro.</p>
      <h2>Options<a class="headerlink" href="#options" title="Permalink to this heading">¶</a></h2><dl>${['verbose', 'quiet', 'output', 'force'].map(def).join('')}</dl>
      <h2>Short list</h2><dl><dt>a</dt><dd>first</dd><dt>b</dt><dd>second</dd></dl>
      <h2>Icon font<a class="headerlink" href="#icon-font" title="Permalink to this heading">\uf0c1</a></h2><p>BIND's Sphinx theme.</p></body></html>`;
    const bytes = new TextEncoder().encode(html);
    const r = await htmlConverter.convert({ absPath: 'tool.html', card: card('tool.html', 'html'), bytes, plan: {} as never, options: { maxLeafPages: 5 } });
    const titles = outline(r.root).join('\n');
    expect(titles).not.toContain('¶');
    // an icon font's permalink glyph (private use area) is no part of the title
    expect(all(r.root).map((n) => n.title)).toContain('Icon font');
    const options = all(r.root).find((n) => n.title === 'Options')!;
    expect(options.children.map((c) => c.title)).toEqual(['--verbose', '--quiet', '--output', '--force']);
    expect(options.children[2]!.content).toContain('The output option');
    const short = all(r.root).find((n) => n.title === 'Short list')!;
    expect(short.children).toEqual([]);
    expect(short.content).toContain('**a**\nfirst');
  });

  it('a section holding only a list of links to places in the page (Doxygen\'s "FAQ Index") is its contents, never suggested; a list of links elsewhere is text', async () => {
    const qs = ['volatile', 'libm', 'regbind', 'startup', 'reset'];
    const index = `<ol>${qs.map((q) => `<li><a class="el" href="FAQ.html#faq_${q}">Question about ${q}</a></li>`).join('')}</ol>`;
    const away = `<ul>${qs.map((q) => `<li><a href="other.html#${q}">Page on ${q}</a></li>`).join('')}</ul>`;
    const html = `<html><body><h1><a class="anchor" id="faq_index"></a>FAQ Index</h1><p><a name="a0_FAQ"></a></p>${index}
      ${qs.map((q) => `<h1><a class="anchor" id="faq_${q}"></a>Question about ${q}</h1><p>The answer about ${q}.</p>`).join('')}
      <h1>Related pages</h1>${away}<h1>Mixed</h1><p>Some text first.</p>${index}</body></html>`;
    const r = await htmlConverter.convert({ absPath: 'FAQ.html', card: card('FAQ.html', 'html'), bytes: new TextEncoder().encode(html), plan: {} as never, options: { maxLeafPages: 5 } });
    const kinds = Object.fromEntries(all(r.root).map((n) => [n.title, n.kind]));
    expect(kinds['FAQ Index']).toBe('contents');
    expect(kinds['Question about libm']).toBe('section');
    expect(kinds['Related pages']).toBe('section');
    expect(kinds['Mixed']).toBe('section');
  });

  it('a DocBook title page\'s author set as a heading is text of the title page, not a section', async () => {
    const html = `<HTML><BODY><DIV CLASS="BOOK"><DIV CLASS="TITLEPAGE"><H1 CLASS="title">LifeLines Documentation</H1><H2 CLASS="subtitle">LifeLines Version 3.0.61</H2>
      <H3 CLASS="author">Thomas T. Wetmore , IV</H3><HR></DIV><H1>Chapter 1. Users' Manual</H1><P>Text of the manual.</P><H2>1.1. INTRODUCTION</H2><P>LifeLines is a genealogy program.</P></DIV></BODY></HTML>`;
    const r = await htmlConverter.convert({ absPath: 'guide.html', card: card('guide.html', 'html'), bytes: new TextEncoder().encode(html), plan: {} as never, options: { maxLeafPages: 5 } });
    const titles = all(r.root).map((n) => n.title);
    expect(titles).not.toContain('Thomas T. Wetmore , IV');
    expect(titles).toContain('1.1. INTRODUCTION');
    expect(JSON.stringify(r.root)).toContain('Thomas T. Wetmore , IV');
  });

  it('a note, tip or warning box is a labelled part of the section it is printed in, not a section taking the text after it', async () => {
    const html = `<html><body><div class="sect2"><h3 class="title">25.1.5. Preventing Transaction ID Wraparound Failures</h3><p>Transaction IDs wrap.</p>
      <div class="note"><h3 class="title">Note</h3><p>Before 9.4 freezing replaced xmin.</p></div>
      <p>The table is scanned when age exceeds autovacuum_freeze_max_age.</p>
      <aside><h4>Tip</h4><p>Lower the setting on busy tables.</p></aside><p>pg_xact takes about 0.5 GB.</p>
      <h4>25.1.5.1. Multixacts and Wraparound</h4><p>Multixact IDs wrap too.</p></div></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'vacuum.html', card: card('vacuum.html', 'html'), bytes: new TextEncoder().encode(html), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root).slice(1).map((l) => l.replace(/ \[.*$/, ''))).toEqual(['  25.1.5. Preventing Transaction ID Wraparound Failures', '    25.1.5.1. Multixacts and Wraparound']);
    const section = r.root.children[0]!.content ?? '';
    expect(section).toContain('**Note**\n\nBefore 9.4 freezing replaced xmin.');
    expect(section).toContain('pg_xact takes about 0.5 GB.');
  });

  it('a DocBook reference entry is one section titled by its name and purpose, its Name / Synopsis / Description under it', async () => {
    const entry = (name: string, purpose: string) => `<div class="refentry"><a name="${name}"></a><div class="titlepage"></div>
      <div class="refnamediv"><h2>Name</h2><p>${name} &#8212; ${purpose}</p></div>
      <div class="refsynopsisdiv"><h2>Synopsis</h2><p>float ${name}(geometry g1, geometry g2);</p></div>
      <div class="refsection"><h2>Description</h2><p>For ${name}: ${purpose}</p></div></div>`;
    const html = `<html><body><div class="chapter"><h1>Chapter 8. Functions</h1>
      <div class="sect1"><h2 class="title">8.1. Measurement Functions</h2><p>Functions that measure.</p>
      ${entry('ST_Distance', 'Returns the distance between two geometry values.')}${entry('ST_Length', 'Returns the 2D length of a linear geometry.')}</div>
      <div class="sect1"><h2 class="title">8.2. Accessors</h2>${entry('ST_X', 'Returns the X coordinate of a Point.')}</div></div></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'ref.html', card: card('ref.html', 'html'), bytes: new TextEncoder().encode(html), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root).slice(1).map((l) => l.replace(/ \[.*$/, ''))).toEqual([
      '  8.1. Measurement Functions',
      '    ST_Distance — Returns the distance between two geometry values.',
      '      Synopsis',
      '      Description',
      '    ST_Length — Returns the 2D length of a linear geometry.',
      '      Synopsis',
      '      Description',
      '  8.2. Accessors',
      '    ST_X — Returns the X coordinate of a Point.',
      '      Synopsis',
      '      Description',
    ]);
    const distance = all(r.root).find((n) => n.title.startsWith('ST_Distance'))!;
    expect(distance.children.find((c) => c.title === 'Description')!.content).toContain('For ST_Distance');
    expect(distance.meta?.['anchor']).toBe('ST_Distance');
  });

  it('keeps where each section and term can be linked to (its permalink, id, or the id of the section it opens)', async () => {
    const html = `<html><body><section id="intro-sec"><h1>Tool</h1><p>Intro text for the tool.</p>
      <h2 id="usage">Usage</h2><p>Run it.</p>
      <h2>Options beside <a href="#usage">usage</a><a class="headerlink" href="#options-list">¶</a></h2><dl>
      ${['verbose', 'quiet', 'output', 'force'].map((t) => `<dt id="opt-${t}"><code>--${t}</code></dt><dd><p>The ${t} option ${'changes how the tool behaves in this case. '.repeat(10)}</p></dd>`).join('')}</dl>
      <h2>Plain</h2><p>No anchor here.</p></section></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'tool.html', card: card('tool.html', 'html'), bytes: new TextEncoder().encode(html), plan: {} as never, options: { maxLeafPages: 5 } });
    const anchor = (title: string) => all(r.root).find((n) => n.title === title)?.meta?.['anchor'];
    expect(anchor('Tool')).toBe('intro-sec');
    expect(anchor('Usage')).toBe('usage');
    // the permalink, not the cross-reference beside it
    expect(anchor('Options beside usage')).toBe('options-list');
    expect(anchor('--quiet')).toBe('opt-quiet');
    expect(anchor('Plain')).toBeUndefined();
    // a citation points at the anchor, else (no page, line or row either) names the section by its title
    const entry = { id: 'src_1', original_path: 'docs/tool.html', title: 'Tool', sha256: 'x', type: 'html' } as unknown as CatalogEntry;
    expect(makeCitation(entry, { node_id: '0002', node_title: 'Usage', anchor: 'usage' }).text).toBe('docs/tool.html#usage (src_1, node 0002)');
    expect(makeCitation(entry, { node_id: '0004', node_title: 'Plain' }).text).toBe('docs/tool.html, section "Plain" (src_1, node 0004)');
    expect(makeCitation(entry, { node_id: '0004', node_title: 'Plain', lines: [3, 9] }).text).toBe('docs/tool.html, lines 3-9 (src_1, node 0004)');
  });

  it('reads XHTML-style self-closed anchors, headings left open and <pre> blank lines as a browser shows them', async () => {
    // gtk-doc: `<a name="x"/>` in each heading; parse5 left each anchor open, and it swallowed the section's table as inline text
    const gtk = `<html><body><div class="refsect2"><h3><a name="xsltInit"/>xsltInit ()</h3><pre class="programlisting">
void	xsltInit	(void)
</pre><p>Initializes the processor.</p><table><tr><td>ctxt:</td><td>the XPath context</td></tr><tr><td>nargs:</td><td>the number of arguments</td></tr></table></div>
      <div class="refsect2"><h3><a name="xsltCleanup"/>xsltCleanup ()</h3><p>Frees it.</p></div>
      <h4><a id="FOOT1" href="#DOCF1">(1)</a></h3><p>Actually, the computation is done otherwise.</p></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'g.html', card: card('g.html', 'html'), bytes: Buffer.from(gtk), plan: {} as never, options: { maxLeafPages: 5 } });
    const node = (title: string) => all(r.root).find((n) => n.title === title)!;
    expect(node('xsltInit ()').meta?.['anchor']).toBe('xsltInit');
    expect(node('xsltCleanup ()').meta?.['anchor']).toBe('xsltCleanup');
    expect(node('xsltInit ()').content).toBe('### xsltInit ()\n\n```\nvoid\txsltInit\t(void)\n```\n\nInitializes the processor.\n\n| ctxt: | the XPath context |\n| --- | --- |\n| nargs: | the number of arguments |');
    // a heading whose end tag does not match is closed at its first block: "(1)", not "(1) Actually, …"
    expect(node('(1)').content).toBe('#### (1)\n\nActually, the computation is done otherwise.');
    // no <head>: the title is still read
    const bare = '<title>Bare page</title><h2>One</h2><p>Text.</p><h2>Two</h2><p>More.</p>';
    const r2 = await htmlConverter.convert({ absPath: 'b.html', card: card('b.html', 'html'), bytes: Buffer.from(bare), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r2.title).toBe('Bare page');
    expect(outline(r2.root)).toEqual(['Bare page', '  One', '  Two']);
  });

  it('keeps the text of lists used as indents and finds headings wrapped in anchors (old hand-written pages)', async () => {
    // NIST sclite's manual: sections indented with <UL> and no <LI>, one heading inside <A name>; 17 KB of page had given 1 KB of text
    const page = `<HTML><HEAD><CENTER><TITLE>Scorer</TITLE></HEAD><BODY></CENTER>
      <H1><A NAME="align">THE ALIGNMENT PROCESS</A></H1><p>Two steps.<p><strong>Step 1</strong>
      <UL>The scorer accepts many formats:<UL><p><strong>Utterance ID Matching:</strong><UL>Records with the same id are aligned.</UL></UL></UL>
      <A name="scoring_process"> <H1> THE SCORING PROCESS </H1> </A>
      <UL>Scores are tallied per speaker.<P>The categories tallied are:<CENTER><Table>
      <TR><TD>Percent of inserted words<TD>=<TD><U># Inserted words</U><BR># Reference words<TD>* 100</Table></CENTER></UL>
      <H1>BUGS</H1><ul><li>first</li><ul><li>nested straight in the list</li></ul></ul></BODY></HTML>`;
    const r = await htmlConverter.convert({ absPath: 's.htm', card: card('s.htm', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root)).toEqual(['Scorer', '  THE ALIGNMENT PROCESS', '  THE SCORING PROCESS', '  BUGS']);
    const node = (title: string) => all(r.root).find((n) => n.title === title)!;
    expect(node('THE ALIGNMENT PROCESS').content).toContain('Records with the same id are aligned.');
    expect(node('THE ALIGNMENT PROCESS').content).not.toContain('SCORING');
    expect(node('THE SCORING PROCESS').content).toContain('Percent of inserted words');
    expect(node('THE SCORING PROCESS').content).toContain('# Inserted words');
    expect(node('BUGS').content).toContain('  - nested straight in the list');
  });

  it('titles a section\'s parts by the bold paragraphs over their indented text, nested as they are indented (sclite\'s steps)', async () => {
    const words = (t: string) => `${t} ${'Reference and hypothesis words are aligned by dynamic programming. '.repeat(4)}`;
    const page = `<HTML><BODY><H1>THE ALIGNMENT PROCESS</H1><p>${words('Two steps.')}
      <p><strong> Step 1: Selection of matching texts </strong>
      <UL>${words('Sclite accepts many formats.')}<UL><p><strong>Utterance ID Matching:</strong><UL>${words('Same ids.')}</UL>
      <p><strong>Segment Time Marks</strong><UL>${words('Times are compared.')}</UL></UL></UL>
      <p><strong> Step 2: Text Alignments </strong><UL>${words('Two algorithms.')}</UL>
      <p><b>Note</b> a bold run in a paragraph is no heading.</p>
      <H1>THE SCORING PROCESS</H1><p><strong>Scores</strong></p><p>${words('Tallied per speaker.')}</p></BODY></HTML>`;
    const r = await htmlConverter.convert({ absPath: 's.htm', card: card('s.htm', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root)).toEqual(['s', '  THE ALIGNMENT PROCESS', '    Step 1: Selection of matching texts', '      Segment Time Marks', '    Step 2: Text Alignments', '  THE SCORING PROCESS']);
    const node = (title: string) => all(r.root).find((n) => n.title === title)!;
    expect(node('Step 1: Selection of matching texts').content).toContain('Utterance ID Matching:\n\nSame ids.');
    expect(node('Segment Time Marks').content).toContain('Times are compared.');
    expect(node('Step 2: Text Alignments').content).toContain('Note a bold run in a paragraph is no heading.');
    // the bold paragraph not over an indented block stays text
    expect(node('THE SCORING PROCESS').content).toContain('Scores');
  });

  it('reads a page laid out in a table, its sections titled by bold paragraphs, as sections (MRIcron\'s dcm2nii page)', async () => {
    const para = (t: string) => `<p>${t} ${'The converter reads the files and writes NIfTI images next to them. '.repeat(10)}</p>`;
    const page = `<html><head><title>dcm2nii</title></head><body><table><tr><td width="20%"><a href="a.html">Home</a></td>
      <td width="100%"><p>dcm2nii converts images.</p><p><b>Installation</b></p>${para('Unzip the archive.')}${para('Run it once.')}
      <p><font size="+1"><b>Running DCM2NII</b></font></p>${para('Drop files on the icon.')}<ul><li>one</li><li>two</li></ul>
      <p><b>Note:</b> a bold lead-in is no heading.</p><p><b>A long bold sentence that ends like a sentence does.</b></p></td></tr></table>
      <table><tr><td>Key</td><td>Value</td></tr><tr><td>n</td><td>${para('A data cell.')}</td></tr></table></body></html>`;
    const r = await htmlConverter.convert({ absPath: 'd.html', card: card('d.html', 'html'), bytes: Buffer.from(page), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(outline(r.root)).toEqual(['dcm2nii', '  Installation', '  Running DCM2NII']);
    const running = all(r.root).find((n) => n.title === 'Running DCM2NII')!;
    expect(running.content).toContain('- one\n- two');
    expect(running.content).toContain('Note: a bold lead-in is no heading.');
    // a short table (or one of data cells) is still read as rows
    expect(running.content).toContain('| Key | Value |');
    // one bold paragraph is not enough to call it the page's headings
    const single = '<html><body><p><b>Warning</b></p><p>Text.</p><h2>Real</h2><p>More.</p></body></html>';
    const r2 = await htmlConverter.convert({ absPath: 's.html', card: card('s.html', 'html'), bytes: Buffer.from(single), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(all(r2.root).map((n) => n.title)).not.toContain('Warning');
  });
});
