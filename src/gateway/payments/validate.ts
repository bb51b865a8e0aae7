/**
 * Validation of POST /api/v1/payments bodies. Strict: unknown fields, wrong types and text the
 * payer's wallet could misread are refused with a clear code and the offending `param`.
 */
import { ApiError } from '../http/problem.js';

export interface CreateInput {
  amount: string;
  currency: string;
  orderId: string | null;
  label: string | null;
  message: string | null;
  memo: string | null;
  metadata: Record<string, string>;
  expiresIn: number | null;
}

const FIELDS = new Set(['amount', 'currency', 'orderId', 'label', 'message', 'memo', 'metadata', 'expiresIn']);
export const LIMITS = {
  orderId: 200,
  label: 200,
  message: 500,
  memo: 200,
  metadataKeys: 20,
  metadataKey: 40,
  metadataValue: 500,
  expiresInMin: 60,
  expiresInMax: 7 * 24 * 3600,
} as const;

// C0/C1 controls and bidi overrides: invisible in a wallet, so they could disguise a label or memo.
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** No lone surrogate halves (String#isWellFormed is Node 20 but not in our TS lib). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);

function invalid(param: string, detail: string, code = 'parameter_invalid'): never {
  throw new ApiError(400, code, detail, param);
}

function text(body: Record<string, unknown>, param: string, max: number): string | null {
  const v = body[param];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') invalid(param, `${param} must be a string.`);
  if (!wellFormed(v)) invalid(param, `${param} is not well-formed Unicode.`);
  if (UNSAFE_TEXT.test(v)) invalid(param, `${param} must not contain control or bidirectional-override characters.`);
  if ([...v].length > max) invalid(param, `${param} must be at most ${max} characters.`);
  if (v.trim() === '') invalid(param, `${param} must not be blank; leave it out instead.`);
  return v;
}

export function validateCreate(body: unknown): CreateInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(400, 'body_invalid', 'The request body must be a JSON object.');
  }
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (!FIELDS.has(key)) invalid(key, `Unknown field "${key.slice(0, 64)}". Allowed: ${[...FIELDS].join(', ')}.`, 'parameter_unknown');
  }
  if (b.amount === undefined || b.amount === null) invalid('amount', 'amount is required, as a decimal string such as "12.50".', 'parameter_missing');
  if (typeof b.amount !== 'string') invalid('amount', 'amount must be a decimal string such as "12.50", not a number.', 'amount_invalid');
  if (b.currency === undefined || b.currency === null) invalid('currency', 'currency is required, e.g. "USDC" or "SOL".', 'parameter_missing');
  if (typeof b.currency !== 'string' || b.currency.length > 16) invalid('currency', 'currency must be a currency symbol such as "USDC".');

  let metadata: Record<string, string> = {};
  if (b.metadata !== undefined && b.metadata !== null) {
    const m = b.metadata;
    if (typeof m !== 'object' || Array.isArray(m)) invalid('metadata', 'metadata must be an object of string values.');
    const entries = Object.entries(m as Record<string, unknown>);
    if (entries.length > LIMITS.metadataKeys) invalid('metadata', `metadata may have at most ${LIMITS.metadataKeys} keys.`);
    metadata = {};
    for (const [k, v] of entries) {
      if (k.length === 0 || k.length > LIMITS.metadataKey || !wellFormed(k)) {
        invalid('metadata', `metadata keys must be 1 to ${LIMITS.metadataKey} characters.`);
      }
      if (typeof v !== 'string') invalid(`metadata.${k}`, 'metadata values must be strings.');
      if (v.length > LIMITS.metadataValue || !wellFormed(v)) {
        invalid(`metadata.${k}`, `metadata values must be well-formed strings of at most ${LIMITS.metadataValue} characters.`);
      }
      metadata[k] = v;
    }
  }

  let expiresIn: number | null = null;
  if (b.expiresIn !== undefined && b.expiresIn !== null) {
    const e = b.expiresIn;
    if (typeof e !== 'number' || !Number.isInteger(e) || e < LIMITS.expiresInMin || e > LIMITS.expiresInMax) {
      invalid('expiresIn', `expiresIn must be a whole number of seconds from ${LIMITS.expiresInMin} to ${LIMITS.expiresInMax}.`);
    }
    expiresIn = e;
  }

  return {
    amount: b.amount,
    currency: b.currency.toUpperCase(),
    orderId: text(b, 'orderId', LIMITS.orderId),
    label: text(b, 'label', LIMITS.label),
    message: text(b, 'message', LIMITS.message),
    memo: text(b, 'memo', LIMITS.memo),
    metadata,
    expiresIn,
  };
}
