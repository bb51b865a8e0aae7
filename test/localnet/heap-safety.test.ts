/**
 * Regression test for the litesvm 0.8 Linux heap corruption (issues #171, #352): running the
 * Memo v2 or ATA program binaries made the next garbage collection abort the process. The
 * localnet must survive memo payments and ATA creations followed by forced collections.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url).pathname;

const SCRIPT = `
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { createAssociatedTokenAccountIdempotentInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { startLocalnet, payUrl, waitForConfirmation } from './src/localnet/index.ts';
const net = await startLocalnet();
const connection = new Connection(net.rpcUrl, 'confirmed');
const payer = Keypair.generate();
await net.airdrop(payer.publicKey.toBase58(), { sol: '10', usdc: '10' });
for (let i = 0; i < 3; i++) {
  const owner = Keypair.generate().publicKey;
  const mint = new PublicKey(net.usdcMint);
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight })
    .add(createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, getAssociatedTokenAddressSync(mint, owner), owner, mint));
  tx.sign(payer);
  await waitForConfirmation(connection, await connection.sendRawTransaction(tx.serialize()));
  await payUrl('solana:' + owner.toBase58() + '?amount=0.5&spl-token=' + net.usdcMint + '&memo=heap-' + i, { rpcUrl: net.rpcUrl, payer });
  globalThis.gc();
  globalThis.gc();
}
await net.close();
console.log('survived');
`;

it('survives memo payments and ATA creations followed by forced garbage collections', () => {
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `exit ${result.status} ${result.signal ?? ''}\n${result.stderr}`);
  assert.match(result.stdout, /survived/);
});
