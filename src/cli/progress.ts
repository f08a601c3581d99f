/** A one-line progress bar on stderr, drawn only when stderr is a TTY: phase, counts, rate, ETA. */
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

function duration(s: number): string {
  if (!Number.isFinite(s) || s < 0) return '?';
  if (s < 60) return `${Math.round(s)}s`;
  return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
}

/** The text after the bar: counts, rate and time left for the phase. */
export function progressText(ev: ProgressEvent): string {
  const phase = ev.phase ?? 'convert';
  const secs = (ev.phaseElapsedMs ?? ev.elapsedMs) / 1000;
  const eta = ev.done > 0 && ev.done < ev.total ? ` ETA ${duration((secs * (ev.total - ev.done)) / ev.done)}` : '';
  if (phase === 'convert') {
    const pps = secs > 0 ? (ev.pages / secs).toFixed(1) : '0.0';
    return `${ev.done}/${ev.total} ${pps} pages/s${eta} ${ev.file}`;
  }
  if (phase === 'embed') {
    const rate = secs > 0 ? (ev.done / secs).toFixed(0) : '0';
    return `embed ${ev.done}/${ev.total} ${ev.file} ${rate}/s${eta}`;
  }
  return `${phase} ${ev.done}/${ev.total}${ev.file ? ` ${ev.file}` : ''}`;
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
      const width = columns() - 1;
      const line = `[${'#'.repeat(fill)}${'-'.repeat(BAR_WIDTH - fill)}] ${progressText(ev)}`;
      process.stderr.write('\r' + line.slice(0, width).padEnd(width));
      drawn = true;
    },
    clear,
    done: clear,
  };
}
