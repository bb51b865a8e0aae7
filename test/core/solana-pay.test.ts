import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AddressError,
  AmountError,
  CoreError,
  MAX_URL_LENGTH,
  SolanaPayUrlError,
  U64_MAX,
  encodeBase58,
  encodeTransferRequestUrl,
  formatAmount,
  parseTransferRequestUrl,
} from '../../src/core/index.js';
import type { TransferRequest } from '../../src/core/index.js';

const MVINES = 'mvines9iiHiQTysrwkJjGf2gb9Ex9jXJX8ns3qwf2kN';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const REF1 = encodeBase58(new Uint8Array(32).fill(1));
const REF2 = encodeBase58(new Uint8Array(32).fill(2));

/** Asserts that `fn` throws this CoreError subclass with this code (and param, when given). */
function rejects(fn: () => unknown, type: typeof CoreError, code: string, param?: string, message?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
    assert.equal(error.code, code);
    if (param !== undefined) assert.equal(error.param, param);
    if (message) assert.match(error.message, message);
    return true;
  });
}

test('spec example: 1 SOL with label, message and memo', () => {
  const url = `solana:${MVINES}?amount=1&label=Michael&message=Thanks%20for%20all%20the%20fish&memo=OrderId12345`;
  const request: TransferRequest = {
    recipient: MVINES,
    amount: '1',
    label: 'Michael',
    message: 'Thanks for all the fish',
    memo: 'OrderId12345',
  };
  assert.deepEqual(parseTransferRequestUrl(url), request);
  assert.equal(encodeTransferRequestUrl(request), url);
});

test('spec example: 0.01 USDC', () => {
  const url = `solana:${MVINES}?amount=0.01&spl-token=${USDC}`;
  assert.deepEqual(parseTransferRequestUrl(url), { recipient: MVINES, amount: '0.01', splToken: USDC });
  assert.equal(encodeTransferRequestUrl({ recipient: MVINES, amount: '0.01', splToken: USDC }), url);
  assert.deepEqual(parseTransferRequestUrl(url, { decimals: 6 }), { recipient: MVINES, amount: '0.01', splToken: USDC });
});

test('spec v1 example: USDC with label, message and memo (parameters in a different order)', () => {
  const url = `solana:${MVINES}?amount=0.01&spl-token=${USDC}&label=Michael&message=Thanks%20for%20all%20the%20fish&memo=OrderId5678`;
  const parsed = parseTransferRequestUrl(url);
  assert.deepEqual(parsed, {
    recipient: MVINES,
    amount: '0.01',
    splToken: USDC,
    label: 'Michael',
    message: 'Thanks for all the fish',
    memo: 'OrderId5678',
  });
  assert.equal(encodeTransferRequestUrl(parsed), url);
  // Order on parse does not matter; encode always uses the spec's order.
  const shuffled = `solana:${MVINES}?memo=OrderId5678&label=Michael&spl-token=${USDC}&message=Thanks%20for%20all%20the%20fish&amount=0.01`;
  assert.deepEqual(parseTransferRequestUrl(shuffled), parsed);
});

