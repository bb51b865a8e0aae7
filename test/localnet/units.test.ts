/** Pure pieces of the localnet: JSON numbers, token amounts, error texts, instruction parsing. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SystemProgram, Keypair } from '@solana/web3.js';
import { createTransferCheckedInstruction } from '@solana/spl-token';
import { stringifyRpc } from '../../src/localnet/rpc-json.js';
import { uiAmountString, uiTokenAmount } from '../../src/localnet/token-state.js';
import { describeTransactionError, namedError } from '../../src/localnet/tx-error.js';
import { parseInstruction } from '../../src/localnet/parse-instruction.js';
import { topLevelBlocks } from '../../src/localnet/ata-emulation.js';

describe('localnet building blocks', () => {
  it('writes u64 values as exact JSON numbers, as real nodes do', () => {
    assert.equal(stringifyRpc({ rentEpoch: 18446744073709551615n, lamports: 5n, text: 'bigint:1' }), '{"rentEpoch":18446744073709551615,"lamports":5,"text":"bigint:1"}');
    assert.equal(JSON.parse(stringifyRpc([1n, { a: [2n] }])).toString(), '1,[object Object]');
    assert.equal(stringifyRpc({ s: '\u0000bigint:12' }), JSON.stringify({ s: '\u0000bigint:12' }), 'strings stay strings, whatever they contain');
    const sample = { a: [1, 'x', null, true, { b: 'é"\\' }], c: undefined, d: 1.5 };
    assert.equal(stringifyRpc(sample), JSON.stringify(sample));
  });

  it('agrees with JSON.stringify on every JSON value, and keeps every u64 exact (property)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => stringifyRpc(value) === JSON.stringify(value)));
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (value) => stringifyRpc({ lamports: value }) === `{"lamports":${value}}`));
  });

  it('formats token amounts without trailing zeros or exponents, uiAmount null at zero', () => {
    assert.equal(uiAmountString(1n, 6), '0.000001');
    assert.equal(uiAmountString(1_500_000n, 6), '1.5');
    assert.equal(uiAmountString(0n, 6), '0');
    assert.equal(uiAmountString(100n, 0), '100');
    assert.equal(uiAmountString(18446744073709551615n, 9), '18446744073.709551615');
    assert.deepEqual(uiTokenAmount(0n, 6), { amount: '0', decimals: 6, uiAmount: null, uiAmountString: '0' });
    assert.deepEqual(uiTokenAmount(12_340_000n, 6), { amount: '12340000', decimals: 6, uiAmount: 12.34, uiAmountString: '12.34' });
  });

  it('turns litesvm errors into the JSON and messages real nodes print', () => {
    assert.deepEqual(describeTransactionError(7), { json: 'BlockhashNotFound', message: 'Blockhash not found' });
    assert.deepEqual(describeTransactionError(6), { json: 'AlreadyProcessed', message: 'This transaction has already been processed' });
    const custom = { index: 2, err: () => ({ code: 6001 }), constructor: { name: 'TransactionErrorInstructionError' } };
    assert.deepEqual(describeTransactionError(custom), { json: { InstructionError: [2, { Custom: 6001 }] }, message: 'Error processing Instruction 2: custom program error: 0x1771' });
    const fieldless = { index: 0, err: () => 5, constructor: { name: 'TransactionErrorInstructionError' } };
    assert.deepEqual(describeTransactionError(fieldless).json, { InstructionError: [0, 'InsufficientFunds'] });
    const rent = { accountIndex: 1, constructor: { name: 'TransactionErrorInsufficientFundsForRent' } };
    assert.deepEqual(describeTransactionError(rent).json, { InsufficientFundsForRent: { account_index: 1 } });
    assert.equal(namedError('InsufficientFundsForFee').message, 'Insufficient funds for fee');
  });

  it('parses System and Token instructions for jsonParsed, and falls back to partially decoded', () => {
    const [a, b, c] = [Keypair.generate().publicKey, Keypair.generate().publicKey, Keypair.generate().publicKey];
    const transfer = SystemProgram.transfer({ fromPubkey: a, toPubkey: b, lamports: 42 });
    assert.deepEqual(parseInstruction(transfer.programId.toBase58(), [a.toBase58(), b.toBase58()], transfer.data, null), {
      parsed: { type: 'transfer', info: { source: a.toBase58(), destination: b.toBase58(), lamports: 42n } },
      program: 'system',
      programId: '11111111111111111111111111111111',
      stackHeight: null,
    });
    const checked = createTransferCheckedInstruction(a, b, c, a, 1_000_000n, 6);
    const parsed = parseInstruction(checked.programId.toBase58(), checked.keys.map((k) => k.pubkey.toBase58()), checked.data, 2);
    assert.equal(parsed.program, 'spl-token');
    assert.deepEqual((parsed.parsed as unknown as { info: { tokenAmount: unknown } }).info.tokenAmount, { amount: '1000000', decimals: 6, uiAmount: 1, uiAmountString: '1' });
    // Truncated data is not parsed: shown partially decoded like an unknown program.
    const short = parseInstruction(checked.programId.toBase58(), [a.toBase58()], checked.data.subarray(0, 3), null);
    assert.deepEqual(Object.keys(short).sort(), ['accounts', 'data', 'programId', 'stackHeight']);
    const memo = parseInstruction('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', [], Buffer.from('héllo'), null);
    assert.equal(memo.parsed, 'héllo');
  });

  it('splits program logs into top-level instruction blocks', () => {
    const logs = ['Program A invoke [1]', 'Program B invoke [2]', 'Program B success', 'Program A success', 'Program C invoke [1]', 'Program C success'];
    assert.deepEqual(topLevelBlocks(logs), [logs.slice(0, 4), logs.slice(4)]);
    assert.deepEqual(topLevelBlocks([]), []);
  });
});
