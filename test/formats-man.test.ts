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
  it('a no-fill block (.nf/.fi, .EX/.EE) keeps its lines; filled text around it is still one paragraph', async () => {
    const roff = ['.TH PROC 5', '.SH NAME', 'proc \\- process information', '.SH EXAMPLES', 'Run', 'this:', '.nf', '$ echo test | cat', '$ ls /proc/self', '.fi', 'It prints', 'the files.', '.EX', 'a = 1', 'b = 2', '.EE', '.SH FILES', '/proc'].join('\n');
    const r = await manConverter.convert({ absPath: 'proc.5', card: card('proc.5'), bytes: Buffer.from(roff), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.root.children[1]!.content).toBe('Run this:\n\n$ echo test | cat\n$ ls /proc/self\n\nIt prints the files.\n\na = 1\nb = 2');
    expect(r.root.children[2]!.content).toBe('/proc');
  });

  it('a NAME section of several sentences titles the page by its first (pandoc\'s hledger(1))', async () => {
    const roff = ['.TH "HLEDGER" "1" "March 2022"', '.SH NAME', '.PP', 'This is the command-line interface (CLI) for the hledger accounting', 'tool.', 'Here we also describe hledger\\[aq]s concepts and file formats.', 'This manual is for hledger 1.25.', '.SH SYNOPSIS', 'hledger'].join('\n');
    const r = await manConverter.convert({ absPath: 'hledger.1', card: card('hledger.1'), bytes: Buffer.from(roff), plan: {} as never, options: { maxLeafPages: 5 } });
    expect(r.title).toBe('hledger(1) — This is the command-line interface (CLI) for the hledger accounting tool');
    const one = ['.TH LS 1', '.SH NAME', 'ls \\- list directory contents, e.g. files', '.SH SYNOPSIS', 'ls'].join('\n');
    expect((await manConverter.convert({ absPath: 'ls.1', card: card('ls.1'), bytes: Buffer.from(one), plan: {} as never, options: { maxLeafPages: 5 } })).title).toBe('ls(1) — list directory contents, e.g. files');
  });

  it('a tbl table reads as rows of cells, one to a line: no options, formats or rules in the text', async () => {
    const roff = [
      '.TH MEDCON 1', '.SH NAME', 'medcon \\- convert medical images', '.SH DESCRIPTION', 'The supported formats are:', '.TS', 'center,tab(@);', 'c c s', 'l l l.',
      'Format@Explanation@Notation', '------@-----------@--------', 'Ascii@Raw ascii arrays@\\fB\'ascii\'\\fR', '_', 'DICOM@T{', 'uses the', 'VT-DICOM library', 'T}@\'dicom\'', '.TE', 'Formats are read by their extension.',
      '.SH FILES', '.TS', 'l l.', '/etc/medcon\tthe rc files', '.TE',
      '.SH SPECIFIERS', '.TS', 'allbox tab(:);', 'lB lB.', 'T{', 'Specifier', 'T}:T{', 'Meaning', 'T}', '.T&', 'l l.', '"%a":T{', 'Architecture', 'T}', '.TE',
    ].join('\n');
    const r = await manConverter.convert({ absPath: 'medcon.1', card: card('medcon.1'), bytes: Buffer.from(roff), plan: {} as never, options: { maxLeafPages: 5 } });
    const [, desc, files] = r.root.children;
    expect(desc!.content).toBe("The supported formats are:\n\nFormat | Explanation | Notation\nAscii | Raw ascii arrays | 'ascii'\nDICOM | uses the VT-DICOM library | 'dicom'\n\nFormats are read by their extension.");
    expect(files!.content).toBe('/etc/medcon | the rc files');
    // cells set as text blocks (`T{` … `T}`), one after another on a row (systemd's pages)
    expect(r.root.children[3]!.content).toBe('Specifier | Meaning\n"%a" | Architecture');
  });

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
    // `\c` joins a line to the next and prints nothing (hebcal(1): "to \c" / ".I deg \c" / "degrees")
    expect(roffText('Set the latitude to \\c')).toBe('Set the latitude to');
    expect(roffText('deg \\c')).toBe('deg');
    expect(mdocText('Fl o Ar file Xr ls 1 .')).toBe('-o file ls(1).');
    const err = await manConverter.convert({ absPath: 'x.man', card: card('x.man'), bytes: Buffer.from('.TH X 1\nno sections\n'), plan: {} as never, options: { maxLeafPages: 5 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConvertError);
  });
});

