import { describe, it, expect, vi, afterEach } from 'vitest';
import { makeProgress } from '../src/cli/progress.js';

describe('progress bar', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws and clears even when the terminal reports 0 columns', () => {
    const out: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
    const had = Object.getOwnPropertyDescriptor(process.stderr, 'columns');
    Object.defineProperty(process.stderr, 'columns', { value: 0, configurable: true });
    try {
      const p = makeProgress(true);
      p.update({ done: 1, total: 2, file: 'inbox/a.pdf', pages: 80, elapsedMs: 1000 });
      p.done();
    } finally {
      if (had) Object.defineProperty(process.stderr, 'columns', had);
      else delete (process.stderr as { columns?: number }).columns;
    }
    expect(out[0]).toContain('[############------------] 1/2 80.0 pages/s ETA 1s inbox/a.pdf');
    expect(out[out.length - 1]).toMatch(/^\r +\r$/);
  });

  it('writes nothing when disabled (not a TTY, --json, --quiet)', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const p = makeProgress(false);
    p.update({ done: 1, total: 1, file: 'x', pages: 0, elapsedMs: 10 });
    p.done();
    expect(write).not.toHaveBeenCalled();
  });
});
