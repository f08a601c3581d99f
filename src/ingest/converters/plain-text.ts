/** Plain text: paragraph groups (blank-line separated paragraphs gathered up to a size budget). */
import type { Converter, ConvertedNode, ConvertResult } from './types.js';
import { PRIORITY_GENERIC, type ConverterRegistration } from './types.js';
import { ConvertError } from './types.js';
import { decodeText, splitLines } from './text-util.js';
import { basename, extname } from 'node:path';

/** Target characters per paragraph group. */
export const GROUP_TARGET_CHARS = 2500;
/** Longest title taken from a group's first line. */
export const GROUP_TITLE_CHARS = 80;

/** A paragraph: 1-based inclusive lines and its length joined with newlines (the text itself is not copied). */
interface Para { start: number; end: number; size: number }

function paragraphs(lines: string[]): Para[] {
  const out: Para[] = [];
  let start = -1;
  let size = 0;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      if (start >= 0) out.push({ start: start + 1, end: i, size: size - 1 });
      start = -1;
    } else {
      if (start < 0) {
        start = i;
        size = 0;
      }
      size += l.length + 1;
    }
  });
  if (start >= 0) out.push({ start: start + 1, end: lines.length, size: size - 1 });
  return out;
}

/** Title of a group: its first line (paragraphs start with a non-blank line), shortened. */
function titleOf(lines: string[], p: Para): string {
  const first = lines[p.start - 1]!.trim();
  return first.length > GROUP_TITLE_CHARS ? first.slice(0, GROUP_TITLE_CHARS - 1).trimEnd() + '…' : first;
}

export function convertPlainText(text: string, filename: string, target = GROUP_TARGET_CHARS): ConvertResult {
  const lines = splitLines(text);
  const paras = paragraphs(lines);
  const groups: Para[][] = [];
  let cur: Para[] = [];
  let size = 0;
  for (const p of paras) {
    if (cur.length > 0 && size + p.size > target) {
      groups.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(p);
    size += p.size;
  }
  if (cur.length) groups.push(cur);
  const children: ConvertedNode[] = groups.map((g) => {
    const start = g[0]!.start;
    const end = g[g.length - 1]!.end;
    return { title: titleOf(lines, g[0]!), kind: 'paragraphs', line_range: [start, end], content: lines.slice(start - 1, end).join('\n'), children: [] };
  });
  const firstLine = lines.find((l) => l.trim())?.trim() ?? '';
  const title = firstLine && firstLine.length <= GROUP_TITLE_CHARS && lines.length > 1 ? firstLine : basename(filename, extname(filename));
  const root: ConvertedNode = { title, kind: 'document', line_range: [1, Math.max(1, lines.length)], children };
  if (children.length === 1) {
    root.content = children[0]!.content;
    root.children = [];
  }
  return { title, toc_source: 'paragraphs', root, line_count: lines.length };
}

export const plainTextConverter: Converter = {
  name: 'text',
  version: 1,
  async convert({ bytes, card }) {
    const text = decodeText(bytes);
    if (text.trim().length === 0) throw new ConvertError('The file is empty.', 'Add content or remove the file from the inbox.');
    return convertPlainText(text, card.filename);
  },
};

/** Plain text and logs by name; any other text file whose name says nothing is plain text (the catch-all). */
export const plainTextRegistration: ConverterRegistration = {
  converter: plainTextConverter,
  formats: [
    { type: 'text', mime: 'text/plain', extensions: ['.txt', '.text', '.rst'], sniffText: () => true, priority: PRIORITY_GENERIC },
    { type: 'log', extensions: ['.log'], priority: PRIORITY_GENERIC },
  ],
};
