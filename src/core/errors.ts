/**
 * Errors thrown by core. Every error carries a stable snake_case `code` (documented in docs/core.md)
 * so the gateway can turn it into an RFC 9457 problem, and `param` names the offending input field.
 */
export class CoreError extends Error {
  override name = 'CoreError';
  readonly code: string;
  readonly param?: string;

  constructor(code: string, message: string, param?: string) {
    super(message);
    this.code = code;
    if (param !== undefined) this.param = param;
  }
}

/** A token amount was malformed, too precise, or out of range (codes `amount_*`, `decimals_invalid`). */
export class AmountError extends CoreError {
  override name = 'AmountError';
}

/** A value was not a base58-encoded 32-byte public key (code `address_invalid`). */
export class AddressError extends CoreError {
  override name = 'AddressError';
}

/** A Solana Pay URL could not be encoded or parsed (codes `url_*`). */
export class SolanaPayUrlError extends CoreError {
  override name = 'SolanaPayUrlError';
}

/** Shows a user-supplied value in an error message without letting a huge input flood logs. */
export function describeInput(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  }
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
