/**
 * Every route fuzzed over real HTTP with fast-check: malformed JSON, wrong types, huge and unicode
 * strings, odd headers, ids, paths, methods, content types and Idempotency-Keys, plus raw bytes that
 * are not HTTP at all. Whatever arrives: never a 5xx, never a crash, and every error is a documented
 * problem+json (docs/openapi.yaml's Problem schema). Seeded (FUZZ_SEED) and bounded in runs and time
 * (FUZZ_SCALE multiplies both). Runs against a real gateway, localnet and database (SQLite, or
 * PostgreSQL with SVC_TEST_DATABASE=postgres).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import fc from 'fast-check';
import { Keypair } from '@solana/web3.js';
import { startStack, type Stack } from '../helpers/stack.js';
import { api } from '../helpers/http.js';
import { agent, assertProblemShape, fuzzParams, send, type RawResponse } from './fuzz-helpers.js';

let stack: Stack;
let payment: { id: string; paymentToken: string };
let eventId: string;
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789';

before(async () => {
  stack = await startStack({
    gateway: {
      metrics: { token: METRICS_TOKEN },
      // Low limits so that 429s are part of what gets fuzzed.
      rateLimits: { perPayment: { ratePerSecond: 20, burst: 40 }, perClient: { ratePerSecond: 200, burst: 400 } },
    },
  });
  const created = await api(stack.gatewayUrl, '/api/v1/payments', { key: stack.merchant.secretKey, body: { amount: '0.5', currency: 'SOL' } });
  assert.equal(created.status, 201, created.text);
  payment = created.body;
  eventId = (await api(stack.gatewayUrl, '/api/v1/events?limit=1', { key: stack.merchant.secretKey })).body.data[0].id;
});
after(async () => {
  agent.destroy();
  await stack?.stop();
});

// ---- building blocks

const weirdText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '\u202e', '💸', '../../etc/passwd', '%', '%00', '%zz', '%2F', '😀'.repeat(50), 'a'.repeat(5000), '1e309', '-0', 'NaN', '0x10', '١٢٣'),
);

const idLike = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(payment.id) },
    { weight: 2, arbitrary: fc.constant(eventId) },
    fc.constant('pay_' + '0'.repeat(26)),
    fc.constant(payment.id.toLowerCase()),
    fc.constant(payment.id + 'x'),
    weirdText,
  );

/** A path segment as it goes on the wire: percent-encoded, or raw where HTTP allows it. */
const segment = () => fc.oneof({ weight: 4, arbitrary: idLike().map((s) => encodeURIComponent(s)) }, fc.constantFrom('..', '.', '', '%', '%zz', '%00', '%2e%2e', '~', '*'));

const query = fc.oneof(
  fc.constant(''),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('limit', 'startingAfter', 'status', 'orderId', 'token', 'limit[]', 'status[a]', '__proto__', 'x'),
        fc.oneof(weirdText, fc.constantFrom('0', '1', '100', '101', '-1', '1.5', 'confirmed', 'pending', 'bogus')),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => '?' + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')),
  fc.constantFrom('?', '?&&', '?a=%zz', '?limit=1&limit=2', '?token=' + 'x'.repeat(3000)),
);

const path = () =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant('/api/v1/payments') },
    { weight: 4, arbitrary: fc.tuple(
      fc.constantFrom(
        '/api/v1/payments/{}',
        '/api/v1/payments/{}/cancel',
        '/api/v1/payments/{}/verify',
        '/api/public/payments/{}/verify',
        '/api/public/payments/{}/transaction',
        '/api/v1/events/{}',
        '/api/v1/events/{}/redeliver',
        '/api/v1/{}',
        '/api/public/{}',
        '/{}',
      ),
      segment(),
    ).map(([t, s]) => t.replace('{}', s)) },
    fc.constantFrom('/api/v1/payments', '/api/v1/merchant', '/api/v1/events', '/healthz', '/metrics', '/api/public/icon.svg', '/api/v1', '/api', '/', '//api/v1/payments', '/api/v1/payments/', '/API/V1/PAYMENTS'),
  );

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('GET', 'POST') },
  { weight: 2, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD') },
  { weight: 1, arbitrary: fc.constantFrom('PROPFIND', 'FOO', 'M-SEARCH', 'PURGE', 'LINK', 'QUERY') },
);

const authorization = () =>
  fc.oneof(
    fc.constant(undefined),
    { weight: 6, arbitrary: fc.constant(`Bearer ${stack.merchant.secretKey}`) },
    fc.constant(`Bearer ${stack.merchant.publishableKey}`),
    fc.constant(`bearer ${stack.merchant.secretKey}`),
    fc.constant(`Basic ${Buffer.from('a:b').toString('base64')}`),
    fc.constant(`Bearer svc_test_${'A'.repeat(43)}`),
    fc.constant(`Bearer ${METRICS_TOKEN}`),
    fc.constant('Bearer ' + 'x'.repeat(8000)),
    fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
  );

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/merge-patch+json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    '',
    'application/',
    '*/*',
    'application/json, text/html',
  ),
  fc.string({ maxLength: 30 }),
);

