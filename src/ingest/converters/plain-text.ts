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

interface Para { start: number; end: number; text: string }

function paragraphs(lines: string[]): Para[] {
  const out: Para[] = [];
  let start = -1;
  lines.forEach((l, i) => {
    if (l.trim() === '') {
      if (start >= 0) out.push({ start: start + 1, end: i, text: lines.slice(start, i).join('\n') });
      start = -1;
    } else if (start < 0) start = i;
  });
  if (start >= 0) out.push({ start: start + 1, end: lines.length, text: lines.slice(start).join('\n') });
  return out;
}

function titleOf(text: string): string {
  const first = text.split('\n').find((l) => l.trim())?.trim() ?? '';
  return first.length > GROUP_TITLE_CHARS ? first.slice(0, GROUP_TITLE_CHARS - 1).trimEnd() + '…' : first;
}

export function convertPlainText(text: string, filename: string, target = GROUP_TARGET_CHARS): ConvertResult {
  const lines = splitLines(text);
  const paras = paragraphs(lines);
  const groups: Para[][] = [];
  let cur: Para[] = [];
  let size = 0;
  for (const p of paras) {
    if (cur.length > 0 && size + p.text.length > target) {
      groups.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(p);
    size += p.text.length;
  }
  if (cur.length) groups.push(cur);
  const children: ConvertedNode[] = groups.map((g) => {
    const start = g[0]!.start;
    const end = g[g.length - 1]!.end;
    return { title: titleOf(g[0]!.text), kind: 'paragraphs', line_range: [start, end], content: lines.slice(start - 1, end).join('\n'), children: [] };
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
