/**
 * Solana Pay transfer request URLs (https://docs.solanapay.com/spec):
 *   solana:<recipient>?amount=<decimal>&spl-token=<mint>&reference=<r1>&reference=<r2>&label=..&message=..&memo=..
 * Parsing is strict where money is (amount, mint, references, memo must mean one thing only) and
 * follows the spec elsewhere (unknown parameters are ignored). Decisions are listed in docs/core.md.
 */
import { splitDecimal, parseAmount, U64_MAX } from './amount.js';
import { assertPublicKey } from './base58.js';
import { AmountError, SolanaPayUrlError, describeInput } from './errors.js';

export interface TransferRequest {
  /** The merchant's wallet (a native SOL account, never a token account), base58. */
  recipient: string;
  /** Decimal string in token units ("12.50"); absent means the wallet asks the payer. */
  amount?: string;
  /** Mint of the SPL token to pay in; absent means SOL. */
  splToken?: string;
  /** Keys the wallet adds to the transfer so the payment can be found on chain, in order. */
  references?: string[];
  label?: string;
  message?: string;
  memo?: string;
}

export interface TransferRequestOptions {
  /** When given, the amount is also checked against the token's decimals and the u64 range. */
  decimals?: number;
}

/** The spec's length limit for the whole URL, in characters. */
export const MAX_URL_LENGTH = 2048;

const SCHEME = 'solana:';
const TEXT_FIELDS = ['label', 'message', 'memo'] as const;
const SINGLE_PARAMS = new Set(['amount', 'spl-token', 'label', 'message', 'memo']);
/** RFC 3986 characters allowed in a query: unreserved, sub-delims, ':', '@', '/', '?', and '%' escapes. */
const URL_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/;

function fail(code: string, message: string, param?: string): never {
  throw new SolanaPayUrlError(code, message, param);
}

/** Checks the amount's syntax, and with `decimals` its precision and range. */
function checkAmount(amount: unknown, options: TransferRequestOptions): string {
  const { integer } = splitDecimal(amount, 'amount');
  const value = amount as string;
  if (options.decimals !== undefined) {
    parseAmount(value, options.decimals);
  } else if (integer.length > 20 || BigInt(integer) > U64_MAX) {
    // Token units never exceed base units, so this bound holds whatever the token's decimals are.
    throw new AmountError('amount_out_of_range', `amount ${describeInput(value)} is above u64`, 'amount');
  }
  return value;
}

/** Builds the transfer request URL, validating every field. Fields are emitted in the spec's order. */
export function encodeTransferRequestUrl(req: TransferRequest, options: TransferRequestOptions = {}): string {
  if (typeof req !== 'object' || req === null) fail('url_invalid', `transfer request must be an object, got ${describeInput(req)}`);
  const params: string[] = [];
  const recipient = assertPublicKey(req.recipient, 'recipient');
  if (req.amount !== undefined) params.push(`amount=${checkAmount(req.amount, options)}`);
  if (req.splToken !== undefined) params.push(`spl-token=${assertPublicKey(req.splToken, 'splToken')}`);
  if (req.references !== undefined) {
    if (!Array.isArray(req.references)) fail('url_param_invalid', 'references must be an array of addresses', 'references');
    req.references.forEach((ref, i) => params.push(`reference=${assertPublicKey(ref, `references[${i}]`)}`));
  }
  for (const field of TEXT_FIELDS) {
    const text = req[field];
    if (text === undefined) continue;
    if (typeof text !== 'string' || text === '') {
      fail('url_param_invalid', `${field} must be a non-empty string (omit it instead), got ${describeInput(text)}`, field);
    }
    let encoded: string;
    try {
      encoded = encodeURIComponent(text);
    } catch {
      fail('url_param_invalid', `${field} is not valid UTF-16 text (it contains an unpaired surrogate)`, field);
    }
    params.push(`${field}=${encoded}`);
  }
  const url = SCHEME + recipient + (params.length > 0 ? `?${params.join('&')}` : '');
  if (url.length > MAX_URL_LENGTH) {
    fail('url_too_long', `the URL would be ${url.length} characters; Solana Pay allows at most ${MAX_URL_LENGTH} (shorten label, message or memo)`);
  }
  return url;
}

