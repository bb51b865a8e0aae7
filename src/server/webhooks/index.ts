/**
 * The `webhooks` helper: verify deliveries from the gateway, and sign test deliveries
 * so a merchant can exercise their own endpoint without a gateway.
 */
import { randomBytes } from 'node:crypto';
import { webhookHeaders, type WebhookSecret } from './signature.js';
import { verifyWebhook } from './verify.js';

export interface SignOptions {
  /** The webhook-id (default: a random `msg_…`). */
  id?: string;
  /** Unix seconds (default: now). */
  timestamp?: number;
}

export interface SignedWebhook {
  /** The exact bytes to send as the body. */
  body: string;
  headers: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature' | 'content-type', string>;
}

/** Signs `payload` (an event object, or an already serialised body) as the gateway would. */
function sign(payload: unknown, secret: WebhookSecret, options: SignOptions = {}): SignedWebhook {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const id = options.id ?? `msg_${randomBytes(16).toString('hex')}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return { body, headers: { ...webhookHeaders(secret, id, timestamp, body), 'content-type': 'application/json' } };
}

export const webhooks = { verify: verifyWebhook, sign };

export { verifyWebhook, DEFAULT_TOLERANCE, type HeadersLike, type VerifyOptions } from './verify.js';
export {
  signWebhook,
  verifyWebhookSignature,
  webhookHeaders,
  decodeWebhookSecret,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_ID_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookSecret,
  type WebhookBody,
} from './signature.js';
