/** A one-line progress bar on stderr, drawn only when stderr is a TTY. */
import type { ProgressEvent } from '../ingest/pipeline.js';

/** Minimum milliseconds between redraws. */
export const REDRAW_MS = 100;
const BAR_WIDTH = 24;
/** Width assumed when the terminal does not report one (some pseudo-terminals report 0). */
const FALLBACK_COLUMNS = 100;

function columns(): number {
  const c = process.stderr.columns;
  return c && c > 20 ? c : FALLBACK_COLUMNS;
}

export interface Progress {
  update(ev: ProgressEvent): void;
  /** erase the bar (before printing a log line, and at the end) */
  clear(): void;
  done(): void;
}

export function makeProgress(enabled: boolean): Progress {
  let last = 0;
  let drawn = false;
  const clear = () => {
    if (!drawn) return;
    process.stderr.write('\r' + ' '.repeat(columns() - 1) + '\r');
    drawn = false;
  };
  return {
    update(ev) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < REDRAW_MS && ev.done < ev.total) return;
      last = now;
      const frac = ev.total ? ev.done / ev.total : 1;
      const fill = Math.round(frac * BAR_WIDTH);
      const pps = ev.elapsedMs > 0 ? (ev.pages / (ev.elapsedMs / 1000)).toFixed(1) : '0.0';
      const width = columns() - 1;
      const line = `[${'#'.repeat(fill)}${'-'.repeat(BAR_WIDTH - fill)}] ${ev.done}/${ev.total} ${pps} pages/s ${ev.file}`;
      process.stderr.write('\r' + line.slice(0, width).padEnd(width));
      drawn = true;
    },
    clear,
    done: clear,
  };
}
