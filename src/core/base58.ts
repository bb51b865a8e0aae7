/**
 * Base58 (Bitcoin alphabet, as Solana uses for addresses and signatures) and public-key checks.
 * Written here rather than imported so core keeps zero runtime dependencies.
 */
import { AddressError, CoreError, describeInput } from './errors.js';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX: ReadonlyMap<string, number> = new Map([...ALPHABET].map((char, i) => [char, i]));

/** Encodes bytes as base58; each leading zero byte becomes a leading '1'. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  // Little-endian base-58 digits of the big number after the leading zeros.
  const digits: number[] = [];
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i] ?? 0;
    for (let j = 0; j < digits.length; j++) {
      carry += (digits[j] ?? 0) * 256;
      digits[j] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '1'.repeat(zeros);
  for (let j = digits.length - 1; j >= 0; j--) out += ALPHABET[digits[j] ?? 0];
  return out;
}

/**
 * Decodes a base58 string; each leading '1' becomes a zero byte. Throws CoreError `base58_invalid`
 * on any character outside the alphabet (including whitespace, 0, O, I and l). The work grows with the
 * square of the length, so callers handling untrusted input should bound the length first.
 */
export function decodeBase58(s: string): Uint8Array {
  if (typeof s !== 'string') {
    throw new CoreError('base58_invalid', `base58 input must be a string, got ${describeInput(s)}`);
  }
  let zeros = 0;
  while (zeros < s.length && s[zeros] === '1') zeros++;
  const bytes: number[] = []; // little-endian
  for (let i = zeros; i < s.length; i++) {
    const char = s[i] ?? '';
    let carry = INDEX.get(char);
    if (carry === undefined) {
      throw new CoreError(
        'base58_invalid',
        `${describeInput(s)} is not base58: character ${JSON.stringify(char)} at position ${i} is not in the alphabet`,
      );
    }
    for (let j = 0; j < bytes.length; j++) {
      carry += (bytes[j] ?? 0) * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  for (let j = 0; j < bytes.length; j++) out[out.length - 1 - j] = bytes[j] ?? 0;
  return out;
}

/** 32 bytes need at least 32 characters (all '1's) and at most 44. */
const MIN_KEY_LENGTH = 32;
const MAX_KEY_LENGTH = 44;

/** Why `s` is not a public key, or undefined when it is one. */
function publicKeyProblem(s: unknown): string | undefined {
  if (typeof s !== 'string') return `must be a string, got ${describeInput(s)}`;
  if (s.length < MIN_KEY_LENGTH || s.length > MAX_KEY_LENGTH) {
    return `${describeInput(s)} has ${s.length} characters; a base58 public key has ${MIN_KEY_LENGTH} to ${MAX_KEY_LENGTH}`;
  }
  let bytes: Uint8Array;
  try {
    bytes = decodeBase58(s);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (bytes.length !== 32) return `${describeInput(s)} decodes to ${bytes.length} bytes; a public key has 32`;
  return undefined;
}

/**
 * True when `s` is exactly a base58-encoded 32-byte public key (no surrounding whitespace or junk).
 * Does not check that the key is on the ed25519 curve: program-derived addresses and Solana Pay
 * references are valid without being on it.
 */
export function isPublicKey(s: string): boolean {
  return publicKeyProblem(s) === undefined;
}

/** Returns `s` when it is a public key; otherwise throws AddressError `address_invalid` naming `param`. */
export function assertPublicKey(s: string, param = 'address'): string {
  const problem = publicKeyProblem(s);
  if (problem !== undefined) {
    throw new AddressError('address_invalid', `${param} is not a valid Solana address: ${problem}`, param);
  }
  return s;
}
