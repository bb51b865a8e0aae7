/** An error the element shows and reports through `svc-error`; `code` is stable, `message` is for people. */
export class CheckoutError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
    /** Seconds to wait before asking again (429 Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'CheckoutError';
  }
}
