/**
 * The few gateway calls a browser may make (DESIGN §4): public verify and the transaction request, both
 * authorised by the payment token, and payment creation with a publishable key.
 */
import { PAYMENT_TOKEN_HEADER } from '../core/payment.js';
import type { CreatedPayment, Problem, PublicPayment } from '../core/payment.js';
import { CheckoutError } from './errors.js';

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export function joinUrl(baseUrl: string, path: string): string {
  return baseUrl.replace(/\/+$/, '') + path;
}

/** fetch + JSON with every failure turned into a CheckoutError (network errors get status 0). */
export async function requestJson<T>(url: string, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err;
    throw new CheckoutError('network_error', 'The payment service is unreachable.', 0);
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // An empty or non-JSON body: handled below by the status.
  }
  if (!res.ok) {
    const problem = (body ?? {}) as Partial<Problem>;
    throw new CheckoutError(
      problem.code || `http_${res.status}`,
      problem.detail || problem.title || `HTTP ${res.status}`,
      res.status,
      parseRetryAfter(res.headers.get('retry-after')),
    );
  }
  if (body == null || typeof body !== 'object') throw new CheckoutError('bad_response', 'Unreadable answer.', res.status);
  return body as T;
}

const paymentPath = (id: string) => `/api/public/payments/${encodeURIComponent(id)}`;

export function verifyPayment(baseUrl: string, paymentId: string, token: string, signal?: AbortSignal): Promise<PublicPayment> {
  return requestJson<PublicPayment>(joinUrl(baseUrl, paymentPath(paymentId) + '/verify'), {
    method: 'POST',
    headers: { [PAYMENT_TOKEN_HEADER]: token },
    credentials: 'omit',
    cache: 'no-store',
    signal,
  });
}

/** Solana Pay transaction request: the gateway builds the transfer for `account` to sign. */
export function requestTransaction(baseUrl: string, paymentId: string, token: string, account: string): Promise<{ transaction: string; message?: string }> {
  const url = joinUrl(baseUrl, paymentPath(paymentId) + '/transaction?token=' + encodeURIComponent(token));
  return requestJson(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account }),
    credentials: 'omit',
  });
}

export function createPayment(baseUrl: string, publishableKey: string, params: Record<string, string>): Promise<CreatedPayment> {
  return requestJson<CreatedPayment>(joinUrl(baseUrl, '/api/v1/payments'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${publishableKey}` },
    body: JSON.stringify(params),
    credentials: 'omit',
  });
}