test('spec example without an amount: the "?" form parses, the "&" typo in the spec is rejected clearly', () => {
  assert.deepEqual(parseTransferRequestUrl(`solana:${MVINES}?label=Michael`), { recipient: MVINES, label: 'Michael' });
  assert.equal(encodeTransferRequestUrl({ recipient: MVINES, label: 'Michael' }), `solana:${MVINES}?label=Michael`);
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}&label=Michael`), SolanaPayUrlError, 'url_invalid', 'recipient', /must start with "\?"/);
  assert.equal(encodeTransferRequestUrl({ recipient: MVINES }), `solana:${MVINES}`);
  assert.deepEqual(parseTransferRequestUrl(`solana:${MVINES}`), { recipient: MVINES });
});

test('several references keep their order', () => {
  const url = `solana:${MVINES}?amount=12.50&spl-token=${USDC}&reference=${REF1}&reference=${REF2}&memo=order-7`;
  const request = { recipient: MVINES, amount: '12.50', splToken: USDC, references: [REF1, REF2], memo: 'order-7' };
  assert.equal(encodeTransferRequestUrl(request), url);
  assert.deepEqual(parseTransferRequestUrl(url), request);
  const reversed = parseTransferRequestUrl(`solana:${MVINES}?reference=${REF2}&reference=${REF1}`);
  assert.deepEqual(reversed.references, [REF2, REF1]);
});

test('text fields are percent-encoded like encodeURIComponent: spaces are %20 and unicode round-trips', () => {
  const request = { recipient: MVINES, label: 'Café ☕ 日本', message: 'a&b=c #1 + 50% ?/', memo: 'ħ 🇺🇦 "x"' };
  const url = encodeTransferRequestUrl(request);
  assert.equal(
    url,
    `solana:${MVINES}?label=Caf%C3%A9%20%E2%98%95%20%E6%97%A5%E6%9C%AC` +
      '&message=a%26b%3Dc%20%231%20%2B%2050%25%20%3F%2F' +
      '&memo=%C4%A7%20%F0%9F%87%BA%F0%9F%87%A6%20%22x%22',
  );
  assert.deepEqual(parseTransferRequestUrl(url), request);
  // The reference implementation reads URLs with WHATWG URLSearchParams: it must see the same text.
  const params = new URL(url).searchParams;
  assert.equal(params.get('label'), request.label);
  assert.equal(params.get('message'), request.message);
  assert.equal(params.get('memo'), request.memo);
});

test('a raw "+" in a text field is a space, as the reference library writes and reads it', () => {
  // @solana/pay 1.x builds URLs with URLSearchParams, which writes spaces as '+'.
  const url = `solana:${MVINES}?amount=1&label=Michael&message=Thanks+for+all+the+fish&memo=a+b%2Bc`;
  assert.deepEqual(parseTransferRequestUrl(url), {
    recipient: MVINES,
    amount: '1',
    label: 'Michael',
    message: 'Thanks for all the fish',
    memo: 'a b+c',
  });
  // Our encoder never writes a raw '+', so the two readings cannot disagree on our URLs.
  assert.equal(
    encodeTransferRequestUrl({ recipient: MVINES, memo: 'a b+c' }),
    `solana:${MVINES}?memo=a%20b%2Bc`,
  );
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=1+`), AmountError, 'amount_invalid', 'amount');
});

test('parse accepts unreserved characters left unencoded and lower-case escapes', () => {
  const parsed = parseTransferRequestUrl(`solana:${MVINES}?label=Bob's_(shop)!*~.-&memo=%c3%a9`);
  assert.deepEqual(parsed, { recipient: MVINES, label: "Bob's_(shop)!*~.-", memo: 'é' });
});

test('the whole URL may be at most 2048 characters, on encode and on parse', () => {
  const prefix = `solana:${MVINES}?memo=`;
  const fits = { recipient: MVINES, memo: 'm'.repeat(MAX_URL_LENGTH - prefix.length) };
  assert.equal(MAX_URL_LENGTH, 2048);
  assert.equal(encodeTransferRequestUrl(fits).length, 2048);
  assert.deepEqual(parseTransferRequestUrl(encodeTransferRequestUrl(fits)), fits);
  rejects(() => encodeTransferRequestUrl({ ...fits, memo: `${fits.memo}m` }), SolanaPayUrlError, 'url_too_long', undefined, /2049/);
  rejects(() => parseTransferRequestUrl(`${prefix}${fits.memo}m`), SolanaPayUrlError, 'url_too_long');
  // Counted after percent-encoding: 700 'é' are 700 characters of text but 4200 of URL.
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, memo: 'é'.repeat(700) }), SolanaPayUrlError, 'url_too_long');
});

