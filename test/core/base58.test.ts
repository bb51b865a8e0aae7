import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PublicKey } from '@solana/web3.js';
import {
  AddressError,
  CoreError,
  assertPublicKey,
  decodeBase58,
  encodeBase58,
  isPublicKey,
} from '../../src/core/index.js';

const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));

// Vectors from Bitcoin Core's base58_encode_decode.json.
const VECTORS: [string, string][] = [
  ['', ''],
  ['61', '2g'],
  ['626262', 'a3gV'],
  ['636363', 'aPEr'],
  ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
  ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
  ['516b6fcd0f', 'ABnLTmg'],
  ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
  ['572e4794', '3EFU7m'],
  ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
  ['10c8511e', 'Rt5zm'],
  ['00000000000000000000', '1111111111'],
];

const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

test('encodeBase58 and decodeBase58 match the Bitcoin test vectors', () => {
  for (const [bytes, text] of VECTORS) {
    assert.equal(encodeBase58(hex(bytes)), text);
    assert.deepEqual(decodeBase58(text), hex(bytes));
  }
});

test('decodeBase58 rejects characters outside the alphabet with a generic CoreError', () => {
  for (const bad of ['0', 'O', 'I', 'l', ' 2g', '2g ', '2g\n', '+', 'ä', '2g=']) {
    assert.throws(
      () => decodeBase58(bad),
      (error: unknown) =>
        error instanceof CoreError && !(error instanceof AddressError) && error.code === 'base58_invalid' && /not in the alphabet/.test(error.message),
    );
  }
});

test('Solana addresses decode to the bytes web3.js gives', () => {
  assert.deepEqual(decodeBase58(USDC), new PublicKey(USDC).toBytes());
  assert.deepEqual(decodeBase58(SYSTEM_PROGRAM), new Uint8Array(32));
  assert.equal(encodeBase58(new Uint8Array(32)), SYSTEM_PROGRAM);
});

test('isPublicKey accepts 32-byte keys only', () => {
  assert.equal(isPublicKey(USDC), true);
  assert.equal(isPublicKey(SYSTEM_PROGRAM), true);
  assert.equal(isPublicKey('mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN'), true);
  const rejected = [
    '',
    ` ${USDC}`,
    `${USDC} `,
    `${USDC}\n`,
    `${USDC}1`, // 33 bytes
    USDC.slice(0, 40), // at most 30 bytes
    '1'.repeat(31), // 31 zero bytes
    '1'.repeat(33), // 33 zero bytes
    USDC.replace('E', '0'),
    USDC.replace('E', 'I'),
    encodeBase58(new Uint8Array(33).fill(255)),
    encodeBase58(new Uint8Array(31).fill(255)),
    'x'.repeat(10_000),
  ];
  for (const s of rejected) assert.equal(isPublicKey(s), false, s);
  assert.equal(isPublicKey(42 as unknown as string), false);
  assert.equal(isPublicKey(undefined as unknown as string), false);
});

test('assertPublicKey returns the key or throws AddressError naming the parameter', () => {
  assert.equal(assertPublicKey(USDC), USDC);
  assert.throws(() => assertPublicKey('nope'), {
    name: 'AddressError',
    code: 'address_invalid',
    param: 'address',
    message: /^address is not a valid Solana address: "nope" has 4 characters/,
  });
  assert.throws(() => assertPublicKey(`${USDC.slice(0, 43)}0`, 'recipient'), {
    code: 'address_invalid',
    param: 'recipient',
    message: /character "0" at position 43/,
  });
  assert.throws(() => assertPublicKey(`${'1'.repeat(32)}2`, 'mint'), {
    param: 'mint',
    message: /decodes to 33 bytes/,
  });
});

test('property: decode(encode(bytes)) returns the bytes, leading zeros included', () => {
  const bytes = fc
    .tuple(fc.integer({ min: 0, max: 8 }), fc.uint8Array({ maxLength: 80 }))
    .map(([zeros, rest]) => Uint8Array.from([...new Array<number>(zeros).fill(0), ...rest]));
  fc.assert(
    fc.property(bytes, (input) => {
      const text = encodeBase58(input);
      assert.deepEqual(decodeBase58(text), input);
      let zeros = 0;
      while (zeros < input.length && input[zeros] === 0) zeros++;
      assert.equal(text.length - text.replace(/^1+/, '').length, zeros);
    }),
    { numRuns: 1000 },
  );
});

test('property: 32-byte arrays encode as web3.js does and are public keys', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
      const text = encodeBase58(bytes);
      assert.equal(text, new PublicKey(bytes).toBase58());
      assert.equal(isPublicKey(text), true);
    }),
    { numRuns: 500 },
  );
});

test('property: isPublicKey agrees with decoding for arbitrary strings', () => {
  const alphabetish = fc.stringMatching(/^[1-9A-Za-z]{28,46}$/);
  fc.assert(
    fc.property(fc.oneof(fc.string(), alphabetish), (s) => {
      let length: number | undefined;
      try {
        length = decodeBase58(s).length;
      } catch {
        length = undefined;
      }
      assert.equal(isPublicKey(s), length === 32);
    }),
    { numRuns: 2000 },
  );
});
