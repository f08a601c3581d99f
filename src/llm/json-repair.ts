/**
 * Turns a model's reply into a JSON value even when it is slightly malformed: code fences, prose
 * around the object, trailing commas, smart quotes, or a reply cut off mid-object (unclosed strings,
 * arrays and objects are closed). Returns null when nothing JSON-like can be recovered.
 */

function stripFences(text: string): string {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)(?:\n```|$)/i.exec(text);
  return fenced ? fenced[1]! : text;
}

function firstJsonStart(text: string): number {
  const o = text.indexOf('{');
  const a = text.indexOf('[');
  if (o < 0) return a;
  if (a < 0) return o;
  return Math.min(o, a);
}

/** Closes unterminated strings, arrays and objects and drops a dangling key or comma at the end. */
export function closeTruncated(text: string): string {
  const stack: string[] = [];
  let inStr = false;
  let esc = false;
  let lastSafe = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inStr) {
      if (esc) esc = false;
      else if (c === '\\') esc = true;
      else if (c === '"') {
        inStr = false;
        lastSafe = i + 1;
      }
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      stack.pop();
      if (stack.length === 0) return text.slice(0, i + 1);
    }
    if (!inStr) lastSafe = i + 1;
  }
  let out = inStr ? text + '"' : text.slice(0, lastSafe);
  out = out.replace(/[\s,]*$/, '');
  // a dangling `"key":` or `"key"` inside an object (a string right after `{` or `,`) cannot be completed: drop it
  if (stack[stack.length - 1] === '}') out = out.replace(/([{,])\s*"(?:[^"\\]|\\.)*"\s*:?\s*$/, '$1');
  out = out.replace(/[\s,:]*$/, '');
  return out + stack.reverse().join('');
}

function relax(text: string): string {
  return text
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/,\s*([}\]])/g, '$1');
}

export function parseJsonLoose(reply: string): { value: unknown; repaired: boolean } | null {
  const trimmed = reply.trim();
  try {
    return { value: JSON.parse(trimmed), repaired: false };
  } catch {
    /* repair below */
  }
  const body = stripFences(trimmed);
  const start = firstJsonStart(body);
  if (start < 0) return null;
  const candidate = body.slice(start);
  for (const attempt of [candidate, relax(candidate), closeTruncated(relax(candidate))]) {
    try {
      return { value: JSON.parse(attempt), repaired: true };
    } catch {
      /* next */
    }
  }
  return null;
}
