/**
 * The outline of a JSON text without building a syntax tree: one pass over the characters finds
 * the entries (keys and their values, or array items) of the containers near the top, with their
 * character ranges, entry counts and keys. The structured-data converter builds its tree from it.
 * A YAML document model of a 7 MB JSON file took about 330 MB; this keeps a few numbers an entry.
 * The text must already be valid JSON (JSON.parse checked it).
 */

/** One value: a key's value in an object, or an item of an array. */
export interface JsonEntry {
  /** the key (objects only) */
  key?: string;
  /** where the entry starts: its key's opening quote, or the item's first character */
  start: number;
  /** where its value starts */
  valueStart: number;
  /** one past the value's last character */
  end: number;
  /** the value, when it is an object or array near the top (see `JSON_OUTLINE_DEPTH`) */
  container?: JsonContainer;
  /** a scalar's value, when the reader already has it (YAML); JSON reads it from the text */
  value?: unknown;
}

export interface JsonContainer {
  kind: 'object' | 'array';
  start: number;
  end: number;
  /** the entries, for containers at most JSON_OUTLINE_DEPTH deep; otherwise empty and `count` alone */
  entries: JsonEntry[];
  count: number;
}

/** Containers this deep (the root is 0) list their entries; deeper ones are only skipped over. */
export const JSON_OUTLINE_DEPTH = 8;

const QUOTE = 34;
const BACKSLASH = 92;

function isBlank(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** One past the closing quote of the string opening at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) return j + 1;
    j += c === BACKSLASH ? 2 : 1;
  }
}

/** One past the last character of the number or literal starting at `i`. */
function scalarEnd(text: string, i: number): number {
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 44 || c === 93 || c === 125 || isBlank(c)) break; // , ] }
  }
  return j;
}

function skipBlanks(text: string, i: number): number {
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  return i;
}

interface Frame {
  box: JsonContainer;
  depth: number;
  /** the entry being read (its value not closed yet) */
  open: JsonEntry | null;
  /** whether the next string in an object is a key */
  expectKey: boolean;
  pendingKey?: { key: string; start: number };
}

/** The root value's outline: a container, or null when the root is a string, number or literal. */
export function jsonOutline(text: string): JsonContainer | null {
  let i = skipBlanks(text, 0);
  const first = text.charCodeAt(i);
  if (first !== 123 && first !== 91) return null;
  const stack: Frame[] = [];
  let root: JsonContainer | null = null;
  const openContainer = (at: number, kind: JsonContainer['kind']): void => {
    const parent = stack[stack.length - 1];
    const box: JsonContainer = { kind, start: at, end: at, entries: [], count: 0 };
    const depth = parent ? parent.depth + 1 : 0;
    if (parent) valueStarts(parent, at, box);
    else root = box;
    stack.push({ box, depth, open: null, expectKey: kind === 'object' });
  };
  const valueStarts = (f: Frame, at: number, box?: JsonContainer): void => {
    f.box.count++;
    if (f.depth > JSON_OUTLINE_DEPTH) return;
    const entry: JsonEntry = f.pendingKey ? { key: f.pendingKey.key, start: f.pendingKey.start, valueStart: at, end: at } : { start: at, valueStart: at, end: at };
    if (box) entry.container = box;
    f.box.entries.push(entry);
    f.open = entry;
    f.pendingKey = undefined;
  };
  const valueEnds = (f: Frame | undefined, at: number): void => {
    if (!f) return;
    if (f.open) f.open.end = at;
    f.open = null;
  };
  openContainer(i, first === 123 ? 'object' : 'array');
  i++;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const f = stack[stack.length - 1];
    if (!f) break;
    if (c === 123 || c === 91) {
      openContainer(i, c === 123 ? 'object' : 'array');
      i++;
    } else if (c === 125 || c === 93) {
      f.box.end = i + 1;
      stack.pop();
      valueEnds(stack[stack.length - 1], i + 1);
      i++;
    } else if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (f.box.kind === 'object' && f.expectKey) {
        if (f.depth <= JSON_OUTLINE_DEPTH) f.pendingKey = { key: JSON.parse(text.slice(i, end)) as string, start: i };
        f.expectKey = false;
      } else {
        valueStarts(f, i);
        valueEnds(f, end);
      }
      i = end;
    } else if (c === 44) {
      // ,
      if (f.box.kind === 'object') f.expectKey = true;
      i++;
    } else if (c === 58 || isBlank(c)) i++;
    else {
      const end = scalarEnd(text, i);
      valueStarts(f, i);
      valueEnds(f, end);
      i = end;
    }
  }
  return root;
}
