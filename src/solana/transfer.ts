/**
 * The transfer a Solana Pay wallet builds for a transfer request, shared by the
 * localnet's `pay` command and the gateway's transaction request endpoint.
 *
 * Follows the Solana Pay specification: an optional Memo program instruction comes
 * immediately before the transfer; every reference is appended to the transfer
 * instruction as a read-only, non-signer key (so `getSignaturesForAddress(reference)`
 * finds the transaction); SOL moves with a System transfer, tokens with
 * `TransferChecked` between the payer's and the recipient's associated token accounts,
 * under whichever token program (Token or Token-2022) owns the mint.
 */
import {
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  type AccountInfo,
  type Connection,
} from '@solana/web3.js';
import {
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  unpackAccount,
  unpackMint,
} from '@solana/spl-token';

/** Memo program v2: the one Solana Pay wallets use. */
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export interface TransferSpec {
  payer: PublicKey;
  recipient: PublicKey;
  /** Amount in base units (lamports for SOL, the mint's smallest unit for a token). */
  amount: bigint;
  /** The token mint; null or absent for SOL. */
  mint?: PublicKey | null;
  references?: PublicKey[];
  memo?: string | null;
}

export type TransferErrorCode =
  | 'invalid_amount'
  | 'invalid_memo'
  | 'payer_not_found'
  | 'payer_invalid'
  | 'recipient_invalid'
  | 'insufficient_funds'
  | 'mint_not_found'
  | 'mint_invalid'
  | 'payer_token_account_not_found'
  | 'recipient_token_account_not_found'
  | 'token_account_frozen';

/** A transfer that cannot be built; `code` is stable, `message` says what to fix. */
export class TransferError extends Error {
  readonly code: TransferErrorCode;
  constructor(code: TransferErrorCode, message: string) {
    super(message);
    this.name = 'TransferError';
    this.code = code;
  }
}

/** Largest memo that still fits a transaction next to a transfer (packet limit 1232 bytes). */
const MAX_MEMO_BYTES = 566;

/** Decimals and owning token program of a mint; throws TransferError if it is not a mint. */
export async function getMintInfo(
  connection: Connection,
  mint: PublicKey,
): Promise<{ decimals: number; programId: PublicKey }> {
  const info = await connection.getAccountInfo(mint);
  if (!info) throw new TransferError('mint_not_found', `token mint ${mint.toBase58()} does not exist`);
  const programId = tokenProgramOf(info);
  if (!programId) {
    throw new TransferError('mint_invalid', `${mint.toBase58()} is not owned by the Token or Token-2022 program`);
  }
  let decoded;
  try {
    decoded = unpackMint(mint, info, programId);
  } catch {
    throw new TransferError('mint_invalid', `${mint.toBase58()} is not a token mint`);
  }
  if (!decoded.isInitialized) throw new TransferError('mint_invalid', `token mint ${mint.toBase58()} is not initialized`);
  return { decimals: decoded.decimals, programId };
}

/** The instructions of the transfer: [memo?] transfer(+references). */
export async function createTransferInstructions(
  connection: Connection,
  spec: TransferSpec,
): Promise<TransactionInstruction[]> {
  if (typeof spec.amount !== 'bigint' || spec.amount <= 0n) {
    throw new TransferError('invalid_amount', 'amount must be a positive integer number of base units');
  }
  if (spec.amount > 0xffff_ffff_ffff_ffffn) {
    throw new TransferError('invalid_amount', 'amount is above the u64 maximum');
  }
  if (spec.payer.equals(spec.recipient)) {
    // A payment to oneself moves nothing; refuse it rather than hand a wallet a no-op to sign.
    throw new TransferError('payer_invalid', `payer ${spec.payer.toBase58()} is the recipient: a payment to oneself moves nothing`);
  }
  const transfer = spec.mint ? await tokenTransfer(connection, spec, spec.mint) : await solTransfer(connection, spec);
  for (const reference of spec.references ?? []) {
    transfer.keys.push({ pubkey: reference, isWritable: false, isSigner: false });
  }
  const instructions: TransactionInstruction[] = [];
  if (spec.memo != null) instructions.push(memoInstruction(spec.memo));
  instructions.push(transfer);
  return instructions;
}

/** The unsigned transfer transaction: fee payer is the payer, recent blockhash set. */
export async function createTransferTransaction(connection: Connection, spec: TransferSpec): Promise<Transaction> {
  const instructions = await createTransferInstructions(connection, spec);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const transaction = new Transaction({ feePayer: spec.payer, blockhash, lastValidBlockHeight });
  transaction.add(...instructions);
  return transaction;
}