describe('help2man pages and indented paragraphs', () => {
  const help2man = [
    '.TH BENCH "1" "January 2023" "bench 1.0" "User Commands"',
    '.SH NAME', 'bench \\- time commands',
    '.SH OPTIONS',
    '.HP', '\\fB\\-w\\fR, \\fB\\-\\-warmup\\fR <NUM>', '.IP', 'Perform NUM warmup runs first.',
    '.HP', '\\fB\\-m\\fR, \\fB\\-\\-min\\-runs\\fR <NUM>', '.IP', 'At least NUM runs.',
    '.HP', '\\fB\\-r\\fR <NUM>', '.IP', 'Exactly NUM runs.',
    '.TP', '.B \\-d', 'Dump the code.', '.IP', 'A second paragraph of -d.',
    '.PP', 'Back at the margin.',
  ].join('\n');

  it('.HP terms are options like .TP ones; an untagged .IP goes on with the option it follows', async () => {
    const r = await manConverter.convert({ absPath: 'bench.1', card: card('bench.1'), bytes: Buffer.from(help2man), plan: {} as never, options: { maxLeafPages: 5 } });
    const opts = r.root.children.find((c) => c.title === 'OPTIONS')!;
    expect(opts.children.map((c) => c.title)).toEqual(['-w, --warmup <NUM>', '-m, --min-runs <NUM>', '-r <NUM>', '-d']);
    expect(opts.children[0]!.content).toContain('Perform NUM warmup runs first.');
    expect(opts.children[3]!.content).toContain('A second paragraph of -d.');
    expect(opts.content).toContain('Back at the margin.');
    expect(opts.content ?? '').not.toContain('second paragraph');
  });
});

describe('terms of DocBook, asciidoc and ronn pages (a one-line paragraph before an indented body)', () => {
  const conv = (lines: string[]) => manConverter.convert({ absPath: 'x.5', card: card('x.5'), bytes: Buffer.from(['.TH X 5', '.SH NAME', 'x \\- conf', ...lines].join('\n')), plan: {} as never, options: { maxLeafPages: 5 } });
  const opt = (name: string) => ['.PP', `\\fB${name}\\fR \\fIseconds\\fR`, '.RS 4', `What ${name} does.`, '.sp', 'Reloaded on signal.', '.PP', 'A nested paragraph.', '.RE'];
  const ronn = (name: string) => ['.IP "\\[ci]" 4', `\\fB\\-\\-${name}\\fR:`, '.IP', `The ${name} option.`];

  it('.PP term .RS body .RE (docbook-xsl, asciidoctor) is an option node holding its whole body', async () => {
    const r = await conv(['.SH OPTIONS', ...opt('autosave_interval'), ...opt('persistence'), ...opt('port'), ...opt('user'), '.PP', 'Text after the options.']);
    const o = r.root.children.find((c) => c.title === 'OPTIONS')!;
    expect(o.children.map((c) => c.title)).toEqual(['autosave_interval seconds', 'persistence seconds', 'port seconds', 'user seconds']);
    expect(o.children[0]!.content).toContain('A nested paragraph.');
    expect(o.content).toContain('Text after the options.');
  });

  it('asciidoctor\'s .sp term .RS body .RE entries are option nodes; their own options stay inside; an indented block after .RE .sp goes on with the entry (chrony.conf(5))', async () => {
    // `.sp` opens the paragraph a term stands in, as `.PP` does; a synopsis ending in "..." is a term
    const directive = (name: string) => ['.sp', `\\fB${name}\\fP \\fIhostname\\fP [\\fIoption\\fP]...`, '.RS 4', `The ${name} directive.`, '.sp', '\\fBminpoll\\fP \\fIpoll\\fP', '.RS 4', `Minimum interval of ${name}.`, '.RE', '.RE'];
    const r = await conv(['.SH DIRECTIVES', '.SS "Time sources"', ...directive('server'), ...directive('pool'), ...directive('peer'),
      ...directive('refclock'), '.sp', '', '.RS 4', 'The refclock directive supports the following options:', '.sp', '\\fBpoll\\fP \\fIpoll\\fP', '.RS 4', 'Polling interval of refclock.', '.RE', '.RE',
      '.sp', '\\fBmanual\\fP', '.RS 4', 'The manual directive.', '.RE']);
    const ts = r.root.children.find((c) => c.title === 'DIRECTIVES')!.children[0]!;
    expect(ts.children.map((c) => c.title)).toEqual(['server hostname [option]...', 'pool hostname [option]...', 'peer hostname [option]...', 'refclock hostname [option]...', 'manual']);
    expect(ts.children[1]!.content).toContain('Minimum interval of pool.');
    expect(ts.children[3]!.content).toContain('Polling interval of refclock.');
  });

  it('text printed after a short list of terms stays after it (a section not split into its terms)', async () => {
    const r = await conv(['.SH DESCRIPTION', '.PP', 'Three modes:', '.PP', '\\fBcolumns first\\fP', '.RS 4', 'The default mode.', '.RE', '.PP', '\\fBtable\\fP', '.RS 4', 'A table.', '.RE', '.PP', 'Input is read from a file.']);
    expect(r.root.children.find((c) => c.title === 'DESCRIPTION')!.content).toBe('Three modes:\n\ncolumns first The default mode.\n\ntable A table.\n\nInput is read from a file.');
  });

  it('a bulleted .IP whose one line is followed by an .IP body (ronn) is a term; plain bullets are not', async () => {
    const r = await conv(['.SH OPTIONS', ...ronn('slurp'), ...ronn('tab'), ...ronn('seq'), ...ronn('raw'), '.SH NOTES', '.IP "\\(bu" 4', 'a plain bullet line.', '.IP "\\(bu" 4', 'another one.', '.IP "\\(bu" 4', 'and a third.', '.IP "\\(bu" 4', 'a fourth.']);
    expect(r.root.children.find((c) => c.title === 'OPTIONS')!.children.map((c) => c.title)).toEqual(['--slurp', '--tab', '--seq', '--raw']);
    expect(r.root.children.find((c) => c.title === 'NOTES')!.children).toEqual([]);
  });
});

