/**
 * Waiting for a signature by polling getSignatureStatuses over HTTP only: works against any
 * RPC endpoint, including ones behind proxies that do not pass websockets (web3.js's
 * confirmTransaction needs signatureSubscribe).
 */
import type { Connection, TransactionError } from '@solana/web3.js';

export class TransactionFailedError extends Error {
  readonly signature: string;
  readonly err: TransactionError;
  constructor(signature: string, err: TransactionError) {
    super(`transaction ${signature} failed: ${JSON.stringify(err)}`);
    this.name = 'TransactionFailedError';
    this.signature = signature;
    this.err = err;
  }
}

export async function waitForConfirmation(
  connection: Connection,
  signature: string,
  options: { commitment?: 'confirmed' | 'finalized'; timeoutMs?: number; lastValidBlockHeight?: number } = {},
): Promise<void> {
  const commitment = options.commitment ?? 'confirmed';
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature], { searchTransactionHistory: true });
    const status = value[0];
    if (status?.err) throw new TransactionFailedError(signature, status.err);
    if (status && (status.confirmationStatus === 'finalized' || (commitment === 'confirmed' && status.confirmationStatus === 'confirmed'))) return;
    if (!status && options.lastValidBlockHeight !== undefined) {
      const height = await connection.getBlockHeight('confirmed');
      if (height > options.lastValidBlockHeight) throw new Error(`transaction ${signature} expired: its blockhash is too old and it never landed`);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for transaction ${signature} to be ${commitment}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
