import { describe, it, expect } from 'vitest';
import { recordField } from '../src/search/bm25.js';
import { keywordSignals } from '../src/search/signals/keyword.js';
import type { SourceKeywords } from '../src/search/keyword-index.js';
import type { SourceField } from '../src/model/keyword-format.js';

/**
 * Two sibling documents: `intro` names the query's words twice on its first page (its opening,
 * which its body holds too) and uses them nowhere else; `detail` names them once on its first page
 * and uses them all through its body. Two more sources hold neither word.
 */
function siblings(): SourceKeywords {
  const n = 4;
  const opening = [0, 2, 1, 1];
  const body = [0, 2, 1, 10];
  const fields: Record<SourceField, ReturnType<typeof recordField>> = {
    identity: recordField({}, Array<number>(n).fill(4)),
    card: recordField({}, Array<number>(n).fill(40)),
    opening: recordField({ mosaic: opening, shading: opening }, Array<number>(n).fill(300)),
    body: recordField({ mosaic: body, shading: body }, Array<number>(n).fill(3000)),
  };
  return { ids: ['intro', 'detail', 'other1', 'other2'], field: (f) => fields[f] };
}

describe('source BM25 fields', () => {
  it('does not let a first page naming the words outweigh a body using them throughout', () => {
    const kw = keywordSignals(siblings(), [['mosaic'], ['shading']], new Uint8Array(4).fill(1));
    expect(kw.bm25.get('detail')!).toBeGreaterThan(kw.bm25.get('intro')!);
    // the opening still counts
    expect(kw.bm25.get('intro')!).toBeGreaterThan(0);
  });
});
