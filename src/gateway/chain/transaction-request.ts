import type { Connection } from '@solana/web3.js';
import { createTransferTransaction } from '../../solana/transfer.js';
import { toPublicKey } from './mint.js';

export interface TransactionRequestInput {
  recipient: string;
  /** Null for SOL. */
  mint: string | null;
  /** Base units. */
  amount: bigint;
  reference: string;
  memo: string | null;
  label: string | null;
  message: string | null;
}

export interface TransactionRequestResponse {
  /** Base64 of the unsigned legacy transaction: fee payer = the wallet's account, recent blockhash set. */
  transaction: string;
  /** Short text the wallet shows next to the transaction. */
  message: string;
}

const MAX_MESSAGE_CHARS = 200;

/**
 * The answer to a Solana Pay transaction request POST `{account}`: the same transfer a wallet would build from
 * the transfer request URL (memo, then System transfer or TransferChecked carrying the reference key), with the
 * wallet's account as fee payer and signer. Throws TransferError (src/solana/transfer.ts) with a stable code when
 * the transfer cannot be built (no funds, no token account...), TypeError when `account` is not a public key.
 */
export async function buildTransactionRequest(
  connection: Connection,
  input: TransactionRequestInput,
  account: string,
): Promise<TransactionRequestResponse> {
  const transaction = await createTransferTransaction(connection, {
    payer: toPublicKey(account, 'account'),
    recipient: toPublicKey(input.recipient, 'recipient'),
    amount: input.amount,
    mint: input.mint === null ? null : toPublicKey(input.mint, 'mint'),
    references: [toPublicKey(input.reference, 'reference')],
    memo: input.memo,
  });
  const serialized = transaction.serialize({ requireAllSignatures: false, verifySignatures: false });
  return { transaction: serialized.toString('base64'), message: describe(input) };
}

function describe(input: TransactionRequestInput): string {
  const parts = [input.label, input.message].map((part) => part?.trim()).filter((part): part is string => Boolean(part));
  const text = parts.length > 0 ? parts.join(': ') : 'Payment';
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}