const createLike = () => fc.record(
  {
    amount: fc.oneof(fc.constantFrom('0.01', '1', '0', '-1', '1e3', '0.0000000001', '18446744073709551616', ' 1', '1.', '.5'), fc.double(), fc.integer(), weirdText, fc.constant(null)),
    currency: fc.oneof(fc.constantFrom('SOL', 'USDC', 'sol', 'BTC', ''), fc.integer(), weirdText),
    orderId: fc.oneof(weirdText, fc.integer(), fc.constant(null)),
    label: weirdText,
    message: weirdText,
    memo: fc.oneof(weirdText, fc.constant('x'.repeat(600))),
    metadata: fc.oneof(fc.dictionary(weirdText, fc.oneof(weirdText, fc.integer(), fc.constant(null)), { maxKeys: 25 }), fc.array(fc.integer()), weirdText),
    expiresIn: fc.oneof(fc.integer(), fc.double(), fc.constantFrom('900', 59, 604801, -1)),
    account: fc.oneof(fc.constant(Keypair.generate().publicKey.toBase58()), fc.constant(stack.merchant.recipient), weirdText),
    recipient: weirdText,
    ['__proto__']: fc.constant({ polluted: true }),
  },
  { requiredKeys: [] },
);

/** A create that is nearly right: valid amount and currency, odd text in the free fields. */
const validishCreate = fc.record(
  {
    amount: fc.constantFrom('0.01', '1', '0.000000001', '12.5'),
    currency: fc.constant('SOL'),
    label: weirdText,
    message: weirdText,
    memo: weirdText,
    orderId: weirdText,
    metadata: fc.dictionary(fc.string({ maxLength: 41 }), fc.string({ unit: 'grapheme', maxLength: 30 }), { maxKeys: 21 }),
    expiresIn: fc.integer({ min: 0, max: 700_000 }),
  },
  { requiredKeys: ['amount', 'currency'] },
);

const body = () =>
  fc.oneof(
    { weight: 4, arbitrary: validishCreate.map((o) => JSON.stringify(o)) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 4, arbitrary: createLike().map((o) => JSON.stringify(o)) },
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.constantFrom('{', '{"amount":', '[]', 'null', '"x"', '1', 'true', '{"a":1}{"b":2}', '\ufeff{}', '{"amount":"1",}', "{'a':1}", '[' .repeat(20000) + ']'.repeat(20000)),
    fc.constant('{"memo":"' + 'x'.repeat(17 * 1024) + '"}'),
    fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
    weirdText,
  );

/** Header values node:http would refuse to send are dropped (they never reach a server over HTTP/1.1). */
const headerSafe = (v: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(v);

const oddHeaders = fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, fc.dictionary(
  fc.constantFrom('x-request-id', 'accept', 'accept-encoding', 'origin', 'x-forwarded-for', 'x-forwarded-proto', 'content-encoding', 'expect', 'range', 'if-none-match', 'cookie', 'x-http-method-override'),
  fc.oneof(weirdText, fc.constantFrom('gzip', 'deflate', 'br', 'identity', '100-continue', 'bytes=0-1', '*', 'null', '127.0.0.1, 10.0.0.1', 'https')),
  { maxKeys: 3 },
));

const requestArb = (): fc.Arbitrary<FuzzRequest> =>
  fc.record({
    method,
    path: path(),
    query,
    authorization: authorization(),
    contentType: fc.option(contentType, { nil: undefined, freq: 6 }),
    idempotencyKey: fc.option(fc.oneof(weirdText, fc.constantFrom('k-1', 'k-1', 'x'.repeat(255), 'x'.repeat(256))), { nil: undefined }),
    paymentToken: fc.option(fc.oneof(fc.constant(payment.paymentToken), weirdText, fc.constant(`svc_pt_${'A'.repeat(43)}`)), { nil: undefined }),
    headers: oddHeaders,
    body: body(),
  });

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  authorization: string | undefined;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  paymentToken: string | undefined;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

function toWire(r: FuzzRequest) {
  const headers: Record<string, string> = {};
  const set = (k: string, v: string | undefined) => {
    if (v !== undefined && headerSafe(v)) headers[k] = v;
  };
  for (const [k, v] of Object.entries(r.headers)) set(k, v);
  set('authorization', r.authorization);
  set('content-type', r.contentType);
  set('idempotency-key', r.idempotencyKey);
  set('x-service-payment-token', r.paymentToken);
  // An explicit length keeps the wire well-formed for every method (node sends a GET or HEAD body unframed).
  if (r.body !== undefined) headers['content-length'] = String(Buffer.byteLength(r.body));
  return { method: r.method, path: r.path + r.query, headers, ...(r.body !== undefined && { body: r.body }) };
}

