/**
 * When to retry and how long to wait. Retried: no answer at all (network error, timeout), 429 and
 * 5xx, and a 409 saying the same Idempotency-Key is still being processed. Never retried: other 4xx, which would fail the same way again. POSTs are safe to retry
 * because they always carry the same Idempotency-Key.
 */

export interface BackoffOptions {
  /** Delay before the first retry, in ms (doubled on each retry). */
  initialRetryDelay: number;
  /** Ceiling for the computed delay, in ms. */
  maxRetryDelay: number;
  /** A Retry-After longer than this (in seconds) is not waited for: the error is thrown instead. */
  maxRetryAfter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialRetryDelay: 500, maxRetryDelay: 8_000, maxRetryAfter: 60 };

/** `idempotency_key_in_use`: the first attempt is still running on the gateway; asking again later gets its answer. */
export function isRetryable(status: number, code?: string): boolean {
  return status === 429 || status >= 500 || (status === 409 && code === 'idempotency_key_in_use');
}

/**
 * Milliseconds to wait before retry number `retry` (0-based): exponential with "equal jitter"
 * (half fixed, half random), so a crowd of clients spreads out but nobody retries at once.
 * A server's Retry-After (seconds) wins when it asks for longer.
 */
export function retryDelay(retry: number, options: BackoffOptions, retryAfterSeconds?: number, random = Math.random): number {
  const exponential = Math.min(options.maxRetryDelay, options.initialRetryDelay * 2 ** retry);
  const jittered = exponential / 2 + random() * (exponential / 2);
  const asked = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  return Math.max(jittered, asked);
}

/** Resolves after `ms`, or rejects early when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
