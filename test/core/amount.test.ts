import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AmountError, CoreError, U64_MAX, formatAmount, parseAmount } from '../../src/core/index.js';

/** Asserts that `fn` throws an AmountError with this code and a message mentioning `mentions`. */
function throwsAmount(fn: () => unknown, code: string, mentions?: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof AmountError, `expected AmountError, got ${String(error)}`);
    assert.ok(error instanceof CoreError);
    assert.equal(error.code, code);
    if (mentions) assert.match(error.message, mentions);
    return true;
  });
}

test('parseAmount converts token units to base units exactly', () => {
  assert.equal(parseAmount('12.50', 6), 12_500_000n);
  assert.equal(parseAmount('12.5', 6), 12_500_000n);
  assert.equal(parseAmount('12', 6), 12_000_000n);
  assert.equal(parseAmount('0', 6), 0n);
  assert.equal(parseAmount('0.000001', 6), 1n);
  assert.equal(parseAmount('0.000000001', 9), 1n);
  assert.equal(parseAmount('1', 9), 1_000_000_000n);
  assert.equal(parseAmount('7', 0), 7n);
  assert.equal(parseAmount('18446744073709551615', 0), U64_MAX);
  assert.equal(parseAmount('18446744073709.551615', 6), U64_MAX);
  // Large values keep every digit (a float would round these).
  assert.equal(parseAmount('9007199254740993', 0), 9_007_199_254_740_993n);
});

test('formatAmount returns the shortest exact decimal', () => {
  assert.equal(formatAmount(12_500_000n, 6), '12.5');
  assert.equal(formatAmount(1n, 9), '0.000000001');
  assert.equal(formatAmount(0n, 6), '0');
  assert.equal(formatAmount(0n, 0), '0');
  assert.equal(formatAmount(10n, 1), '1');
  assert.equal(formatAmount(1_000_000n, 6), '1');
  assert.equal(formatAmount(1_230_000n, 6), '1.23');
  assert.equal(formatAmount(U64_MAX, 0), '18446744073709551615');
  assert.equal(formatAmount(U64_MAX, 9), '18446744073.709551615');
  assert.equal(formatAmount(U64_MAX, 25), '0.0000018446744073709551615');
});

test('U64_MAX is 2^64 - 1', () => {
  assert.equal(U64_MAX, 2n ** 64n - 1n);
});

test('parseAmount refuses JavaScript numbers, telling the caller to pass a string', () => {
  throwsAmount(() => parseAmount(12.5 as unknown as string, 6), 'amount_invalid', /string such as "12\.50"/);
  throwsAmount(() => parseAmount(12 as unknown as string, 6), 'amount_invalid', /must be a string/);
  throwsAmount(() => parseAmount(12n as unknown as string, 6), 'amount_invalid', /formatAmount/);
  throwsAmount(() => parseAmount(null as unknown as string, 6), 'amount_invalid');
  throwsAmount(() => parseAmount(undefined as unknown as string, 6), 'amount_invalid');
});

test('parseAmount rejects malformed strings with a message naming the problem', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['-1', /negative/],
    ['-0', /negative/],
    ['+1', /sign/],
    ['1e3', /scientific/],
    ['1E3', /scientific/],
    ['1.5e-3', /scientific/],
    ['.5', /0 before/],
    ['5.', /digits after/],
    [' 1', /whitespace/],
    ['1 ', /whitespace/],
    ['1\n', /whitespace/],
    ['1,000', /separator/],
    ['1_000', /separator/],
    ['01', /leading zeros/],
    ['00.5', /leading zeros/],
    ['1.2.3', /plain decimal/],
    ['12abc', /plain decimal/],
    ['0x10', /plain decimal/],
    ['Infinity', /plain decimal/],
    ['NaN', /plain decimal/],
    ['١٢', /plain decimal/], // Arabic-Indic digits are not ASCII digits
    ['.', /0 before/],
  ];
  for (const [input, message] of cases) throwsAmount(() => parseAmount(input, 6), 'amount_invalid', message);
});

