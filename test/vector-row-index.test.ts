import { describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_METADATA_FILE, NODE_ROWS_FILE, nodeRowIndex, readNodeRowIndex, rowsSha, type NodeMetadata } from '../src/vector/metadata.js';

const model = { name: 'use-lite-static', dims: 2, fingerprint: 'abc' };
function meta(rows: NodeMetadata['rows']): NodeMetadata {
  return { schema_version: 1, kind: 'nodes', index_file: 'nodes.faiss', metric: 'inner_product', index_type: 'flat', model, dims: 2, count: rows.length, rows_sha: rowsSha(rows), rows };
}

describe('nodes.rows.json: where each source\'s node vectors are, without reading nodes.metadata.json', () => {
  const rows: NodeMetadata['rows'] = [['src_b', '0001', 's1'], ['src_b', '0002', 's2'], ['src_a', '0000', 's3'], ['src_a', '0004', 's4'], ['src_a', '0005', 's5']];

  it('holds each source\'s first row and node ids; not made when a source\'s rows are split', () => {
    const m = meta(rows);
    expect(nodeRowIndex(m)).toEqual({ schema_version: 1, kind: 'node-rows', rows_sha: m.rows_sha, model, dims: 2, count: 5, sources: { src_a: [2, '0000 0004 0005'], src_b: [0, '0001 0002'] } });
    // the text shas do not count: a changed text keeps the same index
    expect(rowsSha(rows.map(([s, n]) => [s, n, 'other']))).toBe(m.rows_sha);
    expect(nodeRowIndex(meta([...rows, ['src_b', '0003', 's6']]))).toBeNull();
  });

  it('is read only while nodes.metadata.json carries the same rows_sha', () => {
    const root = mkdtempSync(join(tmpdir(), 'mhub-rows-'));
    try {
      mkdirSync(join(root, 'vector_store'));
      const m = meta(rows);
      writeFileSync(join(root, NODE_METADATA_FILE), JSON.stringify(m) + '\n');
      writeFileSync(join(root, NODE_ROWS_FILE), JSON.stringify(nodeRowIndex(m)) + '\n');
      expect(readNodeRowIndex(root)?.sources.src_a).toEqual([2, '0000 0004 0005']);
      // metadata rewritten for other rows (an interrupted write left the index behind): not used
      const other = meta(rows.slice(0, 4));
      writeFileSync(join(root, NODE_METADATA_FILE), JSON.stringify(other) + '\n');
      expect(readNodeRowIndex(root)).toBeNull();
      rmSync(join(root, NODE_METADATA_FILE));
      expect(readNodeRowIndex(root)).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
