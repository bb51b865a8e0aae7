import { PublicKey, type Connection } from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { getMintInfo as readMint } from '../../solana/transfer.js';

/**
 * Decimals and token program (Token or Token-2022) of a mint. Throws the TransferError of src/solana/transfer.ts
 * (`mint_not_found`, `mint_invalid`) when the address is not a token mint; RPC errors pass through.
 */
export async function getMintInfo(connection: Connection, mint: string): Promise<{ decimals: number; programId: string }> {
  const { decimals, programId } = await readMint(connection, toPublicKey(mint, 'mint'));
  return { decimals, programId: programId.toBase58() };
}

/**
 * The recipient's associated token account for a mint (the one wallets pay into), and whether it exists.
 * Off-curve owners (multisig vaults, PDAs) are allowed.
 */
export async function recipientTokenAccount(connection: Connection, owner: string, mint: string): Promise<{ address: string; exists: boolean }> {
  const ownerKey = toPublicKey(owner, 'owner');
  const { programId } = await getMintInfo(connection, mint);
  const address = getAssociatedTokenAddressSync(new PublicKey(mint), ownerKey, true, new PublicKey(programId));
  const info = await connection.getAccountInfo(address);
  // Only the associated token program can create an account at this address, so existing means it is the owner's.
  return { address: address.toBase58(), exists: info !== null && info.owner.toBase58() === programId };
}

export function toPublicKey(value: string, what: string): PublicKey {
  try {
    return new PublicKey(value);
  } catch {
    throw new TypeError(`${what} is not a base58 public key: ${JSON.stringify(value)}`);
  }
}
