/** The Solana Pay transfer (src/solana/transfer.ts) executed on a real localnet. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import {
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  createInitializeMint2Instruction,
  createMintToCheckedInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { createTransferInstructions, createTransferTransaction, getMintInfo, MEMO_PROGRAM_ID, TransferError } from '../../src/solana/transfer.js';
import { waitForConfirmation, type Localnet } from '../../src/localnet/index.js';
import { fundedKeypair, newAddress, withLocalnet } from './helpers.js';

describe('createTransferTransaction on the localnet', () => {
  let net: Localnet;
  let connection: Connection;
  before(async () => ({ net, connection } = await withLocalnet()));
  after(() => net.close());

  it('moves SOL with memo first and references as read-only keys of the transfer', async () => {
    const payer = await fundedKeypair(net, { sol: '2' });
    const recipient = newAddress();
    const references = [newAddress(), newAddress()];
    const tx = await createTransferTransaction(connection, { payer: payer.publicKey, recipient, amount: 1_500_000_000n, references, memo: 'order-42' });
    assert.ok(tx.feePayer?.equals(payer.publicKey));
    assert.ok(tx.recentBlockhash);
    assert.equal(tx.instructions.length, 2);
    assert.ok(tx.instructions[0]?.programId.equals(MEMO_PROGRAM_ID));
    assert.equal(Buffer.from(tx.instructions[0]?.data ?? []).toString(), 'order-42');
    const transferKeys = tx.instructions[1]?.keys.slice(-2) ?? [];
    assert.deepEqual(transferKeys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]), references.map((r) => [r.toBase58(), false, false]));

    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await waitForConfirmation(connection, signature);
    assert.equal(await connection.getBalance(recipient), 1_500_000_000);
    const found = await connection.getSignaturesForAddress(references[1] as PublicKey, {}, 'confirmed');
    assert.deepEqual(found.map((s) => s.signature), [signature]);
  });

  it('moves USDC with transferChecked between associated token accounts', async () => {
    const mint = new PublicKey(net.usdcMint);
    assert.deepEqual(await getMintInfo(connection, mint), { decimals: 6, programId: new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA') });
    const payer = await fundedKeypair(net, { sol: '1', usdc: '20' });
    const recipient = newAddress();
    await net.createTokenAccount(recipient.toBase58(), net.usdcMint);
    const tx = await createTransferTransaction(connection, { payer: payer.publicKey, recipient, amount: 12_500_000n, mint, references: [newAddress()] });
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    await waitForConfirmation(connection, signature);
    const balance = await connection.getTokenAccountBalance(getAssociatedTokenAddressSync(mint, recipient));
    assert.equal(balance.value.amount, '12500000');
    assert.equal(balance.value.uiAmountString, '12.5');
  });

  it('refuses clearly when the recipient has no token account or the payer lacks funds', async () => {
    const mint = new PublicKey(net.usdcMint);
    const payer = await fundedKeypair(net, { sol: '1', usdc: '1' });
    await assert.rejects(
      createTransferInstructions(connection, { payer: payer.publicKey, recipient: newAddress(), amount: 1n, mint }),
      (e: unknown) => e instanceof TransferError && e.code === 'recipient_token_account_not_found',
    );
    const recipient = newAddress();
    await net.createTokenAccount(recipient.toBase58(), net.usdcMint);
    await assert.rejects(
      createTransferInstructions(connection, { payer: payer.publicKey, recipient, amount: 1_000_001n, mint }),
      (e: unknown) => e instanceof TransferError && e.code === 'insufficient_funds' && /holds 1000000/.test(e.message),
    );
    await assert.rejects(
      createTransferInstructions(connection, { payer: payer.publicKey, recipient, amount: 20_000_000_000n }),
      (e: unknown) => e instanceof TransferError && e.code === 'insufficient_funds',
    );
    await assert.rejects(
      createTransferInstructions(connection, { payer: newAddress(), recipient, amount: 1n }),
      (e: unknown) => e instanceof TransferError && e.code === 'payer_not_found',
    );
    await assert.rejects(
      createTransferInstructions(connection, { payer: payer.publicKey, recipient, amount: 0n }),
      (e: unknown) => e instanceof TransferError && e.code === 'invalid_amount',
    );
    await assert.rejects(
      createTransferInstructions(connection, { payer: payer.publicKey, recipient: payer.publicKey, amount: 1n, mint }),
      (e: unknown) => e instanceof TransferError && e.code === 'payer_invalid' && /payment to oneself/.test(e.message),
    );
    await assert.rejects(
      createTransferInstructions(connection, { payer: payer.publicKey, recipient, amount: 1n, memo: 'x'.repeat(567) }),
      (e: unknown) => e instanceof TransferError && e.code === 'invalid_memo',
    );
    await assert.rejects(getMintInfo(connection, newAddress()), (e: unknown) => e instanceof TransferError && e.code === 'mint_not_found');
    await assert.rejects(getMintInfo(connection, payer.publicKey), (e: unknown) => e instanceof TransferError && e.code === 'mint_invalid');
  });
});

describe('Token-2022 transfers on the localnet', () => {
  let net: Localnet;
  let connection: Connection;
  before(async () => ({ net, connection } = await withLocalnet()));
  after(() => net.close());

  it('uses the mint owner program for the associated accounts and transferChecked', async () => {
    const payer = await fundedKeypair(net, { sol: '2' });
    const mint = Keypair.generate();
    const rent = await connection.getMinimumBalanceForRentExemption(MINT_SIZE);
    const send = async (tx: Transaction, signers: Keypair[]) => {
      const { blockhash } = await connection.getLatestBlockhash('confirmed');
      tx.recentBlockhash = blockhash;
      tx.feePayer = payer.publicKey;
      tx.sign(...signers);
      const signature = await connection.sendRawTransaction(tx.serialize());
      await waitForConfirmation(connection, signature);
      return signature;
    };
    await send(
      new Transaction().add(
        SystemProgram.createAccount({ fromPubkey: payer.publicKey, newAccountPubkey: mint.publicKey, lamports: rent, space: MINT_SIZE, programId: TOKEN_2022_PROGRAM_ID }),
        createInitializeMint2Instruction(mint.publicKey, 2, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
      ),
      [payer, mint],
    );
    assert.deepEqual(await getMintInfo(connection, mint.publicKey), { decimals: 2, programId: TOKEN_2022_PROGRAM_ID });
    const payerAta = new PublicKey(await net.createTokenAccount(payer.publicKey.toBase58(), mint.publicKey.toBase58()));
    assert.ok(payerAta.equals(getAssociatedTokenAddressSync(mint.publicKey, payer.publicKey, false, TOKEN_2022_PROGRAM_ID)));
    await send(new Transaction().add(createMintToCheckedInstruction(mint.publicKey, payerAta, payer.publicKey, 10_000n, 2, [], TOKEN_2022_PROGRAM_ID)), [payer]);
    const recipient = newAddress();
    await net.createTokenAccount(recipient.toBase58(), mint.publicKey.toBase58());

    const tx = await createTransferTransaction(connection, { payer: payer.publicKey, recipient, amount: 1_234n, mint: mint.publicKey, references: [newAddress()], memo: 't22' });
    const signature = await send(tx, [payer]);
    const result = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const post = result?.meta?.postTokenBalances?.find((b) => b.owner === recipient.toBase58());
    assert.equal(post?.programId, TOKEN_2022_PROGRAM_ID.toBase58());
    assert.deepEqual(post?.uiTokenAmount, { amount: '1234', decimals: 2, uiAmount: 12.34, uiAmountString: '12.34' });
    const recipientAta = getAssociatedTokenAddressSync(mint.publicKey, recipient, false, TOKEN_2022_PROGRAM_ID);
    const balance = await connection.getTokenAccountBalance(recipientAta);
    assert.equal(balance.value.amount, '1234');
    const parsed = await connection.getParsedAccountInfo(recipientAta);
    const data = parsed.value?.data as { program: string; parsed: { info: { extensions: unknown; tokenAmount: { amount: string } } } };
    assert.equal(data.program, 'spl-token-2022');
    assert.deepEqual(data.parsed.info.extensions, [{ extension: 'immutableOwner' }]);
    assert.equal(data.parsed.info.tokenAmount.amount, '1234');
  });
});
