// Standard Webhooks signatures, cross-checked in both directions against the official `standardwebhooks` library.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import {
  decodeWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  webhookHeaders,
} from '../../src/server/webhooks/signature.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const now = () => Math.floor(Date.now() / 1000);
const body = JSON.stringify({ type: 'payment.confirmed', data: { payment: { id: 'pay_1', amount: '12.50' } } });

test('a signature we make verifies with the official library', () => {
  const secret = newSecret();
  const ts = now();
  const headers = webhookHeaders(secret, 'msg_abc', ts, body);
  const parsed = new Webhook(secret).verify(body, headers);
  assert.deepEqual(parsed, JSON.parse(body));
});

test('a signature the official library makes verifies with ours', () => {
  const secret = newSecret();
  const ts = now();
  const header = new Webhook(secret).sign('msg_xyz', new Date(ts * 1000), body);
  assert.equal(verifyWebhookSignature(secret, 'msg_xyz', ts, body, header), true);
  assert.equal(verifyWebhookSignature(secret, 'msg_xyz', ts, Buffer.from(body), header), true);
});

test('both implementations agree on random ids, bodies (any unicode) and secrets', () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.uint8Array({ minLength: 24, maxLength: 64 }),
      (id, payload, keyBytes) => {
        const secret = `whsec_${Buffer.from(keyBytes).toString('base64')}`;
        const ts = now();
        const theirs = new Webhook(secret).sign(id, new Date(ts * 1000), payload);
        assert.equal(signWebhook(secret, id, ts, payload), theirs);
        assert.equal(verifyWebhookSignature(secret, id, ts, payload, theirs), true);
      },
    ),
    { numRuns: 200 },
  );
});

test('rotation: one signature per secret, each verifiable by the official library alone', () => {
  const oldSecret = newSecret();
  const currentSecret = newSecret();
  const ts = now();
  const headers = webhookHeaders([currentSecret, oldSecret], 'msg_rot', ts, body);
  assert.equal(headers['webhook-signature'].split(' ').length, 2);
  assert.ok(headers['webhook-signature'].split(' ').every((s) => s.startsWith('v1,')));
  assert.deepEqual(new Webhook(oldSecret).verify(body, headers), JSON.parse(body));
  assert.deepEqual(new Webhook(currentSecret).verify(body, headers), JSON.parse(body));
  assert.throws(() => new Webhook(newSecret()).verify(body, headers));
});

test('verification accepts any matching secret and any matching signature in the header', () => {
  const a = newSecret();
  const b = newSecret();
  const ts = now();
  const sigB = signWebhook(b, 'msg_1', ts, body);
  const header = `v1a,${randomBytes(64).toString('base64')} v1,${randomBytes(32).toString('base64')} ${sigB}`;
  assert.equal(verifyWebhookSignature([a, b], 'msg_1', ts, body, header), true);
  assert.equal(verifyWebhookSignature(a, 'msg_1', ts, body, header), false);
});

test('any change to the id, timestamp or body breaks the signature', () => {
  const secret = newSecret();
  const ts = now();
  const header = signWebhook(secret, 'msg_1', ts, body);
  assert.equal(verifyWebhookSignature(secret, 'msg_1', ts, body, header), true);
  assert.equal(verifyWebhookSignature(secret, 'msg_2', ts, body, header), false);
  assert.equal(verifyWebhookSignature(secret, 'msg_1', ts + 1, body, header), false);
  assert.equal(verifyWebhookSignature(secret, 'msg_1', ts, body.replace('12.50', '99.50'), header), false);
  assert.equal(verifyWebhookSignature(secret, 'msg_1', ts, body + ' ', header), false);
  assert.equal(verifyWebhookSignature(newSecret(), 'msg_1', ts, body, header), false);
});

test('signatures in other schemes, truncated or empty are never accepted', () => {
  const secret = newSecret();
  const ts = now();
  const good = signWebhook(secret, 'msg_1', ts, body).slice(3);
  for (const header of ['', ' ', `v2,${good}`, `v1a,${good}`, `v1,${good.slice(0, -1)}`, `v1,${good}A`, `V1,${good}`, good]) {
    assert.equal(verifyWebhookSignature(secret, 'msg_1', ts, body, header), false, header);
  }
});

test('bad secrets are refused with a clear error', () => {
  assert.throws(() => decodeWebhookSecret('whsec_'), /not valid/);
  assert.throws(() => decodeWebhookSecret('whsec_not base64!'), /not valid/);
  assert.throws(() => decodeWebhookSecret(`whsec_${randomBytes(8).toString('base64')}`), /too short/);
  assert.throws(() => signWebhook([], 'msg_1', now(), body), /At least one/);
  // The prefix is optional, as in the official libraries.
  const raw = randomBytes(32);
  assert.deepEqual(decodeWebhookSecret(raw.toString('base64')), raw);
  assert.deepEqual(decodeWebhookSecret(`whsec_${raw.toString('base64')}`), raw);
});

test('ids that could shift the signed content, and non-integer timestamps, are refused when signing', () => {
  const secret = newSecret();
  assert.throws(() => signWebhook(secret, 'msg.1', now(), body), /without "\."/);
  assert.throws(() => signWebhook(secret, '', now(), body), /non-empty/);
  assert.throws(() => signWebhook(secret, 'msg_1', 1.5, body), /whole unix seconds/);
  assert.throws(() => signWebhook(secret, 'msg_1', -1, body), /whole unix seconds/);
});
