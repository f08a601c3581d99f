import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeFlatIP, encodeFlatIP, searchFlat } from '../src/vector/flat-codec.js';
import { loadFaiss, writeFlatIndex } from '../src/vector/faiss.js';
import { normalizeVector } from '../src/embed/normalize.js';

const PY = '/usr/bin/python3';
const pyFaiss = spawnSync(PY, ['-c', 'import faiss'], { encoding: 'utf8' }).status === 0;

function sample(count: number, dims: number) {
  const data = new Float32Array(count * dims);
  for (let i = 0; i < count; i++) data.set(normalizeVector(Array.from({ length: dims }, (_, j) => Math.sin(i * 7 + j * 3) + (j === i % dims ? 2 : 0))), i * dims);
  return { dims, count, data };
}

describe('FAISS flat inner-product files', () => {
  it('round-trips through the codec and rejects truncated files', () => {
    const v = sample(5, 8);
    const buf = encodeFlatIP(v);
    expect(buf.subarray(0, 4).toString('latin1')).toBe('IxFI');
    const back = decodeFlatIP(buf);
    expect(back.count).toBe(5);
    expect(back.dims).toBe(8);
    expect(Array.from(back.data)).toEqual(Array.from(v.data));
    expect(() => decodeFlatIP(buf.subarray(0, buf.length - 4))).toThrow(/truncated or corrupt/);
    expect(() => decodeFlatIP(Buffer.from('IxF2abcdefghijklmnopqrstuvwxyz0123456789abcdef'))).toThrow(/not a FAISS IndexFlatIP/);
    expect(searchFlat(back, back.data.subarray(16, 24), 1)[0]!.row).toBe(2);
  });

  it.skipIf(!pyFaiss)("Python's faiss.read_index reads our files and finds the same neighbours", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mhub-faiss-'));
    try {
      const v = sample(6, 12);
      const p = join(dir, 'index.faiss');
      writeFileSync(p, encodeFlatIP(v));
      const q = Array.from(v.data.subarray(3 * 12, 4 * 12));
      const script = `import faiss, numpy as np, json, sys\nix = faiss.read_index(sys.argv[1])\nD, I = ix.search(np.array([json.loads(sys.argv[2])], dtype='float32'), 2)\nprint(json.dumps({"n": ix.ntotal, "d": ix.d, "metric": ix.metric_type, "I": I[0].tolist()}))`;
      const r = spawnSync(PY, ['-c', script, p, JSON.stringify(q)], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ n: 6, d: 12, metric: 0 });
      expect(out.I[0]).toBe(3);
      expect(out.I[1]).toBe(searchFlat(v, Float32Array.from(q), 2)[1]!.row);
      // and Python's own write_index gives the same bytes
      const w = spawnSync(PY, ['-c', `import faiss, sys\nfaiss.write_index(faiss.read_index(sys.argv[1]), sys.argv[2])`, p, p + '.py'], { encoding: 'utf8' });
      expect(w.status, w.stderr).toBe(0);
      expect(readFileSync(p + '.py').equals(readFileSync(p))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  if (!pyFaiss) it.skip(`Python faiss check skipped: ${PY} cannot import faiss (apt-get install python3-faiss)`, () => {});

  it('faiss-node (when installed by scripts/setup-faiss.sh) writes the same bytes and searches the same', async () => {
    const faiss = await loadFaiss();
    const dir = mkdtempSync(join(tmpdir(), 'mhub-faiss-'));
    try {
      const v = sample(4, 6);
      const p = join(dir, 'x.faiss');
      const w = await writeFlatIndex(p, v);
      expect(w.native).toBe(!!faiss);
      expect(readFileSync(p).equals(encodeFlatIP(v))).toBe(true);
      if (faiss) {
        const ix = faiss.IndexFlatIP.read(p);
        expect(ix.ntotal()).toBe(4);
        expect(ix.search(Array.from(v.data.subarray(6, 12)), 1).labels[0]).toBe(1);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
