#!/usr/bin/env node
/**
 * Builds a hostile folder for MetadataHub in a fresh temporary directory: unreadable files and
 * folders, dangling links, link loops, links out of the folder, special files, names that are not
 * valid UTF-8, empty and huge files, odd text encodings, broken and nested archives, mislabelled
 * files — and the command lines that must be refused with a message (bad --type, --lines past the
 * end, over-long queries, …). Permissions and links do not survive git, so the corpus is made at
 * run time. test/robust-bad-inputs.test.ts runs every case; run this file directly to get a folder
 * to try by hand:
 *
 *   node scripts/make-bad-inputs.mjs [DIR]      # prints the store path and the case list
 *
 * Layout: DIR/store (an initialised store, ingest target DIR/store/inbox), DIR/outside (files the
 * ingest must never copy into the store; every one holds SECRET_MARKER).
 *
 * Permission cases need a user that permissions apply to. As root, the cases are made for uid
 * `nobody` (65534) and `runAs` says to run mhub through `setpriv`; when that is impossible,
 * `permissionCases` is false and those cases expect the file to be readable (said in `note`).
 */
import { chmodSync, closeSync, lchownSync, mkdirSync, mkdtempSync, openSync, readdirSync, lstatSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';

/** Present in every file outside the ingested folder: must never appear in the store. */
export const SECRET_MARKER = 'OUTSIDE-SECRET-7f3a9c';
/** uid/gid the corpus is run as when the tests run as root. */
export const NOBODY = 65534;

// ---------------------------------------------------------------- a minimal zip writer
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip file from entries { name, data, method: 0|8, flags?, rawData? } (rawData replaces the
 * compressed bytes, to make a corrupt member).
 */
export function makeZip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name, 'utf8');
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
    const method = e.method ?? 8;
    const body = e.rawData ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = crc32(data);
    const flags = (e.flags ?? 0) | 0x800;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(20, 4); lh.writeUInt16LE(flags, 6); lh.writeUInt16LE(method, 8);
    lh.writeUInt32LE(0, 10); lh.writeUInt32LE(crc, 14); lh.writeUInt32LE(body.length, 18); lh.writeUInt32LE(data.length, 22);
    lh.writeUInt16LE(name.length, 26); lh.writeUInt16LE(0, 28);
    locals.push(lh, name, body);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE(20, 4); ch.writeUInt16LE(20, 6); ch.writeUInt16LE(flags, 8); ch.writeUInt16LE(method, 10);
    ch.writeUInt32LE(0, 12); ch.writeUInt32LE(crc, 16); ch.writeUInt32LE(body.length, 20); ch.writeUInt32LE(data.length, 24);
    ch.writeUInt16LE(name.length, 28); ch.writeUInt32LE(offset, 42);
    centrals.push(ch, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

// ---------------------------------------------------------------- helpers
const para = (topic) => `${topic}\n\nThis paragraph about ${topic} is ordinary prose so the file has something to index.\n`;

function utf16(text, be, bom) {
  const le = Buffer.from(text, 'utf16le');
  const out = be ? Buffer.from(le).swap16() : le;
  return bom ? Buffer.concat([Buffer.from(be ? [0xfe, 0xff] : [0xff, 0xfe]), out]) : out;
}

function canDropPrivileges() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return false;
  const r = spawnSync('setpriv', ['--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups', 'true'], { encoding: 'utf8' });
  return r.status === 0;
}

/** chown a tree to `uid` (paths as bytes: some names in the corpus are not valid UTF-8). */
function chownTree(p, uid) {
  lchownSync(p, uid, uid);
  const st = lstatSync(p);
  if (st.isDirectory()) for (const n of readdirSync(p, { encoding: 'buffer' })) chownTree(Buffer.concat([Buffer.from(p), Buffer.from('/'), n]), uid);
}

// ---------------------------------------------------------------- the corpus
/**
 * Make the corpus under a new temp folder (or `base`). Returns the paths, the ingest cases (one
 * per path in the folder: what the ingest report must say about it), the command cases (argument
 * lists with the exit code and message they must produce), and how to run mhub.
 */
