/**
 * buildTransactionRequest, getMintInfo and recipientTokenAccount against the real localnet: the transaction a
 * wallet gets is decoded and inspected, then signed by the wallet's key, executed, and checked by checkTransfer.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Keypair, PublicKey, SystemInstruction, SystemProgram, Transaction } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID, decodeTransferCheckedInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { startLocalnet, type Localnet } from '../../../src/localnet/index.js';
import {
  TransferError,
  buildTransactionRequest,
  checkTransfer,
  getMintInfo,
  recipientTokenAccount,
  type TransactionRequestInput,
} from '../../../src/gateway/chain/index.js';
import { createMintWithSupply, createTokenAccount, newReference, waitUntilSeen } from './localnet-helpers.js';

const MEMO_V2 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

let localnet: Localnet;
let connection: Connection;
let usdc: PublicKey;
const wallet = Keypair.generate();
const merchant = Keypair.generate().publicKey;

before(async () => {
  localnet = await startLocalnet({ port: 0 });
  connection = new Connection(localnet.rpcUrl, 'confirmed');
  usdc = new PublicKey(localnet.usdcMint);
  await localnet.airdrop(wallet.publicKey.toBase58(), { sol: 10, usdc: 100 });
});
after(() => localnet.close());

function decode(base64: string): Transaction {
  return Transaction.from(Buffer.from(base64, 'base64'));
}

/** What the wallet does with the answer: sign with its own key, send, wait. Then read it back. */
async function signAndSend(tx: Transaction) {
  tx.partialSign(wallet);
  const signature = await connection.sendRawTransaction(tx.serialize());
  await waitUntilSeen(connection, signature);
  const landed = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
  assert.ok(landed);
  return landed;
}

function input(over: Partial<TransactionRequestInput> = {}): TransactionRequestInput {
  return { recipient: merchant.toBase58(), mint: null, amount: 123_456_789n, reference: newReference().toBase58(), memo: null, label: null, message: null, ...over };
}

