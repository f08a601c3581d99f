/** Documented exit codes shared by the CLI and the skill scripts. */
export const EXIT = {
  OK: 0,
  /** ingest finished but some sources failed (they are recorded as `failed`). */
  SOME_FAILED: 1,
  /** bad arguments or bad input. */
  USAGE: 2,
  /** another ingest holds the store lock. */
  LOCKED: 3,
  /** the store, a source or a node was not found. */
  NOT_FOUND: 4,
  /** the store is unhealthy (doctor) or unreadable. */
  UNHEALTHY: 5,
  /** unexpected internal error. */
  INTERNAL: 70,
} as const;
