/**
 * Funding an address on a localnet through its JSON-RPC API only, so the CLI can fund
 * a localnet started by another process: SOL through requestAirdrop, localnet USDC
 * through a real transaction signed by the dev mint authority that also creates the owner's
 * associated token account (CreateIdempotent, then MintToChecked).
 */
import { Connection, PublicKey, Transaction } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { parseAmount } from '../core/amount.js';
import { LOCALNET_USDC_DECIMALS, LOCALNET_USDC_MINT, usdcMintAuthority } from './dev-keys.js';
import { waitForConfirmation } from './confirm.js';

export interface AirdropAmounts {
  /** SOL in SOL units ("1.5"); numbers are accepted as written in code (0.5). */
  sol?: number | string;
  /** Localnet USDC in token units ("25.00"). */
  usdc?: number | string;
}

/** Enough SOL for the mint authority to pay many minting fees and token-account rents. */
const AUTHORITY_TOP_UP = 10_000_000_000n;

function toDecimalString(value: number | string, param: string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${param} must be a finite number`);
    // Numbers come from code (airdrop(x, { sol: 2 })); the decimal text is checked like any other.
    return value.toString();
  }
  return value;
}

export async function requestLamports(connection: Connection, address: PublicKey, lamports: bigint): Promise<string> {
  if (lamports > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`airdrop of ${lamports} lamports is too large`);
  const signature = await connection.requestAirdrop(address, Number(lamports));
  await waitForConfirmation(connection, signature);
  return signature;
}

/**
 * Creates the owner's associated token account for any mint through the localnet-only RPC
 * method: no transaction, no fee, no SOL needed (handy for test set-ups).
 */
export async function createAssociatedTokenAccount(connection: Connection, owner: PublicKey, mint: PublicKey): Promise<PublicKey> {
  const response = await fetch(connection.rpcEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'localnet_createAssociatedTokenAccount', params: [owner.toBase58(), mint.toBase58()] }),
  });
  const body = (await response.json()) as { result?: string; error?: { message: string } };
  if (body.error || typeof body.result !== 'string') {
    throw new Error(`could not create the token account of ${owner.toBase58()} for ${mint.toBase58()}: ${body.error?.message ?? 'no result'} (is ${connection.rpcEndpoint} a svc-localnet?)`);
  }
  return new PublicKey(body.result);
}

/** Mints localnet USDC (base units) to the owner's associated token account, creating it if needed, in one real transaction. */
export async function mintLocalnetUsdc(connection: Connection, owner: PublicKey, baseUnits: bigint): Promise<string> {
  const mint = new PublicKey(LOCALNET_USDC_MINT);
  const authority = usdcMintAuthority();
  const mintInfo = await connection.getAccountInfo(mint);
  if (!mintInfo) throw new Error(`the localnet USDC mint ${LOCALNET_USDC_MINT} does not exist at this RPC URL: is it a svc-localnet?`);
  if ((await connection.getBalance(authority.publicKey)) < 1_000_000_000) {
    await requestLamports(connection, authority.publicKey, AUTHORITY_TOP_UP);
  }
  const ata = getAssociatedTokenAddressSync(mint, owner, true, TOKEN_PROGRAM_ID);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: authority.publicKey, blockhash, lastValidBlockHeight }).add(
    createAssociatedTokenAccountIdempotentInstruction(authority.publicKey, ata, owner, mint, TOKEN_PROGRAM_ID),
  );
  if (baseUnits > 0n) tx.add(createMintToCheckedInstruction(mint, ata, authority.publicKey, baseUnits, LOCALNET_USDC_DECIMALS, [], TOKEN_PROGRAM_ID));
  tx.sign(authority);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await waitForConfirmation(connection, signature, { lastValidBlockHeight });
  return signature;
}

/** Funds the address with SOL and/or localnet USDC and waits until both are confirmed. */
export async function airdrop(connection: Connection, address: string | PublicKey, amounts: AirdropAmounts): Promise<{ sol?: string; usdc?: string }> {
  const owner = typeof address === 'string' ? new PublicKey(address) : address;
  const lamports = amounts.sol === undefined ? 0n : parseAmount(toDecimalString(amounts.sol, 'sol'), 9, 'sol');
  const usdc = amounts.usdc === undefined ? 0n : parseAmount(toDecimalString(amounts.usdc, 'usdc'), LOCALNET_USDC_DECIMALS, 'usdc');
  if (amounts.sol === undefined && amounts.usdc === undefined) throw new Error('airdrop needs an amount of sol or usdc');
  const result: { sol?: string; usdc?: string } = {};
  if (lamports > 0n) result.sol = await requestLamports(connection, owner, lamports);
  if (amounts.usdc !== undefined) result.usdc = await mintLocalnetUsdc(connection, owner, usdc);
  return result;
}
