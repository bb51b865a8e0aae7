/** The JSON-RPC surface: result shapes, defaults and the error codes real nodes use. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { encodeBase58 } from '../../src/core/base58.js';
import { LOCALNET_USDC_MINT, usdcMintAuthority, type Localnet } from '../../src/localnet/index.js';
import { fundedKeypair, newAddress, rpc, withLocalnet } from './helpers.js';

describe('localnet JSON-RPC', () => {
  let net: Localnet;
  let connection: Connection;
  before(async () => ({ net, connection } = await withLocalnet()));
  after(() => net.close());

  async function transfer(from: Keypair, to: PublicKey, lamports: number): Promise<Transaction> {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight }).add(
      SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports }),
    );
    tx.sign(from);
    return tx;
  }

  it('answers cluster methods like a node', async () => {
    assert.equal((await rpc(net.rpcUrl, 'getHealth')).result, 'ok');
    const version = await connection.getVersion();
    assert.equal(typeof version['solana-core'], 'string');
    assert.equal(typeof (await connection.getGenesisHash()), 'string');
    const epoch = await connection.getEpochInfo();
    assert.deepEqual(Object.keys(epoch).sort(), ['absoluteSlot', 'blockHeight', 'epoch', 'slotIndex', 'slotsInEpoch', 'transactionCount']);
    assert.ok((await connection.getSlot('confirmed')) >= (await connection.getSlot('finalized')));
    assert.equal(await connection.getMinimumBalanceForRentExemption(0), 890880);
    assert.equal(await connection.getMinimumBalanceForRentExemption(165), 2039280);
    const health = await fetch(`${net.rpcUrl}/health`);
    assert.equal(await health.text(), 'ok');
  });

  it('uses JSON-RPC error codes: parse error, method not found, invalid params, batches', async () => {
    const bad = await fetch(net.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0",' });
    assert.equal(bad.status, 200);
    assert.equal(((await bad.json()) as { error: { code: number } }).error.code, -32700);
    assert.equal((await rpc(net.rpcUrl, 'getNothing')).error?.code, -32601);
    assert.equal((await rpc(net.rpcUrl, 'getBalance', ['not-a-key'])).error?.code, -32602);
    assert.equal((await rpc(net.rpcUrl, 'getBalance', [encodeBase58(new Uint8Array(31).fill(1))])).error?.message, 'Invalid param: WrongSize');
    assert.equal((await rpc(net.rpcUrl, 'getBalance', [newAddress().toBase58(), { commitment: 'soon' }])).error?.code, -32602);
    assert.equal((await rpc(net.rpcUrl, 'getSignaturesForAddress', [newAddress().toBase58(), { limit: 1001 }])).error?.message, 'Invalid limit; max 1000');
    assert.equal((await rpc(net.rpcUrl, 'getTransaction', [encodeBase58(new Uint8Array(64).fill(7)), { commitment: 'processed' }])).error?.code, -32602);
    const batch = await fetch(net.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'getSlot' },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ]),
    });
    const answers = (await batch.json()) as Array<{ id: number; result?: number; error?: { code: number } }>;
    assert.equal(answers.length, 2);
    // A notification (no id) is carried out but not answered.
    const notified = await fetch(net.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"getSlot"}' });
    assert.equal(notified.status, 200);
    assert.equal(await notified.text(), '');
    assert.equal(typeof answers[0]?.result, 'number');
    assert.equal(answers[1]?.error?.code, -32601);
  });

  it('reads accounts: balances, base64 and jsonParsed token accounts and mints, multiple accounts', async () => {
    const owner = await fundedKeypair(net, { sol: '3', usdc: '7.25' });
    assert.equal(await connection.getBalance(owner.publicKey), 3_000_000_000);
    const missing = newAddress();
    assert.equal(await connection.getAccountInfo(missing), null);
    const ata = getAssociatedTokenAddressSync(new PublicKey(LOCALNET_USDC_MINT), owner.publicKey);
    // Without a commitment a node answers at `finalized`: the account made a moment ago is not there yet.
    assert.equal((await rpc(net.rpcUrl, 'getAccountInfo', [ata.toBase58(), { encoding: 'base64' }])).result.value, null);
    const raw = await rpc(net.rpcUrl, 'getAccountInfo', [ata.toBase58(), { encoding: 'base64', commitment: 'confirmed' }]);
    assert.equal(raw.result.value.owner, 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    assert.equal(raw.result.value.space, 165);
    assert.equal(raw.result.value.data[1], 'base64');
    assert.equal(Buffer.from(raw.result.value.data[0], 'base64').length, 165);
    const parsed = await connection.getParsedAccountInfo(ata);
    const info = (parsed.value?.data as { parsed: { type: string; info: Record<string, unknown> } }).parsed;
    assert.equal(info.type, 'account');
    assert.equal(info.info.owner, owner.publicKey.toBase58());
    assert.equal(info.info.mint, LOCALNET_USDC_MINT);
    assert.deepEqual(info.info.tokenAmount, { amount: '7250000', decimals: 6, uiAmount: 7.25, uiAmountString: '7.25' });
    const mint = await connection.getParsedAccountInfo(new PublicKey(LOCALNET_USDC_MINT));
    const mintInfo = (mint.value?.data as { parsed: { type: string; info: Record<string, unknown> } }).parsed;
    assert.equal(mintInfo.type, 'mint');
    assert.equal(mintInfo.info.decimals, 6);
    assert.equal(mintInfo.info.mintAuthority, usdcMintAuthority().publicKey.toBase58());
    const many = await connection.getMultipleAccountsInfo([owner.publicKey, missing, ata]);
    assert.equal(many[0]?.lamports, 3_000_000_000);
    assert.equal(many[1], null);
    assert.equal(many[2]?.data.length, 165);
    const balance = await connection.getTokenAccountBalance(ata);
    assert.equal(balance.value.amount, '7250000');
    assert.equal((await rpc(net.rpcUrl, 'getTokenAccountBalance', [owner.publicKey.toBase58(), { commitment: 'confirmed' }])).error?.message, 'Invalid param: not a Token account');
    const byOwner = await connection.getTokenAccountsByOwner(owner.publicKey, { mint: new PublicKey(LOCALNET_USDC_MINT) });
    assert.deepEqual(byOwner.value.map((a) => a.pubkey.toBase58()), [ata.toBase58()]);
    const programAccounts = await connection.getProgramAccounts(new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'), {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: owner.publicKey.toBase58() } }],
    });
    assert.deepEqual(programAccounts.map((a) => a.pubkey.toBase58()), [ata.toBase58()]);
    const parsedByOwner = await connection.getParsedTokenAccountsByOwner(owner.publicKey, { programId: new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA') });
    assert.equal(parsedByOwner.value[0]?.account.data.parsed.info.tokenAmount.uiAmountString, '7.25');
    const base58 = await rpc(net.rpcUrl, 'getAccountInfo', [ata.toBase58(), { commitment: 'confirmed' }]);
    assert.equal(base58.error?.code, -32602, 'the default (base58) encoding refuses data above 128 bytes');
  });

  it('sendTransaction takes base64 and base58 and returns the signature', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const to = newAddress();
    const tx64 = await transfer(payer, to, 1_000_000);
    const sig64 = await rpc(net.rpcUrl, 'sendTransaction', [tx64.serialize().toString('base64'), { encoding: 'base64' }]);
    assert.equal(sig64.result, encodeBase58(tx64.signature as Buffer));
    const tx58 = await transfer(payer, to, 2_000_000);
    const sig58 = await rpc(net.rpcUrl, 'sendTransaction', [encodeBase58(tx58.serialize())]);
    assert.equal(sig58.result, encodeBase58(tx58.signature as Buffer));
    assert.equal(await connection.getBalance(to), 3_000_000);
    const again = await rpc(net.rpcUrl, 'sendTransaction', [encodeBase58(tx58.serialize())]);
    assert.equal(again.error?.code, -32002);
    assert.equal(again.error?.data.err, 'AlreadyProcessed');
  });

  it('rejects a bad signature with -32003 and a failing preflight with -32002, data.err and data.logs', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const tx = await transfer(payer, newAddress(), 1000);
    const wire = tx.serialize();
    wire[1] = (wire[1] as number) ^ 0xff; // first signature byte
    const forged = await rpc(net.rpcUrl, 'sendTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64' }]);
    assert.equal(forged.error?.code, -32003);
    assert.equal(forged.error?.message, 'Transaction signature verification failure');

    const tooMuch = await transfer(payer, newAddress(), 5_000_000_000);
    const sent = await rpc(net.rpcUrl, 'sendTransaction', [tooMuch.serialize().toString('base64'), { encoding: 'base64' }]);
    assert.equal(sent.error?.code, -32002);
    assert.equal(sent.error?.message, 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1');
    assert.deepEqual(sent.error?.data.err, { InstructionError: [0, { Custom: 1 }] });
    assert.ok(sent.error?.data.logs.some((l: string) => l.includes('insufficient lamports')));
    // web3.js surfaces the same as a SendTransactionError with the logs.
    await assert.rejects(connection.sendRawTransaction(tooMuch.serialize()), /insufficient lamports|custom program error: 0x1/);
    // Neither the forged nor the failed-preflight transaction landed: no fee was charged.
    assert.equal(await connection.getBalance(payer.publicKey), 1_000_000_000);
  });

  it('refuses an unknown blockhash and answers isBlockhashValid', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash: encodeBase58(new Uint8Array(32).fill(9)), lastValidBlockHeight: 0 }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newAddress(), lamports: 1 }),
    );
    tx.sign(payer);
    const sent = await rpc(net.rpcUrl, 'sendTransaction', [tx.serialize().toString('base64'), { encoding: 'base64' }]);
    assert.equal(sent.error?.code, -32002);
    assert.equal(sent.error?.message, 'Transaction simulation failed: Blockhash not found');
    assert.equal(sent.error?.data.err, 'BlockhashNotFound');
    const { blockhash } = await connection.getLatestBlockhash();
    assert.equal((await connection.isBlockhashValid(blockhash)).value, true);
    assert.equal((await connection.isBlockhashValid(tx.recentBlockhash as string)).value, false);
  });

  it('simulates unsigned transactions, with sigVerify and replaceRecentBlockhash as a node does', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newAddress(), lamports: 1_000_000 })],
    }).compileToV0Message();
    const unsigned = new VersionedTransaction(message);
    const sim = await connection.simulateTransaction(unsigned, { sigVerify: false });
    assert.equal(sim.value.err, null);
    assert.deepEqual(sim.value.logs, ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success']);
    assert.equal(sim.value.unitsConsumed, 150);
    const verified = await rpc(net.rpcUrl, 'simulateTransaction', [Buffer.from(unsigned.serialize()).toString('base64'), { encoding: 'base64', sigVerify: true }]);
    assert.equal(verified.error?.code, -32003);
    const replaced = await rpc(net.rpcUrl, 'simulateTransaction', [Buffer.from(unsigned.serialize()).toString('base64'), { encoding: 'base64', replaceRecentBlockhash: true }]);
    assert.equal(typeof replaced.result.value.replacementBlockhash.blockhash, 'string');
    const both = await rpc(net.rpcUrl, 'simulateTransaction', [Buffer.from(unsigned.serialize()).toString('base64'), { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: true }]);
    assert.equal(both.error?.code, -32602);
    // Simulation committed nothing.
    assert.equal(await connection.getBalance(payer.publicKey), 1_000_000_000);
    const fee = await connection.getFeeForMessage(message);
    assert.equal(fee.value, 5000);
  });

  it('requestAirdrop is a recorded faucet transfer', async () => {
    const to = newAddress();
    const signature = await connection.requestAirdrop(to, 123_456_789);
    assert.equal(await connection.getBalance(to), 123_456_789);
    const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.equal(tx?.meta?.err, null);
    assert.equal(tx?.version, 'legacy');
    assert.ok(tx?.transaction.message.staticAccountKeys.some((k) => k.equals(to)));
  });

  it('serves blocks and cluster info in the shapes web3.js validates (explorers, CLI)', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const signature = await connection.sendRawTransaction((await transfer(payer, newAddress(), 1_000_000)).serialize());
    const { slot } = (await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }))!;
    const block = await connection.getBlock(slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.ok(block?.transactions.some((t) => t.transaction.signatures[0] === signature));
    assert.equal(block?.parentSlot, Math.max(0, slot - 1));
    assert.equal(typeof block?.blockhash, 'string');
    const parsed = await connection.getParsedBlock(slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.ok(parsed.transactions.length >= 1);
    const signaturesOnly = await connection.getBlockSignatures(slot, 'confirmed');
    assert.ok(signaturesOnly.signatures.includes(signature));
    const accountsOnly = await connection.getBlock(slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, transactionDetails: 'accounts' });
    assert.ok(accountsOnly?.transactions.some((t) => t.transaction.signatures[0] === signature));
    const future = await rpc(net.rpcUrl, 'getBlock', [slot + 1_000_000, { commitment: 'confirmed' }]);
    assert.equal(future.error?.code, -32004);
    const slots = await connection.getBlocks(Math.max(0, slot - 2), slot, 'confirmed');
    assert.ok(slots.includes(slot));
    const schedule = await connection.getEpochSchedule();
    assert.ok(schedule.slotsPerEpoch > 0);
    assert.equal(typeof (await rpc(net.rpcUrl, 'getIdentity')).result.identity, 'string');
    assert.equal((await connection.getClusterNodes()).length, 1);
    assert.deepEqual(await connection.getVoteAccounts(), { current: [], delinquent: [] });
  });

  it('charges priority fees as getFeeForMessage says, for builtin and program instructions', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const memo = { programId: new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'), keys: [], data: Buffer.from('fee') };
    const cases = [
      [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1000 })],
      [ComputeBudgetProgram.setComputeUnitLimit({ units: 50_000 }), ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 12_345 })],
      [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 777 }), new TransactionInstruction(memo)],
    ];
    const fees: number[] = [];
    for (const extra of cases) {
      const { blockhash } = await connection.getLatestBlockhash('confirmed');
      const message = new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: blockhash,
        instructions: [...extra, SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: newAddress(), lamports: 1_000_000 })],
      }).compileToV0Message();
      const estimate = (await connection.getFeeForMessage(message, 'confirmed')).value;
      const tx = new VersionedTransaction(message);
      tx.sign([payer]);
      const signature = await connection.sendRawTransaction(tx.serialize());
      const charged = (await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }))?.meta;
      assert.equal(charged?.fee, estimate);
      assert.equal((charged?.preBalances[0] ?? 0) - (charged?.postBalances[0] ?? 0) - 1_000_000, estimate);
      fees.push(estimate ?? 0);
    }
    // 2 builtins x 3,000 CU x 1,000 micro-lamports; 50,000 CU x 12,345; (2 x 3,000 + 200,000) x 777, rounded up.
    assert.deepEqual(fees, [5006, 5618, 5161]);
  });
});
