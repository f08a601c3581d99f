/**
 * A bound on how deep a parsed HTML or XML tree is: the converters walk elements recursively (blocks,
 * inline text, lists, element text), and a page whose tags are never closed (`<font>` or `<div>`
 * repeated thousands of times, as old generators and broken templates write them) nests deeper than
 * the call stack. Below the bound, an element keeps its text and its void tags (`<br>`, `<img>`),
 * in document order, without the markup between: nothing is lost but the structure nobody can see.
 */
import { Text, type AnyNode, type Element, type ParentNode } from 'domhandler';

/** Elements nested deeper than this are read flat (a real page nests a few dozen deep; 3,000 overflowed the walk). */
export const MAX_DOM_DEPTH = 256;

const hasChildren = (n: AnyNode): n is AnyNode & ParentNode => Array.isArray((n as ParentNode).children) && (n as ParentNode).children.length > 0;

/** Block-like tags whose end breaks the flattened text, so that words of two blocks are not run together. */
const BREAKING = /^(?:p|div|li|tr|td|th|dd|dt|h[1-6]|pre|blockquote|section|article|table|ul|ol|dl|br|text:p|text:h|a:p)$/i;

/** The leaves below `el` in document order (text and childless elements), with a space after each block. */
function leaves(el: ParentNode): AnyNode[] {
  const out: AnyNode[] = [];
  const stack: Array<{ nodes: AnyNode[]; i: number; tag: string }> = [{ nodes: el.children, i: 0, tag: '' }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.i >= top.nodes.length) {
      stack.pop();
      if (BREAKING.test(top.tag)) out.push(new Text(' '));
      continue;
    }
    const n = top.nodes[top.i++]!;
    if (hasChildren(n)) stack.push({ nodes: n.children, i: 0, tag: n.type === 'tag' ? (n as Element).tagName : '' });
    else out.push(n);
  }
  return out;
}

function adopt(parent: ParentNode, children: AnyNode[]): void {
  children.forEach((c, i) => {
    c.parent = parent;
    c.prev = children[i - 1] ?? null;
    c.next = children[i + 1] ?? null;
  });
  parent.children = children;
}

/**
 * Flattens every element deeper than `max` below `root` into its leaves, in place. Returns how many
 * elements were flattened (0 for an ordinary document).
 */
export function capDepth(root: ParentNode, max = MAX_DOM_DEPTH): number {
  let flattened = 0;
  const stack: Array<{ node: ParentNode; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (depth >= max) {
      if (node.children.some(hasChildren)) {
        adopt(node, leaves(node));
        flattened++;
      }
      continue;
    }
    for (const c of node.children) if (hasChildren(c)) stack.push({ node: c, depth: depth + 1 });
  }
  return flattened;
}

/** The converter warning for a document `capDepth` flattened, or null when it flattened nothing. */
export function depthWarning(flattened: number, what: string): string | null {
  return flattened > 0
    ? `the ${what} nests elements more than ${MAX_DOM_DEPTH} deep (unclosed tags?) in ${flattened} place(s): the text below that depth was read without its markup`
    : null;
}
