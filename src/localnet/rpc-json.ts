/**
 * JSON for RPC answers. Real nodes print u64 values (lamports, rentEpoch, token supplies)
 * as plain JSON numbers, even above 2^53; bigints in our answers are written out the same
 * way, digit for digit, instead of being rounded through a double. Written as a small
 * serializer rather than a JSON.stringify replacer with markers, so that no string a client
 * controls (a memo, a log line) can ever turn into a number.
 */
export function stringifyRpc(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'object': {
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
        return stringifyRpc((value as { toJSON(): unknown }).toJSON());
      }
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined || typeof v === 'function' ? 'null' : stringifyRpc(v))).join(',')}]`;
      const fields: string[] = [];
      for (const [key, v] of Object.entries(value)) {
        if (v === undefined || typeof v === 'function') continue;
        fields.push(`${JSON.stringify(key)}:${stringifyRpc(v)}`);
      }
      return `{${fields.join(',')}}`;
    }
    default:
      return 'null';
  }
}
