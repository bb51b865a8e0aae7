/**
 * Localnet benchmarks, printed as a table: what a test or demo can expect from svc-localnet.
 *
 *   A. sequential payments: build (transfer.ts) + sign + sendTransaction with preflight + confirmed, SOL and USDC
 *   B. throughput: signed SOL transfers sent concurrently (skipPreflight false), transactions per second
 *   C. lookups with many transactions on one reference: getSignaturesForAddress (limit 1000) and getTransaction
 *
 * Usage: npx tsx bench/localnet.ts [--quick]
 */
import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { startLocalnet, waitForConfirmation } from '../src/localnet/index.js';
import { createTransferTransaction } from '../src/solana/transfer.js';

const quick = process.argv.includes('--quick');
const SEQUENTIAL = quick ? 20 : 100;
const CONCURRENT = quick ? 200 : 1000;
const ON_REFERENCE = quick ? 200 : 1000;

function stats(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
  return `p50 ${at(50).toFixed(1)} ms, p95 ${at(95).toFixed(1)} ms`;
}

const net = await startLocalnet({ port: 0 });
const connection = new Connection(net.rpcUrl, 'confirmed');
const rows: Array<[string, string]> = [];
try {
  const payer = Keypair.generate();
  await net.airdrop(payer.publicKey.toBase58(), { sol: '1000', usdc: '100000' });
  const merchant = Keypair.generate().publicKey;
  await net.airdrop(merchant.toBase58(), { sol: '1', usdc: '0' });

  for (const mint of [null, new PublicKey(net.usdcMint)]) {
    const times: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const start = performance.now();
      const tx = await createTransferTransaction(connection, { payer: payer.publicKey, recipient: merchant, amount: 1_000_000n + BigInt(i), mint, references: [Keypair.generate().publicKey], memo: `order-${i}` });
      tx.sign(payer);
      const signature = await connection.sendRawTransaction(tx.serialize());
      await waitForConfirmation(connection, signature);
      times.push(performance.now() - start);
    }
    rows.push([`A. ${mint ? 'USDC' : 'SOL'} payment, build to confirmed (${SEQUENTIAL} sequential)`, stats(times)]);
  }

  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const signed = Array.from({ length: CONCURRENT }, (_, i) => {
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: merchant, lamports: 10_000 + i }),
    );
    tx.sign(payer);
    return tx.serialize();
  });
  const started = performance.now();
  const signatures: string[] = [];
  for (let i = 0; i < signed.length; i += 50) {
    signatures.push(...(await Promise.all(signed.slice(i, i + 50).map((wire) => connection.sendRawTransaction(wire)))));
  }
  const elapsed = performance.now() - started;
  rows.push([`B. ${CONCURRENT} SOL transfers, 50 in flight`, `${((CONCURRENT / elapsed) * 1000).toFixed(0)} tx/s`]);

  const reference = Keypair.generate().publicKey;
  for (let i = 0; i < ON_REFERENCE; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, ON_REFERENCE - i) }, async (_, j) => {
        const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: merchant, lamports: 20_000 + i + j });
        ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
        const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(ix);
        tx.sign(payer);
        return connection.sendRawTransaction(tx.serialize());
      }),
    );
  }
  const lookups: number[] = [];
  const gets: number[] = [];
  for (let i = 0; i < 20; i++) {
    let start = performance.now();
    const list = await connection.getSignaturesForAddress(reference, { limit: 1000 }, 'confirmed');
    lookups.push(performance.now() - start);
    start = performance.now();
    await connection.getTransaction(list[i]?.signature as string, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    gets.push(performance.now() - start);
  }
  rows.push([`C. getSignaturesForAddress, ${ON_REFERENCE} on one reference`, stats(lookups)]);
  rows.push(['C. getTransaction (json)', stats(gets)]);
  await waitForConfirmation(connection, signatures.at(-1) as string);
} finally {
  await net.close();
}

const width = Math.max(...rows.map(([name]) => name.length));
console.log(`svc-localnet benchmarks${quick ? ' (quick)' : ''}, Node ${process.version}`);
for (const [name, value] of rows) console.log(`${name.padEnd(width)}  ${value}`);
