/**
 * Where a checkout session comes from (DESIGN §7), in order of preference:
 *  1. `session-url`: the merchant's backend creates the payment with its secret key and answers a CheckoutSession;
 *  2. `payment-id` + `payment-token` rendered into the page by that backend;
 *  3. a publishable `api-key` + `amount` + `currency`: the browser creates the payment itself.
 */
import type { CheckoutSession, PublicPayment } from '../core/payment.js';
import { createPayment, requestJson, verifyPayment } from './api.js';
import { CheckoutError } from './errors.js';

export interface SessionConfig {
  sessionUrl?: string | null;
  sessionData?: unknown;
  paymentId?: string | null;
  paymentToken?: string | null;
  baseUrl?: string | null;
  apiKey?: string | null;
  amount?: string | null;
  currency?: string | null;
  label?: string | null;
  message?: string | null;
}

export interface Session {
  paymentId: string;
  paymentToken: string;
  baseUrl: string;
  payment: PublicPayment;
}

export type SessionSource = 'session-url' | 'payment-id' | 'api-key';

const SECRET_KEY = /^svc_(live|test)_/;

/**
 * Refuses secret keys before anything leaves the page: a secret key in a browser is a leaked key.
 * Throws for `svc_live_` / `svc_test_` keys and for anything that is not a publishable `svc_pk_` key.
 */
export function assertPublishableKey(key: string): void {
  if (SECRET_KEY.test(key)) {
    throw new CheckoutError(
      'secret_key_refused',
      'Secret keys (svc_live_, svc_test_) must never be used in a web page. Not sent. Use a publishable key (svc_pk_).',
    );
  }
  if (!/^svc_pk_(live|test)_[A-Za-z0-9]+$/.test(key)) {
    throw new CheckoutError('invalid_api_key', 'api-key must be a publishable key (svc_pk_).');
  }
}

export function sessionSource(c: SessionConfig): SessionSource | null {
  if (c.sessionUrl) return 'session-url';
  if (c.paymentId && c.paymentToken) return 'payment-id';
  if (c.apiKey) return 'api-key';
  return null;
}

/** The gateway origin: explicit, or the page's own. Only http(s) URLs are accepted. */
export function resolveBaseUrl(...candidates: (string | null | undefined)[]): string {
  const raw = candidates.find((c) => c) ?? location.origin;
  let url: URL;
  try {
    url = new URL(raw, location.href);
  } catch {
    throw new CheckoutError('invalid_base_url', 'base-url is not a URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CheckoutError('invalid_base_url', 'base-url is not a URL.');
  return url.href.replace(/\/+$/, '');
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value) throw new CheckoutError('bad_session', `The session has no ${what}.`);
  return value;
}

export async function loadSession(c: SessionConfig, signal?: AbortSignal): Promise<Session> {
  // Checked first and whatever the source: a secret key is refused even when another source would win.
  if (c.apiKey) assertPublishableKey(c.apiKey);
  if (c.paymentToken && SECRET_KEY.test(c.paymentToken)) assertPublishableKey(c.paymentToken);
  const source = sessionSource(c);

  if (source === 'session-url') {
    const answer = await requestJson<Partial<CheckoutSession>>(new URL(c.sessionUrl!, location.href).href, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(c.sessionData ?? {}),
      credentials: 'same-origin',
      signal,
    });
    const paymentId = requireString(answer.paymentId, 'paymentId');
    const paymentToken = requireString(answer.paymentToken, 'paymentToken');
    // A backend that hands out its secret key by mistake must not have it sent on from here.
    if (SECRET_KEY.test(paymentToken)) assertPublishableKey(paymentToken);
    const baseUrl = resolveBaseUrl(answer.baseUrl, c.baseUrl);
    const given = answer.payment;
    const payment = given && given.id === paymentId && given.url ? given : await verifyPayment(baseUrl, paymentId, paymentToken, signal);
    return { paymentId, paymentToken, baseUrl, payment };
  }

  if (source === 'payment-id') {
    const baseUrl = resolveBaseUrl(c.baseUrl);
    const payment = await verifyPayment(baseUrl, c.paymentId!, c.paymentToken!, signal);
    return { paymentId: c.paymentId!, paymentToken: c.paymentToken!, baseUrl, payment };
  }

  if (source === 'api-key') {
    const amount = (c.amount ?? '').trim();
    if (!/^\d+(\.\d+)?$/.test(amount)) throw new CheckoutError('invalid_amount', 'amount must be a decimal such as 12.50.');
    if (!c.currency) throw new CheckoutError('invalid_currency', 'currency is required.');
    const baseUrl = resolveBaseUrl(c.baseUrl);
    const params: Record<string, string> = { amount, currency: c.currency };
    if (c.label) params.label = c.label;
    if (c.message) params.message = c.message;
    const created = await createPayment(baseUrl, c.apiKey!, params);
    const payment = await verifyPayment(baseUrl, created.id, created.paymentToken, signal);
    return { paymentId: created.id, paymentToken: created.paymentToken, baseUrl, payment };
  }

  throw new CheckoutError('no_session', 'No session-url, payment-id + payment-token or api-key.');
}