describe('outline of options whose help has examples, value lists, aliases and subheadings', () => {
  const conv = (lines: string[]) => manConverter.convert({ absPath: 'x.1', card: card('x.1'), bytes: Buffer.from(['.TH X 1', '.SH NAME', 'x \\- tool', ...lines].join('\n')), plan: {} as never, options: { maxLeafPages: 5 } });
  const titles = (n: ConvertedNode | undefined) => (n?.children ?? []).map((c) => c.title);

  it('an "Example:" tag inside an option list goes on with the option before it (help2man)', async () => {
    const opt = (o: string, ex: boolean) => ['.HP', `\\fB\\-${o}\\fR <N>`, '.IP', `Option ${o}.`, ...(ex ? ['.TP', 'Example:', `x \\fB\\-${o}\\fR 3`, '.IP', `Runs ${o} three times.`] : [])];
    const r = await conv(['.SH OPTIONS', ...opt('a', true), ...opt('b', false), ...opt('c', true), ...opt('d', false)]);
    const o = r.root.children.find((c) => c.title === 'OPTIONS')!;
    expect(titles(o)).toEqual(['-a <N>', '-b <N>', '-c <N>', '-d <N>']);
    expect(o.children[0]!.content).toContain('Example: x -a 3');
    expect(o.children[0]!.line_range).toEqual([5, 13]);
    // a list of nothing but labels keeps them as its terms
    const labels = await conv(['.SH PLATFORMS', ...['Linux:', 'BSD:', 'AIX:', 'HP UX:'].flatMap((l) => ['.TP', l, `Notes for ${l}`])]);
    expect(titles(labels.root.children[1])).toEqual(['Linux:', 'BSD:', 'AIX:', 'HP UX:']);
  });

  it('values listed under an option in another font are part of that option, not siblings of it (socat)', async () => {
    const option = (name: string, values: string[]) => [`.IP "\\fB\\f(CW${name}\\fP\\fP"`, `What ${name} does. Valid values are:`, ...values.flatMap((v) => [`.IP "\\f(CW${v}\\fP"`, `Version ${v}.`])];
    const r = await conv(['.SH OPTIONS', ...option('method', ['SSL3', 'TLS1']), ...option('min-version', ['SSL3', 'TLS1', 'TLS1.3']), '.IP "\\fB\\f(CWverify\\fP\\fP"', 'Checks.', '.IP "\\fB\\f(CWcert\\fP\\fP"', 'A file.']);
    const o = r.root.children[1]!;
    expect(titles(o)).toEqual(['method', 'min-version', 'verify', 'cert']);
    expect(o.children[1]!.content).toContain('TLS1.3 Version TLS1.3.');
    // values in the same font as the option are the next entries
    const same = await conv(['.SH DATA', '.IP "data"', 'Types are:', ...['i', 'l', 's', 'x'].flatMap((t) => [`.IP "${t}"`, `Type ${t}.`])]);
    expect(titles(same.root.children[1])).toEqual(['data', 'i', 'l', 's', 'x']);
  });

  it('tags set under one another (.PD 0, .TQ) are spellings of one option', async () => {
    const pair = (s: string, l: string) => ['.TP', `.B \\-${s}`, '.PD 0', '.TP', `.B \\-\\-${l}`, '.PD', `Does ${l}.`];
    const r = await conv(['.SH OPTIONS', ...pair('s', 'snapshot-length'), ...pair('D', 'list'), '.TP', '.B \\-x', '.TQ', '.B \\-\\-hex', 'Hex.', '.TP', '.B \\-q', 'Quiet.']);
    expect(titles(r.root.children[1])).toEqual(['-s, --snapshot-length', '-D, --list', '-x, --hex', '-q']);
  });

  it("a page's own heading macro (.de HD / .sp / .B / ..) opens subsections; a lead-in sentence before an indented example is no term", async () => {
    const r = await conv([
      '.SH OUTPUT FORMAT', '.de HD', '.sp 1.5', '.B', '..', 'Intro text.',
      '.HD', 'Timestamps', '.LP', 'The general format of a line is:', '.RS', '.nf', 'hh:mm:ss', '.fi', '.RE',
      '.HD', 'TCP Packets', '.LP', 'TCP lines are printed as', '.RS', '.nf', 'src > dst', '.fi', '.RE',
      '.HD', '.RS', '.nf', 'a misused call: no title line', '.fi', '.RE',
    ]);
    const out = r.root.children[1]!;
    expect(titles(out)).toEqual(['Timestamps', 'TCP Packets']);
    expect(out.content).toBe('Intro text.');
    expect(out.children[0]!.content).toContain('The general format of a line is:');
    expect(out.children[1]!.content).toContain('a misused call');
    expect(JSON.stringify(r.root)).not.toContain('..');
  });

  it("the page's own request macros run where called (rst2man's .INDENT/.UNINDENT, pod2man's .Vb/.Ve/.Sp); no call is printed as text", async () => {
    const r = await conv([
      '.de1 INDENT', '. RS \\$1', '. nr rst2man-indent-level +1', '..', '.de UNINDENT', '. RE', '..',
      '.de Sp', '.if t .sp .5v', '.if n .sp', '..', '.de Vb', '.Sp', '.in +4n', '.nf', '..', '.de Ve', '.fi', '.in -4n', '.Sp', '..',
      '.SH OPTIONS', 'The following control parameters can appear in any order:', '.INDENT 0.0',
      '.TP', '.B \\-I', 'Inverse translation.', '.UNINDENT', '.INDENT 0.0',
      '.TP', '.B \\-r', 'Reverses the order of the inputs.', '.Sp', 'Second paragraph.', '.UNINDENT', '.INDENT 0.0',
      '.TP', '.B \\-s', 'Reverses the order of the outputs.', '.UNINDENT', '.INDENT 0.0', '.TP', '.B \\-v', 'Lists the parameters used.', '.UNINDENT',
      '.SH EXAMPLES', 'Run it so:', '.Vb 2', 'cs2cs +proj=latlong', '  +to +proj=utm', '.Ve', 'Done.', '.UNKNOWNMACRO with args',
    ]);
    const all = JSON.stringify(r.root);
    expect(all).not.toMatch(/INDENT|UNINDENT|\bVb\b|\bVe\b|\bSp\b|UNKNOWNMACRO/);
    expect(titles(r.root.children[1])).toContain('-I');
    expect(titles(r.root.children[1])).toContain('-r');
    const ex = r.root.children[2]!.content!;
    // the verbatim block keeps its two lines
    expect(ex).toMatch(/cs2cs \+proj=latlong\n\s*\+to \+proj=utm/);
  });

  it('text after an item\'s body goes on with that item, in reading order; a lead-in opens the next; a long run stays the section\'s', async () => {
    const item = (t: string, body: string) => ['.IP "' + t + '"', body];
    const r = await conv([
      '.SH OPTIONS FOR SUGGESTION', 'Options that shape suggestions.',
      ...item('KEY characters_separated_by_vertical_line', 'Neighbor characters on the keyboard.'),
      ...item('TRY characters', 'Hunspell can suggest right word forms.'),
      ...item('REP what replacement', 'This table specifies modifications to try first. For example:'),
      '.PP', '.RS', '.nf', 'REP 1', 'REP onetwothree one_two_three', '.fi', '.RE', '.PP', 'Note II: Suggesting separated words, specify spaces with underlines.',
      '.PP', 'The following sequences are recognized:',
      ...item('MAP number', 'Related characters.'),
      '.PP', ...Array.from({ length: 30 }, (_, i) => `Long aside number ${i} between two items, more than a note or an example holds.`),
      ...item('WARN flag', 'Rare words.'),
      '.PP', ...Array.from({ length: 30 }, (_, i) => `Closing remark number ${i} about the whole list of suggestion options and more words.`),
    ]);
    const sec = r.root.children[1]!;
    const rep = sec.children.find((c) => c.title === 'REP what replacement')!;
    expect(rep.content).toMatch(/REP onetwothree one_two_three[\s\S]*Note II: Suggesting separated words/);
    expect(rep.content).not.toContain('The following sequences are recognized');
    expect(sec.children.find((c) => c.title === 'MAP number')!.content).toMatch(/^The following sequences are recognized:\n\nMAP number/);
    // text after the last item is after the list: the section's
    expect(sec.children.find((c) => c.title === 'WARN flag')!.content).not.toContain('Closing remark');
    // a run longer than a note between two items stays the section's too
    expect(sec.children.find((c) => c.title === 'MAP number')!.content).not.toContain('Long aside');
    expect(sec.content).toContain('Long aside number 0');
    expect(sec.content).toMatch(/^Options that shape suggestions\.\n\nLong aside number 0[\s\S]*Closing remark number 0/);
  });

  it('two option spellings on lines of their own over an indented body are one item (DocBook, PostgreSQL\'s pages)', async () => {
    const opt = (a: string, b: string, body: string) => ['.PP', `\\fB${a}\\fR`, '.br', `\\fB${b}\\fR`, '.RS 4', body, '.RE'];
    const r = await conv(['.SH OPTIONS', '.PP', 'createdb accepts the following arguments:', ...opt('\\-D tablespace', '\\-\\-tablespace=tablespace', 'The default tablespace.'), ...opt('\\-e', '\\-\\-echo', 'Echo the commands.'), ...opt('\\-E encoding', '\\-\\-encoding=encoding', 'The encoding.'), ...opt('\\-l locale', '\\-\\-locale=locale', 'The locale.')]);
    expect(titles(r.root.children[1])).toEqual(['-D tablespace, --tablespace=tablespace', '-e, --echo', '-E encoding, --encoding=encoding', '-l locale, --locale=locale']);
    expect(r.root.children[1]!.children[1]!.content).toContain('Echo the commands.');
  });

  it('one-line paragraphs that lead into an indented example ("… are printed as") are text, not terms', async () => {
    const lead = (what: string) => ['.LP', `${what} requests are formatted as`, '.RS', '.nf', `${what} > dst`, '.fi', '.RE'];
    const r = await conv(['.SH OUTPUT', ...lead('Name'), ...lead('NFS'), ...lead('AFS'), ...lead('SMB')]);
    expect(r.root.children[1]!.children).toEqual([]);
    expect(r.root.children[1]!.content).toContain('NFS requests are formatted as');
  });
});
