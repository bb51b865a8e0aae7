// webhooks.verify: good, tampered, old, future, rotated-secret and parsed bodies, each with its own error code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { webhooks, WebhookVerificationError, WEBHOOK_ERROR_CODES as CODES, type PaymentEvent } from '../../src/server/index.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);

const event = {
  object: 'event',
  id: 'evt_01',
  type: 'payment.confirmed',
  timestamp: '2026-11-21T13:00:00.000Z',
  livemode: false,
  data: { payment: { id: 'pay_01', status: 'confirmed', amount: '12.50', currency: 'USDC', sequence: 3 } },
};

function rejectsWith(code: string, fn: () => unknown): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof WebhookVerificationError, `expected WebhookVerificationError, got ${String(error)}`);
    assert.equal(error.code, code, error.message);
    return true;
  });
}

test('a good delivery verifies and returns the typed event, from a string or a Buffer', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret);
  const fromString: PaymentEvent = webhooks.verify(body, headers, secret);
  assert.deepEqual(fromString, event);
  assert.deepEqual(webhooks.verify(Buffer.from(body), headers, secret), event);
  assert.deepEqual(webhooks.verify(new TextEncoder().encode(body), headers, secret), event);
});

test('headers may be a fetch Headers object, Node-style lower-case object, or any case', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret);
  assert.equal(webhooks.verify(body, new Headers(headers), secret).id, 'evt_01');
  const shouty = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
  assert.equal(webhooks.verify(body, shouty, secret).id, 'evt_01');
  const incoming = { ...headers, host: 'shop.example', 'x-forwarded-for': ['1.2.3.4'] };
  assert.equal(webhooks.verify(body, incoming, secret).id, 'evt_01');
});

test('a tampered body, id or timestamp is a bad signature', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret);
  rejectsWith(CODES.badSignature, () => webhooks.verify(body.replace('12.50', '0.01'), headers, secret));
  rejectsWith(CODES.badSignature, () => webhooks.verify(body, { ...headers, 'webhook-id': 'msg_other' }, secret));
  const ts = String(Number(headers['webhook-timestamp']) + 1);
  rejectsWith(CODES.badSignature, () => webhooks.verify(body, { ...headers, 'webhook-timestamp': ts }, secret));
  rejectsWith(CODES.badSignature, () => webhooks.verify(body, headers, newSecret()));
  rejectsWith(CODES.badSignature, () => webhooks.verify(body, { ...headers, 'webhook-signature': 'v1,AAAA' }, secret));
});

test('a signed delivery older than the tolerance is refused as too old; a custom tolerance applies', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret, { timestamp: now() - 301 });
  rejectsWith(CODES.timestampTooOld, () => webhooks.verify(body, headers, secret));
  assert.equal(webhooks.verify(body, headers, secret, { tolerance: 600 }).id, 'evt_01');
  const edge = webhooks.sign(event, secret, { timestamp: 1_000_000 });
  assert.equal(webhooks.verify(edge.body, edge.headers, secret, { now: 1_000_300 }).id, 'evt_01');
  rejectsWith(CODES.timestampTooOld, () => webhooks.verify(edge.body, edge.headers, secret, { now: 1_000_301 }));
});

test('a signed delivery from the future is refused with its own code', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret, { timestamp: now() + 301 });
  rejectsWith(CODES.timestampInFuture, () => webhooks.verify(body, headers, secret));
  const edge = webhooks.sign(event, secret, { timestamp: 1_000_300 });
  assert.equal(webhooks.verify(edge.body, edge.headers, secret, { now: 1_000_000 }).id, 'evt_01');
  rejectsWith(CODES.timestampInFuture, () => webhooks.verify(edge.body, edge.headers, secret, { now: 999_999 }));
});

