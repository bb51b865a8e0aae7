/**
 * The merchant's client for the gateway API (DESIGN §4):
 *   const svc = new SvcClient({ apiKey: process.env.SVC_SECRET_KEY, baseUrl: 'https://pay.example.com' });
 *   const payment = await svc.payments.create({ amount: '12.50', currency: 'USDC', orderId: 'A-1001' });
 */
import type {
  CreatePaymentParams,
  CreatedPayment,
  ListPage,
  Merchant,
  Payment,
  PaymentEvent,
  PaymentStatus,
  PublicPayment,
} from '../core/payment.js';
import { PAYMENT_TOKEN_HEADER } from '../core/payment.js';
import { ConflictError, InvalidRequestError, SvcError } from './errors.js';
import { listPromise, iterateAll, type ListPromise, type PageParams } from './pagination.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './retry.js';
import { Transport, type RequestOptions } from './transport.js';
import { VERSION } from './version.js';
import { webhooks } from './webhooks/index.js';

export interface SvcClientOptions {
  /** A secret key (`svc_live_…`, `svc_test_…`) or, for payments.create only, a publishable key (`svc_pk_…`). */
  apiKey: string;
  /** Where the gateway runs, e.g. `https://pay.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** Milliseconds per attempt (default 30 000). */
  timeout?: number;
  /** Retries after the first attempt, for network errors, timeouts, 429 and 5xx (default 2). */
  maxRetries?: number;
  /** Delay before the first retry in ms, doubled each time with jitter (default 500). */
  initialRetryDelay?: number;
  /** Ceiling of the computed delay in ms (default 8 000). */
  maxRetryDelay?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

export interface ListPaymentsParams extends PageParams {
  status?: PaymentStatus;
  orderId?: string;
}
export type ListEventsParams = PageParams;

/** The answer of events.redeliver: the delivery is queued, not yet made. */
export interface EventRedelivery {
  object: 'redelivery';
  eventId: string;
  queued: boolean;
}

const SECRET_KEY = /^svc_(live|test)_/;
const ANY_KEY = /^svc_(live|test|pk_live|pk_test)_[A-Za-z0-9]+$/;
/** Ids go into URL paths: a strict alphabet means no `..`, `/` or `?` can redirect a call. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

function inBrowser(): boolean {
  return typeof (globalThis as { window?: unknown }).window !== 'undefined' &&
    typeof (globalThis as { document?: unknown }).document !== 'undefined';
}

function checkId(id: string, what: string): string {
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new InvalidRequestError(`Invalid ${what} id: ${JSON.stringify(id)}`, { code: 'invalid_id', param: 'id' });
  }
  return encodeURIComponent(id);
}

class Payments {
  constructor(private readonly http: Transport) {}

  /** POST /api/v1/payments. The answer carries the `paymentToken` to hand to the browser (shown once). */
  create(params: CreatePaymentParams, options?: RequestOptions): Promise<CreatedPayment> {
    return this.http.request({ method: 'POST', path: '/api/v1/payments', body: params }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<Payment> {
    return this.http.request({ method: 'GET', path: `/api/v1/payments/${checkId(id, 'payment')}` }, options);
  }

  /** One page, newest first; also `for await`-able over every page. */
  list(params: ListPaymentsParams = {}, options?: RequestOptions): ListPromise<Payment> {
    return listPromise(params, (p) => this.page(p, options));
  }

  /** Every payment matching `params`, page after page. */
  listAll(params: ListPaymentsParams = {}, options?: RequestOptions): AsyncIterable<Payment> {
    return { [Symbol.asyncIterator]: () => iterateAll(this.page(params, options), params, (p) => this.page(p, options)) };
  }

  /**
   * Cancels a pending payment; a ConflictError when it is no longer pending. The gateway does not
   * replay cancels by Idempotency-Key, so when a retried cancel meets a conflict, the first
   * attempt may have worked with its answer lost: the payment is read, and returned if cancelled.
   */
  async cancel(id: string, options?: RequestOptions): Promise<Payment> {
    let retried = false;
    const path = `/api/v1/payments/${checkId(id, 'payment')}/cancel`;
    try {
      return await this.http.request<Payment>({ method: 'POST', path, onRetry: () => (retried = true) }, options);
    } catch (error) {
      if (!(retried && error instanceof ConflictError)) throw error;
      const payment = await this.retrieve(id, options);
      if (payment.status === 'cancelled') return payment;
      throw error;
    }
  }

  /** Asks the gateway to check the chain now, and returns the payment as it then stands. */
  verify(id: string, options?: RequestOptions): Promise<Payment> {
    return this.http.request({ method: 'POST', path: `/api/v1/payments/${checkId(id, 'payment')}/verify` }, options);
  }

  /**
   * The public view the browser sees (no metadata, no orderId), fetched with the payment token
   * rather than the secret key. Used by the session handler.
   */
  retrievePublic(id: string, paymentToken: string, options?: RequestOptions): Promise<PublicPayment> {
    return this.http.request(
      {
        method: 'POST',
        path: `/api/public/payments/${checkId(id, 'payment')}/verify`,
        headers: { [PAYMENT_TOKEN_HEADER]: paymentToken },
        auth: false,
      },
      options,
    );
  }

  private page(params: ListPaymentsParams, options?: RequestOptions): Promise<ListPage<Payment>> {
    return this.http.request({ method: 'GET', path: '/api/v1/payments', query: { ...params } }, options);
  }
}

class MerchantResource {
  constructor(private readonly http: Transport) {}

  retrieve(options?: RequestOptions): Promise<Merchant> {
    return this.http.request({ method: 'GET', path: '/api/v1/merchant' }, options);
  }
}

class Events {
  constructor(private readonly http: Transport) {}

  list(params: ListEventsParams = {}, options?: RequestOptions): ListPromise<PaymentEvent> {
    return listPromise(params, (p) => this.page(p, options));
  }

  listAll(params: ListEventsParams = {}, options?: RequestOptions): AsyncIterable<PaymentEvent> {
    return { [Symbol.asyncIterator]: () => iterateAll(this.page(params, options), params, (p) => this.page(p, options)) };
  }

  retrieve(id: string, options?: RequestOptions): Promise<PaymentEvent> {
    return this.http.request({ method: 'GET', path: `/api/v1/events/${checkId(id, 'event')}` }, options);
  }

  /** Queues the event's webhook again (it keeps its webhook-id, so receivers still deduplicate it). */
  redeliver(id: string, options?: RequestOptions): Promise<EventRedelivery> {
    return this.http.request({ method: 'POST', path: `/api/v1/events/${checkId(id, 'event')}/redeliver` }, options);
  }

  private page(params: ListEventsParams, options?: RequestOptions): Promise<ListPage<PaymentEvent>> {
    return this.http.request({ method: 'GET', path: '/api/v1/events', query: { ...params } }, options);
  }
}

export class SvcClient {
  readonly payments: Payments;
  readonly merchant: MerchantResource;
  readonly events: Events;
  /** Webhook verification (the same object as the `webhooks` export). */
  readonly webhooks = webhooks;
  /** The gateway's base URL, without a trailing slash. */
  readonly baseUrl: string;

  constructor(options: SvcClientOptions) {
    if (options == null || typeof options !== 'object') throw new TypeError('new SvcClient({ apiKey, baseUrl }) needs options');
    const { apiKey } = options;
    if (typeof apiKey !== 'string' || !ANY_KEY.test(apiKey)) {
      throw new TypeError('apiKey must be an svc-checkout key (svc_live_…, svc_test_… or svc_pk_…)');
    }
    if (SECRET_KEY.test(apiKey) && inBrowser()) {
      // A secret key in a page is readable by anyone who opens it: refuse before it is ever sent.
      throw new SvcError(
        'SvcClient was given a secret key (svc_live_/svc_test_) in a browser. Secret keys belong on your server only; ' +
          'in the browser use the <svc-checkout> element with a session-url, or a publishable key (svc_pk_…).',
        { code: 'secret_key_in_browser' },
      );
    }
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const timeout = options.timeout ?? 30_000;
    const maxRetries = options.maxRetries ?? 2;
    if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError('timeout must be a positive number of ms');
    if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new TypeError('maxRetries must be a whole number ≥ 0');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('No fetch available: pass options.fetch');
    const backoff: BackoffOptions = {
      ...DEFAULT_BACKOFF,
      ...(options.initialRetryDelay !== undefined && { initialRetryDelay: options.initialRetryDelay }),
      ...(options.maxRetryDelay !== undefined && { maxRetryDelay: options.maxRetryDelay }),
    };
    const http = new Transport({
      apiKey,
      baseUrl: this.baseUrl,
      timeout,
      maxRetries,
      backoff,
      userAgent: userAgent(),
      fetch: fetchImpl.bind(globalThis),
    });
    this.payments = new Payments(http);
    this.merchant = new MerchantResource(http);
    this.events = new Events(http);
  }
}

function normalizeBaseUrl(baseUrl: unknown): string {
  if (typeof baseUrl !== 'string') throw new TypeError('baseUrl is required, e.g. "https://pay.example.com"');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError('baseUrl must be an http(s) URL');
  if (url.search || url.hash) throw new TypeError('baseUrl must not have a query or fragment');
  return url.toString().replace(/\/+$/, '');
}

function userAgent(): string {
  const node = (globalThis as { process?: { version?: string } }).process?.version;
  return `svc-checkout-node/${VERSION}${node ? ` node/${node}` : ''}`;
}