export function makeBadInputs(base = mkdtempSync(join(tmpdir(), 'mhub-bad-'))) {
  const store = join(base, 'store');
  const inbox = join(store, 'inbox');
  const outside = join(base, 'outside');
  mkdirSync(inbox, { recursive: true });
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), `${SECRET_MARKER}\nprivate notes that live outside the inbox\n`);
  writeFileSync(join(outside, 'dir', 'more.md'), `# ${SECRET_MARKER}\n\nmore private text\n`);
  writeFileSync(join(store, 'config.json'), JSON.stringify({ embedding: { model: 'none' }, llm: { provider: 'none' } }, null, 2) + '\n');
  const dropPrivileges = canDropPrivileges();
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const permissionCases = !asRoot || dropPrivileges;
  const cases = [];
  const I = (rel) => join(inbox, rel);
  /** an ingest case: `path` is the store-relative path the report names; expect.where = 'source' | 'notice' */
  const add = (name, path, expect) => cases.push({ name, path: `inbox/${path}`, expect });

  // ordinary files, so the batch has something that must survive next to the bad ones
  writeFileSync(I('good.md'), `# Good document\n\n${para('quarterly revenue')}`);
  add('a good file next to the bad ones', 'good.md', { where: 'source', status: 'indexed', type: 'markdown' });
  writeFileSync(I('notes.txt'), Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the notes`).join('\n') + '\n');
  add('a plain text file (30 lines)', 'notes.txt', { where: 'source', status: 'indexed', type: 'text' });

  // permissions
  writeFileSync(I('unreadable.txt'), para('locked'));
  chmodSync(I('unreadable.txt'), 0o000);
  add('file without read permission', 'unreadable.txt', permissionCases
    ? { where: 'source', status: 'failed', message: /permission denied.*chmod/i }
    : { where: 'source', status: 'indexed', note: 'root reads it anyway' });
  mkdirSync(I('locked-dir'));
  writeFileSync(I('locked-dir/inside.txt'), para('inside a locked folder'));
  chmodSync(I('locked-dir'), 0o000);
  add('folder without read permission', permissionCases ? 'locked-dir' : 'locked-dir/inside.txt', permissionCases
    ? { where: 'notice', kind: 'unreadable', message: /cannot be read.*permission/i }
    : { where: 'source', status: 'indexed', note: 'root reads it anyway' });
  mkdirSync(I('no-exec-dir'));
  writeFileSync(I('no-exec-dir/file.txt'), para('listed but not enterable'));
  chmodSync(I('no-exec-dir'), 0o644);
  add('folder that can be listed but not entered', 'no-exec-dir/file.txt', permissionCases
    ? { where: 'source', status: 'failed', message: /permission denied/i }
    : { where: 'source', status: 'indexed', note: 'root reads it anyway' });

  // links
  symlinkSync(join(base, 'nowhere.txt'), I('dangling.txt'));
  add('dangling link', 'dangling.txt', { where: 'notice', kind: 'link_dangling', message: /does not exist/ });
  symlinkSync(join(outside, 'secret.txt'), I('secret-link.txt'));
  add('link to a file outside the folder', 'secret-link.txt', { where: 'notice', kind: 'link_outside', message: /outside the folder being ingested.*follow_external_links/ });
  symlinkSync('/etc/passwd', I('passwd'));
  add('link to /etc/passwd', 'passwd', { where: 'notice', kind: 'link_outside', message: /outside the folder/ });
  symlinkSync(join(outside, 'dir'), I('outside-dir'));
  add('link to a folder outside', 'outside-dir', { where: 'notice', kind: 'link_outside', message: /outside the folder/ });
  symlinkSync('../../outside/secret.txt', I('relative-escape.txt'));
  add('relative link climbing out with ../', 'relative-escape.txt', { where: 'notice', kind: 'link_outside', message: /outside the folder/ });
  mkdirSync(I('loop'));
  writeFileSync(I('loop/real.txt'), para('a file beside a loop'));
  symlinkSync('..', I('loop/up'));
  add('link to its own parent (a loop)', 'loop/up', { where: 'notice', kind: 'link_loop', message: /loop/ });
  add('a file beside the loop', 'loop/real.txt', { where: 'source', status: 'indexed' });
  symlinkSync('self-link', I('self-link'));
  add('link to itself', 'self-link', { where: 'notice', kind: 'link_loop', message: /itself/ });
  symlinkSync('ping-b', I('ping-a'));
  symlinkSync('ping-a', I('ping-b'));
  add('two links pointing at each other (a)', 'ping-a', { where: 'notice', kind: 'link_loop' });
  add('two links pointing at each other (b)', 'ping-b', { where: 'notice', kind: 'link_loop' });
  symlinkSync('good.md', I('good-alias.md'));
  add('link to a file inside the folder', 'good-alias.md', { where: 'notice', kind: 'link_duplicate', message: /already ingested under its own path/ });
  mkdirSync(I('real-dir'));
  writeFileSync(I('real-dir/doc.txt'), para('a folder reached twice'));
  symlinkSync('real-dir', I('alias-dir'));
  add('link to a folder inside the folder', 'alias-dir', { where: 'notice', kind: 'link_duplicate', message: /already ingested/ });
  add('the folder the link points to', 'real-dir/doc.txt', { where: 'source', status: 'indexed' });

  // special files
  const fifo = spawnSync('mkfifo', [I('pipe.txt')]);
  if (fifo.status === 0) add('named pipe (FIFO)', 'pipe.txt', { where: 'notice', kind: 'special_file', message: /named pipe/ });
  const sock = spawnSync('python3', ['-c', `import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])`, I('socket.sock')]);
  if (sock.status === 0) add('socket', 'socket.sock', { where: 'notice', kind: 'special_file', message: /socket/ });
  if (asRoot && spawnSync('mknod', [I('device.txt'), 'c', '1', '3']).status === 0) add('character device', 'device.txt', { where: 'notice', kind: 'special_file', message: /character device/ });
  symlinkSync('pipe.txt', I('pipe-link.txt'));
  if (fifo.status === 0) add('link to a FIFO inside the folder', 'pipe-link.txt', { where: 'notice', kind: 'special_file', message: /not a regular file|named pipe/ });

  // names
  writeFileSync(Buffer.from(`${inbox}/bad-\xff\xfe-name.txt`, 'latin1'), para('badly named'));
  add('file name that is not valid UTF-8', 'bad-\\xff\\xfe-name.txt', { where: 'notice', kind: 'bad_name', message: /not valid UTF-8.*rename/ });
  writeFileSync(I('spaces and ünïcödé — 報告.txt'), para('unicode name'));
  add('file name with spaces and non-Latin letters', 'spaces and ünïcödé — 報告.txt', { where: 'source', status: 'indexed' });
  const longName = `${'l'.repeat(240)}.txt`;
  writeFileSync(I(longName), para('long name'));
  add('255-byte file name', longName, { where: 'source', status: 'indexed' });
  const deep = Array.from({ length: 40 }, (_, i) => `d${i}`).join('/');
  mkdirSync(I(deep), { recursive: true });
  writeFileSync(I(`${deep}/deep.txt`), para('deeply nested'));
  add('file 40 folders deep', `${deep}/deep.txt`, { where: 'source', status: 'indexed' });

  // empty and huge
  writeFileSync(I('empty.txt'), '');
  add('empty .txt', 'empty.txt', { where: 'source', status: 'failed', message: /empty/i });
  writeFileSync(I('EMPTY'), '');
  add('empty file without extension', 'EMPTY', { where: 'source', status: 'failed', message: /empty/i });
  writeFileSync(I('blank.md'), '\n\n   \n\t\n');
  add('whitespace-only Markdown', 'blank.md', { where: 'source', status: 'failed', message: /empty/i });
  const fd = openSync(I('huge.log'), 'w');
  ftruncateSync(fd, 3 * 1024 ** 3); // sparse: 3 GB that take no disk
  closeSync(fd);
  add('3 GB (sparse) log file', 'huge.log', { where: 'source', status: ['failed', 'skipped'], message: /too large|larger than|over the/i });

  // encodings
  const latin = 'Café crème, naïve façade. Größe: 5 m². Niño años.';
  writeFileSync(I('latin1.txt'), Buffer.from(`${latin}\n\n${latin}\n`, 'latin1'));
  add('Latin-1 text', 'latin1.txt', { where: 'source', status: 'indexed', type: 'text', text: 'Café crème, naïve façade' });
  writeFileSync(I('cp1252.txt'), Buffer.concat([Buffer.from([0x93]), Buffer.from('Smart quotes', 'latin1'), Buffer.from([0x94, 0x20, 0x80]), Buffer.from(' 100 and an em dash ', 'latin1'), Buffer.from([0x97, 0x0a])]));
  add('Windows-1252 text (smart quotes, euro sign)', 'cp1252.txt', { where: 'source', status: 'indexed', text: '“Smart quotes” € 100 and an em dash —' });
  const uni = 'Unicode text: Zürich, Ελληνικά, 日本語.\n\nSecond paragraph of the UTF-16 file.\n';
  writeFileSync(I('utf16le-bom.txt'), utf16(uni, false, true));
  add('UTF-16 LE with BOM', 'utf16le-bom.txt', { where: 'source', status: 'indexed', type: 'text', text: 'Zürich, Ελληνικά, 日本語' });
  writeFileSync(I('utf16be-bom.txt'), utf16(uni, true, true));
  add('UTF-16 BE with BOM', 'utf16be-bom.txt', { where: 'source', status: 'indexed', type: 'text', text: 'Zürich, Ελληνικά' });
  writeFileSync(I('utf16le-nobom.txt'), utf16(uni, false, false));
  add('UTF-16 LE without BOM', 'utf16le-nobom.txt', { where: 'source', status: 'indexed', type: 'text', text: 'Second paragraph of the UTF-16 file' });
  writeFileSync(I('utf16be-nobom.md'), utf16(`# Heading\n\n${uni}`, true, false));
  add('UTF-16 BE Markdown without BOM', 'utf16be-nobom.md', { where: 'source', status: 'indexed', type: 'markdown', text: 'Zürich' });
  writeFileSync(I('utf8-bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(uni)]));
  add('UTF-8 with BOM', 'utf8-bom.txt', { where: 'source', status: 'indexed', text: 'Unicode text: Zürich' });
  writeFileSync(I('utf16.csv'), utf16('name,city\nAnna,Zürich\nBo,Malmö\n', false, false));
  add('UTF-16 CSV without BOM', 'utf16.csv', { where: 'source', status: 'indexed', type: 'csv' });

  // content decides
  writeFileSync(I('README'), '[1] Introduction\n\nThis text starts with a bracket but is not JSON.\n\n[2] Method\n\nMore text.\n');
  add('extensionless text starting with "["', 'README', { where: 'source', status: 'indexed', type: 'text' });
  writeFileSync(I('data'), '[{"a": 1}, {"a": 2}]\n');
  add('extensionless JSON', 'data', { where: 'source', status: 'indexed', type: 'json' });
  writeFileSync(I('broken.json'), '{"a": 1, "b": [1, 2,\n');
  add('.json that is not valid JSON', 'broken.json', { where: 'source', status: ['indexed', 'failed'] });
  writeFileSync(I('nul.md'), Buffer.concat([Buffer.from('# Title\n\n'), Buffer.alloc(64), Buffer.from('\n')]));
  add('Markdown full of NUL bytes', 'nul.md', { where: 'source', status: ['failed', 'skipped'], message: /binary/i });
  const noise = Buffer.alloc(4096);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 256;
  writeFileSync(I('noise.txt'), noise);
  add('.txt holding random binary', 'noise.txt', { where: 'source', status: ['failed', 'skipped'], message: /binary|not text/i });
  writeFileSync(I('blob'), noise);
  add('extensionless binary', 'blob', { where: 'source', status: 'skipped' });
  writeFileSync(I('fake.pdf'), 'this is not a pdf\n');
  add('.pdf without a PDF signature', 'fake.pdf', { where: 'source', status: 'failed', message: /does not start with a PDF signature/ });
  writeFileSync(I('truncated.pdf'), '%PDF-1.7\n1 0 obj\n<< /Type /Catalog');
  add('truncated PDF', 'truncated.pdf', { where: 'source', status: 'failed', message: /.+/ });
  writeFileSync(I('report.txt.pdf'), '%PDF-1.4\n%%EOF\n');
  add('PDF header with no body', 'report.txt.pdf', { where: 'source', status: 'failed', message: /.+/ });
  writeFileSync(I('truncated.ipynb'), '{"cells": [{"cell_type": "markdown", "source": ["# Cut');
  add('truncated Jupyter notebook', 'truncated.ipynb', { where: 'source', status: 'failed', message: /not valid JSON/ });
  writeFileSync(I('rows.ipynb'), '{"rows": []}\n');
  add('.ipynb that is JSON but no notebook', 'rows.ipynb', { where: 'source', status: 'failed', message: /no notebook cells/ });
  writeFileSync(I('fake.rtf'), 'plain words, no RTF header\n');
  add('.rtf without an RTF header', 'fake.rtf', { where: 'source', status: 'failed', message: /signature/ });
  writeFileSync(I('deep.rtf'), `{\\rtf1\\ansi ${'{\\b '.repeat(50000)}deep words survive\\par${'}'.repeat(50000)}}`);
  add('RTF of 50,000 nested groups', 'deep.rtf', { where: 'source', status: 'indexed', type: 'rtf', text: 'deep words survive' });
  writeFileSync(I('unbalanced.tex'), '\\documentclass{article}\n\\begin{document}\n\\section{Unclosed title\n\\emph{open words and {more\n\\section{Results}\nThe results hold.\n');
  add('LaTeX with unbalanced braces', 'unbalanced.tex', { where: 'source', status: 'indexed', type: 'latex', text: 'The results hold.' });
  // nesting deeper than a recursive reader's stack
  writeFileSync(I('unclosed.html'), `<html><body><h1>Unclosed tags</h1><p>Before.</p>${'<div><font>'.repeat(10000)}<p>deep words survive</p></body></html>`);
  add('HTML page of 20,000 unclosed tags', 'unclosed.html', { where: 'source', status: 'indexed', type: 'html' });
  writeFileSync(I('deep.yaml'), Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' 1\n');
  add('YAML nested 3,000 levels deep', 'deep.yaml', { where: 'source', status: 'failed', message: /nests more levels deep than the YAML reader can follow/ });
  writeFileSync(I('fake.docx'), makeZip([{ name: 'hello.txt', data: 'not a word document' }]));
  add('.docx that is a plain zip', 'fake.docx', { where: 'source', status: ['indexed', 'failed', 'skipped'] });

  // archives
  writeFileSync(I('bundle.zip'), makeZip([{ name: 'a.txt', data: para('member a') }, { name: 'sub/b.md', data: `# B\n\n${para('member b')}` }]));
  add('zip archive', 'bundle.zip', { where: 'source', status: 'indexed', type: 'zip' });
  add('zip member', 'bundle.zip!/a.txt', { where: 'source', status: 'indexed', type: 'text' });
  add('zip member in a sub-folder', 'bundle.zip!/sub/b.md', { where: 'source', status: 'indexed', type: 'markdown' });
  const inner = makeZip([{ name: 'deep.txt', data: para('inside the inner archive') }]);
  writeFileSync(I('nested.zip'), makeZip([{ name: 'inner.zip', data: inner, method: 0 }, { name: 'top.txt', data: para('top level') }]));
  add('zip inside a zip: the inner archive', 'nested.zip!/inner.zip', { where: 'source', status: 'indexed', type: 'zip' });
  add('zip inside a zip: its member', 'nested.zip!/inner.zip!/deep.txt', { where: 'source', status: 'indexed', type: 'text' });
  writeFileSync(I('mixed.zip'), makeZip([
    { name: 'ok.txt', data: para('the good member') },
    { name: 'corrupt.txt', data: para('x'.repeat(200)), rawData: Buffer.from('this is not deflate data at all, just noise'.repeat(3)) },
    { name: '../escape.txt', data: para('escape attempt') },
    { name: '/abs.txt', data: para('absolute') },
    { name: 'bomb.bin', data: Buffer.alloc(4 * 1024 * 1024) },
    { name: 'locked.txt', data: 'x', flags: 0x1, method: 0, rawData: Buffer.alloc(13, 7) },
  ]));
  add('zip with bad members: the archive', 'mixed.zip', { where: 'source', status: 'indexed', type: 'zip' });
  add('zip with bad members: the good one', 'mixed.zip!/ok.txt', { where: 'source', status: 'indexed' });
  add('zip member with corrupt data', 'mixed.zip!/corrupt.txt', { where: 'source', status: 'failed', message: /archive member.*other members/i });
  add('zip member named ../escape.txt', 'mixed.zip!/../escape.txt', { where: 'notice', kind: 'archive_member', message: /unsafe path/ });
  add('zip member with an absolute name', 'mixed.zip!//abs.txt', { where: 'notice', kind: 'archive_member', message: /unsafe path/ });
  add('zip member that inflates 1000:1', 'mixed.zip!/bomb.bin', { where: 'notice', kind: 'archive_member', message: /zip bomb/ });
  add('encrypted zip member', 'mixed.zip!/locked.txt', { where: 'notice', kind: 'archive_member', message: /encrypted/ });
  writeFileSync(I('corrupt.zip'), Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), noise.subarray(0, 200)]));
  add('zip that is not a zip', 'corrupt.zip', { where: 'source', status: 'failed', message: /archive could not be read/ });
  writeFileSync(I('empty.zip'), makeZip([]));
  add('zip with no members', 'empty.zip', { where: 'source', status: ['indexed', 'skipped'] });

  // ignored on purpose (no notice): temp files of interrupted writes and OS metadata
  writeFileSync(I('.DS_Store'), 'x');
  writeFileSync(I('draft.md.tmp-123'), 'x');

  // ---------------------------------------------------------------- command lines
  const commands = [
    { name: 'search with an unknown --type', args: ['search', 'revenue', '--type', 'nosuchtype'], code: 2, message: /unknown type "nosuchtype"[\s\S]*(markdown|pdf)/i },
    { name: 'search with an unknown --type (JSON error)', args: ['search', 'revenue', '--type', 'nosuchtype', '--json'], code: 2, json: true, message: /unknown type/i },
    { name: 'search with an empty query', args: ['search', '   '], code: 2, message: /query/i },
    { name: 'search with -k 0', args: ['search', 'revenue', '-k', '0'], code: 2, message: /-k/ },
    { name: 'search with -k abc', args: ['search', 'revenue', '-k', 'abc'], code: 2, message: /-k/ },
    { name: 'search with a bad --since', args: ['search', 'revenue', '--since', 'yesterday'], code: 2, message: /since/ },
    { name: 'search with a 100 KB query', args: ['search', 'revenue '.repeat(12800), '--json'], code: 0, json: true, message: /only its first \d+ \(up to 2000\) were searched/, maxSeconds: 20 },
    { name: 'read --lines past the end', args: ['read', 'inbox/notes.txt', '--lines', '999999-1000000'], code: 4, message: /30 lines/ },
    { name: 'read --lines partly past the end', args: ['read', 'inbox/notes.txt', '--lines', '25-40'], code: 0, message: /but the source has 30 lines: lines 25-30 returned/ },
    { name: 'read --lines 0-5', args: ['read', 'inbox/notes.txt', '--lines', '0-5'], code: 2, message: /lines/ },
    { name: 'read --lines reversed', args: ['read', 'inbox/notes.txt', '--lines', '9-3'], code: 2, message: /lines/ },
    { name: 'read --lines not a range', args: ['read', 'inbox/notes.txt', '--lines', 'abc'], code: 2, message: /lines/ },
    { name: 'read --pages on a text file', args: ['read', 'inbox/notes.txt', '--pages', '1-2'], code: 2, message: /pages/ },
    { name: 'read --rows past the end of a sheet', args: ['read', 'inbox/utf16.csv', '--rows', '50-60'], code: 4, message: /has 2 (data )?rows; row 50 does not exist/ },
    { name: 'read --rows partly past the end', args: ['read', 'inbox/utf16.csv', '--rows', '1-60', '--json'], code: 0, message: /the sheet has 2 rows: rows 1-2 returned/ },
    { name: 'read --lines with a 30-digit number', args: ['read', 'inbox/notes.txt', '--lines', '1-999999999999999999999999999999'], code: 2, message: /too large/ },
    { name: 'tree --query with a 100 KB query', args: ['tree', 'inbox/notes.txt', '--query', 'notes '.repeat(17000), '--json'], code: 0, message: /only its first \d+ \(up to 2000\) were searched/, maxSeconds: 20 },
    { name: 'read an unknown source', args: ['read', 'no-such-source'], code: 4, message: /No source/ },
    { name: 'read a failed source', args: ['read', 'inbox/empty.txt'], code: 4, message: /failed|empty/i },
    { name: 'tree of an unknown source', args: ['tree', 'src_ffffffff'], code: 4, message: /No source/ },
    { name: 'ingest a path that does not exist', args: ['ingest', 'no/such/folder'], code: 2, message: /Path not found|no such file or folder/ },
    { name: 'ingest the store\'s own catalog.json', args: ['ingest', 'catalog.json', '--json'], code: 0, json: true, message: /part of the store itself/ },
    { name: 'status', args: ['status', '--json'], code: 0, json: true, message: /"failed"/ },
    { name: 'doctor', args: ['doctor', '--json'], code: 0, json: true, message: /"healthy": true/ },
    { name: 'doctor --fix', args: ['doctor', '--fix', '--json'], code: 0, json: true, message: /"healthy": true/ },
    { name: 'list with an unknown --type', args: ['list', '--type', 'nosuchtype'], code: 2, message: /unknown type/i },
  ];
  const skill = [
    { name: 'skill search with an unknown --type', script: 'search.js', args: ['revenue', '--type', 'nosuchtype'], code: 2, message: /unknown type/i },
    { name: 'skill read_source --lines past the end', script: 'read_source.js', args: ['inbox/notes.txt', '--lines', '999999-1000000'], code: 4, message: /30 lines/ },
    { name: 'skill deep_retrieve with a 100 KB query', script: 'deep_retrieve.js', args: ['inbox/notes.txt', '--query', 'notes '.repeat(17000)], code: 0, message: /only its first \d+ \(up to 2000\) were searched/, maxSeconds: 20 },
    { name: 'skill read_source of an unknown source', script: 'read_source.js', args: ['no-such-source'], code: 4, message: /No source/ },
    { name: 'skill search with an unknown option', script: 'search.js', args: ['revenue', '--bogus'], code: 2, message: /bogus/ },
    { name: 'skill search with a 100 KB query', script: 'search.js', args: ['revenue '.repeat(12800)], code: 0, message: /only its first \d+ \(up to 2000\) were searched/, maxSeconds: 20 },
  ];

  if (asRoot && dropPrivileges) chownTree(base, NOBODY);
  return {
    base, store, inbox, outside, cases, commands, skill,
    permissionCases,
    runAs: asRoot && dropPrivileges ? ['setpriv', '--reuid', String(NOBODY), '--regid', String(NOBODY), '--clear-groups'] : [],
    note: permissionCases ? '' : 'running as root without setpriv: permission cases expect the files to be readable (root bypasses permissions)',
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const c = makeBadInputs(process.argv[2] ? (mkdirSync(process.argv[2], { recursive: true }), process.argv[2]) : undefined);
  console.log(JSON.stringify({ store: c.store, outside: c.outside, runAs: c.runAs, note: c.note, ingest_cases: c.cases.length, command_cases: c.commands.length + c.skill.length, cases: c.cases.map((x) => `${x.path}: ${x.name}`) }, null, 2));
}