test('parse rejects other schemes and transaction request URLs', () => {
  rejects(() => parseTransferRequestUrl(`bitcoin:${MVINES}`), SolanaPayUrlError, 'url_invalid', undefined, /solana:/);
  rejects(() => parseTransferRequestUrl(`https://example.com/${MVINES}`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(`solana//${MVINES}`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(''), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(42 as unknown as string), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl('solana:https://example.com/solana-pay'), SolanaPayUrlError, 'url_invalid', 'recipient', /transaction request/);
  rejects(() => parseTransferRequestUrl('solana:https%3A%2F%2Fexample.com%2Fpay%3Forder%3D1'), SolanaPayUrlError, 'url_invalid', 'recipient');
  // Schemes are case-insensitive.
  assert.deepEqual(parseTransferRequestUrl(`SOLANA:${MVINES}?amount=1`), { recipient: MVINES, amount: '1' });
});

test('parse rejects a missing or invalid recipient', () => {
  rejects(() => parseTransferRequestUrl('solana:'), SolanaPayUrlError, 'url_invalid', 'recipient', /no recipient/);
  rejects(() => parseTransferRequestUrl('solana:?amount=1'), SolanaPayUrlError, 'url_invalid', 'recipient');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES.slice(0, 30)}?amount=1`), AddressError, 'address_invalid', 'recipient');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}0?amount=1`), AddressError, 'address_invalid', 'recipient');
  rejects(() => parseTransferRequestUrl(`solana:/${MVINES}`), AddressError, 'address_invalid', 'recipient');
});

test('parse rejects repeated single-valued parameters, even when the name is percent-encoded', () => {
  const cases: [string, string][] = [
    ['amount', 'amount=1&amount=2'],
    ['spl-token', `spl-token=${USDC}&spl-token=${USDC}`],
    ['label', 'label=a&label=b'],
    ['message', 'message=a&message=a'],
    ['memo', 'memo=a&memo=b'],
    ['amount', 'amount=1&am%6Funt=1000'],
  ];
  for (const [param, query] of cases) {
    rejects(() => parseTransferRequestUrl(`solana:${MVINES}?${query}`), SolanaPayUrlError, 'url_param_duplicate', param);
  }
});

test('parse rejects malformed percent-encoding and ambiguous or unencoded characters', () => {
  for (const memo of ['%', '%2', '%zz', '%E2%82', '%C0%AF', '%ED%A0%80', '%FF']) {
    rejects(() => parseTransferRequestUrl(`solana:${MVINES}?memo=${memo}`), SolanaPayUrlError, 'url_encoding_invalid', 'memo');
  }
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?label=a b`), SolanaPayUrlError, 'url_invalid', undefined, /" "/);
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?label=café`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=1#frag`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(` solana:${MVINES}`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}\n`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=1&&memo=x`), SolanaPayUrlError, 'url_invalid', undefined, /empty parameter/);
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=1&`), SolanaPayUrlError, 'url_invalid');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?memo`), SolanaPayUrlError, 'url_invalid', 'memo', /no value/);
});

