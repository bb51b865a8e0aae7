/**
 * JSON for RPC answers. Real nodes print u64 values (lamports, rentEpoch, token supplies)
 * as plain JSON numbers, even above 2^53; bigints in our answers are written out the same
 * way, digit for digit, instead of being rounded through a double.
 */
const MARK = '\u0000bigint:';

export function stringifyRpc(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v.toString()}` : v));
  // JSON.stringify escapes U+0000 as \u0000, so only our markers match here.
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
