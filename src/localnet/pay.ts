/**
 * Paying a Solana Pay transfer request URL the way a wallet does: parse the URL, build
 * the transfer (memo, references, SOL or token), sign, send through JSON-RPC with
 * @solana/web3.js and wait until it is confirmed.
 */
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { parseAmount } from '../core/amount.js';
import { parseTransferRequestUrl } from '../core/solana-pay.js';
import { createTransferTransaction, getMintInfo } from '../solana/transfer.js';
import { mintLocalnetUsdc, requestLamports } from './airdrop.js';
import { waitForConfirmation } from './confirm.js';
import { LOCALNET_USDC_MINT } from './dev-keys.js';

export interface PayOptions {
  rpcUrl: string;
  /** The wallet that pays; without it a throwaway payer is created and funded by airdrop. */
  payer?: Keypair;
}

/** SOL a throwaway payer gets on top of the amount, for the fee. */
const FEE_ALLOWANCE = 10_000_000n;

export async function payUrl(url: string, options: PayOptions): Promise<{ signature: string; payer: string }> {
  const request = parseTransferRequestUrl(url);
  if (request.amount === undefined) {
    throw new Error('the URL has no amount: a wallet would ask the payer for one, this command needs it in the URL');
  }
  const connection = new Connection(options.rpcUrl, 'confirmed');
  const mint = request.splToken ? new PublicKey(request.splToken) : null;
  const decimals = mint ? (await getMintInfo(connection, mint)).decimals : 9;
  const amount = parseAmount(request.amount, decimals);

  let payer = options.payer;
  if (!payer) {
    if (mint && mint.toBase58() !== LOCALNET_USDC_MINT) {
      throw new Error(`a throwaway payer can only be funded with the localnet USDC (${LOCALNET_USDC_MINT}); pass a funded keypair to pay in ${mint.toBase58()}`);
    }
    payer = Keypair.generate();
    await requestLamports(connection, payer.publicKey, (mint ? 0n : amount) + FEE_ALLOWANCE);
    if (mint) await mintLocalnetUsdc(connection, payer.publicKey, amount);
  }

  const tx = await createTransferTransaction(connection, {
    payer: payer.publicKey,
    recipient: new PublicKey(request.recipient),
    amount,
    mint,
    references: (request.references ?? []).map((r) => new PublicKey(r)),
    memo: request.memo ?? null,
  });
  tx.sign(payer);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await waitForConfirmation(connection, signature, tx.lastValidBlockHeight === undefined ? {} : { lastValidBlockHeight: tx.lastValidBlockHeight });
  return { signature, payer: payer.publicKey.toBase58() };
}
