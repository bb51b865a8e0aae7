/** Shared set-up for localnet tests: a started localnet and a web3.js Connection to it. */
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { startLocalnet, type Localnet, type LocalnetOptions } from '../../src/localnet/index.js';

export async function withLocalnet(options: LocalnetOptions = {}): Promise<{ net: Localnet; connection: Connection }> {
  const net = await startLocalnet({ port: 0, ...options });
  return { net, connection: new Connection(net.rpcUrl, 'confirmed') };
}

export async function fundedKeypair(net: Localnet, amounts: { sol?: string; usdc?: string } = { sol: '10' }): Promise<Keypair> {
  const keypair = Keypair.generate();
  await net.airdrop(keypair.publicKey.toBase58(), amounts);
  return keypair;
}

export const newAddress = (): PublicKey => Keypair.generate().publicKey;

/* eslint-disable @typescript-eslint/no-explicit-any -- raw JSON answers are inspected field by field */
/** Raw JSON-RPC call, for checking exact answers (errors, shapes) without web3.js in between. */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: any; error?: { code: number; message: string; data?: any } };
}
