/** A one-line progress bar on stderr, drawn only when stderr is a TTY. */
import type { ProgressEvent } from '../ingest/pipeline.js';

/** Minimum milliseconds between redraws. */
export const REDRAW_MS = 100;
const BAR_WIDTH = 24;

export function makeProgress(enabled: boolean): { update(ev: ProgressEvent): void; done(): void } {
  let last = 0;
  let drawn = false;
  return {
    update(ev) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < REDRAW_MS && ev.done < ev.total) return;
      last = now;
      const frac = ev.total ? ev.done / ev.total : 1;
      const fill = Math.round(frac * BAR_WIDTH);
      const pps = ev.elapsedMs > 0 ? (ev.pages / (ev.elapsedMs / 1000)).toFixed(1) : '0.0';
      const cols = process.stderr.columns ?? 100;
      const line = `[${'#'.repeat(fill)}${'-'.repeat(BAR_WIDTH - fill)}] ${ev.done}/${ev.total} ${pps} pages/s ${ev.file}`;
      process.stderr.write('\r' + line.slice(0, cols - 1).padEnd(cols - 1));
      drawn = true;
    },
    done() {
      if (drawn) process.stderr.write('\r' + ' '.repeat((process.stderr.columns ?? 100) - 1) + '\r');
    },
  };
}
