/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com), symmetric scheme only:
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, where the key is the
 * base64-decoded part of the `whsec_` secret. Several space-separated signatures are sent while a
 * secret is being rotated. Used by the gateway to sign deliveries and by the SDK to verify them.
 * node:crypto only, so the official Standard Webhooks libraries in every language agree with it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Header names, lower-case as Node delivers them. */
export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** The spec asks for at least 24 random bytes; ours are 32 (DESIGN §2). */
const MIN_SECRET_BYTES = 24;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type WebhookSecret = string | readonly string[];
export type WebhookBody = string | Uint8Array;

/** Decodes a `whsec_<base64>` secret (the prefix is optional, as in the official libraries). */
export function decodeWebhookSecret(secret: string): Buffer {
  if (typeof secret !== 'string') throw new TypeError('Webhook secret must be a string like "whsec_..."');
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
  if (encoded.length === 0 || !BASE64.test(encoded)) {
    throw new TypeError('Webhook secret is not valid: expected "whsec_" followed by base64');
  }
  const key = Buffer.from(encoded, 'base64');
  if (key.length < MIN_SECRET_BYTES) {
    throw new TypeError(`Webhook secret is too short: expected at least ${MIN_SECRET_BYTES} bytes, got ${key.length}`);
  }
  return key;
}

function secretList(secret: WebhookSecret): string[] {
  const list = typeof secret === 'string' ? [secret] : [...secret];
  if (list.length === 0) throw new TypeError('At least one webhook secret is needed');
  return list;
}

/** The base64 HMAC of `<id>.<timestamp>.<body>`; the body is hashed as raw bytes, exactly as received. */
function hmacBase64(key: Buffer, id: string, timestamp: number, body: WebhookBody): string {
  return createHmac('sha256', key)
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('base64');
}

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new TypeError(`Webhook timestamp must be whole unix seconds, got ${timestamp}`);
  }
}

/**
 * The `webhook-signature` header value: one `v1,<base64>` per secret, space-separated (rotation).
 * The id must not contain "." or whitespace so the signed content cannot be split another way.
 */
export function signWebhook(secret: WebhookSecret, id: string, timestamp: number, body: WebhookBody): string {
  if (typeof id !== 'string' || id.length === 0 || /[.\s]/.test(id)) {
    throw new TypeError(`Webhook id must be a non-empty string without "." or whitespace, got ${JSON.stringify(id)}`);
  }
  checkTimestamp(timestamp);
  return secretList(secret)
    .map((s) => `v1,${hmacBase64(decodeWebhookSecret(s), id, timestamp, body)}`)
    .join(' ');
}

/** The three Standard Webhooks headers for one delivery attempt. */
export function webhookHeaders(
  secret: WebhookSecret,
  id: string,
  timestamp: number,
  body: WebhookBody,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    [WEBHOOK_ID_HEADER]: id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, id, timestamp, body),
  };
}

/**
 * True when any `v1` signature of the header matches the body under any of the secrets.
 * Other schemes (e.g. `v1a`, asymmetric) are skipped, as the spec asks. Each comparison is
 * constant-time over equal-length strings; lengths are public (a SHA-256 in base64 is 44 chars).
 * Timestamp tolerance is the caller's job (see verify.ts).
 */
export function verifyWebhookSignature(
  secret: WebhookSecret,
  id: string,
  timestamp: number,
  body: WebhookBody,
  signatureHeader: string,
): boolean {
  checkTimestamp(timestamp);
  const expected = secretList(secret).map((s) => Buffer.from(hmacBase64(decodeWebhookSecret(s), id, timestamp, body)));
  const passed = signatureHeader
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3)));
  let matched = false;
  // No early exit: the work done does not depend on which pair matched.
  for (const want of expected) {
    for (const got of passed) {
      if (got.length === want.length && timingSafeEqual(got, want)) matched = true;
    }
  }
  return matched;
}