function checkResponse(res: RawResponse, what: string, method: string): void {
  assert.ok(res.status >= 100 && res.status < 500, `${what}: ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400) assertProblemShape(res, what, method !== 'HEAD');
  assert.ok(res.headers['x-request-id'], `${what}: x-request-id`);
}

describe('fuzzing every route over HTTP', () => {
  it('answers any request without a 5xx, and every error as a documented problem', async (t) => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb(), async (r) => {
        const wire = toWire(r);
        const what = `${wire.method} ${wire.path.slice(0, 120)} ${JSON.stringify(wire.headers).slice(0, 200)} body ${String(wire.body ?? '').slice(0, 80)}`;
        let res: RawResponse;
        try {
          res = await send(stack.gatewayUrl, wire);
        } catch (error) {
          // node:http refuses a few things client-side (e.g. a path with a space); those never reach the server.
          if ((error as { code?: string }).code === 'ERR_UNESCAPED_CHARACTERS' || (error as { code?: string }).code === 'ERR_INVALID_CHAR') return;
          throw new Error(`${what}: ${(error as Error).message}`);
        }
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        checkResponse(res, what, wire.method);
      }),
      fuzzParams(600, 40_000),
    );
    t.diagnostic(`statuses seen: ${JSON.stringify(Object.fromEntries([...seen].sort((a, b) => a[0] - b[0])))}`);
    // The fuzz reached deep enough: successes and the main error families all occurred.
    for (const status of [200, 400, 401, 404]) assert.ok(seen.get(status), `no ${status} in ${JSON.stringify([...seen])}`);
    const health = await api(stack.gatewayUrl, '/healthz');
    assert.equal(health.status, 200, 'still alive');
  });

  it('stores any accepted create exactly as sent, and refuses the rest with a 400 problem', async (t) => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(validishCreate, async (input) => {
        const res = await api(stack.gatewayUrl, '/api/v1/payments', { key: stack.merchant.secretKey, body: input });
        if (res.status === 400) {
          assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
          return;
        }
        assert.equal(res.status, 201, res.text);
        created++;
        const read = await api(stack.gatewayUrl, `/api/v1/payments/${res.body.id}`, { key: stack.merchant.secretKey });
        for (const field of ['orderId', 'memo', 'message'] as const) assert.equal(read.body[field], input[field] ?? null, field);
        assert.equal(read.body.label, input.label ?? 'Stack Shop');
        assert.deepEqual(read.body.metadata, { ...input.metadata });
        const url = new URL(read.body.url);
        if (input.memo) assert.equal(url.searchParams.get('memo'), input.memo);
        if (input.message) assert.equal(url.searchParams.get('message'), input.message);
      }),
      fuzzParams(150, 15_000),
    );
    t.diagnostic(`accepted ${created} creates`);
    assert.ok(created > 0, 'some creates were accepted');
  });

  it('answers bytes that are not valid HTTP with a problem, and keeps serving', async () => {
    const line = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.tuple(fc.constantFrom('GET', 'POST', 'G ET', '', 'GET\u0000'), fc.constantFrom('/healthz', '/api/v1/payments', '*', 'http://x/', '/a b', '/\u00ff'), fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', 'HTTP/1.1 junk', '')).map(
        ([m, p, v]) => `${m} ${p} ${v}`,
      ),
    );
    const head = fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.constantFrom('Host: x', 'Content-Length: -1', 'Content-Length: abc', 'Transfer-Encoding: bogus', ': empty', 'X: \u0000', 'A'.repeat(20_000) + ': 1')), {
      maxLength: 4,
    });
    const port = Number(new URL(stack.gatewayUrl).port);
    await fc.assert(
      fc.asyncProperty(line, head, async (l, h) => {
        const raw = Buffer.from([l, ...h, 'Connection: close', '', ''].join('\r\n'), 'utf8');
        const reply = await new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          const chunks: Buffer[] = [];
          socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
          socket.on('data', (c: Buffer) => chunks.push(c));
          socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
          socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(e)));
          socket.end(raw);
        });
        if (reply === '') return; // the server may drop a connection that sent nothing parseable
        const m = /^HTTP\/1\.1 (\d{3}) /.exec(reply);
        assert.ok(m, `not an HTTP answer to ${JSON.stringify(raw.toString('latin1').slice(0, 120))}: ${JSON.stringify(reply.slice(0, 200))}`);
        const status = Number(m[1]);
        assert.ok(status < 500, `${status} for ${JSON.stringify(raw.toString('latin1').slice(0, 120))}`);
        if (status >= 400) {
          const [rawHead, ...rest] = reply.split('\r\n\r\n');
          const headers: Record<string, string> = {};
          for (const hl of rawHead!.split('\r\n').slice(1)) {
            const i = hl.indexOf(':');
            headers[hl.slice(0, i).toLowerCase()] = hl.slice(i + 1).trim();
          }
          assertProblemShape({ status, headers, text: Buffer.from(rest.join('\r\n\r\n'), 'latin1').toString('utf8') }, `raw ${JSON.stringify(raw.toString('latin1').slice(0, 80))}`, !/^HEAD /.test(l));
        }
      }),
      fuzzParams(150, 15_000),
    );
    assert.equal((await api(stack.gatewayUrl, '/healthz')).status, 200, 'still alive');
  });
});