function memoInstruction(memo: string): TransactionInstruction {
  const data = Buffer.from(memo, 'utf8');
  if (data.length > MAX_MEMO_BYTES) {
    throw new TransferError('invalid_memo', `memo is ${data.length} bytes; at most ${MAX_MEMO_BYTES} fit in a transaction`);
  }
  return new TransactionInstruction({ programId: MEMO_PROGRAM_ID, keys: [], data });
}

async function solTransfer(connection: Connection, spec: TransferSpec): Promise<TransactionInstruction> {
  const [payerInfo, recipientInfo] = await connection.getMultipleAccountsInfo([spec.payer, spec.recipient]);
  if (!payerInfo) throw new TransferError('payer_not_found', `payer ${spec.payer.toBase58()} has no SOL account`);
  if (!payerInfo.owner.equals(SystemProgram.programId) || payerInfo.executable) {
    throw new TransferError('payer_invalid', `payer ${spec.payer.toBase58()} is not a wallet (System-owned) account`);
  }
  // A recipient that does not exist yet is fine: the transfer creates it. One that is a
  // program is not a wallet, and SOL sent there would be lost.
  if (recipientInfo?.executable) {
    throw new TransferError('recipient_invalid', `recipient ${spec.recipient.toBase58()} is a program, not a wallet`);
  }
  if (BigInt(payerInfo.lamports) < spec.amount) {
    throw new TransferError(
      'insufficient_funds',
      `payer ${spec.payer.toBase58()} has ${payerInfo.lamports} lamports, the transfer needs ${spec.amount}`,
    );
  }
  return SystemProgram.transfer({ fromPubkey: spec.payer, toPubkey: spec.recipient, lamports: spec.amount });
}

async function tokenTransfer(connection: Connection, spec: TransferSpec, mint: PublicKey): Promise<TransactionInstruction> {
  const { decimals, programId } = await getMintInfo(connection, mint);
  // Off-curve owners (multisig vaults, PDAs) are legitimate recipients of a token payment.
  const payerAta = getAssociatedTokenAddressSync(mint, spec.payer, true, programId);
  const recipientAta = getAssociatedTokenAddressSync(mint, spec.recipient, true, programId);
  const [payerInfo, recipientInfo] = await connection.getMultipleAccountsInfo([payerAta, recipientAta]);

  const payerAccount = readTokenAccount(payerAta, payerInfo, programId);
  if (!payerAccount) {
    throw new TransferError(
      'payer_token_account_not_found',
      `payer ${spec.payer.toBase58()} has no token account for mint ${mint.toBase58()} (expected ${payerAta.toBase58()})`,
    );
  }
  const recipientAccount = readTokenAccount(recipientAta, recipientInfo, programId);
  if (!recipientAccount) {
    throw new TransferError(
      'recipient_token_account_not_found',
      `recipient ${spec.recipient.toBase58()} has no token account for mint ${mint.toBase58()} (expected ${recipientAta.toBase58()})`,
    );
  }
  if (payerAccount.isFrozen) throw new TransferError('token_account_frozen', `payer token account ${payerAta.toBase58()} is frozen`);
  if (recipientAccount.isFrozen) {
    throw new TransferError('token_account_frozen', `recipient token account ${recipientAta.toBase58()} is frozen`);
  }
  if (payerAccount.amount < spec.amount) {
    throw new TransferError(
      'insufficient_funds',
      `payer token account ${payerAta.toBase58()} holds ${payerAccount.amount} base units, the transfer needs ${spec.amount}`,
    );
  }
  return createTransferCheckedInstruction(payerAta, mint, recipientAta, spec.payer, spec.amount, decimals, [], programId);
}

function tokenProgramOf(info: AccountInfo<Buffer>): PublicKey | null {
  if (info.owner.equals(TOKEN_PROGRAM_ID)) return TOKEN_PROGRAM_ID;
  if (info.owner.equals(TOKEN_2022_PROGRAM_ID)) return TOKEN_2022_PROGRAM_ID;
  return null;
}

/** The decoded token account, or null when it does not exist or is not an initialized token account. */
function readTokenAccount(address: PublicKey, info: AccountInfo<Buffer> | null | undefined, programId: PublicKey) {
  if (!info || !info.owner.equals(programId)) return null;
  try {
    const account = unpackAccount(address, info, programId);
    return account.isInitialized ? account : null;
  } catch {
    return null;
  }
}