function decode(raw: string, what: string, param?: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return fail('url_encoding_invalid', `${what} ${describeInput(raw)} has malformed percent-encoding or is not UTF-8`, param);
  }
}

/** Splits `solana:<recipient>?<query>` and checks the scheme, the length and the character set. */
function splitUrl(url: string): { recipient: string; query: string | undefined } {
  if (typeof url !== 'string') fail('url_invalid', `URL must be a string, got ${describeInput(url)}`);
  if (url.length > MAX_URL_LENGTH) {
    fail('url_too_long', `URL has ${url.length} characters; Solana Pay allows at most ${MAX_URL_LENGTH}`);
  }
  // Schemes are case-insensitive (RFC 3986 §3.1).
  if (url.slice(0, SCHEME.length).toLowerCase() !== SCHEME) {
    fail('url_invalid', `URL must start with "solana:", got ${describeInput(url)}`);
  }
  const rest = url.slice(SCHEME.length);
  if (!URL_CHARS.test(rest)) {
    const bad = [...rest].find((char) => !URL_CHARS.test(char)) ?? '';
    fail('url_invalid', `URL contains ${JSON.stringify(bad)}, which must be percent-encoded (no spaces, fragments or raw non-ASCII)`);
  }
  const q = rest.indexOf('?');
  const recipient = q === -1 ? rest : rest.slice(0, q);
  if (/^https?(:|%3A)/i.test(recipient)) {
    fail('url_invalid', 'this is a Solana Pay transaction request URL (solana:<link>), not a transfer request', 'recipient');
  }
  if (q === -1 && recipient.includes('&')) {
    fail('url_invalid', `the parameters after the recipient must start with "?", not "&"`, 'recipient');
  }
  if (recipient === '') fail('url_invalid', 'URL has no recipient after "solana:"', 'recipient');
  return { recipient, query: q === -1 ? undefined : rest.slice(q + 1) };
}

/**
 * Parses and validates a transfer request URL. Returns only the fields present. Throws a CoreError
 * (SolanaPayUrlError, AddressError or AmountError) naming the parameter at fault.
 */
export function parseTransferRequestUrl(url: string, options: TransferRequestOptions = {}): TransferRequest {
  const split = splitUrl(url);
  const result: TransferRequest = { recipient: assertPublicKey(split.recipient, 'recipient') };
  if (split.query === undefined || split.query === '') return result;
  const seen = new Set<string>();
  for (const pair of split.query.split('&')) {
    if (pair === '') fail('url_invalid', 'URL has an empty parameter (a stray "&")');
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq), 'parameter name');
    if (key !== 'reference' && !SINGLE_PARAMS.has(key)) continue; // unknown: ignored, as the spec's extensions require
    if (eq === -1) fail('url_invalid', `parameter ${key} has no value`, key);
    if (seen.has(key) && key !== 'reference') fail('url_param_duplicate', `parameter ${key} appears more than once`, key);
    seen.add(key);
    const raw = pair.slice(eq + 1);
    if (key === 'amount') {
      result.amount = checkAmount(decode(raw, 'amount', key), options);
    } else if (key === 'spl-token') {
      result.splToken = assertPublicKey(decode(raw, 'spl-token', key), key);
    } else if (key === 'reference') {
      (result.references ??= []).push(assertPublicKey(decode(raw, 'reference', key), key));
    } else {
      // A raw '+' is a space: the reference library (@solana/pay) writes spaces as '+' and wallets read
      // with URLSearchParams, so this is the memo they put on chain. We write %20 and %2B ourselves.
      const text = decode(raw.replaceAll('+', ' '), key, key);
      if (text !== '') result[key as (typeof TEXT_FIELDS)[number]] = text; // empty means absent, as in the reference parser
    }
  }
  return result;
}
