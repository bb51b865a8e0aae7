/**
 * JSON-RPC errors with the codes real Solana nodes use (agave rpc custom_error.rs and
 * jsonrpc-core), so clients that branch on codes behave the same against the localnet.
 */
export const RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** sendTransaction preflight simulation failed (data: err, logs, ...). */
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  /** Also used by real nodes for "Blockhash not found" style precondition failures. */
  transactionPrecompileVerificationFailure: -32005,
  transactionHistoryNotAvailable: -32011,
  transactionSignatureLenMismatch: -32013,
  unsupportedTransactionVersion: -32015,
  minContextSlotNotReached: -32016,
} as const;

export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }

  static invalidParams(message: string): RpcError {
    return new RpcError(RPC_CODES.invalidParams, message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}
