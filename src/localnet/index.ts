/**
 * A local Solana chain for development and tests: litesvm behind a Solana JSON-RPC
 * server on 127.0.0.1. See docs/localnet.md.
 */
import type { Server } from 'node:http';
import { Connection, PublicKey } from '@solana/web3.js';
import { LocalChain } from './chain.js';
import { startRpcServer } from './rpc-server.js';
import { PubSub } from './pubsub.js';
import { airdrop as fund, type AirdropAmounts } from './airdrop.js';
import { LOCALNET_USDC_MINT } from './dev-keys.js';

export { payUrl, type PayOptions } from './pay.js';
export { airdrop as airdropOverRpc, createAssociatedTokenAccount, mintLocalnetUsdc, requestLamports, type AirdropAmounts } from './airdrop.js';
export { waitForConfirmation, TransactionFailedError } from './confirm.js';
export { LOCALNET_USDC_MINT, LOCALNET_USDC_DECIMALS, DEV_SEEDS, usdcMintAuthority, faucetKeypair } from './dev-keys.js';
export { LocalChain, type Commitment, type TxRecord } from './chain.js';

export interface LocalnetOptions {
  /** 0 (the default here) picks a free port; the CLI defaults to 8899. */
  port?: number;
  host?: string;
  /** Milliseconds per slot (default 400, as mainnet). */
  slotMs?: number;
  /** Slots after which a transaction is finalized (default 32). */
  finalizationDepth?: number;
  /** Receives internal errors; default silent. */
  log?: (line: string) => void;
}

export interface Localnet {
  rpcUrl: string;
  /** PubSub websocket on the RPC port; web3.js's default (RPC port + 1) is also served when that port was free. */
  wsUrl: string;
  usdcMint: string;
  /** The chain behind the RPC server, for tools that need to step it (advanceSlot). */
  chain: LocalChain;
  close(): Promise<void>;
  airdrop(address: string, amounts: AirdropAmounts): Promise<void>;
  /** The owner's associated token account for any mint, created empty if missing (stands in for the ATA program). */
  createTokenAccount(owner: string, mint: string): Promise<string>;
}

export async function startLocalnet(options: LocalnetOptions = {}): Promise<Localnet> {
  const chain = new LocalChain({
    ...(options.slotMs !== undefined ? { slotMs: options.slotMs } : {}),
    ...(options.finalizationDepth !== undefined ? { finalizationDepth: options.finalizationDepth } : {}),
  });
  const { server, url } = await startRpcServer(chain, {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    ...(options.log ? { log: options.log } : {}),
  });
  const pubsub = new PubSub(chain);
  pubsub.attach(server);
  const port = Number(new URL(url).port);
  await pubsub.listenAlso(options.host ?? '127.0.0.1', port + 1);
  chain.start();
  let closed = false;
  return {
    rpcUrl: url,
    wsUrl: url.replace(/^http/, 'ws'),
    usdcMint: LOCALNET_USDC_MINT,
    chain,
    async close() {
      if (closed) return;
      closed = true;
      chain.stop();
      await pubsub.close();
      await closeServer(server);
    },
    async airdrop(address, amounts) {
      await fund(new Connection(url, 'confirmed'), address, amounts);
    },
    async createTokenAccount(owner, mint) {
      return chain.createAssociatedTokenAccount(new PublicKey(owner), new PublicKey(mint)).toBase58();
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
