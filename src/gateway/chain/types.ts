/**
 * The contract between the verification engine and the payment service (DESIGN §5).
 * Amounts are bigint base units (lamports, or the token's smallest unit).
 */

/** The commitment a transfer must reach before a payment is confirmed. */
export type Commitment = 'confirmed' | 'finalized';

/** What a payment expects to see on chain. */
export interface ExpectedTransfer {
  /** Base58 public key, unique per payment (Solana Pay reference). */
  reference: string;
  /** The merchant wallet (owner), never a token account. */
  recipient: string;
  /** Token mint; null means SOL. */
  mint: string | null;
  /** Base units; must be positive. */
  amount: bigint;
  /** When set, a Memo program instruction must carry exactly this text. */
  memo: string | null;
}

export type TransferVerdict = 'paid' | 'underpaid' | 'invalid';

/**
 * Why a transfer is not (fully) paid. Stable strings: the service stores them and docs/verification.md
 * explains each one.
 */
export const TRANSFER_REASONS = [
  'transaction_failed',
  'meta_missing',
  'reference_missing',
  'memo_mismatch',
  'wrong_mint',
  'recipient_not_credited',
  'amount_short',
] as const;
export type TransferReason = (typeof TRANSFER_REASONS)[number];

export interface TransferCheck {
  verdict: TransferVerdict;
  /** Null when paid. */
  reason: TransferReason | null;
  /** How much the recipient's balance of the expected asset rose by (0n if it did not rise). */
  amountReceived: bigint;
  /** True when paid and amountReceived > amount. */
  overpaid: boolean;
  /** The fee payer (first account key). */
  payer: string | null;
}

export interface TransferCandidate extends TransferCheck {
  signature: string;
  slot: number;
  blockTime: number | null;
  /** True when the transaction is at the scanner's required commitment. */
  reachedCommitment: boolean;
}
