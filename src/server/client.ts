/**
 * The merchant's client for the gateway API (DESIGN §4):
 *   const svc = new SvcClient({ apiKey: process.env.SVC_SECRET_KEY, baseUrl: 'https://pay.example.com' });
 *   const payment = await svc.payments.create({ amount: '12.50', currency: 'USDC', orderId: 'A-1001' });
 */
import { SvcError } from './errors.js';
import { Events } from './resources/events.js';
import { MerchantResource } from './resources/merchant.js';
import { Payments } from './resources/payments.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './retry.js';
import { Transport } from './transport.js';
import { VERSION } from './version.js';
import { webhooks } from './webhooks/index.js';

export type { ListPaymentsParams } from './resources/payments.js';
export type { ListEventsParams, EventRedelivery } from './resources/events.js';

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

const SECRET_KEY = /^svc_(live|test)_/;
const ANY_KEY = /^svc_(live|test|pk_live|pk_test)_[A-Za-z0-9]+$/;

function inBrowser(): boolean {
  return typeof (globalThis as { window?: unknown }).window !== 'undefined' &&
    typeof (globalThis as { document?: unknown }).document !== 'undefined';
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
