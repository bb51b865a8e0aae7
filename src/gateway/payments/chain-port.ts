/**
 * What the payment service needs from Solana. The real implementation (solana-chain.ts) wraps the
 * verification engine in ../chain; keeping this seam small makes the service's rules readable.
 * Every method may throw on RPC failure; callers never change a payment's state on a throw.
 */
import type { ExpectedTransfer, TransferCandidate } from '../chain/types.js';

export interface TransactionRequestInput {
  recipient: string;
  amount: bigint;
  mint: string | null;
  reference: string;
  memo: string | null;
  label: string | null;
  message: string | null;
}

export interface ChainPort {
  /** Every transfer that mentions the reference, oldest first, each with its verdict. */
  scan(expected: ExpectedTransfer): Promise<TransferCandidate[]>;
  mintDecimals(mint: string): Promise<number>;
  /** Whether the recipient-owned token account for this mint exists. */
  recipientTokenAccountExists(owner: string, mint: string): Promise<boolean>;
  /** Unsigned transaction (base64) for a wallet to sign: fee payer = account. */
  buildTransactionRequest(input: TransactionRequestInput, account: string): Promise<{ transaction: string; message?: string }>;
}
