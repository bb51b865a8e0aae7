/**
 * Token amounts: decimal strings in token units ("12.50") <-> integer base units (bigint).
 * Amounts never pass through JavaScript numbers, which cannot hold every u64 exactly.
 * Rules and the decisions behind them are in docs/core.md ("Amounts").
 */
import { AmountError, describeInput } from './errors.js';

/** The largest balance an SPL token account (or a lamport balance) can hold: 2^64 - 1 base units. */
export const U64_MAX = 18446744073709551615n;

/** Largest `decimals` accepted: the SPL Token mint stores decimals in a u8. */
const MAX_DECIMALS = 255;

/** Digits, no leading zeros (except a lone 0), optionally '.' and at least one digit. */
const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

export interface DecimalParts {
  integer: string;
  fraction: string;
}

/**
 * Checks that `value` is a plain non-negative decimal string and splits it. Throws an AmountError whose
 * message names the exact problem. Used by parseAmount and by the Solana Pay URL code.
 */
export function splitDecimal(value: unknown, param = 'amount'): DecimalParts {
  if (typeof value !== 'string') {
    const hint =
      typeof value === 'number'
        ? `pass the amount as a decimal string such as "12.50": JavaScript numbers cannot represent every amount exactly`
        : typeof value === 'bigint'
          ? 'pass a decimal string in token units (formatAmount turns base units into one)'
          : 'pass a decimal string such as "12.50"';
    throw new AmountError('amount_invalid', `${param} must be a string, got ${describeInput(value)}: ${hint}`, param);
  }
  const match = DECIMAL.exec(value);
  if (match) return { integer: match[1] ?? '0', fraction: match[2] ?? '' };
  throw new AmountError('amount_invalid', `${param} ${describeInput(value)} ${syntaxProblem(value)}`, param);
}

/** Explains why a string is not a plain decimal, for the error message. */
function syntaxProblem(value: string): string {
  if (value === '') return 'is empty';
  if (value.trim() !== value) return 'has leading or trailing whitespace';
  if (value.startsWith('-')) return 'is negative: amounts must be zero or more';
  if (value.startsWith('+')) return 'must not have a sign';
  if (/[eE]/.test(value) && /^[0-9.eE+-]+$/.test(value)) return 'uses scientific notation, which is not allowed';
  if (value.includes(',') || value.includes('_')) return "must use '.' as the decimal separator and no digit grouping";
  if (value.startsWith('.')) return "needs a 0 before the '.' (write 0.5, not .5)";
  if (value.endsWith('.')) return "needs digits after the '.' (write 5, not 5.)";
  if (/^0[0-9]/.test(value)) return 'must not have leading zeros';
  return "must be a plain decimal number: digits, optionally one '.' followed by digits";
}

function checkDecimals(decimals: unknown): number {
  if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    throw new AmountError(
      'decimals_invalid',
      `decimals must be an integer from 0 to ${MAX_DECIMALS}, got ${describeInput(decimals)}`,
      'decimals',
    );
  }
  return decimals;
}

/**
 * Converts a decimal string in token units to integer base units: parseAmount("12.5", 6) === 12500000n.
 * Accepts "12.5" and "12.50" alike; rejects anything that is not a plain decimal, more decimal places
 * than the token has (even trailing zeros, as the Solana Pay spec requires), and values above U64_MAX.
 */
export function parseAmount(value: string, decimals: number, param = 'amount'): bigint {
  const places = checkDecimals(decimals);
  const { integer, fraction } = splitDecimal(value, param);
  if (fraction.length > places) {
    throw new AmountError(
      'amount_too_precise',
      `${param} ${describeInput(value)} has ${fraction.length} decimal places but this token has only ${places}`,
      param,
    );
  }
  // Bound the work before building big numbers: U64_MAX has 20 digits and there are no leading zeros.
  const baseUnits =
    integer.length > 20 ? U64_MAX + 1n : BigInt(integer + fraction.padEnd(places, '0'));
  if (baseUnits > U64_MAX) {
    throw new AmountError(
      'amount_out_of_range',
      `${param} ${describeInput(value)} is above the largest possible amount (${formatAmount(U64_MAX, places)})`,
      param,
    );
  }
  return baseUnits;
}

/**
 * Converts integer base units to the shortest exact decimal string in token units:
 * formatAmount(12500000n, 6) === "12.5", formatAmount(1n, 9) === "0.000000001", formatAmount(0n, 6) === "0".
 */
export function formatAmount(baseUnits: bigint, decimals: number): string {
  const places = checkDecimals(decimals);
  if (typeof baseUnits !== 'bigint') {
    throw new AmountError(
      'amount_invalid',
      `base units must be a bigint such as 12500000n, got ${describeInput(baseUnits)}`,
      'amount',
    );
  }
  if (baseUnits < 0n || baseUnits > U64_MAX) {
    throw new AmountError(
      'amount_out_of_range',
      `base units ${baseUnits} are outside 0..${U64_MAX}`,
      'amount',
    );
  }
  const digits = baseUnits.toString().padStart(places + 1, '0');
  const integer = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return fraction === '' ? integer : `${integer}.${fraction}`;
}
