/**
 * The one error shape of the CLI (`--json`) and the skill scripts (JSON mode):
 *   {"error": {"message": "what went wrong", "hint": "what to do or what was expected", "exit_code": N}}
 * plus `store` when the store was already known. Exit codes: ./exit-codes.ts.
 */
import { EXIT } from './exit-codes.js';

export interface ErrorBody {
  message: string;
  hint: string;
  exit_code: number;
  store?: string;
}

/** Anything thrown → the error body. User errors (message + hint + exitCode) keep theirs; the rest are internal. */
export function errorBody(err: unknown, store?: string | null): ErrorBody {
  const e = err as { name?: string; message?: string; hint?: string; exitCode?: number } | null;
  const user = !!e && e.name === 'UserError' && typeof e.exitCode === 'number';
  const body: ErrorBody = user
    ? { message: e!.message ?? '', hint: e!.hint ?? '', exit_code: e!.exitCode! }
    : { message: `unexpected error: ${err instanceof Error ? err.message : String(err)}`, hint: 'Please report this with the command that caused it (set MHUB_DEBUG=1 for the stack).', exit_code: EXIT.INTERNAL };
  if (store) body.store = store;
  return body;
}
