/**
 * One HTTP exchange with the gateway: auth and identification headers, a timeout per attempt,
 * retries with backoff, and turning answers into data or typed errors. Global fetch only, so it
 * runs on Node 20+, Bun, Deno and edge runtimes.
 */
import { ConnectionError, SvcError, errorFromResponse, ApiError, parseRetryAfter } from './errors.js';
import { isRetryable, retryDelay, sleep, type BackoffOptions } from './retry.js';

/** Per-call options; each overrides the client's setting for this call only. */
export interface RequestOptions {
  /** Sent as Idempotency-Key on POST. Generated when absent; the same on every retry of this call. */
  idempotencyKey?: string;
  /** Milliseconds per attempt. */
  timeout?: number;
  maxRetries?: number;
  /** Aborting it stops the call (and its retries) with a ConnectionError `aborted`. */
  signal?: AbortSignal;
}

export interface TransportConfig {
  apiKey: string;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  backoff: BackoffOptions;
  userAgent: string;
  fetch: typeof fetch;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  query?: Query;
  body?: unknown;
  /** Extra headers, e.g. the payment token of a public call. */
  headers?: Record<string, string>;
  /** false for /api/public calls, which must not carry the secret key. */
  auth?: boolean;
  /** Told before each retry, so a caller can tell "failed" from "may have succeeded, answer lost". */
  onRetry?: () => void;
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

class Timeout extends Error {}

export class Transport {
  constructor(private readonly config: TransportConfig) {}

  get baseUrl(): string {
    return this.config.baseUrl;
  }

  async request<T>(call: Call, options: RequestOptions = {}): Promise<T> {
    const url = this.url(call.path, call.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.config.userAgent,
      ...call.headers,
    };
    if (call.auth !== false) headers.authorization = `Bearer ${this.config.apiKey}`;
    let body: string | undefined;
    if (call.method === 'POST') {
      body = JSON.stringify(call.body ?? {});
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = idempotencyKey(options.idempotencyKey);
    }
    const maxRetries = options.maxRetries ?? this.config.maxRetries;
    const timeout = options.timeout ?? this.config.timeout;

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
      let outcome: { status: number; headers: Headers; data: unknown } | SvcError;
      try {
        outcome = await this.attempt(url, call.method, headers, body, timeout, options.signal);
      } catch (error) {
        if (error instanceof SvcError && error.code === 'aborted') throw error;
        if (!canRetry) throw error;
        await this.pause(attempt, undefined, options.signal, call.onRetry);
        continue;
      }
      if (outcome instanceof SvcError) throw outcome;
      if (outcome.status >= 200 && outcome.status < 300) return outcome.data as T;

      const error = errorFromResponse(outcome.status, outcome.headers, outcome.data);
      if (!canRetry || !isRetryable(outcome.status, error.code)) throw error;
      const retryAfter = parseRetryAfter(outcome.headers.get('retry-after'));
      if (retryAfter !== undefined && retryAfter > this.config.backoff.maxRetryAfter) throw error;
      await this.pause(attempt, retryAfter, options.signal, call.onRetry);
    }
  }

  private url(path: string, query?: Query): string {
    const url = new URL(this.config.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async pause(retry: number, retryAfter: number | undefined, signal?: AbortSignal, onRetry?: () => void): Promise<void> {
    onRetry?.();
    try {
      await sleep(retryDelay(retry, this.config.backoff, retryAfter), signal);
    } catch (reason) {
      throw aborted(reason);
    }
  }

  /** One attempt. Throws ConnectionError when no full answer arrived; returns the answer otherwise. */
  private async attempt(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
    signal?: AbortSignal,
  ): Promise<{ status: number; headers: Headers; data: unknown } | SvcError> {
    if (signal?.aborted) throw aborted(signal.reason);
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    // The timer covers the body as well as the headers: a gateway that stalls mid-answer times out too.
    const timer = setTimeout(() => controller.abort(new Timeout()), timeout);
    try {
      const response = await this.config.fetch(url, { method, headers, body, signal: controller.signal });
      const text = await response.text();
      const status = response.status;
      if (text === '') return { status, headers: response.headers, data: undefined };
      try {
        return { status, headers: response.headers, data: JSON.parse(text) };
      } catch {
        if (status >= 200 && status < 300) {
          return new ApiError(`The gateway answered ${status} with a body that is not JSON`, {
            code: 'invalid_response',
            status,
            requestId: response.headers.get('x-request-id') ?? undefined,
            headers: response.headers,
          });
        }
        return { status, headers: response.headers, data: undefined };
      }
    } catch (error) {
      if (controller.signal.reason instanceof Timeout) {
        throw new ConnectionError(`No answer from ${new URL(url).origin} within ${timeout} ms`, { code: 'timeout', cause: error });
      }
      if (signal?.aborted) throw aborted(signal.reason);
      throw new ConnectionError(`Could not reach ${new URL(url).origin}: ${describe(error)}`, {
        code: 'connection_failed',
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function idempotencyKey(given: string | undefined): string {
  if (given === undefined) return `svc_idem_${globalThis.crypto.randomUUID()}`;
  if (typeof given !== 'string' || !IDEMPOTENCY_KEY.test(given)) {
    throw new TypeError(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces`);
  }
  return given;
}

function aborted(reason: unknown): ConnectionError {
  return new ConnectionError('The request was aborted', { code: 'aborted', cause: reason });
}

/** fetch hides the useful part (ECONNREFUSED, ECONNRESET...) in `cause`. */
function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
