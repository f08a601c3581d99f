/**
 * Fallbacks taken during a run (a planner or an enricher that threw, so the offline result was
 * used): counted per kind and said once each in the report's warnings, naming the first file in
 * path order, so the report does not depend on which source finished first.
 */
import { errorMessage } from '../store/errors.js';
import type { IngestRun } from './run.js';

/** Count one more of `kind`; the example named is the first file in path order (sources finish in any order). */
function note(run: Pick<IngestRun, 'fallbacks'>, kind: string, file: string, text: string, said?: string): void {
  const f = run.fallbacks.get(kind);
  if (!f) run.fallbacks.set(kind, { count: 1, file, first: `${file}: ${text}`, ...(said ? { said } : {}) });
  else {
    f.count++;
    if (f.file !== undefined && file < f.file) Object.assign(f, { file, first: `${file}: ${text}` });
  }
}

export function noteFallback(run: Pick<IngestRun, 'fallbacks'>, kind: string, file: string, err: unknown): void {
  note(run, kind, file, errorMessage(err));
}

/** A converter's own fallback (a parser that failed, so a simpler reading was used), said once per converter. */
export function noteConverterWarning(run: Pick<IngestRun, 'fallbacks'>, converter: string, file: string, warning: string): void {
  note(run, `${converter} converter`, file, warning, 'fell back');
}

/** One warning per kind of fallback, in a stable order. */
export function fallbackWarnings(run: Pick<IngestRun, 'fallbacks'>): string[] {
  return [...run.fallbacks.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([kind, f]) =>
      f.said ? `${kind} ${f.said} for ${f.count} source(s) (first: ${f.first})` : `${kind} failed for ${f.count} source(s) (first: ${f.first}); the offline result was used instead`,
    );
}
