/** Recorded transactions: failed ones, version 0 with a lookup table, token balances, getTransaction encodings. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
  type AddressLookupTableAccount,
  type TransactionInstruction,
  type ParsedInstruction,
} from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createAssociatedTokenAccountInstruction,
  createRecoverNestedInstruction,
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { createTransferInstructions } from '../../src/solana/transfer.js';
import { waitForConfirmation, type Localnet } from '../../src/localnet/index.js';
import { fundedKeypair, newAddress, rpc, withLocalnet } from './helpers.js';

describe('recorded transactions', () => {
  let net: Localnet;
  let connection: Connection;
  before(async () => ({ net, connection } = await withLocalnet()));
  after(() => net.close());

  async function sendV0(payer: Keypair, instructions: TransactionInstruction[], tables: AddressLookupTableAccount[] = [], skipPreflight = false): Promise<string> {
    const { blockhash } = await connection.getLatestBlockhash('confirmed');
    const tx = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions }).compileToV0Message(tables));
    tx.sign([payer]);
    const signature = await connection.sendRawTransaction(tx.serialize(), { skipPreflight });
    await waitForConfirmation(connection, signature).catch(() => undefined);
    return signature;
  }

  it('records a failed transaction sent with skipPreflight: meta.err set, only the fee charged', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const to = newAddress();
    const reference = newAddress();
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 2_000_000_000 });
    ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    const signature = await sendV0(payer, [ix], [], true);
    const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.ok(tx?.meta);
    assert.deepEqual(tx.meta.err, { InstructionError: [0, { Custom: 1 }] });
    assert.equal(tx.meta.fee, 5000);
    assert.deepEqual(tx.meta.preBalances.slice(0, 2), [1_000_000_000, 0]);
    assert.deepEqual(tx.meta.postBalances.slice(0, 2), [1_000_000_000 - 5000, 0]);
    assert.equal(await connection.getBalance(payer.publicKey), 1_000_000_000 - 5000);
    assert.equal(await connection.getBalance(to), 0);
    const [entry] = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    assert.equal(entry?.signature, signature);
    assert.deepEqual(entry?.err, { InstructionError: [0, { Custom: 1 }] });
    const status = await connection.getSignatureStatus(signature);
    assert.deepEqual(status.value?.err, { InstructionError: [0, { Custom: 1 }] });
  });

  it('runs a version 0 transaction whose recipient comes from an address lookup table', async () => {
    const payer = await fundedKeypair(net, { sol: '2' });
    const recipient = newAddress();
    const reference = newAddress();
    const recentSlot = await connection.getSlot('finalized');
    const [create, tableAddress] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot });
    const extend = AddressLookupTableProgram.extendLookupTable({ lookupTable: tableAddress, authority: payer.publicKey, payer: payer.publicKey, addresses: [recipient, reference] });
    const setup = await sendV0(payer, [create, extend]);
    assert.equal((await connection.getSignatureStatus(setup)).value?.err, null);
    net.chain.advanceSlot(); // entries become usable in the slot after they were added, as on a real chain
    const table = (await connection.getAddressLookupTable(tableAddress)).value;
    assert.ok(table);
    assert.deepEqual(table.state.addresses.map((a) => a.toBase58()), [recipient.toBase58(), reference.toBase58()]);

    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 10_000_000 });
    ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    const signature = await sendV0(payer, [ix], [table]);
    assert.equal(await connection.getBalance(recipient), 10_000_000);

    const json = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.equal(json?.version, 0);
    assert.deepEqual(json?.meta?.loadedAddresses?.writable.map(String), [recipient.toBase58()]);
    assert.deepEqual(json?.meta?.loadedAddresses?.readonly.map(String), [reference.toBase58()]);
    assert.equal(json?.transaction.message.addressTableLookups[0]?.accountKey.toBase58(), tableAddress.toBase58());
    // The loaded recipient's balance is at index static + 0.
    const staticCount = json?.transaction.message.staticAccountKeys.length ?? 0;
    assert.equal(json?.meta?.postBalances[staticCount], 10_000_000);

    const parsed = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const keys = parsed?.transaction.message.accountKeys ?? [];
    assert.deepEqual(keys.slice(-2).map((k) => [k.pubkey.toBase58(), k.source, k.writable, k.signer]), [
      [recipient.toBase58(), 'lookupTable', true, false],
      [reference.toBase58(), 'lookupTable', false, false],
    ]);
    const transfer = parsed?.transaction.message.instructions[0] as ParsedInstruction;
    assert.equal(transfer.program, 'system');
    assert.deepEqual(transfer.parsed, { type: 'transfer', info: { source: payer.publicKey.toBase58(), destination: recipient.toBase58(), lamports: 10_000_000 } });

    // A reference that only appears through the lookup table still finds the transaction.
    const found = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    assert.deepEqual(found.map((s) => s.signature), [signature]);

    // Like a real node, a version 0 transaction needs maxSupportedTransactionVersion.
    const legacyClient = await rpc(net.rpcUrl, 'getTransaction', [signature, { commitment: 'confirmed' }]);
    assert.equal(legacyClient.error?.code, -32015);
    assert.match(legacyClient.error?.message ?? '', /maxSupportedTransactionVersion/);
  });

  it('records token balances with owner, mint and programId around a USDC transfer', async () => {
    const payer = await fundedKeypair(net, { sol: '1', usdc: '10' });
    const recipient = newAddress();
    await net.createTokenAccount(recipient.toBase58(), net.usdcMint);
    const mint = new PublicKey(net.usdcMint);
    const instructions = await createTransferInstructions(connection, { payer: payer.publicKey, recipient, amount: 2_500_000n, mint, memo: 'inv-7', references: [newAddress()] });
    const signature = await sendV0(payer, instructions);
    const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const recipientAta = getAssociatedTokenAddressSync(mint, recipient).toBase58();
    const keys = tx?.transaction.message.staticAccountKeys.map(String) ?? [];
    const index = keys.indexOf(recipientAta);
    const pre = tx?.meta?.preTokenBalances?.find((b) => b.accountIndex === index);
    const post = tx?.meta?.postTokenBalances?.find((b) => b.accountIndex === index);
    assert.deepEqual(pre, { accountIndex: index, mint: net.usdcMint, owner: recipient.toBase58(), programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', uiTokenAmount: { amount: '0', decimals: 6, uiAmount: null, uiAmountString: '0' } });
    assert.deepEqual(post?.uiTokenAmount, { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' });
    assert.ok((tx?.meta?.computeUnitsConsumed ?? 0) > 0);
    assert.ok(tx?.meta?.logMessages?.includes('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success'));

    const parsed = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const [memo, transfer] = parsed?.transaction.message.instructions as ParsedInstruction[];
    assert.equal(memo?.program, 'spl-memo');
    assert.equal(memo?.parsed, 'inv-7');
    assert.equal(transfer?.program, 'spl-token');
    assert.equal(transfer?.parsed.type, 'transferChecked');
    assert.deepEqual(transfer?.parsed.info.tokenAmount, { amount: '2500000', decimals: 6, uiAmount: 2.5, uiAmountString: '2.5' });

    const base64 = await rpc(net.rpcUrl, 'getTransaction', [signature, { commitment: 'confirmed', encoding: 'base64', maxSupportedTransactionVersion: 0 }]);
    assert.equal(base64.result.transaction[1], 'base64');
    assert.equal(VersionedTransaction.deserialize(Buffer.from(base64.result.transaction[0], 'base64')).signatures.length, 1);
  });

  it('creates the recipient token account in the payment transaction, as wallets do (emulated ATA program)', async () => {
    const payer = await fundedKeypair(net, { sol: '1', usdc: '10' });
    const recipient = newAddress();
    const mint = new PublicKey(net.usdcMint);
    const recipientAta = getAssociatedTokenAddressSync(mint, recipient);
    const create = createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, recipientAta, recipient, mint);
    const transfer = createTransferCheckedInstruction(getAssociatedTokenAddressSync(mint, payer.publicKey), mint, recipientAta, payer.publicKey, 1_500_000n, 6);
    const signature = await sendV0(payer, [create, transfer]);
    assert.equal((await connection.getTokenAccountBalance(recipientAta)).value.amount, '1500000');
    const rent = await connection.getMinimumBalanceForRentExemption(165);
    assert.equal(await connection.getBalance(payer.publicKey), 1_000_000_000 - rent - 5000);

    const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.equal(tx?.meta?.err, null);
    assert.equal(tx?.meta?.fee, 5000);
    const keys = tx?.transaction.message.staticAccountKeys.map(String) ?? [];
    const ataIndex = keys.indexOf(recipientAta.toBase58());
    // Like the mainnet fixture: no pre token balance for an account created in the transaction.
    assert.equal(tx?.meta?.preTokenBalances?.some((b) => b.accountIndex === ataIndex), false);
    assert.equal(tx?.meta?.postTokenBalances?.find((b) => b.accountIndex === ataIndex)?.uiTokenAmount.amount, '1500000');
    assert.equal(tx?.meta?.preBalances[ataIndex], 0);
    assert.equal(tx?.meta?.postBalances[ataIndex], rent);
    const logs = tx?.meta?.logMessages ?? [];
    assert.equal(logs[0], 'Program ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL invoke [1]');
    assert.ok(logs.includes('Program ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL success'));
    assert.ok(logs.includes('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]'));

    const parsed = await connection.getParsedTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const [ataIx, transferIx] = parsed?.transaction.message.instructions as ParsedInstruction[];
    assert.equal(ataIx?.program, 'spl-associated-token-account');
    assert.equal(ataIx?.parsed.type, 'createIdempotent');
    assert.equal(transferIx?.parsed.type, 'transferChecked');
    const inner = parsed?.meta?.innerInstructions?.[0];
    assert.equal(inner?.index, 0);
    assert.deepEqual(
      inner?.instructions.map((ix) => (ix as ParsedInstruction).parsed.type),
      ['createAccount', 'initializeImmutableOwner', 'initializeAccount3'],
    );
    assert.equal(((inner?.instructions[2] as ParsedInstruction).parsed.info as { owner: string }).owner, recipient.toBase58());

    // With a priority fee, the ATA instruction counts towards the default compute limit as on a real chain.
    const priced = await sendV0(payer, [ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1000 }), create]);
    const pricedMeta = (await connection.getTransaction(priced, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }))?.meta;
    assert.equal(pricedMeta?.fee, 5000 + Math.ceil(((3000 + 200_000) * 1000) / 1_000_000));
    assert.equal((pricedMeta?.preBalances[0] ?? 0) - (pricedMeta?.postBalances[0] ?? 0), pricedMeta?.fee);

    // Idempotent again: succeeds and changes nothing but the fee.
    const again = await sendV0(payer, [create]);
    assert.equal((await connection.getSignatureStatus(again)).value?.err, null);
    assert.equal((await connection.getTokenAccountBalance(recipientAta)).value.amount, '1500000');
  });

  it('fails like the ATA program: Create over an existing account, and a later failure undoes the creation', async () => {
    const payer = await fundedKeypair(net, { sol: '1', usdc: '1' });
    const mint = new PublicKey(net.usdcMint);
    const existingOwner = newAddress();
    const existing = new PublicKey(await net.createTokenAccount(existingOwner.toBase58(), net.usdcMint));
    const createAgain = createAssociatedTokenAccountInstruction(payer.publicKey, existing, existingOwner, mint);
    await assert.rejects(sendV0(payer, [createAgain]), /custom program error: 0x0/);
    const failed = await sendV0(payer, [createAgain], [], true);
    const status = (await connection.getSignatureStatus(failed, { searchTransactionHistory: true })).value;
    assert.deepEqual(status?.err, { InstructionError: [0, { Custom: 0 }] });
    assert.equal(await connection.getBalance(payer.publicKey), 1_000_000_000 - 5000);

    const owner = newAddress();
    const ata = getAssociatedTokenAddressSync(mint, owner);
    const create = createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, owner, mint);
    const tooMuch = createTransferCheckedInstruction(getAssociatedTokenAddressSync(mint, payer.publicKey), mint, ata, payer.publicKey, 5_000_000n, 6);
    const signature = await sendV0(payer, [create, tooMuch], [], true);
    const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.deepEqual(tx?.meta?.err, { InstructionError: [1, { Custom: 1 }] });
    assert.equal(await connection.getAccountInfo(ata), null, 'the account created by instruction 0 is rolled back');
    assert.equal(await connection.getBalance(payer.publicKey), 1_000_000_000 - 10_000);
    assert.equal(tx?.meta?.fee, 5000);
  });

  it('refuses, with a clear error, ATA instructions it cannot emulate', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const mint = new PublicKey(net.usdcMint);
    const recover = createRecoverNestedInstruction(newAddress(), mint, newAddress(), newAddress(), mint, payer.publicKey);
    const sent = await rpc(net.rpcUrl, 'simulateTransaction', [
      Buffer.from(new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: (await connection.getLatestBlockhash()).blockhash, instructions: [recover] }).compileToV0Message()).serialize()).toString('base64'),
      { encoding: 'base64' },
    ]);
    assert.equal(sent.error?.code, -32002);
    assert.match(sent.error?.message ?? '', /only the Create and CreateIdempotent instructions/);
  });
});
