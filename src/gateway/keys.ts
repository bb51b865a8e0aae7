import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credentials (DESIGN §2). Only SHA-256 hashes of keys and tokens are stored; the plain value is
 * shown once. Keys carry 256 bits of randomness, so a fast hash is enough (no password stretching).
 * Never log a key: log `keyPrefix(key)` at most.
 */
export type KeyMode = 'test' | 'live';
export type KeyKind = 'secret' | 'publishable';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 32 bytes need at most 43 base62 digits; fixed length keeps every key the same shape. */
const BODY_LENGTH = 43;

export function randomBase62(bytes = 32): string {
  let n = BigInt('0x' + randomBytes(bytes).toString('hex'));
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(BODY_LENGTH, '0');
}

export function generateSecretKey(mode: KeyMode): string {
  return `svc_${mode}_${randomBase62()}`;
}
export function generatePublishableKey(mode: KeyMode): string {
  return `svc_pk_${mode}_${randomBase62()}`;
}
export function generatePaymentToken(): string {
  return `svc_pt_${randomBase62()}`;
}
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const KEY_SHAPE = /^svc_(?:(pk)_)?(test|live)_[0-9A-Za-z]{43}$/;
/** What a key claims to be from its shape alone; null when it is not a key at all. */
export function parseKeyShape(key: string): { kind: KeyKind; mode: KeyMode } | null {
  const m = KEY_SHAPE.exec(key);
  if (!m) return null;
  return { kind: m[1] ? 'publishable' : 'secret', mode: m[2] as KeyMode };
}

export function hashCredential(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex hashes. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Safe to print: the kind and the first few characters only. */
export function keyPrefix(key: string): string {
  const i = key.lastIndexOf('_');
  return key.slice(0, i + 1) + key.slice(i + 1, i + 5) + '…';
}
