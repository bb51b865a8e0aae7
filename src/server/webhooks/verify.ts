/**
 * `webhooks.verify`: checks a delivery from the gateway and returns the event it carries.
 * Order of checks: the body is raw, the headers are there, the signature matches, then the
 * timestamp is fresh (so "too old" is only ever said of a genuinely signed, replayed delivery).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PaymentEvent } from '../../core/payment.js';
import { WEBHOOK_ERROR_CODES as CODES, WebhookVerificationError } from '../errors.js';
import {
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  verifyWebhookSignature,
  type WebhookSecret,
} from './signature.js';

/** A fetch Headers object, Node's IncomingHttpHeaders, or any plain object (names in any case). */
export type HeadersLike = Headers | IncomingHttpHeaders | Record<string, string | readonly string[] | undefined>;

export interface VerifyOptions {
  /** Seconds a delivery's timestamp may differ from now, either way (default 300). */
  tolerance?: number;
  /** Current time in unix seconds (default: the clock). */
  now?: number;
}

export const DEFAULT_TOLERANCE = 300;

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (typeof value === 'string') return value;
    // A header sent twice is ambiguous: refuse it rather than guess which one was signed.
    if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
  }
  return undefined;
}

/** Verifies one delivery; throws WebhookVerificationError with a distinct `code` for each failure. */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  secret: WebhookSecret,
  options: VerifyOptions = {},
): PaymentEvent {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new WebhookVerificationError(
      CODES.bodyParsed,
      'The webhook body must be the raw request body (a string or Buffer), but it was ' +
        (rawBody == null ? String(rawBody) : 'already parsed') +
        ". Re-serialising JSON changes the bytes and breaks the signature: use express.raw({ type: 'application/json' }) " +
        'on the webhook route (before any express.json()), or the webhookHandler from svc-checkout/server/express.',
    );
  }
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  if (!(Number.isFinite(tolerance) && tolerance >= 0)) throw new TypeError('tolerance must be a number of seconds ≥ 0');
  if (headers == null || typeof headers !== 'object') {
    throw new WebhookVerificationError(CODES.missingHeaders, 'No headers given to webhooks.verify');
  }

  const id = header(headers, WEBHOOK_ID_HEADER);
  const timestampHeader = header(headers, WEBHOOK_TIMESTAMP_HEADER);
  const signature = header(headers, WEBHOOK_SIGNATURE_HEADER);
  const missing = [
    [WEBHOOK_ID_HEADER, id],
    [WEBHOOK_TIMESTAMP_HEADER, timestampHeader],
    [WEBHOOK_SIGNATURE_HEADER, signature],
  ].filter(([, value]) => !value).map(([name]) => name);
  if (missing.length > 0 || !id || !timestampHeader || !signature) {
    throw new WebhookVerificationError(CODES.missingHeaders, `Missing webhook header(s): ${missing.join(', ')}`);
  }
  if (!/^\d{1,15}$/.test(timestampHeader)) {
    throw new WebhookVerificationError(CODES.invalidHeaders, `webhook-timestamp is not unix seconds: ${JSON.stringify(timestampHeader)}`);
  }
  const timestamp = Number(timestampHeader);

  if (!verifyWebhookSignature(secret, id, timestamp, rawBody, signature)) {
    throw new WebhookVerificationError(
      CODES.badSignature,
      'No webhook signature matches: check the webhook secret, and that the body is passed exactly as received',
    );
  }

  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (now - timestamp > tolerance) {
    throw new WebhookVerificationError(CODES.timestampTooOld, `Webhook timestamp is ${now - timestamp} s old (tolerance ${tolerance} s)`);
  }
  if (timestamp - now > tolerance) {
    throw new WebhookVerificationError(
      CODES.timestampInFuture,
      `Webhook timestamp is ${timestamp - now} s in the future (tolerance ${tolerance} s): check this server's clock`,
    );
  }

  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString('utf8');
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError(CODES.invalidPayload, 'The webhook body is signed but is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as PaymentEvent).type !== 'string') {
    throw new WebhookVerificationError(CODES.invalidPayload, 'The webhook body is signed but is not an event');
  }
  return event as PaymentEvent;
}
