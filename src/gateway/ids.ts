import { randomBytes } from 'node:crypto';

/**
 * Sortable ids: prefix + 26 chars (10 of time, 16 of randomness, Crockford base32, like ULID).
 * Ids made in the same millisecond stay ordered because the random part is incremented, so
 * "newest first" is simply "id descending" and cursors are ids.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RANDOM_MAX = (1n << 80n) - 1n;

let lastTime = -1;
let lastRandom = 0n;

function encode(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export function sortableId(now = Date.now()): string {
  if (now <= lastTime) {
    // Same (or earlier, clock went back) millisecond: keep time, bump randomness for order.
    lastRandom = lastRandom >= RANDOM_MAX ? 0n : lastRandom + 1n;
  } else {
    lastTime = now;
    lastRandom = BigInt('0x' + randomBytes(10).toString('hex'));
  }
  return encode(BigInt(lastTime), 10) + encode(lastRandom, 16);
}

export const newPaymentId = (): string => 'pay_' + sortableId();
export const newEventId = (): string => 'evt_' + sortableId();
export const newMerchantId = (): string => 'mer_' + sortableId();
export const newKeyId = (): string => 'key_' + sortableId();
export const newOutboxId = (): string => 'whd_' + sortableId();

const ID_BODY = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export function isId(prefix: 'pay' | 'evt' | 'mer', value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(prefix + '_') && ID_BODY.test(value.slice(prefix.length + 1));
}