test('secret rotation: a header signed with old and new secrets verifies with either; several secrets may be tried', () => {
  const oldSecret = newSecret();
  const newOne = newSecret();
  const { body, headers } = webhooks.sign(event, [newOne, oldSecret]);
  assert.equal(webhooks.verify(body, headers, oldSecret).id, 'evt_01');
  assert.equal(webhooks.verify(body, headers, newOne).id, 'evt_01');
  // Receiver side of a rotation: accepts deliveries signed with either secret.
  const signedOld = webhooks.sign(event, oldSecret);
  const signedNew = webhooks.sign(event, newOne);
  assert.equal(webhooks.verify(signedOld.body, signedOld.headers, [newOne, oldSecret]).id, 'evt_01');
  assert.equal(webhooks.verify(signedNew.body, signedNew.headers, [newOne, oldSecret]).id, 'evt_01');
  rejectsWith(CODES.badSignature, () => webhooks.verify(signedOld.body, signedOld.headers, [newOne, newSecret()]));
});

test('an already parsed body is refused with a message pointing at express.raw', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret);
  for (const parsed of [JSON.parse(body), {}, null, undefined, 42]) {
    assert.throws(
      () => webhooks.verify(parsed as string, headers, secret),
      (error: unknown) =>
        error instanceof WebhookVerificationError &&
        error.code === CODES.bodyParsed &&
        error.message.includes("express.raw({ type: 'application/json' })"),
    );
  }
});

test('missing or malformed headers each have their own code', () => {
  const secret = newSecret();
  const { body, headers } = webhooks.sign(event, secret);
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
    const without: Record<string, string> = { ...headers };
    delete without[name];
    assert.throws(
      () => webhooks.verify(body, without, secret),
      (error: unknown) => error instanceof WebhookVerificationError && error.code === CODES.missingHeaders && error.message.includes(name),
    );
  }
  rejectsWith(CODES.missingHeaders, () => webhooks.verify(body, {}, secret));
  rejectsWith(CODES.invalidHeaders, () => webhooks.verify(body, { ...headers, 'webhook-timestamp': '17e8' }, secret));
  rejectsWith(CODES.invalidHeaders, () => webhooks.verify(body, { ...headers, 'webhook-timestamp': '-5' }, secret));
  // The same header twice: which one was signed? Refuse.
  rejectsWith(CODES.missingHeaders, () => webhooks.verify(body, { ...headers, 'webhook-id': ['msg_a', 'msg_b'] }, secret));
});

test('a signed body that is not a JSON event is refused', () => {
  const secret = newSecret();
  for (const payload of ['not json', '[1,2]', '"text"']) {
    const { body, headers } = webhooks.sign(payload, secret);
    rejectsWith(CODES.invalidPayload, () => webhooks.verify(body, headers, secret));
  }
});

test('deliveries signed by the official library verify; ours verify with it', () => {
  const secret = newSecret();
  const body = JSON.stringify(event);
  const ts = now();
  const theirs = new Webhook(secret).sign('msg_std', new Date(ts * 1000), body);
  const headers = { 'webhook-id': 'msg_std', 'webhook-timestamp': String(ts), 'webhook-signature': theirs };
  assert.deepEqual(webhooks.verify(body, headers, secret), event);
  const ours = webhooks.sign(event, secret);
  assert.deepEqual(new Webhook(secret).verify(ours.body, ours.headers), event);
});

test('garbage in any header or body is refused with a WebhookVerificationError, never another exception', () => {
  const secret = newSecret();
  const signed = webhooks.sign(event, secret);
  const genuine = Object.values(signed.headers).map((v) => fc.constant(v));
  const headerValue = fc.oneof(fc.string(), fc.stringMatching(/^\d{1,12}$/), ...genuine);
  fc.assert(
    fc.property(
      fc.oneof(fc.string(), fc.constant(signed.body), fc.uint8Array().map((a) => Buffer.from(a))),
      fc.record({ 'webhook-id': headerValue, 'webhook-timestamp': headerValue, 'webhook-signature': headerValue }, { requiredKeys: [] }),
      (body, headers) => {
        try {
          webhooks.verify(body, headers, secret);
          // Only the genuine delivery may pass.
          assert.equal(String(body), signed.body);
          assert.equal(headers['webhook-id'], signed.headers['webhook-id']);
          assert.equal(headers['webhook-timestamp'], signed.headers['webhook-timestamp']);
          assert.equal(headers['webhook-signature'], signed.headers['webhook-signature']);
        } catch (error) {
          assert.ok(error instanceof WebhookVerificationError, String(error));
        }
      },
    ),
    { numRuns: 500 },
  );
});
