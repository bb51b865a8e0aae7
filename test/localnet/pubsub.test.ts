/** The websocket PubSub API, through web3.js's own subscription and confirmation code. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Connection, Keypair, PublicKey, SystemProgram, Transaction, sendAndConfirmTransaction, type Logs } from '@solana/web3.js';
import WebSocket from 'ws';
import type { Localnet } from '../../src/localnet/index.js';
import { fundedKeypair, newAddress, withLocalnet } from './helpers.js';

function transferTx(from: Keypair, to: PublicKey, lamports: number, reference?: PublicKey): Transaction {
  const ix = SystemProgram.transfer({ fromPubkey: from.publicKey, toPubkey: to, lamports });
  if (reference) ix.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
  return new Transaction().add(ix);
}

describe('PubSub websocket', () => {
  let net: Localnet;
  let connection: Connection;
  before(async () => {
    ({ net } = await withLocalnet({ slotMs: 50, finalizationDepth: 3 }));
    connection = new Connection(net.rpcUrl, { commitment: 'confirmed', wsEndpoint: net.wsUrl });
  });
  after(() => net.close());

  it('lets web3.js sendAndConfirmTransaction confirm through signatureSubscribe', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const to = newAddress();
    const signature = await sendAndConfirmTransaction(connection, transferTx(payer, to, 5_000_000), [payer], { commitment: 'confirmed' });
    assert.equal(typeof signature, 'string');
    assert.equal(await connection.getBalance(to), 5_000_000);
  });

  it('also serves the default web3.js websocket endpoint (RPC port + 1) when it is free', async (t) => {
    const defaultEndpoint = `ws://127.0.0.1:${Number(new URL(net.rpcUrl).port) + 1}`;
    const reachable = await new Promise<boolean>((resolve) => {
      const socket = new WebSocket(defaultEndpoint);
      socket.once('open', () => {
        socket.close(1000);
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!reachable) return t.skip(`port ${defaultEndpoint} was taken by another process`);
    const plain = new Connection(net.rpcUrl, 'confirmed');
    const payer = await fundedKeypair(net, { sol: '1' });
    const signature = await sendAndConfirmTransaction(plain, transferTx(payer, newAddress(), 1_000_000), [payer]);
    assert.ok(signature);
  });

  it('notifies a finalized signature subscription only once the transaction is finalized', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const tx = transferTx(payer, newAddress(), 1_000_000);
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    tx.recentBlockhash = blockhash;
    tx.feePayer = payer.publicKey;
    tx.sign(payer);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const result = await connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'finalized');
    assert.equal(result.value.err, null);
    const status = (await connection.getSignatureStatuses([signature])).value[0];
    assert.equal(status?.confirmationStatus, 'finalized');
  });

  it('streams slots, account changes and logs that mention an address', async () => {
    const slots: number[] = [];
    const slotSub = connection.onSlotChange((info) => slots.push(info.slot));
    const payer = await fundedKeypair(net, { sol: '1' });
    const to = newAddress();
    const reference = newAddress();
    const accountSeen = new Promise<number>((resolve) => {
      const id = connection.onAccountChange(to, (info) => {
        void connection.removeAccountChangeListener(id);
        resolve(info.lamports);
      });
    });
    const logsSeen = new Promise<Logs>((resolve) => {
      const id = connection.onLogs(reference, (logs) => {
        void connection.removeOnLogsListener(id);
        resolve(logs);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the subscriptions register
    const signature = await sendAndConfirmTransaction(connection, transferTx(payer, to, 2_000_000, reference), [payer]);
    assert.equal(await accountSeen, 2_000_000);
    const logs = await logsSeen;
    assert.equal(logs.signature, signature);
    assert.equal(logs.err, null);
    assert.ok(logs.logs.includes('Program 11111111111111111111111111111111 success'));
    await connection.removeSlotChangeListener(slotSub);
    assert.ok(slots.length > 0);
    assert.ok(slots.every((slot, i) => i === 0 || slot > (slots[i - 1] as number)));
  });

  it('tells a finalized account subscription about a change only once it is finalized', async () => {
    const payer = await fundedKeypair(net, { sol: '1' });
    const to = newAddress();
    let signatureSent!: (signature: string) => void;
    const sent = new Promise<string>((resolve) => (signatureSent = resolve));
    const heard = new Promise<{ lamports: number; status: string | undefined }>((resolve) => {
      const id = connection.onAccountChange(
        to,
        (info) => {
          void connection.removeAccountChangeListener(id);
          // Where the transaction stands when the notification arrives: it must be final already.
          void sent
            .then((signature) => connection.getSignatureStatuses([signature]))
            .then(({ value }) => resolve({ lamports: info.lamports, status: value[0]?.confirmationStatus }));
        },
        { commitment: 'finalized' },
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the subscription register
    signatureSent(await sendAndConfirmTransaction(connection, transferTx(payer, to, 4_000_000), [payer], { commitment: 'confirmed' }));
    const { lamports, status } = await heard;
    assert.equal(lamports, 4_000_000);
    assert.equal(status, 'finalized');
  });
});