describe('buildTransactionRequest', () => {
  it('builds an unsigned SOL transfer: wallet pays the fee, fresh blockhash, exact amount, reference key', async () => {
    const request = input({ label: 'Coffee shop', message: 'Order #42' });
    const answer = await buildTransactionRequest(connection, request, wallet.publicKey.toBase58());
    assert.equal(answer.message, 'Coffee shop: Order #42');

    const tx = decode(answer.transaction);
    assert.ok(tx.feePayer?.equals(wallet.publicKey));
    assert.ok(tx.recentBlockhash);
    assert.equal((await connection.isBlockhashValid(tx.recentBlockhash, { commitment: 'confirmed' })).value, true);
    assert.ok(tx.signatures.every((s) => s.signature === null), 'nothing is signed');
    assert.equal(tx.instructions.length, 1);

    const [transfer] = tx.instructions;
    assert.ok(transfer!.programId.equals(SystemProgram.programId));
    const decoded = SystemInstruction.decodeTransfer(transfer!);
    assert.ok(decoded.fromPubkey.equals(wallet.publicKey));
    assert.ok(decoded.toPubkey.equals(merchant));
    assert.equal(decoded.lamports, request.amount);
    const referenceKey = transfer!.keys.find((k) => k.pubkey.toBase58() === request.reference);
    assert.deepEqual(referenceKey && { isSigner: referenceKey.isSigner, isWritable: referenceKey.isWritable }, { isSigner: false, isWritable: false });

    const landed = await signAndSend(tx);
    assert.deepEqual(checkTransfer(landed, request), { verdict: 'paid', reason: null, amountReceived: request.amount, overpaid: false, payer: wallet.publicKey.toBase58() });
  });

  it('builds a USDC TransferChecked to the merchant token account, with the memo before it', async () => {
    await createTokenAccount(localnet, merchant, usdc);
    const request = input({ mint: usdc.toBase58(), amount: 2_500_000n, memo: 'order-7 ✓' });
    const answer = await buildTransactionRequest(connection, request, wallet.publicKey.toBase58());
    assert.equal(answer.message, 'Payment');

    const tx = decode(answer.transaction);
    assert.ok(tx.feePayer?.equals(wallet.publicKey));
    assert.ok(tx.signatures.every((s) => s.signature === null));
    const [memo, transfer] = tx.instructions;
    assert.equal(memo!.programId.toBase58(), MEMO_V2);
    assert.equal(memo!.data.toString('utf8'), request.memo);

    const decoded = decodeTransferCheckedInstruction(transfer!, TOKEN_PROGRAM_ID);
    assert.equal(decoded.data.amount, request.amount);
    assert.equal(decoded.data.decimals, 6);
    assert.ok(decoded.keys.mint.pubkey.equals(usdc));
    assert.ok(decoded.keys.destination.pubkey.equals(getAssociatedTokenAddressSync(usdc, merchant, true, TOKEN_PROGRAM_ID)));
    assert.ok(decoded.keys.owner.pubkey.equals(wallet.publicKey));
    assert.ok(decoded.keys.multiSigners.some((k) => k.pubkey.toBase58() === request.reference && !k.isSigner && !k.isWritable));

    const landed = await signAndSend(tx);
    const check = checkTransfer(landed, request);
    assert.deepEqual([check.verdict, check.amountReceived], ['paid', request.amount]);
  });

  it('refuses an account that is not a public key, and a wallet that cannot pay', async () => {
    await assert.rejects(buildTransactionRequest(connection, input(), 'not-a-key'), TypeError);
    const empty = Keypair.generate().publicKey.toBase58();
    await assert.rejects(buildTransactionRequest(connection, input(), empty), (error: unknown) => error instanceof TransferError && error.code === 'payer_not_found');
    await assert.rejects(
      buildTransactionRequest(connection, input({ amount: 10n ** 12n * 10n }), wallet.publicKey.toBase58()),
      (error: unknown) => error instanceof TransferError && error.code === 'insufficient_funds',
    );
  });

  it('says clearly when the merchant has no token account for the mint', async () => {
    const noAccount = Keypair.generate().publicKey.toBase58();
    await assert.rejects(
      buildTransactionRequest(connection, input({ recipient: noAccount, mint: usdc.toBase58() }), wallet.publicKey.toBase58()),
      (error: unknown) => error instanceof TransferError && error.code === 'recipient_token_account_not_found',
    );
  });

  it('keeps the wallet message short', async () => {
    const answer = await buildTransactionRequest(connection, input({ label: 'x'.repeat(500) }), wallet.publicKey.toBase58());
    assert.ok(answer.message.length <= 200);
    assert.ok(answer.message.endsWith('…'));
  });
});

describe('getMintInfo and recipientTokenAccount', () => {
  it('reads decimals and the token program of Token and Token-2022 mints', async () => {
    assert.deepEqual(await getMintInfo(connection, usdc.toBase58()), { decimals: 6, programId: TOKEN_PROGRAM_ID.toBase58() });
    const mint2022 = await createMintWithSupply(localnet, connection, wallet, { decimals: 3, holder: wallet.publicKey, supply: 1n, programId: TOKEN_2022_PROGRAM_ID });
    assert.deepEqual(await getMintInfo(connection, mint2022.toBase58()), { decimals: 3, programId: TOKEN_2022_PROGRAM_ID.toBase58() });
  });

  it('refuses what is not a mint, with a code', async () => {
    const isCode = (code: string) => (error: unknown) => error instanceof TransferError && error.code === code;
    await assert.rejects(getMintInfo(connection, Keypair.generate().publicKey.toBase58()), isCode('mint_not_found'));
    await assert.rejects(getMintInfo(connection, wallet.publicKey.toBase58()), isCode('mint_invalid'));
    await assert.rejects(getMintInfo(connection, 'nope'), TypeError);
  });

  it("finds the owner's associated token account, and whether it exists", async () => {
    const owner = Keypair.generate().publicKey;
    const expected = getAssociatedTokenAddressSync(usdc, owner, true, TOKEN_PROGRAM_ID).toBase58();
    assert.deepEqual(await recipientTokenAccount(connection, owner.toBase58(), usdc.toBase58()), { address: expected, exists: false });
    await createTokenAccount(localnet, owner, usdc);
    assert.deepEqual(await recipientTokenAccount(connection, owner.toBase58(), usdc.toBase58()), { address: expected, exists: true });
  });
});