test('parseAmount rejects more decimal places than the token has, even trailing zeros', () => {
  throwsAmount(() => parseAmount('1.0000001', 6), 'amount_too_precise', /7 decimal places.*only 6/);
  throwsAmount(() => parseAmount('12.500', 2), 'amount_too_precise', /3 decimal places/);
  throwsAmount(() => parseAmount('5.0', 0), 'amount_too_precise');
});

test('parseAmount rejects values above u64 in base units', () => {
  throwsAmount(() => parseAmount('18446744073709551616', 0), 'amount_out_of_range', /18446744073709551615/);
  throwsAmount(() => parseAmount('18446744073709.551616', 6), 'amount_out_of_range');
  throwsAmount(() => parseAmount('18446744073710', 6), 'amount_out_of_range');
  throwsAmount(() => parseAmount('9'.repeat(5000), 6), 'amount_out_of_range');
});

test('decimals must be an integer from 0 to 255', () => {
  for (const decimals of [-1, 256, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '6' as unknown as number]) {
    throwsAmount(() => parseAmount('1', decimals), 'decimals_invalid', /0 to 255/);
    throwsAmount(() => formatAmount(1n, decimals), 'decimals_invalid');
  }
  assert.equal(parseAmount('0', 255), 0n);
  assert.equal(formatAmount(1n, 255), `0.${'0'.repeat(254)}1`);
});

test('formatAmount rejects non-bigints and values outside 0..u64', () => {
  throwsAmount(() => formatAmount(5 as unknown as bigint, 6), 'amount_invalid', /bigint/);
  throwsAmount(() => formatAmount(-1n, 6), 'amount_out_of_range');
  throwsAmount(() => formatAmount(U64_MAX + 1n, 6), 'amount_out_of_range');
});

test('errors name the parameter, defaulting to amount', () => {
  assert.throws(() => parseAmount('x', 6), { param: 'amount' });
  assert.throws(() => parseAmount('x', 6, 'price'), { param: 'price', message: /^price "x"/ });
  assert.throws(() => parseAmount('1', -1), { param: 'decimals' });
});

test('property: parseAmount(formatAmount(x)) === x for every u64 and decimals 0..18', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), fc.integer({ min: 0, max: 18 }), (units, decimals) => {
      const text = formatAmount(units, decimals);
      assert.equal(parseAmount(text, decimals), units);
      // Canonical form: no trailing zeros in the fraction, no dangling '.'.
      assert.doesNotMatch(text, /\.$|\.\d*0$/);
    }),
    { numRuns: 2000 },
  );
});

test('property: padding the fraction with zeros within the token decimals does not change the value', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), fc.integer({ min: 1, max: 18 }), (units, decimals) => {
      const text = formatAmount(units, decimals);
      const places = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
      const padded = (places === 0 ? `${text}.` : text) + '0'.repeat(decimals - places);
      if (padded.endsWith('.')) return; // already at full precision with no fraction: nothing to pad
      assert.equal(parseAmount(padded, decimals), units);
    }),
  );
});

test('property: any string either parses to a value that formats back to the same number, or throws AmountError', () => {
  const candidates = fc.oneof(
    fc.string(),
    fc.stringMatching(/^[-+ .0-9eE,]{0,12}$/),
    fc.stringMatching(/^[0-9]{1,22}(\.[0-9]{0,20})?$/),
  );
  fc.assert(
    fc.property(candidates, fc.integer({ min: 0, max: 18 }), (input, decimals) => {
      let units: bigint;
      try {
        units = parseAmount(input, decimals);
      } catch (error) {
        assert.ok(error instanceof AmountError, `unexpected ${String(error)}`);
        return;
      }
      assert.match(input, /^(0|[1-9]\d*)(\.\d+)?$/);
      assert.ok(units >= 0n && units <= U64_MAX);
      // The canonical form equals the input once trailing fraction zeros are dropped.
      assert.equal(formatAmount(units, decimals), input.includes('.') ? input.replace(/\.?0+$/, '') : input);
    }),
    { numRuns: 3000 },
  );
});
