/**
 * Small helpers for tests that run real signed transactions on the localnet (src/localnet).
 * They send and then poll signature statuses, so a test controls exactly when it waits.
 */
import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  type Connection,
  type Signer,
} from '@solana/web3.js';
import { MINT_SIZE, TOKEN_PROGRAM_ID, createInitializeMint2Instruction, createMintToCheckedInstruction } from '@solana/spl-token';
import type { Localnet } from '../../../src/localnet/index.js';

/** Signs and sends; resolves once the signature is seen (confirmed), whether the transaction succeeded or failed. */
export async function send(
  connection: Connection,
  payer: Keypair,
  instructions: TransactionInstruction[],
  options: { signers?: Signer[]; skipPreflight?: boolean } = {},
): Promise<string> {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(...instructions);
  tx.sign(payer, ...(options.signers ?? []));
  const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight: options.skipPreflight ?? false });
  await waitUntilSeen(connection, signature);
  return signature;
}

export async function waitUntilSeen(connection: Connection, signature: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const { value } = await connection.getSignatureStatuses([signature], { searchTransactionHistory: true });
    if (value[0]?.confirmationStatus) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`transaction ${signature} never showed up`);
}

/** A new mint (createAccount + InitializeMint2), minted `supply` base units to `holder`'s associated account. */
export async function createMintWithSupply(
  localnet: Localnet,
  connection: Connection,
  payer: Keypair,
  options: { decimals: number; holder: PublicKey; supply: bigint; programId?: PublicKey },
): Promise<PublicKey> {
  const programId = options.programId ?? TOKEN_PROGRAM_ID;
  const mint = Keypair.generate();
  const rent = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
  await send(
    connection,
    payer,
    [
      SystemProgram.createAccount({ fromPubkey: payer.publicKey, newAccountPubkey: mint.publicKey, lamports: rent, space: MINT_SIZE, programId }),
      createInitializeMint2Instruction(mint.publicKey, options.decimals, payer.publicKey, null, programId),
    ],
    { signers: [mint] },
  );
  const holderAta = await createTokenAccount(localnet, options.holder, mint.publicKey);
  await send(connection, payer, [
    createMintToCheckedInstruction(mint.publicKey, holderAta, payer.publicKey, options.supply, options.decimals, [], programId),
  ]);
  return mint.publicKey;
}

/**
 * `owner`'s associated token account for `mint`, created empty if missing, directly in the localnet's ledger
 * (no transaction: quicker set-up for tests that are about the payment, not the account's creation).
 */
export async function createTokenAccount(localnet: Localnet, owner: PublicKey, mint: PublicKey): Promise<PublicKey> {
  return new PublicKey(await localnet.createTokenAccount(owner.toBase58(), mint.toBase58()));
}

/** A System transfer with extra read-only keys appended (how Solana Pay attaches references). */
export function transferWithKeys(from: PublicKey, to: PublicKey, lamports: bigint, keys: PublicKey[]): TransactionInstruction {
  const ix = SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });
  for (const pubkey of keys) ix.keys.push({ pubkey, isSigner: false, isWritable: false });
  return ix;
}

export const newReference = (): PublicKey => Keypair.generate().publicKey;
