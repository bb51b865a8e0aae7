/**
 * Building, signing and sending real transfers on the localnet for the money cases that a
 * well-behaved wallet (payUrl) would never produce: short, foreign-mint, failed, spam, multi-reference.
 */
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import {
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
  createInitializeMint2Instruction,
  createMintToInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { createTransferInstructions } from '../../src/solana/transfer.js';
import { waitForConfirmation } from '../../src/localnet/index.js';

export interface ChainAccess {
  rpcUrl: string;
  localnet: {
    airdrop(address: string, amounts: { sol?: number | string; usdc?: number | string }): Promise<void>;
    createTokenAccount(owner: string, mint: string): Promise<string>;
  };
}

export function connectionOf(stack: ChainAccess): Connection {
  return new Connection(stack.rpcUrl, 'confirmed');
}

export async function fundedPayer(stack: ChainAccess, amounts: { sol?: number; usdc?: number } = { sol: 1 }): Promise<Keypair> {
  const payer = Keypair.generate();
  await stack.localnet.airdrop(payer.publicKey.toBase58(), amounts);
  return payer;
}

/** Signs with `signers` (first = fee payer), sends and waits for confirmation; failed transactions resolve too. */
export async function send(
  stack: ChainAccess,
  instructions: TransactionInstruction[],
  signers: Keypair[],
  opts: { skipPreflight?: boolean } = {},
): Promise<string> {
  const connection = connectionOf(stack);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: signers[0]!.publicKey, blockhash, lastValidBlockHeight }).add(...instructions);
  tx.sign(...signers);
  const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: opts.skipPreflight ?? false });
  try {
    await waitForConfirmation(connection, signature, { lastValidBlockHeight });
  } catch (error) {
    if ((error as Error).name !== 'TransactionFailedError' && !/failed/i.test((error as Error).message)) throw error;
  }
  return signature;
}

export interface TransferInput {
  payer: Keypair;
  recipient: string;
  amount: bigint;
  mint?: string | null;
  references: string[];
  memo?: string | null;
}

/** The Solana Pay transfer instructions (memo, transfer + references). */
export async function transferInstructions(stack: ChainAccess, t: TransferInput): Promise<TransactionInstruction[]> {
  return createTransferInstructions(connectionOf(stack), {
    payer: t.payer.publicKey,
    recipient: new PublicKey(t.recipient),
    amount: t.amount,
    mint: t.mint ? new PublicKey(t.mint) : null,
    references: t.references.map((r) => new PublicKey(r)),
    memo: t.memo ?? null,
  });
}

export async function transfer(stack: ChainAccess, t: TransferInput): Promise<string> {
  return send(stack, await transferInstructions(stack, t), [t.payer]);
}

/** A brand-new token mint (Token program, or Token-2022 with `programId`) with token accounts for `holders`, `amount` minted to each. */
export async function createMint(
  stack: ChainAccess,
  decimals: number,
  holders: { owner: string; amount: bigint }[],
  opts: { mint?: Keypair; programId?: PublicKey } = {},
): Promise<string> {
  const connection = connectionOf(stack);
  const authority = await fundedPayer(stack, { sol: 2 });
  const mint = opts.mint ?? Keypair.generate();
  const programId = opts.programId ?? TOKEN_PROGRAM_ID;
  const rent = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
  await send(
    stack,
    [
      SystemProgram.createAccount({ fromPubkey: authority.publicKey, newAccountPubkey: mint.publicKey, lamports: rent, space: MINT_SIZE, programId }),
      createInitializeMint2Instruction(mint.publicKey, decimals, authority.publicKey, null, programId),
    ],
    [authority, mint],
  );
  for (const h of holders) {
    const owner = new PublicKey(h.owner);
    // The localnet creates token accounts itself (litesvm 0.8 cannot run the ATA program safely).
    await stack.localnet.createTokenAccount(h.owner, mint.publicKey.toBase58());
    const ata = getAssociatedTokenAddressSync(mint.publicKey, owner, true, programId);
    if (h.amount > 0n) await send(stack, [createMintToInstruction(mint.publicKey, ata, authority.publicKey, h.amount, [], programId)], [authority]);
  }
  return mint.publicKey.toBase58();
}
