/** An error meant for the user: says what was wrong and what to do. `code` maps to the exit code. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly hint: string = '',
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