test('parse rejects invalid amounts with an AmountError', () => {
  const cases: [string, string][] = [
    ['-1', 'amount_invalid'],
    ['1e3', 'amount_invalid'],
    ['.5', 'amount_invalid'],
    ['5.', 'amount_invalid'],
    ['', 'amount_invalid'],
    ['1,5', 'amount_invalid'],
    ['%2B1', 'amount_invalid'],
    ['0x1', 'amount_invalid'],
    ['18446744073709551616', 'amount_out_of_range'],
  ];
  for (const [amount, code] of cases) {
    rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=${amount}`), AmountError, code, 'amount');
  }
  // With the token's decimals, too many places are malformed, as the spec requires.
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=0.0000001`, { decimals: 6 }), AmountError, 'amount_too_precise');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?amount=0.0000000001`, { decimals: 9 }), AmountError, 'amount_too_precise');
  assert.equal(parseTransferRequestUrl(`solana:${MVINES}?amount=0.0000001`).amount, '0.0000001');
});

test('parse rejects invalid spl-token and references', () => {
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?spl-token=USDC`), AddressError, 'address_invalid', 'spl-token');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?spl-token=`), AddressError, 'address_invalid', 'spl-token');
  rejects(() => parseTransferRequestUrl(`solana:${MVINES}?reference=${REF1}&reference=${REF2.slice(0, 20)}`), AddressError, 'address_invalid', 'reference');
});

test('unknown parameters and empty text fields are ignored', () => {
  assert.deepEqual(parseTransferRequestUrl(`solana:${MVINES}?amount=1&foo=bar&future-field=%ZZ&flag&label=`), {
    recipient: MVINES,
    amount: '1',
  });
  assert.deepEqual(parseTransferRequestUrl(`solana:${MVINES}?`), { recipient: MVINES });
});

test('encode validates every field and names it', () => {
  rejects(() => encodeTransferRequestUrl({ recipient: 'nope' }), AddressError, 'address_invalid', 'recipient');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, splToken: `${USDC} ` }), AddressError, 'address_invalid', 'splToken');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, references: [REF1, 'x'] }), AddressError, 'address_invalid', 'references[1]');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, references: REF1 as unknown as string[] }), SolanaPayUrlError, 'url_param_invalid', 'references');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, amount: 1.5 as unknown as string }), AmountError, 'amount_invalid', 'amount', /string/);
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, amount: '1e-7' }), AmountError, 'amount_invalid', 'amount', /scientific/);
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, amount: '-0.5' }), AmountError, 'amount_invalid', 'amount');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, amount: '1.1234567' }, { decimals: 6 }), AmountError, 'amount_too_precise');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, amount: '18446744073709.551616' }, { decimals: 6 }), AmountError, 'amount_out_of_range');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, label: '' }), SolanaPayUrlError, 'url_param_invalid', 'label', /omit/);
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, memo: 7 as unknown as string }), SolanaPayUrlError, 'url_param_invalid', 'memo');
  rejects(() => encodeTransferRequestUrl({ recipient: MVINES, message: 'bad \uD800 surrogate' }), SolanaPayUrlError, 'url_param_invalid', 'message', /surrogate/);
  rejects(() => encodeTransferRequestUrl(null as unknown as TransferRequest), SolanaPayUrlError, 'url_invalid');
  // The amount goes out exactly as given: trailing zeros kept, never scientific notation.
  assert.equal(encodeTransferRequestUrl({ recipient: MVINES, amount: '0.000000100' }), `solana:${MVINES}?amount=0.000000100`);
  assert.equal(encodeTransferRequestUrl({ recipient: MVINES, references: [] }), `solana:${MVINES}`);
});

// ---- properties ----

const publicKey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(encodeBase58);
const text = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ minLength: 1, maxLength: 40 }),
);
const amount = fc
  .tuple(fc.bigInt({ min: 0n, max: U64_MAX }), fc.integer({ min: 0, max: 18 }))
  .map(([units, decimals]) => formatAmount(units, decimals));
const transferRequest: fc.Arbitrary<TransferRequest> = fc.record(
  {
    recipient: publicKey,
    amount,
    splToken: publicKey,
    references: fc.array(publicKey, { minLength: 1, maxLength: 3 }),
    label: text,
    message: text,
    memo: text,
  },
  { requiredKeys: ['recipient'], noNullPrototype: true },
);

test('property: parse(encode(request)) returns the request, and URLSearchParams reads the same text', () => {
  fc.assert(
    fc.property(transferRequest, (request) => {
      const url = encodeTransferRequestUrl(request);
      assert.ok(url.length <= MAX_URL_LENGTH);
      assert.doesNotMatch(url, /amount=[^&]*[eE]/);
      assert.deepEqual(parseTransferRequestUrl(url), request);
      const params = new URL(url).searchParams;
      for (const field of ['label', 'message', 'memo'] as const) assert.equal(params.get(field), request[field] ?? null);
      assert.deepEqual(params.getAll('reference'), request.references ?? []);
    }),
    { numRuns: 1000 },
  );
});

/** Parses or throws a CoreError, never anything else; a parsed result re-encodes to a URL that parses the same. */
function parsesConsistently(input: string): void {
  let parsed: TransferRequest;
  try {
    parsed = parseTransferRequestUrl(input);
  } catch (error) {
    assert.ok(error instanceof CoreError, `unexpected ${String(error)} for ${JSON.stringify(input)}`);
    return;
  }
  let again: string;
  try {
    again = encodeTransferRequestUrl(parsed);
  } catch (error) {
    // Parse accepts raw ':@/?,;$' that encodeURIComponent escapes, so a long one may not fit again.
    assert.ok(error instanceof SolanaPayUrlError && error.code === 'url_too_long', `re-encode failed: ${String(error)}`);
    return;
  }
  assert.deepEqual(parseTransferRequestUrl(again), parsed);
}

test('property: arbitrary strings never parse silently into something inconsistent', () => {
  const prefixed = fc.string({ maxLength: 120 }).map((s) => `solana:${s}`);
  fc.assert(fc.property(fc.oneof(fc.string(), prefixed), parsesConsistently), { numRuns: 3000 });
});

test('property: mutated valid URLs either throw a CoreError or re-encode consistently', () => {
  const mutated = fc
    .tuple(transferRequest, fc.nat(), fc.nat({ max: 4 }), fc.string({ maxLength: 4 }))
    .map(([request, at, cut, insert]) => {
      const url = encodeTransferRequestUrl(request);
      const i = at % (url.length + 1);
      return url.slice(0, i) + insert + url.slice(i + cut);
    });
  fc.assert(fc.property(mutated, parsesConsistently), { numRuns: 3000 });
});

test('property: a URL that parses is exactly what encode would write, when it was written by encode', () => {
  fc.assert(
    fc.property(transferRequest, (request) => {
      const url = encodeTransferRequestUrl(request);
      assert.equal(encodeTransferRequestUrl(parseTransferRequestUrl(url)), url);
    }),
    { numRuns: 500 },
  );
});

test('property: URLs assembled from valid and invalid pieces parse consistently, and valid ones parse to what they say', () => {
  const value = fc.oneof(publicKey, amount, text.map(encodeURIComponent), fc.constantFrom('', '%', '%zz', '1e3', '-1', '+', '%2B', 'a+b', '0.5', '.5'));
  const name = fc.constantFrom('amount', 'spl-token', 'reference', 'label', 'message', 'memo', 'other', 'am%6Funt', '');
  const pair = fc.tuple(name, fc.option(value, { nil: undefined })).map(([k, v]) => (v === undefined ? k : `${k}=${v}`));
  const url = fc
    .tuple(fc.oneof(publicKey, fc.constantFrom('', 'x', MVINES.slice(1))), fc.array(pair, { maxLength: 6 }))
    .map(([recipient, pairs]) => `solana:${recipient}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`);
  let parsedCount = 0;
  fc.assert(
    fc.property(url, (input) => {
      parsesConsistently(input);
      try {
        const parsed = parseTransferRequestUrl(input);
        parsedCount++;
        // Whatever parsed must be what URLSearchParams reads for the fields we know.
        const params = new URL(input).searchParams;
        assert.equal(parsed.amount, params.get('amount') ?? undefined);
        assert.deepEqual(parsed.references ?? [], params.getAll('reference'));
        for (const field of ['label', 'message', 'memo'] as const) assert.equal(parsed[field], params.get(field) || undefined);
      } catch (error) {
        assert.ok(error instanceof CoreError);
      }
    }),
    { numRuns: 3000 },
  );
  assert.ok(parsedCount > 100, `only ${parsedCount} generated URLs parsed: the generator is too hostile to test much`);
});
